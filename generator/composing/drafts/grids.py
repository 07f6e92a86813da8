"""Grids: where a table's keys are (a row of numbers over a column of them), and the rule its cells agree with."""

from __future__ import annotations

import re

from generator.composing.drafts import kinds
from generator.model.types import MatrixBlock
from generator.reading.documents.document import plain

RULES = ("to-wound", "to-hit-ws", "to-hit-ws-wab", "bs-to-hit")


def matrix_shape(rows: list[list[str]]):
    """(key row, key column, column title, row title) of a grid whose column keys are numbers, or None."""
    for key_row in range(min(2, len(rows) - 1)):
        row = rows[key_row]
        for key_column in range(min(2, len(row) - 2)):
            keys = row[key_column + 1 :]
            if len(keys) < 3 or not all(kinds.is_integer(cell) for cell in keys):
                continue
            corner = [plain(cell) for cell in row[: key_column + 1] if cell.strip()]
            # a header row above the keys: over the key column it names the rows ("Attacker's WS", spanning
            # down), over the keys it names the columns ("Defender's WS", spanning across)
            corner += [plain(cell) for earlier in rows[:key_row] for cell in earlier[: key_column + 1] if cell.strip()]
            above = [plain(cell) for earlier in rows[:key_row] for cell in earlier[key_column + 1 :] if cell.strip()]
            if len(keys) == len(above) and row[key_column].strip():
                # a header naming each column ("Mort | Baguettes…") over a row of its own name ("Humain normal |
                # 14 | 15…"): a row of cells, not of keys (a title a PDF spread a word a column has no row name)
                continue
            body = rows[key_row + 1 :]
            if not body or len(body) > 30 or len(keys) > 30:
                continue
            if not all(
                row[key_column].strip()
                and all(cell.strip() and " " not in plain(cell).strip() for cell in row[key_column + 1 :])
                for row in body
            ):
                continue
            left = [plain(cell) for row in body for cell in row[:key_column] if cell.strip()]
            column_title = " ".join(above + (corner if not left and not above else []))
            row_title = " ".join(left + (corner if (left or above) else []))
            return key_row, key_column, column_title, row_title
    return None


def labelled_shape(rows: list[list[str]], widest: int) -> bool:
    """Whether a grid is a matrix keyed by words (troop types down the side and across the top): a header row of
    labels over a column of labels, every cell one short code ("D", "2", "x"), and either the same labels on both
    sides or more columns than a table holds (`widest`): no table an author would write so."""
    if len(rows) < 4 or len(rows[0]) < 4 or len(rows) > 31 or len(rows[0]) > 31:
        return False
    column_keys = [plain(cell).strip() for cell in rows[0][1:]]
    row_keys = [plain(row[0]).strip() for row in rows[1:]]
    if not all(column_keys) or not all(row_keys):
        return False
    codes = all(
        len(plain(cell).strip()) <= 3 and " " not in plain(cell).strip() and plain(cell).strip()
        for row in rows[1:]
        for cell in row[1:]
    )
    return codes and (row_keys == column_keys or len(rows[0]) > widest)


def agreeing_rule(row_keys: list[str], column_keys: list[str], cells: list[str]) -> tuple[str | None, str | None]:
    """The rule every cell agrees with, and the value meaning "impossible" (the one word that is no number)."""
    words = {value for row in cells for value in row.split() if not re.fullmatch(r"[-−]?\d+\+?", value)}
    impossible = words.pop() if len(words) == 1 else None
    for rule in RULES:
        if (rule == "bs-to-hit") != (len(row_keys) == 1):
            continue
        try:
            candidate = MatrixBlock(
                id="m",
                type="matrix",
                row_keys=row_keys,
                column_keys=column_keys,
                cells=cells,
                impossible=impossible,
                rule=rule,
            )
        except ValueError:
            return None, impossible
        if not list(candidate.check()):
            return rule, impossible
    return None, impossible


def side_by_side(rows: list[list[str]]) -> list[list[list[str]]]:
    """Tables set side by side in one (Markdown's "|Action|AP| |Action|AP|", a PDF's or a page's tables in a row):
    the parts of a table between its columns empty in every row, header included, or under a header that repeats
    itself ("Action | AP | Action | AP": a PDF draws no empty column), each of two columns or more and its rows
    that hold something; [] where there is neither."""
    width = len(rows[0]) if rows else 0
    empty = [column for column in range(1, width - 1) if not any(row[column].strip() for row in rows)]
    if not empty:
        return _repeated(rows)
    bounds = [-1, *empty, width]
    parts = [[row[low + 1 : high] for row in rows] for low, high in zip(bounds, bounds[1:]) if high - low > 1]
    if len(parts) < 2 or any(len(part[0]) < 2 for part in parts):
        return []
    return [[row for row in part if any(cell.strip() for cell in row)] for part in parts]


def _repeated(rows: list[list[str]]) -> list[list[list[str]]]:
    """The parts of a table whose first row is the same cells two times or more, each part its own table."""
    first = [plain(cell).casefold() for cell in rows[0]]
    for size in range(2, len(first) // 2 + 1):
        if len(first) % size == 0 and all(first[:size]) and first == first[:size] * (len(first) // size):
            parts = [[row[start : start + size] for row in rows] for start in range(0, len(first), size)]
            return [[row for row in part if any(cell.strip() for cell in row)] for part in parts]
    return []


def stacked_halves(rows: list[list[str]]) -> list[list[str]] | None:
    """A dice table set in halves side by side to save room ("1 | Athletic | 6 | Scrawny", with or without an
    empty column between the halves): its halves one under the other, a header row over the first half's kept
    on top; None unless each half opens its rows with rolls, holds words beside them, and goes on from where the
    half before it ends (1-5, then 6-10)."""
    width = len(rows[0]) if rows else 0
    head = [] if kinds.is_roll(rows[0][0]) else rows[:1]
    body = rows[len(head) :]
    if not body:
        return None
    empty = [column for column in range(1, width - 1) if not any(row[column].strip() for row in rows)]
    bounds = [-1, *empty, width]
    cuts = [[(low + 1, high) for low, high in zip(bounds, bounds[1:]) if high - low > 1]] if empty else []
    cuts += [[(start, start + size) for start in range(0, width, size)] for size in (2, 3) if width % size == 0]
    for spans in cuts:
        halves = [
            [row[start:end] for row in body if any(cell.strip() for cell in row[start:end])] for start, end in spans
        ]
        if len({end - start for start, end in spans}) == 1 and _go_on(halves):
            top = [head[0][spans[0][0] : spans[0][1]]] if head else []
            return top + [row for half in halves for row in half]
    return None


def _go_on(halves: list[list[list[str]]]) -> bool:
    """Halves of one dice table: two or more, each of rolls beside words, each opening past the last roll before."""
    if len(halves) < 2 or not all(halves):
        return False
    for half in halves:
        if not all(kinds.is_roll(row[0]) for row in half):
            return False
        if not any(cell.strip() and not kinds.is_roll(cell) for row in half for cell in row[1:]):
            return False
    return _going_on([kinds.roll_bounds([kinds.roll_text(row[0]) for row in half]) for half in halves])


def on_its_side(rows: list[list[str]]) -> bool:
    """A dice table set across the page (a row of rolls, "1-3 | 4-14 | 15-19 | 20", over a row of results): every
    cell of the first row a roll, of rolls that go on from one to the next, and the row under it words."""
    rolls, results = rows
    if not all(kinds.is_roll(cell) for cell in rolls) or all(kinds.is_roll(cell) for cell in results):
        return False
    return _going_on([kinds.roll_bounds([kinds.roll_text(cell)]) for cell in rolls])


def _going_on(bounds: list[tuple[int, int, bool]]) -> bool:
    """Rolls (each its lowest and highest result) that go on from one to the next: each starts past the last's end."""
    return all(after[0] > before[1] for before, after in zip(bounds, bounds[1:]))
