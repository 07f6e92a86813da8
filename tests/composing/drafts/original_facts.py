"""The facts of another author's document read without qrs's readers, and how many of them a draft keeps (#44: "every
form keeps ≥ 95 % of its original's facts, counted strictly (cells whole, in their row)").

An original's facts: each table cell with its row's key (the row's first cell), each word of its paragraphs, list
items and headings. They are read with other parsers than qrs's where there is one: html5lib for HTML (qrs uses the
standard library's html.parser), python-docx's tables and paragraphs for Word, markdown-it-py's token stream read
here for Markdown (qrs parses with it too, but this reads the cells from the tokens itself), a plain split on blank
lines for plain text.

A draft keeps a cell when one of its rows (a dice row, a table row, a matrix row, a step, an item, a paragraph, or the
block's header: title and column titles) holds both the cell and its row's key whole, as words in order; it keeps a
word when any string of the draft holds it."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import yaml

Fact = tuple[str, ...]  # (row key, cell) of a table; (word,) of a text

# a roll as authors key their rows: "3", "1-3", "12+", "00", "2 ou -", "12 ou +"
_ROLL = re.compile(r"\d{1,3}(?:\s*-\s*\d{1,3}|\+|\s+(?:ou|or|et)\s+(?:\+|-|plus|moins|more|less))?")
_WORD = re.compile(r"[+-]?\w+(?:['-]\w+)*\+?")
# a static site's front matter (Jekyll: "---", "layout: default", "---"): its settings, not the document's text, which
# qrs leaves out and lists
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?:[^\n]*\n)*?---[ \t]*\n")
_BLOCKS = {"p", "li", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "caption", "figcaption", "blockquote"}


def normal(text: str) -> str:
    """Text as both sides are compared: markup stars and backslash escapes gone, typographic quotes, apostrophes and
    dashes as typed on a keyboard ("--" as qrs sets it, a dash), spaces collapsed, case folded."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"\\(.)", r"\1", text.replace("*", ""))
    text = re.sub(r"[‘’‚‛′`]", "'", re.sub(r"[“”„‟″«»]", '"', text))
    text = re.sub(r"-{2,}", "-", re.sub(r"[‐‑‒–—―−]", "-", text))
    # an open end written out ("12 ou +", "12 or more") is the roll qrs writes "12+": the same roll
    text = re.sub(r"(\d)\s+(?:ou|or|et|and)\s+(?:\+|plus|more)(?!\w)", r"\1+", text)
    return " ".join(text.split()).casefold()


def words(text: str) -> list[str]:
    """A text's words in order, punctuation between them left out (a roll's sign and range kept: "-1", "3-5",
    "12+")."""
    return _WORD.findall(normal(text))


def _is_roll(cell: str) -> bool:
    return bool(_ROLL.fullmatch(normal(cell)))


# the original's facts


def table_facts(rows: list[list[str]]) -> set[Fact]:
    """(row key, cell) for each cell of a table, as a reader looks a result up. Three ways of setting tables that qrs
    reads as what they are, counted so: tables set side by side in one, a column empty in every row between them
    (`|Action|AP| |Action|AP|`), each its own table; a row of rolls over a row of results (a table set across the
    page) read down its columns; a table set in halves (`| 1 | Athletic | 6 | Scrawny |`) read half by half, each
    half its own row, as qrs joins the halves into one table."""
    rows = [[" ".join(cell.split()) for cell in row] for row in rows]
    rows = [row for row in rows if any(row)]
    out: set[Fact] = set()
    for table in _side_by_side(rows):
        out |= _facts_of(table)
    return {(key, cell) for key, cell in out if words(cell)}  # an empty cell, or a dash for nothing, is no fact


def _side_by_side(rows: list[list[str]]) -> list[list[list[str]]]:
    """The tables a table holds, cut at each column empty in every row."""
    width = max((len(row) for row in rows), default=0)
    rows = [row + [""] * (width - len(row)) for row in rows]
    gutters = [at for at in range(width) if not any(row[at] for row in rows)]
    edges = [-1, *gutters, width]
    tables = [[row[start + 1 : end] for row in rows] for start, end in zip(edges, edges[1:]) if end > start + 1]
    return [[row for row in table if any(row)] for table in tables]


def _facts_of(rows: list[list[str]]) -> set[Fact]:
    out: set[Fact] = set()
    at = 0
    while at < len(rows):
        row = rows[at]
        below = rows[at + 1] if at + 1 < len(rows) else None
        if len(row) > 1 and all(map(_is_roll, row)) and below and not all(map(_is_roll, below)):
            out |= {(roll, cell) for roll, cell in zip(row, below)} | {(roll, roll) for roll in row}
            at += 2
            continue
        out |= {(part[0], cell) for part in _halves(row, rows) for cell in part}
        at += 1
    return out


def _halves(row: list[str], rows: list[list[str]]) -> list[list[str]]:
    """The row cut into the halves (or thirds, quarters) its table is set in: every half of every row but the first
    (a header may name the die: `| **d20** | **Background** | | |`) starts with a roll, or is empty."""
    for width in (2, 3):
        if len(row) > width and len(row) % width == 0:
            starts = [cells[at] for cells in rows[1:] for at in range(0, len(cells), width)]
            if starts and all(_is_roll(cell) or not cell for cell in starts) and any(starts):
                return [row[at : at + width] for at in range(0, len(row), width)]
    return [row]


def text_facts(text: str) -> set[Fact]:
    return {(word,) for word in words(text)}


def markdown_facts(path: Path) -> set[Fact]:
    """A Markdown file's facts from markdown-it-py's tokens: pipe tables' cells, the words of every other inline run
    (paragraphs, list items, headings), and its raw HTML blocks read as a browser shows them (`markup_facts`: pandoc
    writes a table whose cells hold several lines as an HTML table)."""
    from markdown_it import MarkdownIt

    text = _FRONT_MATTER.sub("", path.read_text(encoding="utf-8"))
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    out: set[Fact] = set()
    rows: list[list[str]] = []
    in_table = False
    for token in tokens:
        if token.type == "table_open":
            in_table, rows = True, []
        elif token.type == "table_close":
            in_table = False
            out |= table_facts(rows)
        elif token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and in_table:
            rows[-1].append(_inline_text(token))
        elif token.type == "inline":
            out |= text_facts(_inline_text(token))
        elif token.type == "html_block":
            out |= markup_facts(token.content)
    return out


def _inline_text(token) -> str:
    """An inline token's words: its text, code and escaped characters; its tags and emphasis marks left out."""
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "text_special"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def html_facts(path: Path) -> set[Fact]:
    return markup_facts(path.read_bytes())


def markup_facts(markup: str | bytes) -> set[Fact]:
    """HTML's facts through html5lib (a browser's parsing, not the standard library's html.parser qrs reads with):
    each table's rows of th and td cells, the words of its paragraphs, list items and headings."""
    import html5lib

    root = html5lib.parse(markup, namespaceHTMLElements=False)
    for hidden in [*root.iter("script"), *root.iter("style")]:
        hidden.clear()
    out: set[Fact] = set()
    in_table = {id(inner) for table in root.iter("table") for inner in table.iter()}
    for table in root.iter("table"):
        rows = [[_element_text(cell) for cell in row if cell.tag in ("td", "th")] for row in table.iter("tr")]
        out |= table_facts(rows)
    for element in root.iter():
        if element.tag in _BLOCKS and id(element) not in in_table:
            out |= text_facts(_element_text(element))
    return out


def _element_text(element) -> str:
    return " ".join("".join(element.itertext()).split())


def docx_facts(path: Path) -> set[Fact]:
    """A Word file's facts through python-docx itself: its tables' rows of cells, its body's paragraphs' words."""
    import docx

    document = docx.Document(str(path))
    out: set[Fact] = set()
    for table in document.tables:
        out |= table_facts([[cell.text for cell in row.cells] for row in table.rows])
    for paragraph in document.paragraphs:
        out |= text_facts(paragraph.text)
    return out


def plain_text_facts(path: Path) -> set[Fact]:
    """A plain text's facts: the words of its paragraphs (Project Gutenberg's Latin-1, read as Windows-1252), but
    its illustrations' captions ("[Illustration: …]"), which qrs leaves out and lists: no picture comes with them."""
    text = path.read_bytes().decode("cp1252", errors="replace")
    paragraphs = [part for part in re.split(r"\n\s*\n", text) if not part.strip().startswith("[Illustration")]
    return {fact for paragraph in paragraphs for fact in text_facts(paragraph)}


READERS = {".md": markdown_facts, ".html": html_facts, ".docx": docx_facts, ".txt": plain_text_facts}


def original_facts(path: Path) -> set[Fact]:
    return READERS[path.suffix](path)


# what the draft keeps


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [string for inner in value.values() for string in _strings(inner)]
    if isinstance(value, list):
        return [string for inner in value for string in _strings(inner)]
    return []


_ROWS = ("rows", "steps", "content", "items", "row_keys", "cells")


def draft_rows(block: dict) -> list[list[str]]:
    """A draft block's rows as a reader finds a result in them, each the list of its strings: its header (title,
    column titles, keys across), then each dice or table row (a dice row's inner roll too), matrix row (its key and
    its values), step (its number with it: a table numbered 1 to 12 may become a sequence), item or paragraph."""
    out = [_strings({key: value for key, value in block.items() if key not in _ROWS})]
    if block.get("type") == "matrix":
        out += [[key, cells] for key, cells in zip(block["row_keys"], block["cells"])]
    elif block.get("type") == "sequence":
        numbering = block.get("numbering", "1")
        out += _steps(block["steps"], (numbering[0] if isinstance(numbering, list) else numbering) == "1")
    elif block.get("type") == "text":
        for item in block["content"]:
            for kind, value in item.items():
                if kind == "terms":
                    out += [_strings(term) for term in value]
                elif kind in ("bullets", "numbered"):
                    out += [
                        [str(n), *_strings(each)] if kind == "numbered" else _strings(each)
                        for n, each in enumerate(value, start=1)
                    ]
                else:
                    out.append(_strings(value))
    else:
        for row in block.get("rows", []) + block.get("items", []):
            out.append(_strings(row))
            inner = row.get("then") if isinstance(row, dict) else None
            out += [_strings(each) for each in (inner or {}).get("rows", [])]
    return out


def _steps(steps: list[dict], numbered: bool) -> list[list[str]]:
    out = []
    for n, step in enumerate(steps, start=1):
        out.append(([str(n)] if numbered else []) + _strings({k: v for k, v in step.items() if k != "steps"}))
        out += _steps(step.get("steps", []), False)
    return out


def _holds(strings: list[list[str]], wanted: list[str]) -> bool:
    """One of the strings (as words) holds the wanted words whole and in order."""
    size = len(wanted)
    return any(wanted == have[at : at + size] for have in strings for at in range(len(have) - size + 1))


def kept(facts: set[Fact], draft_text: str) -> tuple[set[Fact], set[Fact]]:
    """(the facts the draft keeps, those it lost): a cell kept where a row of one of its blocks holds it and its
    row's key, a word where any string of the draft holds it."""
    draft = yaml.safe_load(draft_text)
    rows = [
        [words(string) for string in row]
        for section in draft.get("sections", [])
        for block in section.get("blocks", [])
        for row in draft_rows(block)
    ]
    every_word = {word for string in _strings(draft) for word in words(string)}
    found, lost = set(), set()
    for fact in facts:
        if len(fact) == 1:
            is_kept = fact[0] in every_word
        else:
            key, cell = (words(part) for part in fact)
            is_kept = any(_holds(row, cell) and _holds(row, key) for row in rows)
        (found if is_kept else lost).add(fact)
    return found, lost
