"""How wide a matrix is at least, and a preformatted block, read from the fonts alone: what `qrs check` tells before
anything is laid out, and the size a preformatted block is set at to fit its column.

A matrix never wraps a value, and its data columns are all one width (matrix_column, printed in its template): its
width is at least its corner, then, for each column, the widest value or key of them all set in the sheet's type at
the smallest scale the build may choose, and the cells' padding (sheet.css). A matrix
wider than the page's content width cannot fit even spanning the page (`wide`); one wider than a column spans
the page without the author asking (the build measures it, generator.rendering.measure; the web edition, which
measures nothing, asks here). Nothing here imports WeasyPrint.
"""

from __future__ import annotations

from functools import cache
from math import floor
from typing import Callable, Iterator

from generator.model import markup, typography
from generator.model.blocks.preformatted import MIN_POINTS, MONO_ADVANCE
from generator.model.glyphs import FONTS
from generator.rendering.fit import SCALES, SHRINK
from generator.rendering.layout import Frame

CORNER_MM = 20.0  # sheet.css: table.matrix th.corner { width: 20mm }
SHORT_KEY = 8  # characters: a matrix's row keys all this short print on one line each (keys_on_one_line)
PADDING_REM = 2 * 0.1492  # sheet.css: table.matrix td, th.key { padding: … 0.1492rem }, each side
TABLE_PADDING_REM = 0.373  # sheet.css: table.data td { padding: … 0.373rem }, each side
AXIS_PADDING_REM = 0.373  # sheet.css: table.data th { padding: … 0.373rem }: the column title's, each side
MIN_COLUMN_REM = 1.8  # sheet.css: table.matrix td, table.matrix thead th.key { min-width: 1.8rem }
SUPERSCRIPT = 0.7  # sheet.css: sup.fn { font-size: 70% }
MM_PER_PT = 25.4 / 72
MONO_SHARE = 0.9  # a preformatted block's largest size, against the body's


@cache
def _advances(face: str) -> tuple[dict[int, int], int]:
    """The face's advance widths by character, and its units per em."""
    from fontTools.ttLib import TTFont

    font = TTFont(FONTS / f"SourceSansPro-{face}.ttf", lazy=True)
    metrics, names = font["hmtx"].metrics, font.getBestCmap()
    return {code: metrics[name][0] for code, name in names.items()}, font["head"].unitsPerEm


def text_width(text: str, points: float, face: str = "Regular") -> float:
    """The width, mm, of the widest word of `text` (its markup's words), set in `points` in the face."""
    return word_width(
        " ".join(token.value for token in markup.walk(markup.parse(text)) if isinstance(token, markup.Text)),
        points,
        face,
    )


def word_width(text: str, points: float, face: str = "Regular") -> float:
    """The width, mm, of the widest word of plain `text` (as printed: no markup), set in `points` in the face."""
    return _widest(text.split(), points, face)


def _widest(runs: list[str], points: float, face: str) -> float:
    """The width, mm, of the widest of `runs` (words or lines: what cannot break) set in `points` in the face."""
    advances, per_em = _advances(face)
    return (
        max((sum(advances.get(ord(character), per_em // 2) for character in run) for run in runs), default=0)
        / per_em
        * points
        * MM_PER_PT
    )


def matrix_column(block, plain: Callable[[str], str] = typography.common) -> float:
    """The width, rem (the body's size), of every data column of the matrix `block`, inside its padding: one width
    for all, the widest its keys (semibold) and values need, with their footnote marks, at least MIN_COLUMN_REM, and
    its share of the column title over them. `plain`: a text as printed (the edition's words and typography)."""

    def width(text: str, face: str) -> float:
        marks = "".join(token.key for token in markup.walk(markup.parse(text)) if isinstance(token, markup.FootnoteRef))
        words = plain(markup.without_footnotes(text)) if text.strip() else ""
        return (word_width(words, 1.0, face) + word_width(marks, SUPERSCRIPT, "Semibold")) / MM_PER_PT

    values = [value for row in block.grid() for value in row]
    # a handout's composed matrix may keep none of its columns: nothing to measure
    widest = max(
        [width(key, "Semibold") for key in block.column_keys] + [width(value, "Regular") for value in values],
        default=0.0,
    )
    title = (width(block.column_title, "Semibold") + 2 * AXIS_PADDING_REM) / max(
        len(block.column_keys), 1
    ) - PADDING_REM
    return round(max(MIN_COLUMN_REM, widest, title), 3)


def keys_on_one_line(block, plain: Callable[[str], str] = typography.common) -> bool:
    """Whether a matrix's row keys are short enough to print on one line each ("20 [−1]", "Medium", "Kn(S)"): such a
    key wrapped doubled its row's height (a table of thirteen columns, its corner shrunk to fit the column), where a
    label such as "Résultat à obtenir" may wrap. The corner's CORNER_MM holds any of them."""
    return all(len(plain(key)) <= SHORT_KEY for key in block.row_keys)


def matrix_width(block, points: float, plain: Callable[[str], str] = typography.common) -> float:
    """The least width, mm, of the matrix `block` set with a body of `points`: no value of it wraps, every data
    column as wide as the widest (matrix_column)."""
    column = (matrix_column(block, plain) + PADDING_REM) * points * MM_PER_PT
    return CORNER_MM + len(block.column_keys) * column


def words_fit(block, plain: Callable[[str], str], width: float, body: float) -> bool:
    """Whether the table `block` fits `width` mm with no word of it hyphenated, in the largest type the build may set
    for a body of `body` points at 100 % (a block's HTML is the same at every scale, generator.rendering.render): each
    column as wide as its widest word (its title's semibold; a nowrap column's, its longest line), with the cells'
    padding, a column of a declared width as that width. Then its template sets its cells hyphens: manual, and
    the table widens a column for a long word ("Infranchissable") rather than break it while another has room."""
    points = body * max(SCALES)
    columns: list[list[tuple[str, str]]] = [[(column.title, "Semibold")] for column in block.header]
    for row in block.rows:
        position = 0
        for cell in getattr(row, "cells", ()):
            if cell.span == 1 and position < len(columns):
                columns[position].append((cell.text, "Regular"))
            position += cell.span
    total = 0.0
    for column, texts in zip(block.header, columns):
        if column.width:
            number = float(column.width.rstrip("m%"))
            total += number if column.width.endswith("mm") else width * number / 100
            continue
        measured = line_width if column.nowrap else word_width
        total += (
            max(measured(plain(text), points, face) for text, face in texts if text)
            if any(text for text, _ in texts)
            else 0.0
        )
        total += 2 * TABLE_PADDING_REM * points * MM_PER_PT
    return total <= width


def line_width(text: str, points: float, face: str = "Regular") -> float:
    """The width, mm, of the longest line of plain `text` set in `points` in the face."""
    return _widest(text.split("\n"), points, face)


def preformatted_width(block, points: float) -> float:
    """The width, mm, of a preformatted block's longest line set in `points` in the monospace font."""
    return block.longest() * MONO_ADVANCE * points * MM_PER_PT


def preformatted_points(block, width: float, body: float) -> float:
    """The size, pt, a preformatted block is set at in `width` mm: its longest line's, at most MONO_SHARE of `body`,
    the sheet's body size at 100 % (the monospace font looks larger than Source Sans), at least MIN_POINTS (narrower,
    it spans the page: too_wide). A drawing: the type scale does not change it (the block's HTML is the same at
    every scale, generator.rendering.render)."""
    fits = floor(width / (block.longest() * MONO_ADVANCE * MM_PER_PT) * 100) / 100
    return max(MIN_POINTS, min(round(body * MONO_SHARE, 2), fits))


def too_wide(block, frame: Frame, points: float) -> bool:
    """Whether the matrix cannot fit a column of the frame at the body size `points`, or the preformatted text
    even at 6 pt: it spans the page."""
    if block.type == "preformatted":
        return preformatted_width(block, MIN_POINTS) > frame.column_width
    return block.type == "matrix" and matrix_width(block, points) > frame.column_width


def findings(sheet, frame: Frame) -> Iterator[tuple[tuple, str]]:
    """A matrix wider than the page inside its margins, even in the smallest type the build may set, and a
    preformatted block wider than it at 6 pt: it cannot fit, even spanning the page's columns."""
    yield from preformatted_findings(sheet, frame)
    points = sheet.paper.type_points * SHRINK[-1]
    for here, block in sheet.placed_blocks():
        if block.type != "matrix":
            continue
        width = matrix_width(block, points, typography.for_language(sheet.lang))
        if width > frame.content_width:
            yield (
                here,
                (
                    f"matrix '{block.id}' is at least {width:.0f} mm wide, in the smallest type the build sets: the "
                    f"page holds {frame.content_width:.0f} mm, even across its {frame.columns} column(s) (fewer "
                    "column keys, shorter keys or values, or the paper turned: paper: orientation)"
                ),
            )


def preformatted_findings(sheet, frame: Frame) -> Iterator[tuple[tuple, str]]:
    """A preformatted block whose longest line is wider than the page inside its margins at 6 pt: `qrs check`
    tells it on the sheet's own paper, the build on the paper it is given."""
    one = MONO_ADVANCE * MIN_POINTS * MM_PER_PT  # a character's width at the smallest size
    for here, block in sheet.placed_blocks():
        if block.type != "preformatted":
            continue
        width = preformatted_width(block, MIN_POINTS)
        if width > frame.content_width:
            yield (
                here + ("text",),
                (
                    f"the longest line of '{block.id}' has {block.longest()} characters, {width:.0f} mm wide at "
                    f"{MIN_POINTS:g} pt, the smallest type it is set in: the page holds {frame.content_width:.0f} mm, even "
                    f"across its {frame.columns} column(s) (at most {floor(frame.content_width / one)} characters a line, "
                    "or the paper turned: paper: orientation)"
                ),
            )
