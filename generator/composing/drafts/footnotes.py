"""Footnote marks in a matrix's cells ("R (*)", "D**", "P†"), as documents print them, and the notes that explain
them below ("(*) The loser also loses its general's re-roll."): the cells keep their values, each mark becomes a
`[^*]` reference, and the notes go to the sheet's notes (two matrices may share their marks, explained once)."""

from __future__ import annotations

import re

from generator.reading.documents.document import plain

_MARKS = r"\*{1,4}|[†‡§]{1,2}|\d{1,2}|[a-z]"
_MARKED_CELL = re.compile(rf"^(?P<value>\S+?)\s*(?:\((?P<paren>{_MARKS})\)|(?P<bare>\*{{1,4}}|[†‡§]{{1,2}}))$")
_NOTE = re.compile(rf"^\s*(?:\((?P<paren>{_MARKS})\)|(?P<bare>\*{{1,4}}|[†‡§]{{1,2}}))\s+(?P<text>\S.*)$", re.S)
_NOTE_MARKUP = re.compile(r"^\s*\(?(?:\\?[*†‡§]|\d|[a-z])+\)?\s+")  # the mark as the markup writes it ("(\*)")


def unmarked(cell: str) -> tuple[str, str | None]:
    """A cell's value and its footnote mark: "R (*)" → ("R", "*"), "10+" → ("10+", None)."""
    match = _MARKED_CELL.match(plain(cell).strip())
    if not match or not re.search(r"\w", match["value"]):
        return cell, None
    return match["value"], match["paren"] or match["bare"]


def unmarked_rows(rows: list[list[str]]) -> tuple[list[list[str]], dict[tuple[int, int], str]]:
    """The rows with the marks of their cells taken off (the keys' cells aside), and each mark by (row, column)."""
    out, marks = [], {}
    for r, row in enumerate(rows):
        cells = []
        for c, cell in enumerate(row):
            value, mark = unmarked(cell) if r and c else (cell, None)
            if mark:
                marks[(r, c)] = mark
            cells.append(value)
        out.append(cells)
    return out, marks


def note_of(markup: str) -> tuple[str, str] | None:
    """A paragraph that explains a mark: "(*) Only if…" → ("*", "Only if…")."""
    match = _NOTE.match(plain(markup))
    if not match:
        return None
    return match["paren"] or match["bare"], _NOTE_MARKUP.sub("", markup, count=1).strip()


def harvested(
    sections: list[dict], matrices: list[tuple[dict, set[str]]], take: bool = True
) -> tuple[list[dict], set[str]]:
    """The sheet's notes for the marks of these matrices: for each mark, the first paragraph after a matrix using
    it that explains it, taken out of its text block (a block left empty goes; with `take` false, only found); and
    the ids of the blocks gone."""
    wanted: set[str] = set()
    notes: dict[str, str] = {}
    gone: set[str] = set()
    by_id = {id(block): marks for block, marks in matrices}
    for section in sections:
        for block in section["blocks"]:
            wanted |= by_id.get(id(block), set()) - set(notes)
            if block["type"] != "text" or not wanted:
                continue
            kept = []
            for item in block["content"]:
                found = note_of(item["p"]) if "p" in item else None
                if found and found[0] in wanted:
                    notes[found[0]] = found[1]
                    wanted.discard(found[0])
                else:
                    kept.append(item)
            if take:
                block["content"] = kept
                if not kept:
                    gone.add(block["id"])
        section["blocks"] = [block for block in section["blocks"] if block["id"] not in gone]
    return [{"id": mark, "text": text} for mark, text in notes.items()], gone
