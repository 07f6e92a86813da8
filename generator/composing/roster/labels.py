"""A roster's characteristic as its stat line's heading prints it: as the game's data names it, or by the game's own
abbreviation of that name where the game has one. Never a name cut short: "Tou" and "Wou" are no game's words.

Games Workshop's lettered profiles (Warhammer Fantasy, The Old World, 40,000 and Kill Team, Horus Heresy,
Necromunda, Shadow War) abbreviate the same names the same way (WS, BS, T, Ld, Sv, OC); the Middle-earth game has
letters of its own (Mv F S D A W C) and prints a hero's Might, Will and Fate as one "M/W/F" (2/1/1); Age of Sigmar
and Warcry print Move, Health, Toughness, Wounds in full on their warscrolls and fighter cards, so their names print
as written. Two columns of one table never share a heading:
where two names would (a game's letters for names it has no letters for), each prints as written."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.reading.rosters.names import MIDDLE_EARTH, folded

_LETTERED = {
    "movement": "M",
    "move": "M",
    "weapon skill": "WS",
    "ballistic skill": "BS",
    "strength": "S",
    "toughness": "T",
    "wounds": "W",
    "initiative": "I",
    "attacks": "A",
    "leadership": "Ld",
    "save": "Sv",
    "armour save": "Sv",
    "armor save": "Sv",
    "objective control": "OC",
    "action point limit": "APL",
    "group activation": "GA",
    "defence": "DF",
    "defense": "DF",
    "cool": "Cl",
    "willpower": "Wil",
    "intelligence": "Int",
}
_MIDDLE_EARTH = {
    "movement": "Mv",
    "move": "Mv",
    "fight": "F",
    "strength": "S",
    "defence": "D",
    "defense": "D",
    "attack": "A",
    "attacks": "A",
    "wounds": "W",
    "courage": "C",
    "intelligence": "I",
    "might": "M",
    "will": "W",
    "fate": "F",
}
# a game → the characteristics it prints as one column, their values joined by "/" (a hero's Might/Will/Fate 2/1/1)
GAME_GROUPS: list[tuple[re.Pattern, list[tuple[str, tuple[str, ...]]]]] = [
    (MIDDLE_EARTH, [("M/W/F", ("might", "will", "fate"))]),
]
# a game (its system's name, as BSData writes it) → its own abbreviations of the names its data writes in full
GAME_ABBREVIATIONS: list[tuple[re.Pattern, dict[str, str]]] = [
    (MIDDLE_EARTH, _MIDDLE_EARTH),
    (
        re.compile(
            r"40,?000|40k|kill ?team|horus heresy|30k|warhammer fantasy|old world|necromunda|shadow war|"
            r"apocalypse|^warhammer$",
            re.IGNORECASE,
        ),
        _LETTERED,
    ),
]


def abbreviations(game: str) -> dict[str, str]:
    """The game's own abbreviations of its characteristics' names (folded name → abbreviation); none when its
    cards print them in full (Age of Sigmar, Warcry) or the game is unknown."""
    return next((known for pattern, known in GAME_ABBREVIATIONS if pattern.search(game or "")), {})


def label(name: str, game: str) -> str:
    """A stat line's heading: the game's own abbreviation of the name where it has one, else the name as written."""
    return abbreviations(game).get(folded(name), name)


@dataclass(frozen=True)
class Column:
    """A column of a roster's stat line: its heading, its name, and the characteristics whose values it prints (one,
    or a game's group of them)."""

    label: str
    name: str
    members: tuple[str, ...]

    def value(self, values: dict[str, str]) -> str:
        """The column's value in a profile's values: its one characteristic's, or its group's joined by "/" ("-" for
        one the profile lacks); "" when the profile has none of them (a warrior's Might/Will/Fate)."""
        found = [values.get(name) or "" for name in self.members]
        if len(found) == 1:
            return found[0]
        return "/".join(value or "-" for value in found) if any(found) else ""


def columns(names: list[str], game: str) -> list[Column]:
    """The stat line's columns for characteristics of these names: a game's group as one column where all its
    members are there (at the first one's place), the others each a column headed as `label` heads it; where two
    headings would be the same (Wounds and Will both "W"), those columns print their names as written."""
    by_folded = {folded(name): name for name in names}
    grouped: dict[str, Column] = {}
    for heading, members in next((groups for pattern, groups in GAME_GROUPS if pattern.search(game or "")), []):
        if all(member in by_folded for member in members):
            written = tuple(by_folded[member] for member in members)
            grouped.update({name: Column(heading, "/".join(written), written) for name in written})
    found = list(dict.fromkeys(grouped.get(name) or Column(label(name, game), name, (name,)) for name in names))
    headings = [column.label for column in found]
    return [
        column if headings.count(column.label) == 1 else Column(column.name, column.name, column.members)
        for column in found
    ]
