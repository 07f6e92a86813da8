"""Names as a roster writes them, matched to what a sheet calls things.

A name matches when it is the same once folded (case, accents, spacing and punctuation do not count), or once
made plain: an erratum's suffix ("Skirmishers (FAQ'ed)"), a numbering prefix ("5 - Counter-attack") and plurals
("Shields", "Great Weapons") set aside. The sheet's names are its ids, names, first cells, aliases and English
originals, in its own language and in each of its translations (a French sheet answers to "Light Armour")."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from generator.schema.handout import row_index, saves_block
from generator.schema.model import Sheet
from generator.schema.validate import keyword_index


def folded(name: str) -> str:
    """A name as matched: case, accents, spacing and punctuation do not count (Hand Weapon = hand-weapon)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return re.sub(r"[^a-z0-9+]+", " ", plain).strip()


_ERRATUM = re.compile(r"\s*[(\[]\s*(faq|errat|updated|amended|legacy|beta)[^)\]]*[)\]]\s*", re.IGNORECASE)
_NUMBERED = re.compile(r"^\s*(\d{1,3}|[a-z])\s*[-.):\u2013]\s+", re.IGNORECASE)
_PARENTHESIS = re.compile(r"\s*[(\[][^)\]]*[)\]]\s*")


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and re.search(r"(ch|sh|x|ss)es$", word):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def plain(name: str) -> str:
    """The name with its erratum suffix, numbering prefix and plurals set aside, folded."""
    name = _NUMBERED.sub("", _ERRATUM.sub(" ", name))
    return " ".join(_singular(word) for word in folded(name).split())


def variants(name: str) -> list[str]:
    """What a name is tried as, closest first: folded, made plain, then without what it holds in brackets."""
    found = [folded(name), plain(name), plain(_PARENTHESIS.sub(" ", name))]
    return list(dict.fromkeys(item for item in found if item))


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
