"""A PDF's pages put back together as a document: each page's lines (`pdf_lines`: columns, reading order, cells)
told apart into tables and text (`pdf_tables`); headings come from a larger type, a block's title from a line in
bold; lines repeated at the top or foot of every page (running headers, footers, page numbers) and a table of
contents are dropped and listed (`pdf_mending`); a table going on in the next column or at the top of the next
page joins the one before."""

from __future__ import annotations

import re
from collections import Counter

from generator.reading.documents import pdf_mending as mending
from generator.reading.documents import pdf_tables as tables
from generator.reading.documents import text as plain_text
from generator.reading.documents.document import Document, Heading, Table
from generator.reading.documents.inline import inline
from generator.reading.documents.pdf_lines import Grid, marked, page_lines

__all__ = ["Grid", "document_of"]

# A heading's type is at least this much larger than the body's: LaTeX's \large heading (\subsection) over an
# 11 pt body is 12 pt, 1.095 times it (over a 10 or 12 pt body, 1.2 times)
HEADING_SIZE = 1.08


def document_of(pages, hyphenating: bool = False) -> Document:
    """The document of pages read by `pdf`: [(width, height, characters, grids, rules), …]."""
    mending.HYPHENS = mending.Hyphens(set(), hyphenating)
    try:
        return _document(pages)
    finally:
        mending.HYPHENS = mending.Hyphens(set(), False)


def _document(pages) -> Document:
    body = Counter(char[5] for _, _, chars, _, _ in pages for char in chars if not char[0].isspace())
    body_size = body.most_common(1)[0][0] if body else 10
    sizes = sorted({size for size in body if size > body_size * HEADING_SIZE}, reverse=True)[:3]
    pages_lines = [page_lines(number, page) for number, page in enumerate(pages, start=1)]
    mending.HYPHENS.words = mending.vocabulary(pages_lines)
    repeated = mending.running(pages_lines)
    lines, dropped = [], []
    for page in pages_lines:
        header = False  # a table's header repeated atop the page, left out: the line under it goes on that table
        for at, line in enumerate(page, start=1):
            line.origin = f"page {line.page}, line {at}"
            text = line.text()
            key = re.sub(r"\d+", "#", text.strip())
            continued = re.search(r"\((suite|cont\.?|continued)\)\s*$", text, re.I) and len(text) < 80
            number = line.edge and re.fullmatch(r"\s*(page\s*)?\d+(\s*(/|of|sur)\s*\d+)?\s*", text, re.I)
            if not line.grid and (key in repeated and line.edge or number or continued):
                dropped.append((line.origin, text.strip()))
                header = len(line.cells) >= 3
                continue
            line.hangs, header = header, False
            line.heading = sizes.index(line.size) + 1 if line.size in sizes else 0
            lines.append(line)
    lines = mending.without_contents(lines, dropped)
    nodes = _title_runs(lines[0]) if lines and lines[0].heading else []
    if nodes:
        lines = lines[1:]
    for kind, chunk in tables.chunked(lines):
        made = _made(kind, chunk, body_size)
        for node in made:
            if not _continued(nodes, node, dropped):
                nodes.append(node)
    if nodes and isinstance(nodes[0], Heading):
        nodes[0].level = 1
    plain_text.block_titles(nodes)
    return Document(nodes, "pdf", dropped)


def _made(kind: str, chunk: list, body_size: float) -> list:
    """The nodes a run of lines makes: a ruled table, a table rebuilt from its lines (a list set with a hanging
    indent, one column, read as text), a header over keys whose other columns are empty, or text."""
    if kind == "grid":
        return [chunk[0].table()]
    if kind == "table":
        return tables.rebuilt(chunk) or _text(chunk, 0, indented=True)
    if kind == "keys":
        return tables.keyed(chunk) or _text(chunk, body_size)
    return _text(chunk, body_size)


def _continued(nodes: list, node, dropped: list) -> bool:
    """A table that goes on from the one just before: in the next column, its header repeated (dropped), or at the
    top of the next page as wide, its repeated header dropped with the page's running lines."""
    last = nodes[-1] if nodes else None
    if not (
        isinstance(node, Table)
        and isinstance(last, Table)
        and node.rows
        and last.rows
        and len(node.rows[0]) == len(last.rows[0])
    ):
        return False
    if node.rows[0] == last.rows[0]:
        last.rows += node.rows[1:]
        dropped.append((node.origin, "\t".join(node.rows[0])))
        return True
    if _page_of(node.origin) > _page_of(last.origin) and _line_of(node.origin) <= 4 and len(node.rows[0]) >= 2:
        last.rows += node.rows
        return True
    return False


def _line_of(origin: str) -> int:
    match = re.search(r"line (\d+)", origin)
    return int(match.group(1)) if match else 0


def _page_of(origin: str) -> int:
    match = re.match(r"page (\d+)", origin)
    return int(match.group(1)) if match else 0


def _title_runs(line) -> list:
    """The sheet's first line, cut where the type changes (the game's name in bold, then the title, the subtitle):
    one top heading a run."""
    runs: list[list] = []
    for word in line.words():
        if runs and runs[-1][-1][3] == word[3]:
            runs[-1].append(word)
        else:
            runs.append([word])
    return [Heading(1, inline(" ".join(word[1] for word in run)), line.origin) for run in runs[:3]] + (
        [Heading(1, inline(" ".join(word[1] for run in runs[3:] for word in run)), line.origin)] if runs[3:] else []
    )


def _text(lines, body_size: float, indented: bool = False) -> list:
    """A stretch of text lines, read as plain text: headings from their size, a whole line in bold as a block's
    title, the rest as paragraphs, lists and terms."""
    out, origins = [], []
    for line in lines:
        text = " ".join(marked(cell, line.bold) for cell in line.cells)
        numbered = re.match(r"^(\d{1,2}[.)])\s+(\S.*)$", text.replace("**", "")) if line.bold else None
        if line.heading:
            text = "#" * min(line.heading, 3) + " " + text.replace("**", "")
        elif numbered:  # a numbered step in bold ("1. Mouvements"): an item of its list, not a block's title
            text = f"{numbered.group(1)} **{numbered.group(2)}**"
        elif (line.bold or line.accent) and len(text) < 80 and not indented:
            text = "#### " + text
        elif line.bold:
            text = f"**{text}**"
        if indented and out and not re.match(r"^\s*([+\-−±]\s?\d|\d)", text):
            out[-1] += " " + text  # a hanging line of the item above
            continue
        out.append(text)
        origins.append(line.origin)
    mending.hyphens_resolved(out, origins)
    document = plain_text.read("\n".join(out), titled=False)
    for node in document.nodes:
        match = re.match(r"line (\d+)", node.origin)
        if match and int(match.group(1)) - 1 < len(origins):
            node.origin = origins[int(match.group(1)) - 1]
    return document.nodes
