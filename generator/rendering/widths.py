"""How wide a matrix is at least, and a preformatted block, read from the fonts alone: what `qrs check` tells before
anything is laid out, and the size a preformatted block is set at to fit its column.

A matrix never wraps a value: its width is at least its corner, then, for each column, its widest value or key
set in the sheet's type at the smallest scale the build may choose, and the cells' padding (sheet.css). A matrix
wider than the page's content width cannot fit even spanning the page (`wide`); one wider than a column spans
the page without the author asking (the build measures it, generator.rendering.measure; the web edition, which
measures nothing, asks here). Nothing here imports WeasyPrint.
"""

from __future__ import annotations

from functools import cache
from math import floor
from typing import Iterator

from generator.model import markup
from generator.model.blocks.preformatted import MIN_POINTS, MONO_ADVANCE
from generator.model.glyphs import FONTS
from generator.rendering.fit import SHRINK
from generator.rendering.layout import Frame

CORNER_MM = 20.0  # sheet.css: table.matrix th.corner { width: 20mm }
PADDING_REM = 2 * 0.1492  # sheet.css: table.matrix td, th.key { padding: … 0.1492rem }, each side
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
    advances, per_em = _advances(face)
    words = " ".join(token.value for token in markup.walk(markup.parse(text)) if isinstance(token, markup.Text)).split()
    return max((sum(advances.get(ord(character), per_em // 2) for character in word) for word in words),
               default=0) / per_em * points * MM_PER_PT


def matrix_width(block, points: float) -> float:
    """The least width, mm, of the matrix `block` set with a body of `points`: no value of it wraps."""
    padding = PADDING_REM * points * MM_PER_PT
    grid = block.grid()
    columns = [[block.column_keys[c], *(row[c] for row in grid if c < len(row))] for c in range(len(block.column_keys))]
    widest = [max(text_width(key, points, "Semibold"), *(text_width(value, points) for value in values))
              for key, *values in columns]
    return CORNER_MM + sum(width + padding for width in widest)


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
    for here, block in _blocks(sheet, "matrix"):
        width = matrix_width(block, points)
        if width > frame.content_width:
            yield here, (
                f"matrix '{block.id}' is at least {width:.0f} mm wide, in the smallest type the build sets: the "
                f"page holds {frame.content_width:.0f} mm, even across its {frame.columns} column(s) (fewer "
                "column keys, shorter keys or values, or the paper turned: paper: orientation)")


def preformatted_findings(sheet, frame: Frame) -> Iterator[tuple[tuple, str]]:
    """A preformatted block whose longest line is wider than the page inside its margins at 6 pt: `qrs check`
    tells it on the sheet's own paper, the build on the paper it is given."""
    one = MONO_ADVANCE * MIN_POINTS * MM_PER_PT  # a character's width at the smallest size
    for here, block in _blocks(sheet, "preformatted"):
        width = preformatted_width(block, MIN_POINTS)
        if width > frame.content_width:
            yield here + ("text",), (
                f"the longest line of '{block.id}' has {block.longest()} characters, {width:.0f} mm wide at "
                f"{MIN_POINTS:g} pt, the smallest type it is set in: the page holds {frame.content_width:.0f} mm, even "
                f"across its {frame.columns} column(s) (at most {floor(frame.content_width / one)} characters a line, "
                "or the paper turned: paper: orientation)")


def _blocks(sheet, kind: str) -> Iterator[tuple[tuple, object]]:
    for s, section in enumerate(sheet.sections):
        for b, block in enumerate(section.blocks):
            if block.type == kind:
                yield ("sections", s, "blocks", b), block
