"""Dice tables of several result columns typed as such (issue #44): a critical table keyed by a D100 roll with a
result a column (A to E) comes in as one dice table with `text_titles`, its coverage checked; a row keyed by no roll
("UM 66", an unmodified roll) follows it in a table of its own. On Bare Metal Edition's critical tables (a web page
printed to PDF, other people's work), imported, checked and built as `qrs import` does."""

from __future__ import annotations

import yaml

from generator.reading.documents.document import Heading, Table
from tests.composing.drafts.test_blocks import typed
from tests.composing.drafts.test_documents import folder, imported  # noqa: F401 (a fixture)

HEADER = ["Roll", "A", "B", "C", "D", "E"]


def _row(roll: str) -> list[str]:
    return [roll, *[f"{column} on {roll}" for column in "ABCDE"]]


def test_a_table_keyed_by_rolls_with_a_result_a_column_is_one_dice_table_of_text_titles():
    rows = [_row(roll) for roll in ("1", "2-3", "4-5", "6")]
    blocks, report = typed(Heading(3, "Criticals"), Table([HEADER, *rows], True))
    (block,) = blocks
    assert block["type"] == "dice" and block["die"] == "D6" and block["text_titles"] == ["A", "B", "C", "D", "E"]
    assert block["roll_title"] == "Roll" and "text_title" not in block
    assert block["rows"][1] == {"roll": "2-3", "text": ["A on 2-3", "B on 2-3", "C on 2-3", "D on 2-3", "E on 2-3"]}
    assert not report.problems


def test_a_row_keyed_by_no_roll_follows_the_dice_table_under_its_header():
    rolls = [str(n) for n in range(1, 11)]
    rows = [_row(roll) for roll in rolls[:5]] + [_row("UM 5")] + [_row(roll) for roll in rolls[5:]]
    blocks, _ = typed(Table([HEADER, *rows], None))  # no header said: the first row is told apart from the rolls
    assert [block["type"] for block in blocks] == ["dice", "table"] and blocks[0]["die"] == "D10"
    assert [row["roll"] for row in blocks[0]["rows"]] == rolls
    assert [column["title"] for column in blocks[1]["columns"]] == HEADER and blocks[1]["rows"] == [_row("UM 5")]


def test_rolls_that_fit_no_die_or_more_than_a_row_in_ten_keyed_otherwise_stay_a_table():
    gap = [_row(roll) for roll in ("1", "2", "4")]
    assert [block["type"] for block in typed(Table([HEADER, *gap], True))[0]] == ["table"]
    mixed = [_row(roll) for roll in ("1-3", "4-6")] + [_row("Fumble"), _row("Crit")]
    assert [block["type"] for block in typed(Table([HEADER, *mixed], True))[0]] == ["table"]


def test_bare_metal_edition_s_critical_tables_are_dice_tables_that_check_and_build(folder):  # noqa: F811
    draft = yaml.safe_load(imported(folder, "bme-critical-tables.pdf", "criticals").split("\nbme-critical")[0])
    blocks = [block for section in draft["sections"] for block in section["blocks"]]
    assert [(block["type"], block.get("die") or block.get("range")) for block in blocks] == [
        ("dice", "D100"),
        ("table", None),
        ("dice", "D100"),
        ("table", None),
        ("dice", "1-75"),  # its last rows are past the pages kept: a lookup, offered with a "?"
        ("table", None),
    ]
    slash = blocks[0]
    assert slash["text_titles"] == ["A", "B", "C", "D", "E"] and len(slash["rows"]) == 20
    assert slash["rows"][5]["roll"] == "31-35" and slash["rows"][5]["text"][3] == (
        "Slash cuts foes side +3 hits, stunned for 1 rnd, bleeding 1/rnd, -5 to actions"
    )
    assert slash["rows"][-1]["roll"] == "100"  # the 00 of percentile dice
    assert [row[0] for block in blocks[1::2] for row in block["rows"]] == ["UM 66"] * 3
