"""What a sheet says of itself (issue #32): its credits once, in the header of the PDF and of the web edition; its
edition and date in the footer when it gives them, and nothing standing for what it lacks."""

from __future__ import annotations

import hashlib
import re
from xml.etree import ElementTree

import html5lib
import pytest
from pypdf import PdfReader

from generator.composing import words
from generator.output import pipeline
from generator.project import Project
from generator.rendering import imprint
from generator.rendering.render import Inline
from tests.conftest import FIXTURES, LIBRARY
from tests.test_pipeline import assert_complete, assert_text_complete, squeeze

UNDATED = FIXTURES / "undated-card.yaml"
XHTML = "{http://www.w3.org/1999/xhtml}"
ENGLISH = dict(words.UI_WORDS)


def undated():
    return pipeline.check(UNDATED)


@pytest.mark.parametrize(
    "edition, date, printed",
    [
        ("1.2", "2026-11-21", ["edition 1.2", "November 21, 2026"]),
        ("1.2", None, ["edition 1.2"]),
        (None, "2026-11-21", ["November 21, 2026"]),
        (None, None, []),
    ],
)
def test_the_footer_prints_the_edition_and_the_date_the_sheet_gives(edition, date, printed):
    sheet = undated().model_copy(update={"edition": edition, "date": date})
    assert imprint.footer(sheet, "en", ENGLISH) == printed


def test_the_pdf_identifier_and_timestamp_are_fixed_without_edition_or_date():
    dated = pipeline.check(FIXTURES / "every-block.yaml")
    # a sheet with an edition keeps the identifier it always had
    assert imprint.identifier(dated) == hashlib.sha256(b"every-block/fr/1.0").hexdigest()[:32].encode()
    assert imprint.source_date_epoch(dated) == "1795219200"  # 2026-11-21, midnight UTC
    sheet = undated()
    assert imprint.identifier(sheet) == hashlib.sha256(b"undated-card/en").hexdigest()[:32].encode()
    assert imprint.source_date_epoch(sheet) == "0"  # the earliest day a date may be: 1970-01-01
    only_dated = sheet.model_copy(update={"date": "2026-11-21"})  # without an edition, the date tells versions apart
    assert imprint.identifier(only_dated) != imprint.identifier(sheet)


def test_a_sheet_without_edition_and_date_builds_to_pdf_with_the_game_alone_in_its_footer(built, tmp_path):
    sheet = undated()
    path = built(FIXTURES, "undated-card")
    assert_complete(path, sheet)  # every fact, and the credits once
    reader = PdfReader(path)
    text = reader.pages[0].extract_text()
    assert "None" not in text and not re.search(r"·\s*(·|$)|(^|\n)\s*·", text), text  # no dangling separator
    lines = [line.strip() for line in text.splitlines()]
    assert "Barrow Crawl page 1 / 1" in lines and "edition" not in text.casefold(), lines  # the footer: the game
    assert "Barrow Crawl Quick reference Gauge card v2.13 by Henrix" in lines, lines  # credits on the header's line
    metadata = reader.metadata
    assert metadata.subject == "Barrow Crawl" and metadata.author == "Gauge card v2.13 by Henrix"
    assert "/CreationDate" not in metadata and "/ModDate" not in metadata  # no date the sheet does not give
    assert b"None" not in reader.trailer["/ID"][0].original_bytes
    again = pipeline.build(Project.at(FIXTURES, tmp_path), pipeline.SheetTarget(UNDATED), "en", "pdf").path
    assert again.read_bytes() == path.read_bytes()  # the same source, the same bytes


def test_a_sheet_without_edition_and_date_builds_to_a_web_page(tmp_path):
    sheet = undated()
    page = pipeline.build(Project.at(FIXTURES, tmp_path), pipeline.SheetTarget(UNDATED), "en", "html").path
    document = html5lib.HTMLParser(strict=True).parse(page.read_text(encoding="utf-8"))
    header, footer = document.find(f".//{XHTML}header"), document.find(f".//{XHTML}footer")
    main = document.find(f".//{XHTML}main")
    assert_text_complete(" ".join(" ".join(part.itertext()) for part in (header, main)), sheet)
    assert header.find(f"./{XHTML}span[@class='credits']").text == "Gauge card v2.13 by Henrix"
    assert "".join(footer.itertext()) == "Barrow Crawl"
    metas = {meta.get("name"): meta.get("content") for meta in document.iter(f"{XHTML}meta") if meta.get("name")}
    assert metas["description"] == "Barrow Crawl" and not any(name.startswith("dcterms") for name in metas)
    assert "None" not in ElementTree.tostring(document, encoding="unicode")


def test_the_credits_print_in_the_header_of_the_first_page_and_not_in_the_errata_box(built):
    sheet = pipeline.check(LIBRARY / "wab2.yaml")
    pages = [page.extract_text() for page in PdfReader(built(LIBRARY, "wab2", "fr")).pages]
    credits = squeeze(Inline(sheet, "fr").plain(sheet.credits))
    header = next(line for line in pages[0].splitlines() if line.startswith("Warhammer Ancient Battles Feuille"))
    assert credits in squeeze(header)  # on the header's line, after the game, title and subtitle
    assert all(credits not in squeeze(page) for page in pages[1:])  # the errata box, on the last page, lacks them
    footer = next(line for line in pages[0].splitlines() if line.endswith("page 1 / 2"))
    assert footer.startswith(f"Warhammer Ancient Battles · édition {sheet.edition} · ") and footer.count("·") == 2


def test_the_completeness_check_notices_missing_credits(built):
    sheet = undated()
    path = built(FIXTURES, "undated-card")
    sheet.credits = "Made by someone the page does not name"
    with pytest.raises(AssertionError, match="credits"):
        assert_complete(path, sheet)


def test_a_handout_prints_its_sheets_credits_in_its_header(tmp_path):
    project = Project.at(LIBRARY, tmp_path)
    handout = LIBRARY / "handouts" / "wab2-english-hundred-years-war.yaml"
    page = pipeline.build(project, pipeline.HandoutTarget(handout), "en", "html").path
    document = html5lib.HTMLParser(strict=True).parse(page.read_text(encoding="utf-8"))
    credits = document.find(f".//{XHTML}header/{XHTML}span[@class='credits']")
    assert credits is not None and "Perronny" in credits.text
