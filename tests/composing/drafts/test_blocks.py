"""The typing: each kind of table, list and line becomes the block a person would choose, or stays a table/text."""

from __future__ import annotations

from pathlib import Path

from generator.composing.drafts import draft
from generator.composing.drafts.report import Report
from generator.model import validate
from generator.reading.documents.document import Document, Heading, ListBlock, ListItem, Paragraph, Table
from generator.reading.sources import load_text


def typed(*nodes):
    report = Report("original", "sources/t.yaml")
    text = draft.make(
        Document([Heading(1, "Sheet"), Heading(2, "Part"), *nodes], "test"),
        Path("sources/t.yaml"),
        "t",
        "Game",
        "en",
        report,
    )
    blocks = [block for section in _sections(text) for block in section["blocks"]]
    return blocks, report


def _sections(text):
    return load_text(Path("sources/t.yaml"), text).data["sections"]


def test_a_table_keyed_by_rolls_is_a_dice_table_with_the_die_its_header_names():
    blocks, report = typed(Table([["Résultat (2D6)", "Effet"], ["2-6", "*Raté* – rien"], ["7-12", "Touché"]], None))
    assert blocks[0]["type"] == "dice" and blocks[0]["die"] == "2D6"
    assert blocks[0]["rows"][0] == {"roll": "2-6", "name": "Raté", "text": "rien"}
    assert not report.problems


def test_french_dice_headers_and_rolls_are_read_as_english_ones_are():
    needed = Table(
        [["Résultat à obtenir", "Effet"], ["1 à 3", "Raté"], ["de 4 à 5", "Touché"], ["6", "Critique"]], True
    )
    reaction = Table([["1d6", "Réaction"], ["2 ou moins", "Hostile"], ["3-5", "Neutre"], ["6 ou +", "Amical"]], True)
    blocks, report = typed(needed, reaction)
    assert blocks[0]["type"] == "dice" and blocks[0]["die"] == "D6"  # inferred: "Résultat à obtenir" names no die
    assert blocks[0]["roll_title"] == "Résultat à obtenir"
    assert [row["roll"] for row in blocks[0]["rows"]] == ["1-3", "4-5", "6"]
    # "2 ou moins" of the 1d6 its header names is 1-2, from the die's lowest result
    assert blocks[1]["die"] == "D6" and [row["roll"] for row in blocks[1]["rows"]] == ["1-2", "3-5", "6+"]
    assert not report.problems


def test_a_french_roll_of_its_number_or_less_is_read_from_its_die_s_lowest_result_the_report_saying_what_is_lost():
    blocks, report = typed(
        Table([["2D6", "Résultat"], ["2 ou -", "Hostile"], ["3-11", "Neutre"], ["12 ou +", "Amical"]], True)
    )
    assert [row["roll"] for row in blocks[0]["rows"]] == ["2", "3-11", "12+"]
    assert not report.guesses[0].confident and "'2 ou -' read as 2" in report.guesses[0].why
    blocks, report = typed(Table([["Force", "Sauvegarde"], ["3 ou moins", "Aucun"], ["4", "-1"], ["5", "-2"]], True))
    assert blocks[0]["type"] == "table"  # of no die, "3 ou moins" has no lowest result to be read from: as written
    assert blocks[0]["rows"][0] == ["3 ou moins", "Aucun"]
    assert any("'or less' of no die" in note.why for note in report.untyped)


def test_a_row_headed_resultat_a_obtenir_under_numbered_columns_is_a_matrix_of_one_row():
    blocks, _ = typed(
        Table(
            [["Capacité de Tir", *map(str, range(1, 11))], ["Résultat à obtenir", *"6 5 4 3 2 1 0 -1 -2 -3".split()]],
            True,
        )
    )
    assert blocks[0]["type"] == "matrix" and blocks[0]["row_keys"] == ["Résultat à obtenir"]
    assert blocks[0]["column_title"] == "Capacité de Tir" and blocks[0]["rule"] == "bs-to-hit"


def test_the_die_is_inferred_from_the_rolls_when_no_header_names_it():
    blocks, _ = typed(Table([["1-3", "Miss"], ["4-6", "Hit"]], None))
    assert blocks[0]["die"] == "D6"


def test_rolls_that_leave_a_gap_in_the_named_die_are_not_a_dice_table_and_the_report_says_why():
    blocks, report = typed(Table([["D6", "Result"], ["1-2", "a"], ["4-6", "b"]], True))
    assert blocks[0]["type"] == "table"
    assert any("3" in note.why and "D6" in note.why for note in report.untyped)


def test_d66_rolls_with_tildes():
    blocks, _ = typed(Table([["D66", "Injury"], ["11~35", "Fine"], ["36-66", "Hurt"]], True))
    assert blocks[0]["die"] == "D66" and blocks[0]["rows"][0]["roll"] == "11~35"  # as rulebooks write it


def test_signed_values_in_the_first_or_last_column_are_modifiers_with_their_unit():
    blocks, _ = typed(
        Table([["Shooting at cavalry", "+1"], ["Cover", "-1"]], None),
        Table([["-1u", "Turning"], ["-2u", "Rough ground"]], None),
    )
    assert [block["type"] for block in blocks] == ["modifiers", "modifiers"]
    assert blocks[0]["items"][0] == {"value": "+1", "text": "Shooting at cavalry"}
    assert blocks[1]["unit"] == "u"


def test_a_numeric_grid_is_a_matrix_and_its_rule_is_named_only_when_every_cell_agrees():
    keys = [str(n) for n in range(1, 5)]
    good = [["S \\ T", *keys]] + [[k] + [str(min(6, max(2, 4 + int(t) - int(k)))) for t in keys] for k in keys]
    bad = [row[:] for row in good]
    bad[2][3] = "2"
    blocks, report = typed(Table(good, True), Table(bad, True))
    assert blocks[0]["type"] == blocks[1]["type"] == "matrix"
    assert blocks[0]["rule"] == "to-wound"
    assert "rule" not in blocks[1]
    assert "no rule agrees" in report.guesses[1].why


def test_a_header_naming_each_column_over_a_first_row_of_numbers_keeps_its_heads():
    rows = [["Dés de vie", "Mort", "Baguettes", "Paralysie"], ["Humain normal", "14", "15", "16"]]
    blocks, _ = typed(Table([*rows, ["1-3", "12", "13", "14"], ["4-6", "10", "11", "12"]], True))
    assert blocks[0]["type"] == "table"  # not a matrix whose column keys are 14, 15, 16
    assert [column["title"] for column in blocks[0]["columns"]] == rows[0]


def test_numbered_lists_are_sequences_and_bold_openers_are_step_titles():
    blocks, _ = typed(ListBlock([ListItem("**Charge** then move"), ListItem("Shoot")], True))
    assert blocks[0]["type"] == "sequence"
    assert blocks[0]["steps"] == [{"title": "Charge", "text": "then move"}, {"title": "Shoot"}]


def test_a_bullet_wrapped_over_lines_in_its_source_is_one_line_of_text_as_a_step_is():
    """OSE's French chapters wrap each list item at 72 characters: kept, its line breaks printed mid-column."""
    wrapped = ListItem("**Combattre :** Si un camp attaque, lance un sort\nou se déplace de manière tactique.")
    blocks, _ = typed(ListBlock([wrapped, ListItem("Fuir\nau galop", [ListItem("vite\net loin")])]))
    assert blocks[0]["content"][0]["bullets"] == [
        "**Combattre :** Si un camp attaque, lance un sort ou se déplace de manière tactique.",
        "Fuir au galop",
        "– vite et loin",
    ]
    steps, _ = typed(ListBlock([wrapped], True))
    assert steps[0]["steps"][0]["text"] == "Si un camp attaque, lance un sort ou se déplace de manière tactique."
    assert steps[0]["steps"][0]["title"] == "Combattre"  # its colon left out: the step prints "Combattre – Si…"


def test_term_definition_lines_are_terms_and_plain_lines_paragraphs():
    blocks, _ = typed(Paragraph("Normal: moves its M\nRun: moves twice its M"), Paragraph("Just a sentence."))
    assert blocks[0]["content"][0]["terms"][1] == {"term": "Run", "text": "moves twice its M"}
    assert blocks[0]["content"][1] == {"p": "Just a sentence."}


def test_a_game_named_after_the_title_is_no_title_of_its_own():
    """Without --game, the game is named after the title: the sheet's header printed "Rencontres  Rencontres"."""
    document = Document([Heading(1, "Rencontres"), Paragraph("Une rencontre a lieu lorsque le groupe…")], "test")
    text = draft.make(document, Path("sources/t.yaml"), "t", None, "fr", Report("original", "sources/t.yaml"))
    head = load_text(Path("sources/t.yaml"), text).data
    assert head["game"] == "Rencontres" and "title" not in head
    named = draft.make(document, Path("sources/t.yaml"), "t", "OSE", "fr", Report("original", "sources/t.yaml"))
    assert load_text(Path("sources/t.yaml"), named).data["title"] == "Rencontres"


def test_ids_come_from_titles_and_are_unique():
    blocks, _ = typed(
        Heading(4, "Tir à l'arc"),
        Table([["a", "b"], ["c", "d"]], None),
        Heading(4, "Tir à l'arc"),
        Table([["e", "f"], ["g", "h"]], None),
    )
    assert [block["id"] for block in blocks] == ["tir-a-l-arc", "tir-a-l-arc-2"]


def test_nothing_invented_edition_and_date_are_read_from_the_document_or_left_out_on_a_commented_line():
    report = Report("o", "sources/t.yaml")
    text = draft.make(
        Document([Heading(1, "Sheet"), Paragraph("Version v2.1 of 19/05/2010")], "test"),
        Path("sources/t.yaml"),
        "t",
        None,
        None,
        report,
    )
    assert 'edition: "2.1"' in text and 'date: "2010-05-19"' in text
    report = Report("o", "sources/t.yaml")
    text = draft.make(
        Document([Heading(1, "Sheet"), Paragraph("Nothing stated.")], "test"),
        Path("sources/t.yaml"),
        "t",
        None,
        None,
        report,
    )
    assert '\n# edition: "1.0"  # TO FILL' in text and '\n# date: "YYYY-MM-DD"  # TO FILL' in text
    assert {note.origin for note in report.placeholders} >= {"edition", "date", "game", "lang"}
    sheet = validate.validate(load_text(Path("sources/t.yaml"), text))  # none printed as if it were the sheet's
    assert (sheet.edition, sheet.date) == (None, None)


def test_a_typed_block_the_model_refuses_is_set_back_to_a_table():
    block = {"id": "m", "type": "matrix", "row_keys": ["1", "2"], "column_keys": ["1", "2"], "cells": ["3 4", "3"]}
    assert draft.demote(block) == {
        "id": "m",
        "type": "table",
        "columns": [{"title": ""}, {"title": "1"}, {"title": "2"}],
        "rows": [["1", "3", "4"], ["2", "3", ""]],
    }


def test_a_table_longer_than_a_list_may_be_is_cut_into_blocks_and_the_report_says_so():
    rows = [["Item", "Cost"]] + [[f"item {n}", f"{n} gc"] for n in range(600)]
    blocks, report = typed(Table(rows, True))
    assert [len(block["rows"]) for block in blocks] == [500, 100] and not report.problems
    assert any("cut into blocks of 500" in note.why for note in report.untyped)


def test_values_with_words_after_their_number_beside_bare_ones_are_qualified_modifiers():
    blocks, _ = typed(
        Table(
            [
                ["Mod", "Situation"],
                ["+2 & Quick Kill", "Attacking a prone model"],
                ["+1", "Charging"],
                ["-1 unless Transfixed", "Lower ground"],
            ],
            True,
        )
    )
    assert blocks[0]["type"] == "modifiers"
    assert [item["value"] for item in blocks[0]["items"]] == ["+2 & Quick Kill", "+1", "-1 unless Transfixed"]


def test_lines_that_each_open_with_a_value_and_words_stay_values_and_texts():
    blocks, _ = typed(
        Table(
            [
                ["+1 Shooting at a large target", "always"],
                ["-1 Moving and shooting", "after a march"],
                ["-2 Target behind hard cover", "walls"],
            ],
            None,
        )
    )
    assert [(item["value"], item["text"]) for item in blocks[0]["items"]] == [
        ("+1", "Shooting at a large target"),
        ("-1", "Moving and shooting"),
        ("-2", "Target behind hard cover"),
    ]


def test_a_grid_whose_rows_are_ranges_is_a_matrix():
    blocks, _ = typed(
        Table(
            [["x/y", "1", "2", "3"], ["1-3", "50", "90", "130"], ["4-6", "45", "80", "115"], ["10+", "35", "60", "85"]],
            True,
        )
    )
    assert blocks[0]["type"] == "matrix" and blocks[0]["row_keys"] == ["1-3", "4-6", "10+"]


def test_tables_side_by_side_are_parted_only_at_an_empty_column_or_a_repeated_header():
    from generator.composing.drafts.grids import side_by_side

    spaced = [["Action", "AP", "", "Action", "AP"], ["Melee", "2", "", "Reload", "2"], ["Aim", "1", "", "", ""]]
    assert side_by_side(spaced) == [
        [["Action", "AP"], ["Melee", "2"], ["Aim", "1"]],
        [["Action", "AP"], ["Reload", "2"]],
    ]
    repeated = [["Action", "AP", "Action", "AP"], ["Melee", "2", "Reload", "2"]]
    assert side_by_side(repeated) == [[["Action", "AP"], ["Melee", "2"]], [["Action", "AP"], ["Reload", "2"]]]
    notes = [["Weapon", "Range", "Notes", "Cost"], ["Bow", "24", "", "5"], ["Sword", "-", "", "3"]]
    grid = [["WS", "1", "2", "1", "2"], ["1", "4", "4", "5", "5"]]
    assert side_by_side(notes) == side_by_side(grid) == []  # a column titled but empty; a matrix's keys


def test_percentile_rolls_keyed_01_to_00_are_a_d100_table_its_00_read_as_100():
    rows = [
        ["d100", "Encounter"],
        ["01-15", "Noise"],
        ["16-50", "Wanderers"],
        ["51-95", "Nothing"],
        ["96-00", "Dragon"],
    ]
    blocks, report = typed(Table(rows, True), Table([["01-50", "Calm"], ["51-99", "Storm"], ["00", "Flood"]], None))
    assert [block.get("die") for block in blocks] == ["D100", "D100"]
    assert [row["roll"] for row in blocks[0]["rows"]] == ["01-15", "16-50", "51-95", "96-100"]
    assert blocks[1]["rows"][-1] == {"roll": "100", "text": "Flood"}
    assert sum("00 read as 100" in guess.why for guess in report.guesses) == 2 and not report.problems


def test_a_00_among_keys_of_one_digit_is_no_percentile_roll():
    blocks, _ = typed(Table([["0", "Nothing"], ["1-5", "Some"], ["00", "Odd"]], None))
    assert blocks[0]["type"] == "table"


def test_names_each_on_a_line_over_their_paragraph_are_terms_a_glossary():
    skills = [
        "Combat",
        "Climbing [St,Ag,Co]",
        "This skill allows you to climb walls and rock faces.",
        "Music [In,Ag,Sd]",
        "This skill is used for both composition and performance.",
        "Each instrument is a separate skill.",
        "Stealth",
        "Moving unseen and unheard.",
        "Swimming",
        "This skill keeps you afloat in rough water.",
    ]
    blocks, report = typed(*[Paragraph(text) for text in skills])
    assert blocks[0]["content"][0] == {"p": "Combat"}
    terms = blocks[0]["content"][1]["terms"]
    assert [term["term"] for term in terms] == ["Climbing [St,Ag,Co]", "Music [In,Ag,Sd]", "Stealth", "Swimming"]
    assert terms[1]["text"] == (
        "This skill is used for both composition and performance. Each instrument is a separate skill."
    )
    assert "4 names each on a line over its paragraph: terms" in report.guesses[0].why


def test_a_subheading_over_one_or_two_paragraphs_stays_paragraphs():
    texts = ["Setting up", "Each player places a unit in turn.", "Deployment", "Units deploy within 6 inches."]
    blocks, _ = typed(*[Paragraph(text) for text in texts])
    assert blocks[0]["content"] == [{"p": text} for text in texts]


def _notes_draft(*nodes):
    report = Report("original", "sources/t.yaml")
    text = draft.make(
        Document([Heading(1, "Sheet"), Heading(2, "Part"), *nodes], "test"),
        Path("sources/t.yaml"),
        "t",
        "Game",
        "en",
        report,
    )
    from generator.reading.sources import load_text

    data = load_text(Path("sources/t.yaml"), text).data
    return [block for section in data["sections"] for block in section["blocks"]], data.get("notes"), report


MARKED = [
    ["Winner", "1", "2", "3", "4"],
    ["Heavy", "R", "R (\\*)", "P", "D\\*\\*"],
    ["Light", "R", "R", "P (\\*)", "P"],
]


def test_a_matrix_whose_cells_carry_marks_keeps_them_as_footnotes_explained_below_it():
    blocks, notes, report = _notes_draft(
        Table(MARKED, True),
        Paragraph("R = recoil, P = pushed back."),
        Paragraph("(\\*) The loser loses its re-roll."),
        Paragraph("\\*\\* Only if the winner is in good order."),
        Paragraph("(\\*) A note of something else, further on."),
    )
    assert blocks[0]["type"] == "matrix" and blocks[0]["cells"] == ["R R[^*] P D[^**]", "R R P[^*] P"]
    assert notes == [
        {"id": "*", "text": "The loser loses its re-roll."},
        {"id": "**", "text": "Only if the winner is in good order."},
    ]
    assert blocks[1]["content"] == [
        {"p": "R = recoil, P = pushed back."},
        {"p": "(\\*) A note of something else, further on."},
    ]
    assert "marks (*, **) footnotes" in report.guesses[0].why and not report.problems


def test_a_matrix_whose_marks_nothing_explains_stays_the_table_it_was():
    blocks, notes, report = _notes_draft(Table(MARKED, True), Paragraph("\\*\\* Only if the winner is in good order."))
    assert blocks[0]["type"] == "table" and blocks[0]["rows"][0] == ["Heavy", "R", "R (\\*)", "P", "D\\*\\*"]
    assert notes is None and "(*) nothing below explains" in report.guesses[0].why
    assert blocks[1]["content"] == [{"p": "\\*\\* Only if the winner is in good order."}]  # kept where it stood
