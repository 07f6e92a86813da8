"""Sub-heading rows (issue #42 item 4): `- subheading: Terrain` among a table's rows or a modifiers block's items."""

from __future__ import annotations

import pytest

from generator.composing import catalogue_update, diff
from generator.composing import translate as i18n
from generator.model.types import Subheading
from generator.output import pipeline
from tests.conftest import check_problems, source_head, written_source

SHEET = (
    source_head("to-hit", "Tir")
    + """\
sections:
  - id: shooting
    title: Tir
    blocks:
      - id: to-hit
        type: table
        columns: [{title: Situation}, {title: Mod., align: center}]
        rows:
          - subheading: Vitesses
          - [Cible immobile, "+1"]
          - [Cible rapide, "-1"]
          - subheading: Terrain
          - [Bois, "-1"]
      - id: cover
        type: modifiers
        items:
          - subheading: Couvert
          - {value: "-1", text: Couvert léger}
          - {value: "-2", text: Couvert lourd, concerns: [Infanterie]}
"""
)


def write(tmp_path, text: str = SHEET):
    return written_source(tmp_path, "to-hit", text)


def problems(tmp_path, text: str) -> list[tuple[int, int, str]]:
    return check_problems(write(tmp_path, text))


def test_a_table_and_a_modifiers_block_take_sub_headings_that_the_other_checks_skip(tmp_path):
    sheet = pipeline.check(write(tmp_path))  # one-cell rows in a two-column table, values that are no numbers
    table, modifiers = sheet.blocks()
    assert table.subheadings() == [0, 3] and modifiers.subheadings() == [0]
    assert table.subheading_over(2).subheading == "Vitesses" and table.subheading_over(4).subheading == "Terrain"
    assert table.subheading_over(3) is None  # a sub-heading is over no row but those after it
    assert [item.text for item in modifiers.modifiers] == ["Couvert léger", "Couvert lourd"]


def test_the_other_checks_still_hold_for_the_rows_around_a_sub_heading(tmp_path):
    text = SHEET.replace('[Bois, "-1"]', "[Bois]").replace('value: "-1"', "value: moins un")
    found = problems(tmp_path, text)
    assert [(line, message.split(";")[0].split(":")[0]) for line, _, message in found] == [
        (19, "this row fills 1 column"),
        (24, "'moins un' is not a modifier"),
    ]


@pytest.mark.parametrize(
    "row, column, other",
    [
        ("- {subheading: Terrain, cells: [Bois, '-1']}", 42, "cells"),  # where the value of the key too many is
        ("- {subheading: Terrain, id: terrain}", 39, "id"),
    ],
)
def test_a_sub_heading_with_anything_else_is_refused_where_it_is(tmp_path, row, column, other):
    text = SHEET.replace("- subheading: Terrain", row)
    assert problems(tmp_path, text) == [
        (18, column, f"a sub-heading row holds only its 'subheading': '{other}' belongs in a row of its own")
    ]


def test_a_sub_heading_among_modifiers_with_a_value_is_refused_where_it_is(tmp_path):
    text = SHEET.replace("- subheading: Couvert", '- {subheading: Couvert, value: "+1"}')
    assert problems(tmp_path, text) == [
        (23, 42, "a sub-heading row holds only its 'subheading': 'value' belongs in a row of its own")
    ]


def test_a_sub_heading_is_offered_for_translation_and_translated(tmp_path):
    from babel.messages.pofile import read_po, write_po

    located, sheet = pipeline.load(write(tmp_path))
    contexts = {entry.source: entry.context for entry in i18n.entries(located, sheet, "en")}
    assert contexts["Terrain"] == "sections/shooting/blocks/to-hit/rows/Terrain/subheading"
    assert contexts["Couvert"] == "sections/shooting/blocks/cover/items/Couvert/subheading"
    catalogue = i18n.catalogue_path(tmp_path, "to-hit", "en")
    catalogue_update.update(located, sheet, "en", catalogue)
    with catalogue.open("rb") as file:
        messages = read_po(file)
    for message in messages:
        if message.id:
            message.string = f"[{message.id}]"
    with catalogue.open("wb") as file:
        write_po(file, messages)
    translated, untranslated = i18n.translate(located, sheet, "en", catalogue, allow_fallback=False)
    table, modifiers = translated.blocks()
    assert untranslated == 0
    assert [table.rows[position].subheading for position in table.subheadings()] == ["[Vitesses]", "[Terrain]"]
    assert isinstance(modifiers.items[0], Subheading) and modifiers.items[0].subheading == "[Couvert]"


def test_qrs_diff_tells_a_sub_heading_renamed_added_and_removed(tmp_path):
    old = pipeline.check(write(tmp_path))
    new = pipeline.check(
        write(
            tmp_path,
            SHEET.replace("subheading: Terrain", "subheading: Terrains").replace(
                "          - subheading: Couvert\n", ""
            ),
        )
    )
    changes = [str(change) for change in diff.compare(old, new)]
    assert any(line.startswith("added") and line.endswith("sub-heading: Terrains") for line in changes), changes
    assert any(line.startswith("removed") and line.endswith("sub-heading: Terrain") for line in changes), changes
    assert any(line.startswith("removed") and line.endswith("sub-heading: Couvert") for line in changes), changes


def test_a_handouts_cut_keeps_the_sub_headings_over_the_rows_it_keeps(tmp_path):
    table, modifiers = pipeline.check(write(tmp_path)).blocks()
    assert table.lines_kept({4}) == [table.rows[3], table.rows[4]]  # Terrain, Bois: not Vitesses, heading nothing
    assert modifiers.lines_kept({2}) == modifiers.items[0:1] + modifiers.items[2:3]
