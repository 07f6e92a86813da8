"""`--pdf-variant pdf/ua-1|pdf/a-3b`: accessible and archival PDFs, checked with pikepdf (and PDFium for the text of
each marked content); and the order in which a PDF's text reads, numbers of numbered lists first."""

from __future__ import annotations

import ctypes

import pikepdf
import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader

from generator.composing import languages as translations
from generator.output import pipeline
from generator.project import Project
from tests.conftest import LIBRARY
from tests.test_pipeline import assert_text_complete, squeeze

PDFUA = "{http://www.aiim.org/pdfua/ns/id/}"
PDFAID = "{http://www.aiim.org/pdfa/ns/id/}"


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[str, object]:
    """wab2 in English, built plain and as each variant: {variant: path}."""
    project = Project.at(LIBRARY, tmp_path_factory.mktemp("variants"))
    source = LIBRARY / "wab2.yaml"
    return {
        variant: pipeline.build(
            project, pipeline.SheetTarget(source), "en", "pdf", pipeline.BuildOptions(pdf_variant=variant)
        ).path
        for variant in (None, "pdf/ua-1", "pdf/a-3b")
    }


def english_wab2():
    return translations.translated(Project.at(LIBRARY), LIBRARY / "wab2.yaml", "en")


def structure(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary]:
    """Every structure element, in the order of the tree (depth first): the order a screen reader reads."""
    found = []

    def walk(node):
        if isinstance(node, pikepdf.Dictionary) and "/S" in node:
            found.append(node)
        kids = node.get("/K") if isinstance(node, pikepdf.Dictionary) else None
        for kid in kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []:
            walk(kid)

    walk(pdf.Root.StructTreeRoot)
    return found


def kinds(pdf: pikepdf.Pdf) -> list[str]:
    return [str(element.S) for element in structure(pdf)]


def test_names_never_overwrite_the_plain_pdf(variants):
    assert [path.name for path in variants.values()] == ["wab2.en.pdf", "wab2.ua-1.en.pdf", "wab2.a-3b.en.pdf"]


def test_pdf_ua_1_declares_itself_and_has_what_it_asks_for(variants):
    with pikepdf.open(variants["pdf/ua-1"]) as pdf:
        with pdf.open_metadata() as metadata:
            assert metadata[f"{PDFUA}part"] == "1"
            assert metadata["dc:title"] == "Warhammer Ancient Battles — Reference sheet"
        assert str(pdf.Root.Lang) == "en"
        assert bool(pdf.Root.MarkInfo.Marked) and bool(pdf.Root.ViewerPreferences.DisplayDocTitle)
        found = kinds(pdf)
        for kind in ("/H1", "/H2", "/H3", "/Table", "/TH", "/TD", "/L", "/LI", "/LBody"):
            assert kind in found, kind
        figures = [element for element in structure(pdf) if element.S == "/Figure"]
        assert all("/Alt" in figure for figure in figures)  # the sheets draw no picture: rules and fills are CSS
        assert pdf.check_pdf_syntax() == []  # qpdf finds nothing wrong


def test_table_headers_are_header_cells(variants):
    with pikepdf.open(variants["pdf/ua-1"]) as pdf:
        tables = [element for element in structure(pdf) if element.S == "/Table"]
        headed = [table for table in tables if "/THead" in (str(inside.S) for inside in structure_of(table))]
        assert headed and len(headed) < len(tables)  # wab2 has tables with a header row, and some without
        for table in headed:
            head = next(inside for inside in structure_of(table) if inside.S == "/THead")
            assert {str(cell.S) for cell in structure_of(head) if str(cell.S) in ("/TH", "/TD")} == {"/TH"}


def structure_of(element: pikepdf.Dictionary) -> list[pikepdf.Dictionary]:
    found = []
    kids = element.get("/K")
    for kid in kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            found.append(kid)
            found.extend(structure_of(kid))
    return found


def test_pdf_a_3b_declares_itself_with_its_colours_and_fonts_embedded(variants):
    with pikepdf.open(variants["pdf/a-3b"]) as pdf:
        with pdf.open_metadata() as metadata:
            assert (metadata[f"{PDFAID}part"], metadata[f"{PDFAID}conformance"]) == ("3", "B")
        intents = pdf.Root.OutputIntents
        assert len(intents) == 1 and "/DestOutputProfile" in intents[0]
        fonts = [font for page in pdf.pages for font in page.Resources.Font.values()]
        descriptors = [
            font.DescendantFonts[0].FontDescriptor if "/DescendantFonts" in font else font.FontDescriptor
            for font in fonts
        ]
        assert descriptors and all({"/FontFile", "/FontFile2", "/FontFile3"} & set(d.keys()) for d in descriptors)
        assert pdf.check_pdf_syntax() == []


def test_the_plain_pdf_declares_no_standard(variants):
    with pikepdf.open(variants[None]) as pdf, pdf.open_metadata() as metadata:
        assert f"{PDFUA}part" not in metadata and f"{PDFAID}part" not in metadata


# --- reading order ------------------------------------------------------------------------------------------


def marked_texts(path) -> dict[tuple[int, int], str]:
    """(page index, marked-content id) → the text drawn in it, as PDFium reads the page."""
    found: dict[tuple[int, int], str] = {}
    document = pypdfium2.PdfDocument(path)
    for index in range(len(document)):
        page = document[index]
        text_page = page.get_textpage()
        for item in page.get_objects(max_depth=8):
            mcid = pdfium_c.FPDFPageObj_GetMarkedContentID(item.raw)
            if item.type != pdfium_c.FPDF_PAGEOBJ_TEXT or mcid < 0:
                continue
            size = pdfium_c.FPDFTextObj_GetText(item.raw, text_page.raw, None, 0)
            buffer = ctypes.create_string_buffer(size)
            pdfium_c.FPDFTextObj_GetText(
                item.raw, text_page.raw, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size
            )
            text = buffer.raw.decode("utf-16-le").rstrip("\x00").replace("\x02", "")  # \x02: a hyphen at a line end
            found[(index, mcid)] = found.get((index, mcid), "") + text
    document.close()
    return found


def reading_order(path) -> str:
    """The text of the PDF in the order of its structure tree: what a screen reader says."""
    texts = marked_texts(path)
    parts = []
    with pikepdf.open(path) as pdf:
        pages = {page.objgen: number for number, page in enumerate(pdf.pages)}

        def walk(node, page):
            if isinstance(node, pikepdf.Dictionary):
                page = pages.get(node.Pg.objgen, page) if "/Pg" in node else page
                if "/MCID" in node:
                    parts.append(texts.get((page, int(node.MCID)), ""))
                    return
                kids = node.get("/K")
                for kid in kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []:
                    walk(kid, page)
            elif isinstance(node, int):
                parts.append(texts.get((page, int(node)), ""))

        walk(pdf.Root.StructTreeRoot, None)
    return " ".join(parts)


def test_the_structure_reads_in_the_order_of_the_columns(variants):
    """Every fact in order within its block, and the sections one after the other, as the columns run."""
    sheet = english_wab2()
    text = reading_order(variants["pdf/ua-1"])
    assert_text_complete(text, sheet)
    folded = squeeze(text).casefold()
    position = 0
    for section in sheet.sections:  # each heading after the one before
        position = folded.find(squeeze(section.title).casefold(), position)
        assert position >= 0, f"section '{section.id}' is missing or out of order"
    assert folded.startswith(squeeze(sheet.game).casefold())  # the header first, not after the columns


def test_a_numbered_step_reads_its_number_first_also_when_continued(variants):
    """ "1. Start of turn", not "Start of turn … 1."; and a list continued in the next column goes on counting."""
    text = squeeze("".join(page.extract_text() for page in PdfReader(variants[None]).pages))
    sheet = english_wab2()
    numbered = [
        (block.id, number, step.title or step.text)
        for block in sheet.blocks()
        if block.type == "sequence" and block.numbering == "1"
        for number, step in enumerate(block.steps, start=1)
    ]
    numbered += [
        (block.id, number, line)
        for block in sheet.blocks()
        if block.type == "text"
        for entry in block.content
        for number, line in enumerate(entry.numbered or [], start=1)
    ]
    assert len(numbered) > 20
    from generator.rendering.render import Inline

    inline = Inline(sheet, "en")
    missing = [
        (ident, number)
        for ident, number, line in numbered
        if squeeze(f"{number}.{inline.plain(line)}")[:24] not in text
    ]
    assert not missing, missing
