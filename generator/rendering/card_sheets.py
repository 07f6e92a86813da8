"""Cards imposed on sheets of paper, in millimetres, without WeasyPrint: the card sizes players sleeve, how many cards
a page holds with room for crop marks, where each card sits, its crop marks, and where its back sits on the back
page for a duplex flip.

Every position is of the card's trimmed edge, from the page's top left corner (as CSS places it). Crop marks lie on
the extension of each card's edges, outside every card: in the gutters between cards (which the cut line crosses)
and in the page's margin. With bleed, each card's printed area reaches `bleed` past its trim on every side, and the
gutters widen to keep the marks clear of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.geometry import PAPER_MM

SIZES_MM = {"poker": (63.0, 88.0), "tarot": (70.0, 120.0), "a6": (105.0, 148.0)}
OWN_SIZE = re.compile(r"^(\d{2,3}(?:\.\d)?)x(\d{2,3}(?:\.\d)?)$")
SMALLEST_MM, LARGEST_MM = 30.0, 200.0  # a card a reader can hold; one a sheet of paper holds once
PRINTABLE_MARGIN_MM = 2.5  # kept clear at the paper's edge (a printer that leaves more loses marks' far ends)
MARK_GUTTER_MM = 4.0  # between two cards without bleed: room for each one's marks, outside both
MARK_CLEARANCE_MM = 0.5  # between a card's edge (or its bleed) and the start of its marks
MARK_LENGTH_MM = 3.0  # a mark in the page's margin; in a gutter, half the gutter's room
BLEED_MM = 3.0
BACKS = ("long-edge", "short-edge")


@dataclass(frozen=True)
class CardSize:
    name: str  # what the file name says: poker, tarot, a6, 70x100
    width: float
    height: float


def card_size(text: str) -> CardSize:
    """poker, tarot, a6 or WxH in millimetres (63x88); ValueError with what is accepted otherwise."""
    if text.casefold() in SIZES_MM:
        return CardSize(text.casefold(), *SIZES_MM[text.casefold()])
    matched = OWN_SIZE.match(text)
    if matched:
        width, height = float(matched[1]), float(matched[2])
        if SMALLEST_MM <= min(width, height) and max(width, height) <= LARGEST_MM:
            return CardSize(text, width, height)
        raise ValueError(f"'{text}': a card between {SMALLEST_MM:g} and {LARGEST_MM:g} mm on each side")
    raise ValueError(f"'{text}': one of {', '.join(SIZES_MM)}, or WIDTHxHEIGHT in millimetres (63x88)")


@dataclass(frozen=True)
class Mark:
    """A crop mark: a line from (x1, y1) to (x2, y2), in mm from the page's top left corner."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Grid:
    """Cards on one side of a sheet: `columns` × `rows` of `card`, the first trimmed edge at (left, top), `gutter`
    apart, on a page `page_width` × `page_height` (landscape when the cards fit more so)."""

    card: CardSize
    page_width: float
    page_height: float
    columns: int
    rows: int
    left: float
    top: float
    gutter: float
    bleed: float

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def slot(self, index: int) -> tuple[float, float]:
        """The top left corner of the card in place `index` (row by row, from the top left)."""
        row, column = divmod(index, self.columns)
        return (self.left + column * (self.card.width + self.gutter), self.top + row * (self.card.height + self.gutter))

    def back_slot(self, index: int, flip: str) -> tuple[float, float]:
        """Where the back of the card in place `index` sits on the back page, for a duplex `flip`: turned about the
        long edge, the columns are mirrored (the first column's card backed in the last); about the short edge, the
        rows. The page's long edge is its height in portrait, its width in landscape."""
        row, column = divmod(index, self.columns)
        portrait = self.page_height >= self.page_width
        if (flip == "long-edge") == portrait:
            column = self.columns - 1 - column
        else:
            row = self.rows - 1 - row
        return self.slot(row * self.columns + column)

    def marks(self, count: int) -> list[Mark]:
        """The crop marks of the first `count` places: two at each corner of each card, along its edges' lines,
        outside it and its bleed, never over another card."""
        found: set[Mark] = set()
        for index in range(count):
            x, y = self.slot(index)
            row, column = divmod(index, self.columns)
            right, bottom = x + self.card.width, y + self.card.height
            left_room = self._room(column == 0)
            right_room = self._room(column == self.columns - 1)
            top_room = self._room(row == 0)
            bottom_room = self._room(row == self.rows - 1 or index + self.columns >= count)
            start = self.bleed + MARK_CLEARANCE_MM
            for edge_y in (y, bottom):  # the horizontal edges' lines, to the left and the right
                found.add(Mark(x - start - left_room, edge_y, x - start, edge_y))
                found.add(Mark(right + start, edge_y, right + start + right_room, edge_y))
            for edge_x in (x, right):  # the vertical edges' lines, above and below
                found.add(Mark(edge_x, y - start - top_room, edge_x, y - start))
                found.add(Mark(edge_x, bottom + start, edge_x, bottom + start + bottom_room))
        return sorted(found, key=lambda mark: (mark.y1, mark.x1, mark.y2, mark.x2))

    def _room(self, outer: bool) -> float:
        """How long a mark is: in the page's margin, MARK_LENGTH_MM (less than the margin); in a gutter, what half of
        it leaves outside the bleed."""
        if outer:
            return MARK_LENGTH_MM
        return self.gutter / 2 - self.bleed - MARK_CLEARANCE_MM - 0.25


def grid(card: CardSize, paper: str, bleed: bool = False) -> Grid:
    """The most cards of `card` size one side of `paper` holds, with their marks (and bleed): portrait or landscape,
    whichever holds more (portrait on a tie), the cards centred on the page."""
    extra = BLEED_MM if bleed else 0.0
    gutter = MARK_GUTTER_MM + 2 * extra
    outer = PRINTABLE_MARGIN_MM + extra + MARK_CLEARANCE_MM + MARK_LENGTH_MM  # a card's edge to the paper's
    short, long = PAPER_MM[paper]
    best = None
    for width, height in ((short, long), (long, short)):
        columns = _fitting(width - 2 * outer, card.width, gutter)
        rows = _fitting(height - 2 * outer, card.height, gutter)
        if best is None or columns * rows > best.per_page:
            used_width = columns * card.width + (columns - 1) * gutter
            used_height = rows * card.height + (rows - 1) * gutter
            best = Grid(
                card, width, height, columns, rows, (width - used_width) / 2, (height - used_height) / 2, gutter, extra
            )
    if best.per_page == 0:
        raise ValueError(f"a {card.width:g} × {card.height:g} mm card does not fit on {paper} with its crop marks")
    return best


def _fitting(room: float, size: float, gutter: float) -> int:
    """How many of `size`, `gutter` apart, fit in `room`."""
    return max(0, int((room + gutter) // (size + gutter) + 1e-9))


def sheets(count: int, per_page: int) -> list[range]:
    """The places of `count` cards, page by page."""
    return [range(start, min(start + per_page, count)) for start in range(0, count, per_page)]
