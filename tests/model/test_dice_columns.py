"""Dice tables with several result columns (issue #44): `text_titles` on the block, a list of texts a row, each
column checked, translated, compared and found printed, as a modifiers block's `value_titles`."""

from __future__ import annotations

from generator.composing import catalogue_update, diff
from generator.composing import translate as i18n
from generator.output import pipeline
from generator.output.completeness import missing, printed
from tests.conftest import check_problems, fill_catalogue, source_head, written_source

SHEET = (
    source_head("melee", "Critiques")
    + """\
sections:
  - id: combat
    title: Combat
    blocks:
      - id: criticals
        type: dice
        die: D10
        text_titles: [Tranchant, Contondant]
        rows:
          - {roll: 1-5, text: [Saigne, Étourdi]}
          - {roll: 6-9, text: [Bras tranché, ""]}
          - {roll: "10", name: Fatal, text: [Tête tranchée, Crâne fendu]}
"""
)


def write(tmp_path, text: str = SHEET):
    return written_source(tmp_path, "melee", text)


def problems(tmp_path, text: str) -> list[tuple[int, int, str]]:
    return check_problems(write(tmp_path, text))


def test_a_row_of_one_text_a_column_is_read_and_its_die_covered(tmp_path):
    (block,) = pipeline.check(write(tmp_path)).blocks()
    assert block.result_columns == 2 and block.has_header
    assert [block.texts(row) for row in block.rows] == [
        ["Saigne", "Étourdi"],
        ["Bras tranché", ""],
        ["Tête tranchée", "Crâne fendu"],
    ]
    assert problems(tmp_path, SHEET.replace('roll: "10"', 'roll: "9-10"')) == [
        (18, 20, "9 is already covered by row 2 ('6-9')")
    ]


def test_a_row_with_the_wrong_number_of_texts_is_named_where_it_is(tmp_path):
    found = problems(tmp_path, SHEET.replace('[Bras tranché, ""]', "[Bras tranché]"))
    assert [(line, column) for line, column, _ in found] == [(17, 31)]
    assert found[0][2].startswith(
        "1 text where the block's text_titles name 2 columns (Tranchant, Contondant): expected a list of 2 texts"
    )
    found = problems(tmp_path, SHEET.replace("[Saigne, Étourdi]", "Saigne"))
    assert found[0][:2] == (16, 31) and found[0][2].startswith("one text where the block's text_titles name 2")


def test_texts_without_titles_and_both_titles_are_refused(tmp_path):
    found = problems(tmp_path, SHEET.replace("text_titles: [Tranchant, Contondant]", "text_title: Effet"))
    assert [problem[:2] for problem in found] == [(16, 31), (17, 31), (18, 45)]
    assert "2 texts where the block has one column of results" in found[0][2]
    both = SHEET.replace("        text_titles:", "        text_title: Effet\n        text_titles:")
    assert (15, 22, "'text_title' or 'text_titles', not both: text_titles names each column of results") in problems(
        tmp_path, both
    )


def test_titles_and_each_column_s_text_are_offered_for_translation_and_translated(tmp_path):
    located, sheet = pipeline.load(write(tmp_path))
    contexts = {entry.source: entry.context for entry in i18n.entries(located, sheet, "en")}
    assert contexts["Contondant"] == "sections/combat/blocks/criticals/text_titles/2"
    assert contexts["Crâne fendu"] == "sections/combat/blocks/criticals/rows/10/text/2"
    catalogue = i18n.catalogue_path(tmp_path, "melee", "en")
    catalogue_update.update(located, sheet, "en", catalogue)
    fill_catalogue(catalogue, lambda message: f"[{message.id}]")
    translated, untranslated = i18n.translate(located, sheet, "en", catalogue, allow_fallback=False)
    (block,) = translated.blocks()
    assert untranslated == 0 and block.text_titles == ["[Tranchant]", "[Contondant]"]
    assert block.rows[1].text == ["[Bras tranché]", ""] and block.rows[2].name == "[Fatal]"


def test_qrs_diff_tells_which_column_of_results_changed(tmp_path):
    old = pipeline.check(write(tmp_path))
    new = pipeline.check(write(tmp_path, SHEET.replace("Crâne fendu", "Crâne brisé")))
    assert [str(change) for change in diff.compare(old, new)] == [
        "changed  Combat, D10 10 (Contondant): Crâne fendu → Crâne brisé"
    ]


def test_the_completeness_check_wants_every_title_and_every_column_s_text(tmp_path):
    sheet = pipeline.check(write(tmp_path))
    (block,) = sheet.blocks()
    assert [text for _, text in printed(block, sheet) if text] == [
        "D10",
        "Tranchant",
        "Contondant",
        "1-5",
        "Saigne",
        "Étourdi",
        "6-9",
        "Bras tranché",
        "10",
        "Fatal",
        "Tête tranchée",
        "Crâne fendu",
    ]
    page = "D10 Tranchant Contondant 1–5 Saigne Étourdi 6–9 Bras tranché 10 Fatal Tête tranchée Crâne fendu"
    assert missing(page, sheet) == []
    lacking = missing(page.replace("Tête tranchée", ""), sheet)
    assert [(gap.block, gap.loc[-2:], gap.text) for gap in lacking] == [("criticals", ("text", 0), "Têtetranchée")]
