"""Word files (.docx) through python-docx: paragraphs in body order with their styles (Title, Heading N, List
Number, List Bullet) and runs (bold, italic), tables with their cells. The zip is measured before it is opened:
too many parts, or parts that unpack to more than a sheet could hold (a zip bomb), are refused."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from generator.errors import UserError
from generator.reading.documents.document import Document, Heading, ListBlock, ListItem, Paragraph, Table
from generator.reading.documents.inline import runs

MAX_UNPACKED = 64 * 1024 * 1024  # every part of the zip unpacked: a sheet's text and pictures hold far less
MAX_PARTS = 2000
MAX_RATIO = 200  # a part that unpacks to 200 times its packed size is no document's (text packs about 5 to 1)


def guard(path: Path, raw: bytes) -> None:
    """UserError (file:1:1) for a zip that is no Word file, or that would unpack to too much."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise UserError.at(path, 1, 1, f"not a Word file (.docx is a zip archive: {error})") from None
    if len(members) > MAX_PARTS:
        raise UserError.at(path, 1, 1, f"the archive holds {len(members)} parts; a Word file of a sheet holds at most {MAX_PARTS}")
    total = sum(member.file_size for member in members)
    if total > MAX_UNPACKED:
        raise UserError.at(path, 1, 1, f"the archive unpacks to {total} bytes; a sheet's Word file unpacks to at most "
                                       f"{MAX_UNPACKED} bytes (a zip bomb?): refused, nothing written")
    for member in members:
        if member.compress_size and member.file_size / member.compress_size > MAX_RATIO and member.file_size > 1_000_000:
            raise UserError.at(path, 1, 1, f"the part {member.filename} unpacks to {member.file_size} bytes from "
                                           f"{member.compress_size} (a zip bomb?): refused, nothing written")
    if "word/document.xml" not in {member.filename for member in members}:
        raise UserError.at(path, 1, 1, "not a Word file: the archive has no word/document.xml (.odt and .doc are not "
                                       "read: save the sheet as .docx)")


def read(path: Path, raw: bytes) -> Document:
    guard(path, raw)
    import docx
    from docx.table import Table as DocxTable
    from docx.text.paragraph import Paragraph as DocxParagraph

    try:
        word = docx.Document(io.BytesIO(raw))
    except Exception as error:  # noqa: BLE001 - python-docx raises many kinds for a damaged file
        raise UserError.at(path, 1, 1, f"cannot read the Word file: {type(error).__name__}: {error}") from None
    nodes: list = []
    count = 0
    for child in word.element.body.iterchildren():
        count += 1
        origin = f"paragraph {count}"
        if child.tag.endswith("}p"):
            _paragraph(DocxParagraph(child, word), origin, nodes)
        elif child.tag.endswith("}tbl"):
            table = DocxTable(child, word)
            rows = []
            for row in table.rows:
                cells, previous = [], None
                for cell in row.cells:
                    text = "\n".join(_runs(p) for p in cell.paragraphs).strip()
                    cells.append("" if cell._tc is previous else " ".join(text.split()))  # a merged cell once
                    previous = cell._tc
                rows.append(cells)
            nodes.append(Table(rows, None, f"table at paragraph {count}"))
    return Document(nodes, "docx")


def _runs(paragraph) -> str:
    return runs([(run.text, bool(run.bold), bool(run.italic)) for run in paragraph.runs]) or \
        " ".join(paragraph.text.split())


def _paragraph(paragraph, origin: str, nodes: list) -> None:
    text = _runs(paragraph)
    if not text.strip():
        return
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    heading = re.match(r"^Heading (\d)$", style)
    if style == "Title":
        nodes.append(Heading(1, text, origin))
    elif heading:
        nodes.append(Heading(int(heading.group(1)) + 1, text, origin))  # the Title is the level above Heading 1
    elif style.startswith("List") or paragraph._p.pPr is not None and paragraph._p.pPr.numPr is not None:
        ordered = "Number" in style
        level = int(re.search(r"(\d)$", style).group(1)) if re.search(r"\d$", style) else 1
        if nodes and isinstance(nodes[-1], ListBlock) and nodes[-1].ordered == ordered or \
                nodes and isinstance(nodes[-1], ListBlock) and level > 1:
            items = nodes[-1].items
            while level > 1 and items and items[-1].children is not None:
                items = items[-1].children if level > 1 and items else items
                level -= 1
            items.append(ListItem(text))
        else:
            nodes.append(ListBlock([ListItem(text)], ordered, "1", origin))
    else:
        nodes.append(Paragraph(text, origin))
