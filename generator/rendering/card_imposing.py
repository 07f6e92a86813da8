"""Cards put on sheets of paper (pypdf): each card's page placed where generator.rendering.card_sheets says, the
crop marks drawn as hairlines, and, for a duplex print, a back page after each front page with each card's back
behind it.
"""

from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter

from generator.rendering import placing
from generator.rendering.card_sheets import Grid, Mark, sheets

POINTS_PER_MM = 72 / 25.4
MARK_WIDTH_PT = 0.25  # a hairline a guillotine's blade is set on


def pages_of(pdf: bytes) -> list[PageObject]:
    return list(PdfReader(io.BytesIO(pdf)).pages)


def metadata_of(pdf: bytes) -> dict[str, str]:
    """A PDF's document information (its title, generator, dates), to carry over to the imposed PDF."""
    found = PdfReader(io.BytesIO(pdf)).metadata or {}
    return {key: value for key, value in found.items() if isinstance(value, str)}


def imposed(
    fronts: list[PageObject],
    backs: list[PageObject] | None,
    grid: Grid,
    flip: str | None,
    metadata: dict[str, str] | None = None,
) -> bytes:
    """The cards `fronts` (one a page, with their bleed around them when the grid has some), `grid.per_page` a side
    of paper with their crop marks; with `backs` (one a card, in the same order), each side followed by its back.
    `metadata`: the PDF's document information."""
    writer = PdfWriter()
    width, height = _points(grid.page_width), _points(grid.page_height)
    for places in sheets(len(fronts), grid.per_page):
        marks = _hairlines(grid.marks(len(places)), grid.page_height)
        placing.side(
            writer,
            width,
            height,
            [_put(fronts[index], grid.slot(place), grid) for place, index in enumerate(places)],
            under=marks,
        )
        if backs is not None:
            placing.side(
                writer,
                width,
                height,
                [_put(backs[index], grid.back_slot(place, flip), grid) for place, index in enumerate(places)],
            )
    writer.add_metadata(metadata or {})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _put(card: PageObject, corner: tuple[float, float], grid: Grid) -> tuple[PageObject, float, float]:
    """The card's page with where it goes: its trimmed top left corner at `corner` (mm from the side's top left)."""
    x, y = corner
    box = card.mediabox
    left = _points(x - grid.bleed) - float(box.left)
    bottom = _points(grid.page_height - y - grid.card.height - grid.bleed) - float(box.bottom)
    return card, left, bottom


def _hairlines(marks: list[Mark], page_height: float) -> bytes:
    """The marks as PDF content: black hairlines, in points from the page's bottom left."""
    lines = [
        f"{_points(mark.x1):.3f} {_points(page_height - mark.y1):.3f} m "
        f"{_points(mark.x2):.3f} {_points(page_height - mark.y2):.3f} l"
        for mark in marks
    ]
    return f"q {MARK_WIDTH_PT} w 0 G 0 J\n{chr(10).join(lines)}\nS Q\n".encode()


def _points(mm: float) -> float:
    return round(mm * POINTS_PER_MM, 4)
