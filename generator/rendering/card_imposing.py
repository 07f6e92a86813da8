"""Cards put on sheets of paper (pypdf): each card's page placed where generator.rendering.card_sheets says, the
crop marks drawn as hairlines, and, for a duplex print, a back page after each front page with each card's back
behind it.
"""

from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import ContentStream, DecodedStreamObject

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
    for places in sheets(len(fronts), grid.per_page):
        front = writer.add_blank_page(_points(grid.page_width), _points(grid.page_height))
        front.replace_contents(ContentStream(_hairlines(grid.marks(len(places)), grid.page_height), None))
        for place, index in enumerate(places):
            _put(front, fronts[index], grid.slot(place), grid)
        if backs is not None:
            back = writer.add_blank_page(_points(grid.page_width), _points(grid.page_height))
            for place, index in enumerate(places):
                _put(back, backs[index], grid.back_slot(place, flip), grid)
    writer.add_metadata(metadata or {})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _put(side: PageObject, card: PageObject, corner: tuple[float, float], grid: Grid) -> None:
    """The card's page with its trimmed top left corner at `corner` (mm from the side's top left)."""
    x, y = corner
    box = card.mediabox
    left = _points(x - grid.bleed) - float(box.left)
    bottom = _points(grid.page_height - y - grid.card.height - grid.bleed) - float(box.bottom)
    side.merge_transformed_page(card, Transformation().translate(left, bottom))


def _hairlines(marks: list[Mark], page_height: float) -> DecodedStreamObject:
    """The marks as a PDF content stream: black hairlines, in points from the page's bottom left."""
    lines = [
        f"{_points(mark.x1):.3f} {_points(page_height - mark.y1):.3f} m "
        f"{_points(mark.x2):.3f} {_points(page_height - mark.y2):.3f} l"
        for mark in marks
    ]
    stream = DecodedStreamObject()
    stream.set_data(f"q {MARK_WIDTH_PT} w 0 G 0 J\n{chr(10).join(lines)}\nS Q\n".encode())
    return stream


def _points(mm: float) -> float:
    return round(mm * POINTS_PER_MM, 4)
