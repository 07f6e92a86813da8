"""PDF through pypdfium2's text API (PDFium, the engine of Chrome's viewer, already what qrs draws previews with):
each character with its box, size and weight. Pages are cut into their columns at the gutters no character
crosses, lines are rebuilt from baselines, cells from gaps wider than a word space, headings from a larger type,
bold from the font's weight; lines repeated at the top or foot of every page (running headers, footers, page
numbers) are dropped. The lines so rebuilt are then read as plain text (`text`), which joins the words hyphenated
at a line's end and finds the tables, lists and headings."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from generator.errors import UserError
from generator.source.importer import text as plain_text
from generator.source.importer.document import Document

MAX_PAGES = 40
MAX_OBJECTS = 100_000  # page objects of one page: a sheet's page holds a few thousand
MAX_CHARACTERS = 200_000  # characters of one page
CELL_GAP = 1.1  # a gap wider than this many ems separates two cells
WORD_GAP = 0.18


def read(path: Path, raw: bytes) -> Document:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        pdf = pdfium.PdfDocument(raw)
    except pdfium.PdfiumError as error:
        raise UserError.at(path, 1, 1, f"cannot read the PDF: {error}") from None
    if len(pdf) > MAX_PAGES:
        raise UserError.at(path, 1, 1, f"the PDF has {len(pdf)} pages; a sheet to import has at most {MAX_PAGES}")
    pages = []
    for number in range(len(pdf)):
        page = pdf[number]
        objects = pdfium_c.FPDFPage_CountObjects(page.raw)
        if objects > MAX_OBJECTS:
            raise UserError.at(path, 1, 1, f"page {number + 1} of the PDF draws {objects} objects; a sheet's page draws "
                                           f"at most {MAX_OBJECTS}: refused, nothing written")
        textpage = page.get_textpage()
        count = textpage.count_chars()
        if count > MAX_CHARACTERS:
            raise UserError.at(path, 1, 1, f"page {number + 1} holds {count} characters; at most {MAX_CHARACTERS}")
        width, height = page.get_size()
        chars = []
        for index in range(count):
            char = textpage.get_text_range(index, 1)
            if not char or char in "\r\n\x02\ufffe":
                continue
            left, bottom, right, top = textpage.get_charbox(index)
            size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index) or (top - bottom)
            weight = pdfium_c.FPDFText_GetFontWeight(textpage.raw, index)
            chars.append((char, left, bottom, right, top, round(size, 1), weight))
        pages.append((width, height, chars))
    return _document(pages)


def _document(pages) -> Document:
    laid = [_columns(width, chars) for width, _, chars in pages]
    lines_of_pages = [[_line_text(line, min(char[1] for char in column)) for column in columns
                       for line in _lines(column)] for columns in laid]
    body = Counter(char[5] for _, _, chars in pages for char in chars if not char[0].isspace())
    body_size = body.most_common(1)[0][0] if body else 10
    sizes = sorted({size for size in body if size > body_size * 1.12}, reverse=True)[:3]
    repeated = _running(pages, lines_of_pages)
    text_lines, origins, dropped = [], [], []
    for number, lines in enumerate(lines_of_pages, start=1):
        for at, (text, size, bold) in enumerate(lines):
            key = re.sub(r"\d+", "#", text.strip())
            if key in repeated or re.fullmatch(r"\s*(page\s*)?\d+(\s*/\s*\d+)?\s*", text, re.I):
                dropped.append((f"page {number}", text.strip()))
                continue
            if size in sizes and "\t" not in text.strip("\t"):
                level = sizes.index(size) + 1 if len(sizes) > 1 else 2
                text = "#" * level + " " + text.replace("\t", " ").replace("**", "")
            elif bold and "\t" not in text.strip("\t") and len(text) < 80 and text.strip().startswith("**"):
                text = "#### " + text.replace("**", "")
            if at == 0 and text_lines:
                text_lines.append("")
                origins.append(f"page {number}")
            text_lines.append(text)
            origins.append(f"page {number}, line {at + 1}")
    document = plain_text.read("\n".join(text_lines))
    for node in document.nodes:
        match = re.match(r"line (\d+)", node.origin)
        if match and int(match.group(1)) - 1 < len(origins):
            node.origin = origins[int(match.group(1)) - 1]
    document.fmt, document.dropped = "pdf", dropped
    return document


def _running(pages, lines_of_pages) -> set[str]:
    """Lines (digits aside) found on most pages: running headers and footers."""
    if len(pages) < 2:
        return set()
    counts = Counter()
    for lines in lines_of_pages:
        seen = {re.sub(r"\d+", "#", text.strip()) for text, _, _ in [*lines[:3], *lines[-3:]]}
        counts.update(seen)
    return {key for key, count in counts.items() if count >= max(2, len(pages) - 1) and key}


def _columns(width: float, chars) -> list[list]:
    """The page's characters cut into its columns, left to right, at the gutters no character crosses."""
    if not chars:
        return []
    covered = [False] * (int(width) + 2)
    for char in chars:
        if char[0].isspace():
            continue
        for x in range(max(0, int(char[1])), min(len(covered), int(char[3]) + 1)):
            covered[x] = True
    gutters, start = [], None
    for x, used in enumerate(covered):
        if not used and start is None:
            start = x
        elif used and start is not None:
            if x - start >= 8 and width * 0.15 < (start + x) / 2 < width * 0.85:
                gutters.append((start + x) / 2)
            start = None
    bounds = [0, *gutters, width + 1]
    columns = [[char for char in chars if low <= (char[1] + char[3]) / 2 < high] for low, high in zip(bounds, bounds[1:])]
    return [column for column in columns if column]


def _lines(chars) -> list[list]:
    """Characters grouped into lines by baseline, top to bottom, each line's characters left to right."""
    lines: list[list] = []
    for char in sorted(chars, key=lambda c: (-round(c[2], 0), c[1])):
        if lines and abs(lines[-1][0][2] - char[2]) <= max(1.5, char[5] * 0.3):
            lines[-1].append(char)
        else:
            lines.append([char])
    return [sorted(line, key=lambda c: c[1]) for line in lines]


def _line_text(line, left: float) -> tuple[str, float, bool]:
    """A line's text, cells separated by tabs (a tab first when it starts right of its column's edge, as a cell's
    second line does), bold runs marked; its type size; whether it is all bold."""
    out, previous, bold_open = [], None, False
    first = next((char for char in line if not char[0].isspace()), None)
    if first is not None and first[1] - left > CELL_GAP * max(first[5], 1):
        out.append("\t")
    sizes = Counter(char[5] for char in line if not char[0].isspace())
    size = sizes.most_common(1)[0][0] if sizes else 0
    letters = [char for char in line if not char[0].isspace()]
    all_bold = bool(letters) and all(char[6] >= 600 for char in letters)
    spaced = False
    for char in line:
        if char[0].isspace():
            spaced = True
            continue
        if previous is not None:
            gap = char[1] - previous[3]
            em = max(previous[5], 1)
            if gap > CELL_GAP * em:
                if bold_open:
                    out.append("**")
                    bold_open = False
                out.append("\t")
            elif gap > WORD_GAP * em or spaced:
                if bold_open and char[6] < 600:
                    out.append("**")
                    bold_open = False
                out.append(" ")
        bold = char[6] >= 600 and not all_bold
        if bold and not bold_open:
            out.append("**")
            bold_open = True
        elif not bold and bold_open:
            out.append("**")
            bold_open = False
        out.append(char[0])
        previous, spaced = char, False
    if bold_open:
        out.append("**")
    text = "".join(out)
    return (f"**{text}**" if all_bold else text), size, all_bold
