"""What a sheet calls things, matched to the names a roster writes (generator.reading.rosters.names folds them):
its ids, names, first cells, aliases and English originals, in its own language and in each of its translations
(a French sheet answers to "Light Armour")."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.composing.handout import row_index, saves_block
from generator.model.types import Sheet
from generator.model.validate import keyword_index
from generator.reading.rosters.names import folded, plain, variants

__all__ = ["Names", "SheetNames", "answers_to", "folded", "plain", "variants"]


@dataclass
class Names:
    """One kind of the sheet's names (its characteristics, weapons, armour or keywords): folded name → id."""

    exact: dict[str, str] = field(default_factory=dict)
    plain: dict[str, str] = field(default_factory=dict)

    def add(self, name: str | None, ident: str) -> None:
        if name:
            self.exact.setdefault(folded(name), ident)
            self.plain.setdefault(plain(name), ident)

    def find(self, name: str) -> str | None:
        tried = variants(name)
        for key in tried:
            if key in self.exact:
                return self.exact[key]
        return next((self.plain[key] for key in tried if key in self.plain), None)


class SheetNames:
    """What the sheet calls things, in its language and in those of its translations."""

    def __init__(self, sheet: Sheet, translations: list[Sheet] = ()):
        self.characteristics, self.weapons, self.armour, self.keywords = Names(), Names(), Names(), Names()
        for each in [sheet, *translations]:
            self._add(each)

    def _add(self, sheet: Sheet) -> None:
        for characteristic in sheet.characteristics:
            for name in [characteristic.id, characteristic.label, characteristic.name, *characteristic.aliases]:
                self.characteristics.add(name, characteristic.id)
        for ref, places in row_index(sheet).items():
            if "/" in ref or len(places) > 1:
                continue  # a row id two tables share is named table/row: never guessed
            table, index = places[0]
            row = table.rows[index]
            for name in [ref, row.cells[0].text, *row.aliases]:
                self.weapons.add(name, ref)
        saves = saves_block(sheet)
        for item in saves.items if saves else []:
            for name in [item.id, item.name, *item.aliases]:
                self.armour.add(name, item.id)
        for key, keyword in keyword_index(sheet).items():
            self.keywords.add(key, keyword.id)
        for keyword in sheet.keywords:
            self.keywords.add(keyword.original, keyword.id)

    def matches_stat_line(self, characteristics: list[str]) -> bool:
        """A profile type carries the sheet's stat line when most of the sheet's characteristics are among its own."""
        wanted = set(self.characteristics.exact.values())
        found = {self.characteristics.find(name) for name in characteristics} - {None}
        return len(found) >= max(2, (len(wanted) + 1) // 2)


def answers_to(sheet: Sheet, game: str) -> bool:
    """The sheet is for the roster's game: its game, or one of the game names it lists, folded."""
    wanted = folded(game)
    return bool(wanted) and wanted in {folded(name) for name in [sheet.game, *sheet.game_names]}
