"""A roster's characteristic as its stat line's heading prints it: as the game's data names it, or by the game's own
abbreviation of that name where the game has one. Never a name cut short: "Tou" and "Wou" are no game's words.

Games Workshop's lettered profiles (Warhammer Fantasy, The Old World, 40,000 and Kill Team, Horus Heresy,
Necromunda, Shadow War) abbreviate the same names the same way (WS, BS, T, Ld, Sv, OC); the Middle-earth game has
letters of its own (Mv F S D A W C); Age of Sigmar and Warcry print Move, Health, Toughness, Wounds in full on their
warscrolls and fighter cards, so their names print as written."""

from __future__ import annotations

import re

from generator.reading.rosters.names import folded

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
# a game (its system's name, as BSData writes it) → its own abbreviations of the names its data writes in full
GAME_ABBREVIATIONS: list[tuple[re.Pattern, dict[str, str]]] = [
    (re.compile(r"middle[- ]?earth|hobbit|lord of the rings", re.IGNORECASE), _MIDDLE_EARTH),
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
