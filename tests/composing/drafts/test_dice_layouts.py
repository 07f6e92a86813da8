"""Dice tables as authors lay them out to save room: in halves side by side, across the page, under an empty
header row, or numbered 1 to a die's size (the layouts of Cairn's and other OSR games' Markdown and HTML)."""

from __future__ import annotations

from generator.reading.documents.document import Heading, Table
from tests.composing.drafts.test_blocks import typed

TRAITS = ["Athletic", "Brawny", "Flabby", "Lanky", "Rugged", "Scrawny", "Short", "Statuesque", "Stout", "Towering"]


def _rolls(block: dict) -> list[str]:
    return [row["roll"] for row in block["rows"]]


def test_a_dice_table_in_two_halves_under_an_empty_header_is_one_table_of_the_whole_die():
    empty = ["", "", "", ""]
    halves = [[f"**{n}**", TRAITS[n - 1], f"**{n + 5}**", TRAITS[n + 4]] for n in range(1, 6)]
    blocks, report = typed(Heading(4, "Physique"), Table([empty, *halves], True))
    assert blocks[0]["type"] == "dice" and blocks[0]["die"] == "D10"
    assert _rolls(blocks[0]) == [str(n) for n in range(1, 11)]
    assert [row["text"] for row in blocks[0]["rows"]] == TRAITS
    assert not report.problems


def test_halves_parted_by_an_empty_column_under_a_header_naming_the_die_keep_that_header():
    rows = [["d6", "Weather", "", "", ""]] + [[str(n), f"W{n}", "", str(n + 3), f"W{n + 3}"] for n in (1, 2, 3)]
    blocks, _ = typed(Table(rows, None))
    assert blocks[0]["die"] == "D6" and blocks[0]["text_title"] == "Weather"
    assert [row["text"] for row in blocks[0]["rows"]] == [f"W{n}" for n in range(1, 7)]


def test_tables_side_by_side_whose_rolls_start_again_stay_two_tables():
    rows = [[str(n), f"A{n}", str(n), f"B{n}"] for n in range(1, 7)]
    blocks, _ = typed(Table([["D6", "Result", "D6", "Result"], *rows], True))
    assert [(block["type"], block.get("die")) for block in blocks] == [("dice", "D6"), ("dice", "D6")]


def test_a_matrix_of_numbers_is_not_read_as_halves():
    rows = [
        ["", "1", "2", "3", "4"],
        *[[str(r), *[str(max(2, 4 + r - c)) + "+" for c in range(1, 5)]] for r in range(1, 5)],
    ]
    blocks, _ = typed(Table(rows, True))
    assert blocks[0]["type"] == "matrix"


def test_a_dice_table_set_across_the_page_is_read_down():
    blocks, _ = typed(
        Heading(4, "Armor"), Table([["1-3", "4-14", "15-19", "20"], ["None", "Gambeson", "Mail", "Plate"]], True)
    )
    assert blocks[0]["type"] == "dice" and blocks[0]["die"] == "D20"
    assert [(row["roll"], row["text"]) for row in blocks[0]["rows"]][-1] == ("20", "Plate")


def test_rows_numbered_to_a_die_of_a_few_words_each_are_its_results_and_steps_stay_a_sequence():
    names = [[str(n), name] for n, name in enumerate(TRAITS, start=1)]
    assert typed(Table(names, None))[0][0]["die"] == "D10"
    steps = [[str(n), f"The player whose turn it is moves each of the models of step {n}."] for n in range(1, 7)]
    assert typed(Table(steps, None))[0][0]["type"] == "sequence"
    titled = typed(Heading(4, "Spellbooks (d6)"), Table(steps, None))[0][0]
    assert titled["type"] == "dice" and titled["die"] == "D6"
