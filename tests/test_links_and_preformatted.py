"""Links and preformatted text built (issue #48 items 1 and 5): tests/fixtures/sheets/diagram-card.yaml in English
and in French through its catalogue (i18n/diagram-card.fr.po), in PDF and web edition, read back: each link an
annotation of the PDF and an <a href> of the web page with the source's address, its text translated; an address
printed as text never broken after a hyphen; each diagram's lines character for character, the narrow one set
smaller inside its column, the wide one across the page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.composing import translate as i18n
from generator.model import markup
from generator.model.blocks.preformatted import MIN_POINTS, MONO_ADVANCE
from generator.model.types import Sheet, prose
from generator.model.typography import URL
from generator.model.validate import validate
from generator.output import pipeline
from generator.project import Project
from generator.reading.sources import load_file
from generator.rendering import layout
from tests.conftest import FIXTURES
from tests.test_pipeline import assert_complete, assert_text_complete

FOLDER = FIXTURES / "sheets"
SOURCE = FOLDER / "diagram-card.yaml"
PT_PER_PX = 0.75  # WeasyPrint draws in CSS pixels, scaled to points by the page's matrix
PT_PER_MM = 72 / 25.4


@dataclass
class Card:
    lang: str
    sheet: Sheet
    pdf: Path
    web: Path


@pytest.fixture(scope="module", params=["en", "fr"])
def card(request, tmp_path_factory) -> Card:
    located = load_file(SOURCE)
    sheet = validate(located)
    lang = request.param
    if lang != sheet.lang:
        sheet, _ = i18n.translate(located, sheet, lang, i18n.catalogue_path(FOLDER, sheet.sheet, lang), False)
    project = Project.at(FOLDER, tmp_path_factory.mktemp(f"diagram-{lang}"))
    written = pipeline.build(project, pipeline.SheetTarget(SOURCE), lang, "pdf")
    pdf = written.path
    assert written.layout["warnings"] == []
    return Card(lang, sheet, pdf, pipeline.build(project, pipeline.SheetTarget(SOURCE), lang, "html").path)


def addresses(sheet: Sheet) -> list[str]:
    """The links' addresses, in the order of the source."""
    return [target for _, text in prose(sheet) for target in markup.links(text)]


def link_texts(sheet: Sheet) -> list[str]:
    return [
        markup.to_plain(token.children, str, lambda key, words: words or key)
        for _, text in prose(sheet)
        for token in markup.walk(markup.parse(text))
        if isinstance(token, markup.Link)
    ]


def test_each_link_is_a_link_annotation_of_the_pdf_with_its_address_as_typed(card):
    annotations = [
        annotation.get_object() for page in PdfReader(card.pdf).pages for annotation in page.get("/Annots", [])
    ]
    uris = [
        annotation["/A"]["/URI"]
        for annotation in annotations
        if annotation["/Subtype"] == "/Link" and "/URI" in annotation.get("/A", {})
    ]
    assert sorted(uris) == sorted(addresses(card.sheet)) and len(uris) == 5
    assert "mailto:designer@example.com" in uris
    assert_complete(card.pdf, card.sheet)  # every link's text printed, in its block's order


def test_each_link_is_an_a_href_of_the_web_page_its_text_translated_its_address_not(card):
    page = card.web.read_text(encoding="utf-8")
    found = re.findall(r'<a class="link" href="([^"]*)">(.*?)</a>', page)
    assert [href.replace("&amp;", "&") for href, _ in found] == addresses(card.sheet)
    assert [re.sub(r"<[^>]+>", "", text) for _, text in found] == [
        text.replace("'", "\u2019") for text in link_texts(card.sheet)
    ]
    shown = {"en": "full rules and errata", "fr": "les règles complètes et les errata"}[card.lang]
    assert shown in [text for _, text in found]
    outside = [href for href in re.findall(r'href="([^"]*)"', page) if not href.startswith("#")]
    assert sorted(href.replace("&amp;", "&") for href in outside) == sorted(addresses(card.sheet))
    from tests.rendering.test_web import parsed, read_text

    assert_text_complete(read_text(parsed(card.web)), card.sheet)


def test_an_address_printed_as_text_is_never_broken_after_a_hyphen_nor_hyphenated(card):
    lines = "".join(page.extract_text() for page in PdfReader(card.pdf).pages).split("\n")
    printed = [
        found.group(0) for _, text in prose(card.sheet) for found in URL.finditer(re.sub(r"\]\([^)]*\)", "]", text))
    ]
    assert len(printed) == 2
    text = "\n".join(lines)
    for address in printed:
        broken = re.search("\n?".join(map(re.escape, address)), text)
        assert broken, address
        assert "\n" in broken.group(0), f"{address}: expected broken in its narrow column, to test where"
        assert "-\n" not in broken.group(0) and "\u2010" not in broken.group(0), broken.group(0)
    page = card.web.read_text(encoding="utf-8")
    assert page.count('<span class="url">') == len(printed)


def diagram_lines(pdf: Path) -> list[tuple[str, float, float]]:
    """Each line set in the monospace font: its text, its left edge (mm from the page's) and its size (pt)."""
    found = []

    def visit(text, cm, tm, font, size):
        if font is not None and "QRS-Mono" in str(font.get("/BaseFont")) and text.strip("\n"):
            found.append((text.rstrip("\n"), tm[4] * PT_PER_PX / PT_PER_MM, size * PT_PER_PX))

    for page in PdfReader(pdf).pages:
        page.extract_text(visitor_text=visit)
    return found


def test_the_diagrams_print_their_lines_character_for_character_inside_their_column_or_across_the_page(card):
    printed = diagram_lines(card.pdf)
    frame = layout.page_frame(card.sheet, pipeline.BuildOptions())
    diagrams = [block for block in card.sheet.blocks() if block.type == "preformatted"]
    assert [line for line, _, _ in printed] == [
        line.rstrip() for block in diagrams for line in block.lines() if line.strip()
    ]
    for block in diagrams:
        sizes = {size for line, _, size in printed if line in block.lines()}
        assert len(sizes) == 1, sizes
        size = sizes.pop()
        width = block.longest() * MONO_ADVANCE * size / PT_PER_MM
        if block.id == "skirmish-field":  # 64 characters: set smaller than 90 % of the body, inside its column
            assert MIN_POINTS <= size < 0.9 * card.sheet.paper.type_points and width <= frame.column_width
        else:  # 104 characters: a column would need 5.1 pt; across the page, at its own size
            assert block.longest() * MONO_ADVANCE * MIN_POINTS / PT_PER_MM > frame.column_width
            assert size == pytest.approx(0.9 * card.sheet.paper.type_points, abs=0.01)
            assert frame.column_width < width <= frame.content_width


def test_the_web_page_prints_the_diagrams_as_typed_in_a_box_that_scrolls_sideways(card):
    page = card.web.read_text(encoding="utf-8")
    blocks = re.findall(r'<pre class="preformatted">\n(.*?)</pre>', page, re.S)
    diagrams = [block.text for block in card.sheet.blocks() if block.type == "preformatted"]
    assert [block.replace("&#34;", '"').replace("&#39;", "'") for block in blocks] == diagrams
    assert re.search(r'@font-face \{ font-family: "QRS Mono"', page)
