"""Issue #48 items 1 and 4, end to end: tests/fixtures/sheets/emoji-notes.yaml (notes on an ancients game) codes a
combat matrix's cells, legend and corner with emoji (arrows, a skull, coloured squares, a horse, a trap, a horn)
beside die faces, and has links in a section's title and a block's. Built in PDF (English, and French through its
catalogue) and in the web edition: each emoji printed in the vendored emoji font, read back as typed; each
heading's link an annotation of the PDF and an <a href> of the web page, its text translated, its address not."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.model import markup
from generator.model.types import Sheet
from generator.output import content_checks, pipeline
from generator.output.plan import Output
from generator.output.targets import SheetTarget
from generator.project import Project
from tests.conftest import FIXTURES
from tests.rendering.test_web import parsed, read_text
from tests.test_pipeline import assert_complete, assert_text_complete

FOLDER = FIXTURES / "sheets"
SOURCE = FOLDER / "emoji-notes.yaml"
EMOJI = re.compile("[\U0001f000-\U0001faff\u2190-\u21ff\u2b00-\u2bff\u27a1]")  # the emoji and arrows the sheet types
DIE_FACES = re.compile("[\u2680-\u2685]")
HEADING_LINKS = {
    "https://example.com/shieldwall/errata": ("errata", "errata"),
    "https://example.com/shieldwall/faq#melee": ("questions and answers", "questions et réponses"),
}


@pytest.fixture(scope="module")
def sheet() -> Sheet:
    return pipeline.check(SOURCE)


@pytest.fixture(scope="module", params=["en", "fr"])
def lang(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def pdf(built, lang):
    return built(FOLDER, "emoji-notes", lang)


@pytest.fixture(scope="module")
def web(tmp_path_factory, lang) -> Path:
    project = Project.at(FOLDER, tmp_path_factory.mktemp(f"emoji-web-{lang}"))
    return pipeline.build(project, SheetTarget(SOURCE), lang, "html").path


def fonts_of_characters(pdf) -> dict[str, set[str]]:
    """Each character printed, and the fonts it is printed in (their names without the subset's prefix)."""
    found: dict[str, set[str]] = {}

    def visit(text, cm, tm, font, size):
        for char in text:
            if font is not None and not char.isspace():
                found.setdefault(char, set()).add(str(font.get("/BaseFont")).split("+")[-1])

    for page in PdfReader(pdf).pages:
        page.extract_text(visitor_text=visit)
    return found


def test_the_sheet_types_emoji_in_a_matrix_and_links_in_its_headings(sheet):
    (section,) = sheet.sections
    matrix, rally = sheet.blocks()
    assert markup.links(section.title) and markup.links(matrix.title)
    cells = " ".join(matrix.cells + matrix.legend + matrix.row_keys + [matrix.corner])
    assert {"\U0001f480", "\U0001f7e5", "\U0001f7e8", "\U0001f40e", "\U0001faa4", "\U0001f4ef", "\u2b06"} <= set(cells)
    assert matrix.corner == "\u2b06\ufe0f\u27a1\ufe0f"  # two arrow emoji, each with its emoji variation selector


def test_every_fact_is_printed_and_each_emoji_in_the_emoji_font(pdf, sheet, lang):
    if lang == "en":
        assert_complete(pdf, sheet)
    else:  # the content suite's checks: every fact of the French edition, in the project's fonts
        assert content_checks.output_problems(Project.at(FOLDER, pdf.parent), Output(SheetTarget(SOURCE), lang)) == []
    printed = fonts_of_characters(pdf)
    emoji = {char for char in printed if EMOJI.match(char)}
    assert len(emoji) == 10, sorted(emoji)  # 💀 🟥 🟨 🐎 🪤 📯 ⬆ ➡ ↗ ↖
    assert {
        char: fonts for char, fonts in printed.items() if char in emoji and fonts - {"QRS-Emoji", "QRS-Emoji-Bold"}
    } == {}, "an emoji printed in another font"
    assert {font for char, fonts in printed.items() if DIE_FACES.match(char) for font in fonts} == {"QRS-Symbols"}
    assert all(font.startswith(("Source-Sans", "QRS-")) for fonts in printed.values() for font in fonts), printed


def test_each_heading_link_is_a_link_annotation_of_the_pdf_with_its_address_as_typed(pdf, lang):
    reader = PdfReader(pdf)
    uris = [
        annotation.get_object()["/A"]["/URI"]
        for page in reader.pages
        for annotation in page.get("/Annots", [])
        if annotation.get_object()["/Subtype"] == "/Link"
    ]
    assert set(uris) == set(HEADING_LINKS)
    text = reader.pages[0].extract_text()
    for english, french in HEADING_LINKS.values():
        shown = english if lang == "en" else french
        assert shown.upper() in text or shown in text, shown  # a section's title is set in capitals


def test_each_heading_link_is_an_a_href_of_the_web_page_and_no_link_nests_in_the_contents(web, lang, sheet):
    html = web.read_text(encoding="utf-8")
    headings = re.findall(r"<h([23])[^>]*>(.*?)</h\1>", html, re.S)
    links = [
        (level, href, text)
        for level, heading in headings
        for href, text in re.findall(r'<a class="link" href="([^"]*)">(.*?)</a>', heading)
    ]
    index = 0 if lang == "en" else 1
    assert links == [
        ("2", "https://example.com/shieldwall/errata", HEADING_LINKS["https://example.com/shieldwall/errata"][index]),
        (
            "3",
            "https://example.com/shieldwall/faq#melee",
            HEADING_LINKS["https://example.com/shieldwall/faq#melee"][index],
        ),
    ]
    contents = re.search(r'<nav class="toc".*?</nav>', html, re.S).group(0)
    assert "example.com" not in contents  # the contents link to the section: its title's link prints as text there
    if lang == "en":
        assert_text_complete(read_text(parsed(web)), sheet)


def test_the_web_page_carries_the_emoji_font_cut_to_the_emoji_it_prints(web):
    from fontTools.ttLib import TTFont

    rule = re.search(r'font-family: "QRS Emoji";[^}]*base64,([A-Za-z0-9+/=]+)', web.read_text(encoding="utf-8"))
    assert rule, "no emoji font on the page"
    characters = set(TTFont(io.BytesIO(base64.b64decode(rule.group(1)))).getBestCmap())
    printed = {ord(char) for char in read_text(parsed(web)) if EMOJI.match(char)}
    assert printed and printed <= characters
    assert len(characters) < 100  # the page's emoji, not the whole font


def test_a_section_title_link_is_underlined_in_white_on_its_band(pdf, lang):
    """An underline in the accent would not show on the section's band, which is the accent."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage()
    whole = text.get_text_range()
    word = "ERRATA"
    left, bottom, right, top = text.get_charbox(whole.index(word))
    right = text.get_charbox(whole.index(word) + len(word) - 1)[2]
    scale = 4
    image = page.render(scale=scale).to_pil().convert("RGB")
    height = image.height
    below = [
        image.getpixel((int(x * scale), int(height - (bottom - 1.0) * scale)))
        for x in (left + (right - left) * k / 10 for k in range(1, 10))
    ]
    assert all(min(pixel) > 200 for pixel in below), below  # white: the underline, on the dark band
