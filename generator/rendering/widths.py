"""How wide a matrix is at least, read from the font alone: what `qrs check` tells before anything is laid out.

A matrix never wraps a value: its width is at least its corner, then, for each column, its widest value or key
set in the sheet's type at the smallest scale the build may choose, and the cells' padding (sheet.css). A matrix
wider than the page's content width cannot fit even spanning the page (`wide`); one wider than a column spans
the page without the author asking (the build measures it, generator.rendering.measure; the web edition, which
measures nothing, asks here). Nothing here imports WeasyPrint.
"""

from __future__ import annotations

from functools import cache
from typing import Iterator

from generator.model import markup
from generator.model.glyphs import FONTS
from generator.rendering.fit import SHRINK
from generator.rendering.layout import Frame

CORNER_MM = 20.0  # sheet.css: table.matrix th.corner { width: 20mm }
PADDING_REM = 2 * 0.1492  # sheet.css: table.matrix td, th.key { padding: … 0.1492rem }, each side
MM_PER_PT = 25.4 / 72


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


def too_wide(block, frame: Frame, points: float) -> bool:
    """Whether the matrix cannot fit a column of the frame at the body size `points`: it spans the page."""
    return block.type == "matrix" and matrix_width(block, points) > frame.column_width


def findings(sheet, frame: Frame) -> Iterator[tuple[tuple, str]]:
    """A matrix wider than the page inside its margins, even in the smallest type the build may set: it cannot
    fit, even spanning the page's columns."""
    points = sheet.paper.type_points * SHRINK[-1]
    for s, section in enumerate(sheet.sections):
        for b, block in enumerate(section.blocks):
            if block.type != "matrix":
                continue
            width = matrix_width(block, points)
            if width > frame.content_width:
                yield ("sections", s, "blocks", b), (
                    f"matrix '{block.id}' is at least {width:.0f} mm wide, in the smallest type the build sets: the "
                    f"page holds {frame.content_width:.0f} mm, even across its {frame.columns} column(s) (fewer "
                    "column keys, shorter keys or values, or the paper turned: paper: orientation)")
