"""A roster's profile tables made to fit a column (generator.composing.roster.fitting): what is kept as columns,
what is gathered in the last one, from the widths CSS's automatic table layout would give."""

from __future__ import annotations

import pytest

from generator.composing import table_widths
from generator.composing.roster import fitting
from generator.composing.roster.making import PAPER
from generator.model import geometry

COLUMN = geometry.frame(**PAPER, pages=None).column_width


def table(names: list[str], rows: list[tuple[str, list[str]]], title: str = "Weapons") -> tuple[list, list]:
    kind = {"id": "weapons", "name": title, "characteristics": list(names)}
    units = [{"profiles": [{"type": "weapons", "name": name, "values": list(values)} for name, values in rows]}]
    return [kind], units


def test_the_column_is_the_handouts_own_page_geometry():
    assert PAPER == {"size": "A4", "orientation": "landscape", "columns": 3}
    assert COLUMN == pytest.approx(90.23, abs=0.01)


def test_a_40k_weapon_table_whose_words_fit_the_column_keeps_every_column_its_abilities_wrapping():
    abilities = "This weapon automatically hits its target. " * 3
    types, units = table(
        ["Range", "Type", "S", "AP", "D", "Abilities"],
        [
            ("Flamer", ['8"', "Assault D6", "4", "0", "1", abilities]),
            ("Boltgun", ['24"', "Rapid Fire 1", "4", "0", "1", "-"]),
        ],
    )
    fitting.fit(types, units, COLUMN)
    assert types[0]["characteristics"] == ["Range", "Type", "S", "AP", "D", "Abilities"]
    assert units[0]["profiles"][0]["values"][-1] == abilities


def test_nine_characteristics_keep_the_leading_ones_and_gather_the_rest_named_in_a_column_wide_enough():
    names = ["Short Range", "Long Range", "Short To Hit", "Long To Hit", "Str.", "Dam.", "Save Mod.", "Ammo Roll"]
    names.append("Special")
    row = ['0-4"', '4-18"', "+1", "-1", "4", "1", "-1", "5+", "-"]
    types, units = table(names, [("Shotgun (Solid slug)", row)])
    fitting.fit(types, units, COLUMN)
    kept = len(types[0]["characteristics"]) - 1
    assert types[0]["characteristics"][:kept] == names[:kept] and 0 < kept < len(names) - 1
    assert types[0]["characteristics"][-1] == " / ".join(names[kept:])
    named = [f"{name}: {value}" for name, value in zip(names[kept:], row[kept:]) if value != "-"]
    assert units[0]["profiles"][0]["values"] == row[:kept] + ["; ".join(named)]


def test_a_gathering_column_the_kept_columns_would_squeeze_keeps_fewer_of_them():
    """A weapon's long name, on one line, wants most of the room automatic layout shares: the gathering column, its
    least width one short word, would be left under GATHERED_MM beside six kept columns; five are kept instead."""
    long_name = "Heavy flamer with a very long descriptive name " * 2
    names = ["Rng", "Type", "S", "AP", "D", "Shots", "Ammo", "Save", "Weight", "Special"]
    row = ['12"', "Assault", "5", "-1", "1", "D6", "4+", "5+", "Heavy", "Ignores cover"]
    types, units = table(names, [(long_name, row)])
    least = [table_widths.least_width("Weapons", [long_name])] + [
        table_widths.least_width(name, [value]) for name, value in zip(names, row)
    ]
    by_least_alone = max(kept for kept in range(len(names)) if sum(least[: kept + 1]) + fitting.GATHERED_MM <= COLUMN)
    fitting.fit(types, units, COLUMN)
    assert by_least_alone == 6 and types[0]["characteristics"] == names[:5] + [" / ".join(names[5:])]


PAGE = geometry.frame(**PAPER, pages=None).content_width


def test_nine_characteristics_the_page_holds_stay_columns_and_the_table_spans_the_page():
    """Shadow War's weapons: too wide for a column, not for the page: every characteristic stays a column (the table
    is then set across the page in a band, generator.rendering.bands); only a table wider than the page gathers."""
    names = ["Short Range", "Long Range", "Short To Hit", "Long To Hit", "Str.", "Dam.", "Save Mod.", "Ammo Roll"]
    names.append("Special")
    row = ['0-4"', '4-18"', "+1", "-1", "4", "1", "-1", "5+", "-"]
    types, units = table(names, [("Shotgun (Solid slug)", row)])
    fitting.fit(types, units, COLUMN, PAGE)
    assert types[0]["characteristics"] == names and units[0]["profiles"][0]["values"] == row
    wider = [f"Characteristic number {number}" for number in range(12)]
    types, units = table(wider, [("Shotgun", ["+1"] * 12)])
    fitting.fit(types, units, COLUMN, PAGE)
    assert len(types[0]["characteristics"]) < len(wider)
