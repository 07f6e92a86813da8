"""A roster's headings in the handout's language: the columns of its profiles' tables (Weapon, Range, Strength,
Special Rules) and the labels of the values it prints with a unit's rules (Type: Infantry).

A heading the sheet names (a characteristic, by id, label, name or alias: Strength is the French sheet's F) prints
as the sheet's label; one of the templates' words (Weapon, Range, Special rules) as that word in the handout's
language; any other as the roster writes it. The roster's values (its weapons' names, its rules) are not headings:
they print as written."""

from __future__ import annotations

import re

from generator.model.types import Sheet
from generator.reading.rosters.names import folded

# The templates' words (generator.composing.words) a roster's heading may be, and how rosters spell them.
ROSTER_HEADINGS = {
    "weapon": ("Weapon", "Weapons"),
    "armour": ("Armour", "Armor"),
    "range": ("Range", "Rng"),
    "save_modifier": ("Save modifier", "Saving Throw modifier", "Armour Save modifier"),
    "troop_type": ("Type", "Troop Type", "Unit Type"),
    "special_rules": ("Special rules", "Special Rule"),
}
_SPELLINGS = {folded(spelling): word for word, spellings in ROSTER_HEADINGS.items() for spelling in spellings}
# "Type: Infantry" at the start of a rules line or after a comma or semicolon: a label and its value
_LABEL = re.compile(r"(?:(?<=^)|(?<=, )|(?<=; ))([^,;:{}]{1,40}): ")


def heading(name: str, sheet: Sheet | None, words: dict[str, str]) -> str:
    """A roster's heading in the handout's language: the sheet's label, else the templates' word, else as written."""
    key = folded(name)
    for characteristic in sheet.characteristics if sheet else []:
        if key in {
            folded(spelling)
            for spelling in [
                characteristic.id,
                characteristic.label,
                characteristic.name or "",
                *characteristic.aliases,
            ]
        }:
            return characteristic.label
    return words[_SPELLINGS[key]] if key in _SPELLINGS and _SPELLINGS[key] in words else name


def labelled(rules: str | None, sheet: Sheet | None, words: dict[str, str]) -> str | None:
    """A unit's rules with the labels of its values in the handout's language (Type de troupe : Infantry)."""
    if not rules:
        return rules

    def translated(label: re.Match) -> str:
        return f"{heading(label.group(1), sheet, words)}: "

    return _LABEL.sub(translated, rules)
