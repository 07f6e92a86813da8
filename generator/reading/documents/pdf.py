"""PDF read as a layout, through pdfplumber (pdfminer.six): every character with its box, size, font and colour,
the ruling lines and rectangles, and the tables their rules draw (pdfplumber's table finder, lines strategy).
`pdf_layout` then puts the page back together: columns and reading order, lines, cells, wrapped cells joined,
headings, running headers and a table of contents left out.

PDFium (pypdfium2, already what qrs draws previews with) measures the file first, in C and before pdfminer parses
a page in Python: the page count, each page's size, its objects and its characters, so that a PDF of a million
operators or a page 2e9 pt wide is refused before anything is allocated for it; an encrypted PDF or one without
a text layer (a scan) is refused there too, with what to do."""

from __future__ import annotations

import io
import re
from pathlib import Path

from generator.errors import UserError
from generator.reading.documents.document import Document
from generator.reading.documents.pdf_layout import Grid, document_of

MAX_PAGES = 40
MAX_OBJECTS = 100_000  # page objects of one page: a sheet's page holds a few thousand
MAX_CHARACTERS = 200_000  # characters of one page
# The PDF format's own bound on a page's side (ISO 32000, annex C: 14400 units, 200 inches); a page wider than
# that is no sheet's (2e9 pt asked the old column finder for 22 GB).
MAX_PAGE_SIDE = 14_400
# Bold is a font named so; a semibold (WeasyPrint's sheets set a dice table's names in one) reads as plain, as
# PDFium's weight read it. TeX's Computer Modern names its bold by an abbreviation: CMBX10, CMBX12, CMB10.
BOLD = re.compile(r"(?<!semi)(?<!semi-)(?<!demi)(?<!demi-)bold|black|heavy|\bcmbx|\bcmb\d", re.I)
# Producers that hyphenate words at a line's end by themselves: there a hyphen at a line's end is a break, unless
# the document writes the word with it elsewhere; Word, browsers and Pages break lines only at real hyphens.
HYPHENATING = re.compile(r"tex|weasyprint|indesign|scribus|quarkxpress|affinity", re.I)
GRID = {"vertical_strategy": "lines", "horizontal_strategy": "lines"}


def read(path: Path, raw: bytes) -> Document:
    """The document a PDF holds; UserError at file:1:1 for a PDF qrs cannot or may not read."""
    _measured(path, raw)
    import pdfplumber

    try:
        pdf = pdfplumber.open(io.BytesIO(raw))
    except Exception as error:  # pdfminer raises many kinds of its own for a damaged file
        raise UserError.at(path, 1, 1, f"cannot read the PDF: {error}; nothing written") from None
    with pdf:
        producer = " ".join(str(pdf.metadata.get(key, "")) for key in ("Producer", "Creator"))
        pages = [_page(page) for page in pdf.pages]
    return document_of(pages, hyphenating=bool(HYPHENATING.search(producer)))


def _measured(path: Path, raw: bytes) -> None:
    """The file measured by PDFium before it is read: refused at file:1:1 when it is encrypted, too large in pages,
    objects, characters or page size, or when it holds no text at all."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        pdf = pdfium.PdfDocument(raw)
    except pdfium.PdfiumError as error:
        if "password" in str(error).lower():
            _refuse_encrypted(path)
        raise UserError.at(path, 1, 1, f"cannot read the PDF: {error}; nothing written") from None
    if pdfium_c.FPDF_GetSecurityHandlerRevision(pdf.raw) != -1:
        _refuse_encrypted(path)
    if len(pdf) > MAX_PAGES:
        raise UserError.at(
            path,
            1,
            1,
            f"the PDF has {len(pdf)} pages; a sheet to import has at most {MAX_PAGES}: "
            "split it (qrs imports one sheet a file); nothing written",
        )
    characters = 0
    for number in range(len(pdf)):
        page = pdf[number]
        width, height = page.get_size()
        if not (0 < width <= MAX_PAGE_SIDE and 0 < height <= MAX_PAGE_SIDE):
            raise UserError.at(
                path,
                1,
                1,
                f"page {number + 1} of the PDF measures {width:g} × {height:g} pt; a PDF's "
                f"page measures at most {MAX_PAGE_SIDE} pt a side: refused, nothing written",
            )
        objects = pdfium_c.FPDFPage_CountObjects(page.raw)
        if objects > MAX_OBJECTS:
            raise UserError.at(
                path,
                1,
                1,
                f"page {number + 1} of the PDF draws {objects} objects; a sheet's page draws "
                f"at most {MAX_OBJECTS}: refused, nothing written",
            )
        count = page.get_textpage().count_chars()
        if count > MAX_CHARACTERS:
            raise UserError.at(
                path,
                1,
                1,
                f"page {number + 1} holds {count} characters; at most {MAX_CHARACTERS}: refused, nothing written",
            )
        characters += count
    if not characters:
        raise UserError.at(
            path,
            1,
            1,
            "the file holds no text: a scanned PDF holds pictures of its text, not its "
            "letters: give it a text layer first (OCR, e.g. `ocrmypdf in.pdf out.pdf`) "
            "and import that; nothing written",
        )


def _refuse_encrypted(path: Path) -> None:
    raise UserError.at(
        path,
        1,
        1,
        "the PDF is encrypted (a password or a copy protection): qrs reads no encrypted "
        "PDF; open it, save or print it as a PDF without protection, and import that "
        "copy; nothing written",
    )


def _page(page) -> tuple[float, float, list, list, list]:
    """(width, height, characters, grids, rules) of one page, in PDF space (y up): characters as
    (char, left, bottom, right, top, size, weight, accent); grids: the tables ruled on all sides; rules: the
    horizontal ones, (left, right, y)."""
    width, height = float(page.width), float(page.height)
    chars = [_char(char) for char in page.chars if char.get("upright", True)]
    grids = []
    for table in page.find_tables(GRID):
        grid = _grid(table, height)
        if grid:
            grids.append(grid)
    rules = [
        (edge["x0"], edge["x1"], height - edge["top"]) for edge in page.horizontal_edges if edge["x1"] - edge["x0"] > 20
    ]
    return width, height, chars, grids, rules


def _char(char: dict) -> tuple:
    weight = 700 if BOLD.search(char.get("fontname") or "") else 400
    return (
        char["text"],
        float(char["x0"]),
        float(char["y0"]),
        float(char["x1"]),
        float(char["y1"]),
        round(float(char["size"]), 1),
        weight,
        _accent(char.get("non_stroking_color")),
    )


def _accent(colour) -> bool:
    """A colour that is neither black, grey nor white (a title set in the sheet's colour)."""
    if not isinstance(colour, (tuple, list)) or len(colour) not in (3, 4):
        return False
    try:
        values = [float(value) for value in colour]
    except (TypeError, ValueError):
        return False
    if len(values) == 4:  # CMYK
        cyan, magenta, yellow, black = values
        values = [(1 - cyan) * (1 - black), (1 - magenta) * (1 - black), (1 - yellow) * (1 - black)]
    red, green, blue = (value * 255 for value in values)
    return max(red, green, blue) - min(red, green, blue) > 24 and max(red, green, blue) < 230


def _grid(table, height: float) -> Grid | None:
    """A table ruled on every side, kept when it is one: three rows or more (rules between its rows), two columns
    or more, and few cells merged (a table ruled only above and below its body reads as one tall row: it is read
    from its text instead)."""
    rows = [row.cells for row in table.rows]
    if len(rows) < 3 or max(len(row) for row in rows) < 2:
        return None
    cells = [cell for row in rows for cell in row]
    if sum(1 for cell in cells if cell is None) > 0.25 * len(cells):
        return None
    left, top, right, bottom = table.bbox
    boxes = [
        [None if cell is None else (cell[0], height - cell[3], cell[2], height - cell[1]) for cell in row]
        for row in rows
    ]
    return Grid((left, height - bottom, right, height - top), boxes)
