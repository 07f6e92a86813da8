"""Page geometry: the papers, the margins, the columns, in millimetres. One place for the renderer, which lays
the pages out on it (generator.rendering.layout), and for what sizes content before rendering (the roster's
tables, the importers)."""

from __future__ import annotations

from dataclasses import dataclass
from math import floor

PAPER_MM = {
    "A4": (210.0, 297.0),
    "letter": (215.9, 279.4),  # portrait width, height
    "A5": (148.0, 210.0),
    "half-letter": (139.7, 215.9),
}
HALF = {"A4": "A5", "letter": "half-letter"}  # the paper two of whose pages, side by side, fill the other
MARGINS_MM = (9.0, 8.0, 10.0, 8.0)  # top, right, bottom, left: the footer sits in the bottom margin
COLUMN_GAP_MM = 5.0  # between two columns, a rule in its middle
RULE_MM = 0.15
PX_PER_MM = 96 / 25.4  # WeasyPrint measures in CSS pixels


@dataclass(frozen=True)
class Frame:
    """Where blocks go on a page, in millimetres."""

    page_width: float
    page_height: float
    columns: int
    pages: (
        int | None
    )  # the most pages allowed (the author's `paper.pages`, or the sheet's own for a variant); None: any
    margins: tuple[float, float, float, float] = MARGINS_MM

    @property
    def column_width(self) -> float:
        content = self.page_width - self.margins[1] - self.margins[3]
        # Rounded down: floated columns a hair too wide for the page would not stand side by side.
        return floor((content - (self.columns - 1) * (COLUMN_GAP_MM + RULE_MM)) / self.columns * 100) / 100

    @property
    def column_height(self) -> float:
        return self.page_height - self.margins[0] - self.margins[2]

    @property
    def content_width(self) -> float:
        """The width of the page inside its margins: what a block spanning the columns (`wide`) takes."""
        return round(self.page_width - self.margins[1] - self.margins[3], 2)


def page_frame(sheet, options) -> Frame:
    """The page and columns a sheet is laid out on, with the build's options (another paper, an imposition)."""
    paper = sheet.paper
    size = getattr(options, "paper", None) or paper.size
    if getattr(options, "impose", None):
        # Two pages side by side on the sheet's paper (generator.rendering.impose): each is half of it, upright, in
        # two columns (one as wide would leave most of its width blank beside lists and tables, and take half as
        # many pages again; a block too wide for them spans the half page), on as many pages as its content needs
        # (generator.rendering.render.kept_pages: twice its own, where they hold it).
        return frame(HALF[size], "portrait", 2, None)
    return frame(size, paper.orientation, paper.columns, paper.pages)


def frame(size: str, orientation: str, columns: int, pages: int | None) -> Frame:
    width, height = PAPER_MM[size]
    if orientation == "landscape":
        width, height = height, width
    return Frame(width, height, columns, pages)
