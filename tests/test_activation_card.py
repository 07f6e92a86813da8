"""Issue #48 items 2, 7 and 8, end to end: tests/fixtures/sheets/activation-card.yaml (a hex wargame's cheat sheet
with no title) has steps with sub-steps numbered 1–8 and 1–3 and bullets, a ": " between a step's title and its
text, "to hit / to be hit" modifiers in two columns, and lead-in sentences set upright. Built in PDF (English, and
French through its catalogue) and in the web edition, every fact printed, as typed."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from generator.output import completeness, content_checks, pipeline
from generator.output.plan import Output
from generator.output.targets import SheetTarget
from generator.project import Project
from tests.conftest import FIXTURES
from tests.rendering.test_web import parsed, read_text
from tests.test_pipeline import assert_complete, assert_one_font, assert_text_complete

FOLDER = FIXTURES / "sheets"
SOURCE = FOLDER / "activation-card.yaml"


@pytest.fixture(scope="module")
def sheet():
    return pipeline.check(SOURCE)


@pytest.fixture(scope="module")
def english(built):
    return built(FOLDER, "activation-card", "en")


def lines(pdf) -> list[str]:
    return completeness.pdf_text(pdf).replace("\xa0", " ").splitlines()


def test_the_sheet_uses_what_the_issue_asks_for(sheet):
    sequence, modifiers = sheet.blocks()
    assert sheet.title is None and sequence.numbering == ["1", "1"] and sequence.separator == ": "
    assert sequence.steps[0].items and sequence.steps[2].items and sequence.steps[2].steps
    assert sequence.plain("intro") and sequence.plain("after") and not modifiers.plain("intro")
    assert modifiers.value_titles == ["To hit", "To be hit"] and modifiers.value_columns == 2


def test_every_fact_is_printed_in_the_pdf_in_one_font(english, sheet):
    assert_complete(english, sheet)
    assert_one_font(english)


def test_sub_steps_keep_their_own_numbers_and_bullets_are_no_steps(english):
    printed = lines(english)
    actions = printed.index("2. Actions: Resolve in this order")
    assert printed[actions + 1 : actions + 9] == [
        "1. Declare",
        "2. Move: up to its speed in hexes",
        "3. Face",
        "4. Spot",
        "5. Aim",
        "6. Fire: roll to hit",
        "7. Assault",
        "8. Consolidate",
    ]  # "1" asked for the second level: not a.–h.
    assert not any(re.match(r"[a-h]\. ", line) for line in printed)
    command = printed.index("1. Command: Draw a command counter")  # the separator as typed, not an en dash
    assert printed[command + 1 : command + 3] == [
        "A unit out of command moves at half speed.",
        "A unit in command may rally.",
    ]  # bullets: no number
    reaction = printed.index("3. Reaction: The opponent may react")  # its own number, in a continuation too
    assert printed[reaction + 1 : reaction + 5] == [
        "A reaction costs a command counter.",
        "1. Overwatch",
        "2. Evade",
        "3. Counter-assault",
    ]
    assert "4. End: Mark the unit activated" in printed and "–" not in "".join(printed)
    assert "".join(printed).count("•") == 3  # one bullet an item (the PDF's markers come after the page's text)


def test_the_header_prints_the_game_alone(english):
    printed = lines(english)
    assert "Hexfront" in printed  # the header: the game, no title beside it


def _value_rights(pdf, condition: str) -> list[float]:
    """The right edges (pt) of the values printed left of `condition` on its line, in order."""
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage()
    whole = text.get_text_range()
    start = whole.index(condition)
    top, left = text.get_charbox(start)[3], text.get_charbox(start)[0]
    table = text.get_charbox(whole.index("To hit"))[0] - 6  # the table's left edge: not the other column's text
    boxes = [text.get_charbox(index) for index in range(text.count_chars())]
    row = [
        (box, whole[index])
        for index, box in enumerate(boxes)
        if abs(box[3] - top) < 2 and table <= box[0] and box[2] <= left and not whole[index].isspace()
    ]
    row.sort(key=lambda found: found[0][0])
    rights, last = [], None
    for box, _ in row:
        if last is not None and box[0] - last > 2.5:  # a gap wider than a space: the next cell
            rights.append(last)
        last = box[2]
    return rights + ([last] if last is not None else [])


def test_two_columns_of_values_each_aligned_on_its_sign(english):
    """Each column right-aligned as the single column is: its signs and digits stand one under another."""
    rows = {
        condition: _value_rights(english, condition)
        for condition in ("Moved this activation", "In heavy cover", "Smoke between", "Point blank")
    }
    firsts, seconds = ([rights[column] for rights in rows.values()] for column in (0, 1))
    assert max(firsts) - min(firsts) < 0.5 and max(seconds) - min(seconds) < 0.5, rows  # ink boxes: a glyph's bearing
    assert min(seconds) > max(firsts) + 10  # two columns, not one
    assert len(rows["Point blank"]) == 3  # "−1", then its qualifier "& pinned" in a cell of its own
    assert len(_value_rights(english, "Aimed")) == 1  # "" leaves the second column empty


def test_the_french_edition_spaces_the_separator_as_french_does(built):
    french = built(FOLDER, "activation-card", "fr")
    text = completeness.pdf_text(french)
    assert "Commandement\u00a0: piochez un pion" in text and "2. Bouger\u00a0: jusqu" in text
    squeezed = completeness.squeeze(text)  # "Pour toucher" may take two lines in its narrow column
    assert "Pourtoucher" in squeezed and "Pourêtretouché" in squeezed and "\u22121&clouéausol" in squeezed
    output = Output(SheetTarget(SOURCE), "fr")  # the content suite's checks: every fact, in French
    assert content_checks.output_problems(Project.at(FOLDER, french.parent), output) == []


def test_the_web_edition_prints_it_all(tmp_path, sheet):
    page = pipeline.build(Project.at(FOLDER, tmp_path / "build"), pipeline.SheetTarget(SOURCE), "en", "html").path
    html = page.read_text(encoding="utf-8")
    assert_text_complete(read_text(parsed(page)), sheet)
    assert "<title>Hexfront</title>" in html and "<h1>" not in html
    assert '<ol class="steps numbering-1">\n  <li><strong class="step-title">Declare</strong>' in html
    assert '<span class="step-separator">: </span>' in html
    assert '<ul class="step-items"><li>A unit out of command moves at half speed.</li>' in html
    assert '<p class="intro plain">Each player' in html and '<p class="after plain">A unit activates' in html
    assert '<p class="intro">Roll 2D6' in html
    assert re.search(r'<th class="value">To hit</th>\s*<th class="value" colspan="2">To be hit</th>', html)
