"""Is every fact of a sheet printed? Each title, cell, dice row, modifier, matrix value, step, keyword and note of
its blocks, found in the text read back from its PDF or web page, in the order of its block.

`printed` mirrors the block templates (templates/blocks/): a block type whose template prints its own texts in the
order of its fields needs nothing here (the model's `printed`); the types below print texts of their own making (a
dice table's header, a matrix's grid, a glossary's keywords) or in another order. Each text comes with its place in
the block's source, so that a missing one is named where the author edits it."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from generator.model.types import Subheading, verbatim_texts
from generator.rendering.inline import Inline

HYPHENS = "-\u2010\u00ad"
# The emoji variation selectors and the joiner choose a glyph's shape and print none of their own: a PDF read back
# has none of them after "⬆️"
UNINKED = "\ufe0e\ufe0f\u200d"
SHEET_LEVEL = "/"  # a place that starts here is in the sheet's data, not its block's (a glossary's keywords)


@dataclass(frozen=True)
class Missing:
    """A text of the source that the output lacks (or prints out of its block's order)."""

    block: str
    loc: tuple  # where in the sheet's data: ("sections", 0, "blocks", 2, "rows", 3, "cells", 1)
    text: str


def squeeze(text: str) -> str:
    """Text as printed, whatever its line breaks: white space and hyphenation dropped."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in text if not ch.isspace() and ch not in HYPHENS and ch not in UNINKED)


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return "".join(page.extract_text() for page in PdfReader(path).pages)


def missing(text: str, sheet) -> list[Missing]:
    """The texts of the sheet that `text` (a PDF's or a web page's) lacks, each block searched in its own order; and
    the credits, which the header prints once."""
    page_text = squeeze(text)
    inline = Inline(sheet, sheet.lang)
    lacking = []
    for place, block in sheet.placed_blocks():
        position = 0
        for loc, wanted in printed(block, sheet):
            wanted = squeeze(wanted if isinstance(wanted, AsTyped) else inline.plain(wanted))
            end = printed_end(page_text, wanted, position)
            if end < 0:
                lacking.append(Missing(block.id, loc[1:] if loc[0] == SHEET_LEVEL else place + loc, wanted))
                continue
            position = end
    if sheet.credits and page_text.count(squeeze(inline.plain(sheet.credits))) != 1:
        lacking.append(
            Missing("", ("credits",), f"{squeeze(inline.plain(sheet.credits))} (printed once, in the header)")
        )
    return lacking


# A unit cut between its lines (generator.rendering.cuts) is printed in parts, each of three lines at least, with
# what the top of the next column repeats between them (its headings marked continued, a table's header and the
# row's first cell, a page's foot and head): a part is MIN_PART printing characters or more, the gap under MAX_GAP.
MIN_PART = 30
MAX_GAP = 400


def printed_end(page_text: str, wanted: str, position: int) -> int:
    """Where `wanted` ends in `page_text` (both squeezed), printed from `position` on, whole or in parts as a unit
    cut between its lines is; -1 where it is not."""
    found = page_text.find(wanted, position)
    if found >= 0:
        return found + len(wanted)
    return _in_parts(page_text, wanted, position, len(page_text))


def _in_parts(page_text: str, wanted: str, position: int, window: int) -> int:
    """Where `wanted` ends printed in parts of MIN_PART characters or more, the first starting within `window` of
    `position`, each next one within MAX_GAP of the one before; -1 where it is not. Each place its first characters
    are printed is tried in turn (a sheet may print the same sentence in several places)."""
    if len(wanted) < MIN_PART:
        return -1
    head, stop = wanted[:MIN_PART], position + window + MIN_PART
    start = page_text.find(head, position, stop)
    while start >= 0:
        length = _common(page_text, start, wanted)
        if length == len(wanted):
            return start + length
        end = _in_parts(page_text, wanted[length:], start + length, MAX_GAP)
        if end >= 0:
            return end
        start = page_text.find(head, start + 1, stop)
    return -1


def _common(page_text: str, start: int, wanted: str) -> int:
    """How many of `wanted`'s first characters `page_text` prints from `start` on."""
    low, high = 0, len(wanted)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if page_text.startswith(wanted[:middle], start) else (low, middle - 1)
    return low


class AsTyped(str):
    """A text printed as typed, character for character (preformatted text): no markup, no typography."""


def printed(block, sheet) -> list[tuple[tuple, str]]:
    """The texts a block prints, in reading order, each with its place in the block's data."""
    found = [(("title",), block.title), (("intro",), block.lead("intro")), *_own_texts(block, sheet)]
    found += [
        (("notes", n, part), getattr(note, part)) for n, note in enumerate(block.notes) for part in ("id", "text")
    ]
    shared = sheet.notes_under(block)[len(block.notes) :]  # the sheet's notes it is the last block to mark
    found += [
        ((SHEET_LEVEL, "notes", sheet.notes.index(note), part), getattr(note, part))
        for note in shared
        for part in ("id", "text")
    ]
    found.append((("after",), block.lead("after")))
    return [(loc, text) for loc, text in found if text]


def _own_texts(block, sheet):
    """What the block's template prints of its own: as this module reads its type, else as its model says, a text
    typed as is (AsTyped) kept as typed."""
    if block.type in _BY_TYPE:
        return _BY_TYPE[block.type](block, sheet)
    as_typed = {loc for loc, _ in verbatim_texts(block)}
    return [(loc, AsTyped(text) if loc in as_typed else text) for loc, text in block.printed(sheet)]


def _table(block, sheet):
    yield from ((("columns", n, "title"), column.title) for n, column in enumerate(block.header))  # a named set too
    for r, row in enumerate(block.rows):
        if isinstance(row, Subheading):
            yield ("rows", r), row.subheading
        else:
            yield from ((("rows", r, "cells", c), cell.text) for c, cell in enumerate(row.cells))


def _dice(block, sheet):
    yield ("roll_title",), block.roll_header  # nothing where no header band prints
    yield ("name_title",), block.name_title
    yield ("text_title",), block.text_title
    yield from ((("text_titles", n), title) for n, title in enumerate(block.text_titles or []))
    for r, row in enumerate(block.rows):
        yield from ((("rows", r, part), getattr(row, part)) for part in ("roll", "name"))
        if isinstance(row.text, list):  # one text a column, each where it is in the list
            yield from ((("rows", r, "text", t), text) for t, text in enumerate(row.text))
        else:
            yield ("rows", r, "text"), row.text


def _modifiers(block, sheet):
    yield ("value_title",), block.value_title
    yield from ((("value_titles", n), title) for n, title in enumerate(block.value_titles or []))
    yield from (((title,), getattr(block, title)) for title in ("text_title", "detail_title"))
    for n, item in enumerate(block.items):
        if isinstance(item, Subheading):
            yield ("items", n), item.subheading
        elif isinstance(item.value, list):  # one value a column, each where it is in the list
            yield from ((("items", n, "value", v), value) for v, value in enumerate(item.value))
            yield from ((("items", n, part), getattr(item, part)) for part in ("text", "detail"))
        else:
            yield from ((("items", n, part), getattr(item, part)) for part in ("value", "text", "detail"))


def _matrix(block, sheet):
    yield ("corner",), block.corner or block.row_title
    yield ("column_title",), block.column_title
    yield from ((("column_keys", n), key) for n, key in enumerate(block.column_keys))
    for r, (key, values) in enumerate(zip(block.row_keys, block.grid())):
        yield ("row_keys", r), key
        yield from ((("cells", r), value) for value in values)
    yield from ((("legend", n), line) for n, line in enumerate(block.legend))


def _glossary(block, sheet):
    for k, keyword in enumerate(sheet.keywords):
        if keyword.text and (block.keywords is None or keyword.id in block.keywords):
            yield (SHEET_LEVEL, "keywords", k, "term"), keyword.term
            yield (SHEET_LEVEL, "keywords", k, "text"), keyword.text


def _saves(block, sheet):
    yield ("item_title",), block.item_title
    yield from ((("troops", n, "title"), troop.title) for n, troop in enumerate(block.troops))
    yield from ((("columns", n, "title"), column.title) for n, column in enumerate(block.columns))
    for n, item in enumerate(block.items):
        yield ("items", n, "name"), item.name
        for troop in block.troops:
            given = item.saves.get(troop.id)
            if given and (given.save or given.bonus):
                yield ("items", n, "saves", troop.id, "save"), given.save
                yield ("items", n, "saves", troop.id, "bonus"), given.bonus
            else:
                yield ("items", n, "saves"), block.none
        yield from ((("items", n, "extra", c), cell.text) for c, cell in enumerate(item.extra))


def _roster(block, sheet):
    yield from ((("characteristics", n), name) for n, name in enumerate(block.characteristics))
    for n, unit in enumerate(block.units):
        yield ("units", n, "name"), unit.name
        yield from ((("units", n, "profile", p), value) for p, value in enumerate(unit.profile))
        yield from ((("units", n, part), getattr(unit, part)) for part in ("save", "equipment", "rules"))


def _figure(block, sheet):
    yield ("caption",), block.caption  # its alternative text is the picture's, not the page's text


_BY_TYPE = {
    "table": _table,
    "dice": _dice,
    "modifiers": _modifiers,
    "matrix": _matrix,
    "glossary": _glossary,
    "saves": _saves,
    "roster": _roster,
    "figure": _figure,
}
