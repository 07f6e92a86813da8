"""Issue #48 item 8, its small print, end to end: tests/fixtures/sheets/ancients-notes.yaml (notes on an ancients
game) has two matrices sharing the notes *, ** and *** (the sheet's), a table keeping its own *, a range in inches
with a footnote, "25%" and "25 %", a long word in a narrow column and words the dictionary breaks wrongly. Built in
PDF (English, and French through its catalogue) and in the web edition; the pages read back as printed."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
import weasyprint

from generator.model import markup, typography
from generator.output import completeness, content_checks, pipeline
from generator.output.plan import Output
from generator.output.targets import SheetTarget
from generator.project import Project
from generator.rendering import widths
from tests.conftest import FIXTURES
from tests.rendering.test_web import parsed, read_text
from tests.test_pipeline import assert_complete, assert_one_font, assert_text_complete

FOLDER = FIXTURES / "sheets"
SOURCE = FOLDER / "ancients-notes.yaml"
SHARED = (
    "The loser also loses its general's re-roll.",
    "Only if the winner is in good order.",
    "Halve the result against elephants.",
)


@pytest.fixture(scope="module")
def sheet():
    return pipeline.check(SOURCE)


@pytest.fixture(scope="module")
def english(built):
    return built(FOLDER, "ancients-notes", "en")


@pytest.fixture(scope="module")
def french(built):
    return built(FOLDER, "ancients-notes", "fr")


def squeezed(pdf) -> str:
    return completeness.squeeze(completeness.pdf_text(pdf))


def test_the_sheet_shares_three_notes_between_two_matrices(sheet):
    foot, mounted, missiles, *_ = sheet.blocks()
    assert [note.id for note in sheet.notes] == ["*", "**", "***"]
    assert sheet.shared_refs(foot) == sheet.shared_refs(mounted) == {"*", "**", "***"}
    assert sheet.shared_refs(missiles) == set()  # its own * wins; its 1 is its own
    assert sheet.notes_under(foot) == [] and sheet.notes_under(mounted) == sheet.notes  # under the last to mark them
    assert [note.id for note in sheet.notes_under(missiles)] == ["*", "1"]


def test_every_fact_is_printed_in_the_pdf_in_one_font(english, sheet):
    assert_complete(english, sheet)
    assert_one_font(english)


def test_the_shared_notes_print_once_under_the_second_matrix(english):
    text = squeezed(english)
    notes = [text.index(completeness.squeeze(typography.english(typography.quotes(note, "en")))) for note in SHARED]
    assert all(text.count(completeness.squeeze(note.replace("'", "’"))) == 1 for note in SHARED)
    assert text.index("Mountedagainstfoot") < text.index("R=recoil") < notes[0] < notes[1] < notes[2]
    assert notes[2] < text.index("Missiles") < text.index("*Onlyatthecharge.")  # the table's own *, under it


def _key_centres(pdf, title: str) -> list[float]:
    """The horizontal centres (pt) of the column keys 1…10 of the matrix under `title`."""
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage()
    whole = text.get_text_range()
    start = whole.index(title)
    keys = re.compile(r"1\s*2\s*3\s*4\s*5\s*6\s*7\s*8\s*9\s*10").search(whole, start)
    centres, index = [], keys.start()
    while index < keys.end():
        if whole[index].isdigit():
            run = 2 if whole[index : index + 2] == "10" else 1
            left, right = text.get_charbox(index, loose=True)[0], text.get_charbox(index + run - 1, loose=True)[2]
            centres.append((left + right) / 2)
            index += run
        else:
            index += 1
    return centres


@pytest.mark.parametrize("title", ["Foot against foot", "Mounted against foot"])
def test_every_data_column_of_a_matrix_is_one_width(english, title):
    """The keys stand evenly: the columns of "10+", "−1" and "10" no wider than those of "R" and "2"."""
    centres = _key_centres(english, title)
    steps = [b - a for a, b in zip(centres, centres[1:])]
    assert len(centres) == 10 and max(steps) - min(steps) < 0.3, steps


def test_a_footnote_mark_keeps_clear_of_an_inch_mark(english):
    page = pdfium.PdfDocument(english)[0]
    text = page.get_textpage()
    whole = text.get_text_range()
    inch = whole.index('6"')
    mark = next(index for index in range(inch + 2, inch + 6) if whole[index] == "1")
    gap = text.get_charbox(mark)[0] - text.get_charbox(inch + 1)[2]
    assert gap > 0.8, gap  # ink boxes: "  and ¹ touched before


def test_the_french_edition_prints_one_rule_of_spacing(french):
    text = completeness.pdf_text(french)
    assert text.count("25\u00a0%") == 2 and "25%" not in text and "25 %" not in text  # typed "25%" and "25 %"
    assert "définitif\u00a0: aucune" in text and "deux fois\u202f!" in text and "ordre\u202f!" in text
    assert "éléphants\u202f; arrondi" in text
    output = Output(SheetTarget(SOURCE), "fr")  # every fact, in French
    assert content_checks.output_problems(Project.at(FOLDER, french.parent), output) == []


def test_a_long_word_widens_its_column_rather_than_break(french):
    lines = completeness.pdf_text(french).splitlines()
    assert any("Infranchissable" in line for line in lines), [line for line in lines if "Infran" in line]


def test_the_web_edition_prints_it_all(tmp_path, sheet):
    page = pipeline.build(Project.at(FOLDER, tmp_path / "build"), pipeline.SheetTarget(SOURCE), "en", "html").path
    html = page.read_text(encoding="utf-8")
    assert_text_complete(read_text(parsed(page)), sheet)
    assert all(html.count(typography.english(typography.quotes(note, "en"))) == 1 for note in SHARED[:2])
    assert html.count("Halve the result against elephants.") == 1
    assert '6&#34;<sup class="fn after-inch">1</sup>' in html
    assert re.search(r'<table class="data matrix short-keys" style="--column: [0-9.]+rem">', html)
    assert '<span class="hy">re\u00adrolled</span>' in html


# --- the rules, one at a time ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["25%", "25 %", "25\u00a0%", "25\u202f%"])
def test_french_spaces_a_percent_alike_whatever_was_typed(typed):
    assert typography.french(f"perd {typed} de ses socles") == "perd 25\u00a0% de ses socles"
    assert typography.english(typed) == typed  # English keeps what was typed


def test_french_spaces_before_high_punctuation_whatever_was_typed():
    for typed in ("Quoi!", "Quoi !", "Quoi\u00a0!"):
        assert typography.french(typed) == "Quoi\u202f!"
    assert typography.french("Note: ici") == typography.french("Note : ici") == "Note\u00a0: ici"
    assert typography.french("à 1:30") == "à 1:30"


def test_listed_words_take_their_own_breaks_only():
    broken = typography.breaks("en")
    assert broken("A Rerolled die; rerolls") == "A Re\u00adrolled die; re\u00adrolls"
    assert broken("preroll rerolled2") == "preroll rerolled2"  # whole words only
    assert typography.breaks("fr")("Infranchissable") == "In\u00adfran\u00adchissable"  # never "…chis-sable"
    assert typography.breaks("de")("rerolled") == "rerolled"
    assert all("-" in word for words in typography.HYPHENATION_EXCEPTIONS.values() for word in words)


def test_a_listed_word_breaks_at_its_own_soft_hyphen_on_the_page():
    """pyphen's English dictionary breaks "rerolled" as "rer-olled": in a narrow column it breaks as "re-rolled"."""
    html = markup.to_html(markup.parse("rerolled rerolled"), lambda text: typography.breaks("en")(text), str)
    document = weasyprint.HTML(
        string=f'<html lang="en"><style>@page {{ size: 60mm 40mm; margin: 2mm }} '
        f"p {{ width: 9mm; hyphens: auto; font-size: 9pt }} .hy {{ hyphens: manual }}"
        f"</style><p>{html}</p></html>"
    ).render()
    lines = [
        "".join(box.text for box in line.descendants() if hasattr(box, "text")).strip()
        for line in document.pages[0]._page_box.descendants()
        if type(line).__name__ == "LineBox"
    ]
    broken = [line for line in lines if line.endswith("-") or line.endswith("\u2010")]
    assert broken and all(line.rstrip("-\u2010\u00ad").endswith("re") for line in broken), lines


def test_a_footnote_mark_after_an_inch_mark_is_marked_to_keep_clear():
    html = str(markup.to_html(markup.parse('6"[^1], **6"**[^2], 6[^3], "a"[^4]'), str, str))
    assert html.count('class="fn after-inch"') == 3 and '6<sup class="fn">3</sup>' in html


def test_one_width_for_every_data_column_of_a_matrix(sheet):
    foot = next(sheet.blocks())
    assert widths.matrix_column(foot) == widths.MIN_COLUMN_REM  # "10+" and "D***" fit the least width
    wide = foot.model_copy(update={"cells": ["R R R R R R R R R Destroyed[^***]"] * 3})
    column = widths.matrix_column(wide)  # the widest value's, for every column
    destroyed = (widths.word_width("Destroyed", 1.0) + widths.word_width("***", 0.7, "Semibold")) / widths.MM_PER_PT
    assert column == pytest.approx(destroyed, abs=0.001)
    assert widths.matrix_width(wide, 8.0) == pytest.approx(
        widths.CORNER_MM + 10 * (column + widths.PADDING_REM) * 8.0 * widths.MM_PER_PT
    )
    titled = foot.model_copy(update={"column_title": "Score " + "W" * 40})  # a word wider than the ten columns
    assert widths.matrix_column(titled) > widths.MIN_COLUMN_REM  # each takes its share of it


def test_a_table_keeps_its_words_whole_while_they_fit_its_column(sheet):
    terrain = next(block for block in sheet.blocks() if block.id == "terrain-types")
    assert widths.words_fit(terrain, str, 90.0, 7.6)
    assert not widths.words_fit(terrain, str, 25.0, 7.6)  # too narrow for its words: hyphenated as before
    sized = terrain.model_copy(
        update={
            "columns": [
                column.model_copy(update={"width": "80mm"}) if n == 1 else column
                for n, column in enumerate(terrain.columns)
            ]
        }
    )
    assert not widths.words_fit(sized, str, 90.0, 7.6)  # a column of a declared width does not give way


def test_a_matrix_s_short_row_keys_print_on_one_line_and_a_label_may_wrap(sheet):
    """A key such as "20 [−1]" wrapped, each row two lines tall, where thirteen columns left its corner no room."""
    foot = next(sheet.blocks())
    assert widths.keys_on_one_line(foot.model_copy(update={"row_keys": ["20 [−1]", "5 [+14]", "Medium"]}))
    assert not widths.keys_on_one_line(foot.model_copy(update={"row_keys": ["Résultat à obtenir"]}))
