"""What the packer (generator.rendering.layout) is told and answers: a block as a piece of measured heights, the
room of each column, a fragment of a piece and the packing of them all, and what a plan's columns take."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import accumulate
from typing import Literal

MIN_UNITS = 3  # rows, steps or paragraphs kept on each side of a break inside a block (or three lines' height)
SAFETY_MM = 0.6  # room left at the foot of every column for rounding between measure and page
MAX_HOLE = 0.15  # the share of a column that may stay empty at its foot (the sheet's last column aside)


@dataclass(frozen=True)
class Parts:
    """A block's height and its parts, in millimetres, as measured (measure.Measured) and told to the packer
    (Piece): its units (rows, steps, paragraphs) between its head (title, table header) and its tail (notes), and the
    head and tail a fragment prints instead where it continues (`cont_head`, the title repeated "(cont.)") or is
    continued (`cont_tail`)."""

    height: float
    units: tuple[float, ...] = ()
    head: float = 0.0
    tail: float = 0.0
    cont_head: float = 0.0
    cont_tail: float = 0.0


@dataclass(frozen=True)
class Piece(Parts):
    """A block as the packer sees it, in millimetres.

    A piece without units is never split. Otherwise its height is head + units + tail, and a fragment
    that continues another starts with `cont_head` (the repeated title and header) instead of `head`,
    and one continued elsewhere ends with `cont_tail` instead of `tail`. A fragment that starts at unit u
    also prints `repeats[u]` (the sub-heading over u repeated "(cont.)"; none when `repeats` is empty), and no
    fragment starts at a unit of `kept` (the two rows after a sub-heading: it never ends a column). A unit may be
    part of a table row cut between its lines (generator.rendering.cuts): `pads[u]`, for a unit that starts inside a
    row, is the padding a fragment starting there adds above it, and one stopping there below the part before."""

    heading: float = 0.0  # the section's heading repeated "(cont.)" above a column that starts inside it
    opens_section: bool = True  # the piece prints its section's heading itself
    group_heading: float = 0.0  # its group's heading repeated "(cont.)" above a column that starts inside the group
    opens_group: bool = True  # the piece prints its group's heading itself (or is in no group)
    breaks_before: Literal["column", "page"] | None = None
    min_side: float = float("inf")  # units this tall may stay on one side of a break even when fewer than MIN_UNITS
    min_side_units: int = 1  # ... and as many as this at least (two rows of a table; one paragraph of text)
    min_alone: float = float("inf")  # a row this tall may stay alone on a side (a table's row of six lines)
    repeats: tuple[float, ...] = ()  # by unit: what a fragment starting there repeats above it (its sub-heading)
    closes: tuple[float, ...] = ()  # by unit: what a fragment stopping there prints besides cont_tail (a list's foot)
    kept: frozenset[int] = frozenset()  # the units no fragment starts at: each is kept with the unit before it
    wide: bool = False  # spans the page: set in a band across it (bands.pack_bands), never in a column
    # kept together (`keep: together`) though it could continue: split between its units (at `breaks`) only where
    # keeping it whole would leave a hole over MAX_HOLE (pack's softened pass); otherwise planned whole
    soft_keep: bool = False
    pads: tuple[tuple[float, float], ...] = ()  # by unit: (above, below) where it starts inside a row; none: no cut
    # the units that start inside a row cut softly (one of six lines or more, not taller than a third of a column:
    # generator.rendering.cuts): a fragment starts there only where keeping the row whole would leave a hole over
    # MAX_HOLE (pack's softened pass); otherwise the row is planned as one unit (`firm`)
    soft: frozenset[int] = frozenset()
    inside: frozenset[int] = frozenset()  # the units that start inside a row cut between its lines (softly or not)

    def fragment(self, start: int, stop: int) -> float:
        """The height of units [start, stop) printed as one fragment."""
        if not self.units or (start == 0 and stop == len(self.units)):
            return self.height
        sums = _prefix(self.units)
        repeated = self.repeats[start] if start and self.repeats else 0.0
        padded = (self.pads[start][0] + (self.pads[stop][1] if stop < len(self.units) else 0.0)) if self.pads else 0.0
        return (
            (self.head if start == 0 else self.cont_head + repeated)
            + sums[stop]
            - sums[start]
            + (self.tail if stop == len(self.units) else self.cont_tail + (self.closes[stop] if self.closes else 0.0))
            + padded
        )

    def firm(self) -> tuple["Piece", tuple[int, ...]]:
        """The piece with its soft cuts undone, each row they cut one unit again, and where each of its units starts
        among this piece's (empty where it has no soft cut: the piece itself)."""
        if not self.soft:
            return self, ()
        starts = tuple(unit for unit in range(len(self.units)) if unit not in self.soft)
        sums = _prefix(self.units)
        return (
            replace(
                self,
                units=tuple(sums[stop] - sums[start] for start, stop in zip(starts, starts[1:] + (len(self.units),))),
                pads=tuple(self.pads[start] for start in starts) if self.pads else (),
                repeats=tuple(self.repeats[start] for start in starts) if self.repeats else (),
                closes=tuple(self.closes[start] for start in starts) if self.closes else (),
                kept=frozenset(number for number, start in enumerate(starts) if start in self.kept),
                soft=frozenset(),
                inside=frozenset(number for number, start in enumerate(starts) if start in self.inside),
            ),
            starts,
        )

    def keeps(self, start: int, stop: int) -> bool:
        """Units [start, stop) are enough for a fragment: MIN_UNITS rows, or `min_side_units` as tall as `min_side`
        (a row's lines one row), or one row as tall as `min_alone`; or it starts or stops inside a row."""
        return self._enough(start, stop)

    def _enough(self, start: int, stop: int) -> bool:
        """Counted in rows, the parts of a row cut between its lines one row; a fragment that starts or stops inside
        a row is enough on that side (measure keeps MIN_LINES lines on each side of a cut)."""
        if start in self.inside or stop in self.inside:
            return True
        sums, rows = _prefix(self.units), _rows(len(self.units), self.inside)
        count, height = rows[stop] - rows[start], sums[stop] - sums[start]
        return (
            count >= MIN_UNITS
            or (count >= self.min_side_units and height >= self.min_side)
            or (count == 1 and height >= self.min_alone)
        )

    def breaks(self) -> list[int]:
        """The units a fragment may start at inside the piece: enough units stay on each side (`keeps`); none of
        `kept`."""
        count = len(self.units)
        return [
            unit
            for unit in range(1, count)
            if unit not in self.kept and self._enough(0, unit) and self._enough(unit, count)
        ]


@lru_cache(maxsize=1024)  # asked for every column the packer tries: computed once a piece
def _prefix(units: tuple[float, ...]) -> tuple[float, ...]:
    return (0.0, *accumulate(units))


@lru_cache(maxsize=1024)
def _rows(count: int, inside: frozenset[int]) -> tuple[int, ...]:
    """How many rows start before each unit (a unit inside a row starts none)."""
    return (0, *accumulate(0 if unit in inside else 1 for unit in range(count)))


@dataclass(frozen=True)
class Fragment:
    """Units [start, stop) of piece `index`; `stop` is None when the fragment goes to the piece's end."""

    index: int
    start: int = 0
    stop: int | None = None
    heading: bool = False  # the column starts inside the piece's section: repeat its heading
    group_heading: bool = False  # the column starts inside the piece's group: repeat the group's heading

    @property
    def continued(self) -> bool:
        return self.start > 0


# A plan: pages of columns of fragments, in reading order.
Plan = list[list[list[Fragment]]]


@dataclass(frozen=True)
class Capacity:
    """The room of every column: `column_height` less the sheet's header on the first page, less `tops[p]` on page p
    and on the last page less `last_page_foot` (wide blocks set in a band across the page's top, or under its
    columns: generator.rendering.bands)."""

    column_height: float
    first_page_top: float
    columns: int
    safety: float = SAFETY_MM
    last_page_foot: float = 0.0
    tops: tuple[float, ...] = ()

    def of(self, column: int) -> float:
        page = column // self.columns
        band = self.tops[page] if page < len(self.tops) else 0.0
        return self.column_height - (self.first_page_top if column < self.columns else 0.0) - band - self.safety


@dataclass
class Packing:
    plan: Plan
    used: list[list[float]] = field(default_factory=list)  # per page, per column: millimetres filled
    overfull: list[int] = field(default_factory=list)  # pieces too tall for any column
    broken: list[int] = field(default_factory=list)  # pieces split where their keep rules forbid (no other plan)
    largest_hole: float = 0.0  # millimetres, at the foot of a column (the last page's and forced breaks aside)
    blank: int = 0  # columns of the last page left blank (its content could not fill them all)
    salvaged: bool = False  # planned by `_salvage`: every piece whole, one a column
    bands: list[tuple[int, ...]] = field(default_factory=list)  # per page: the wide pieces across its top (pack_bands)
    feet: list[tuple[int, ...]] = field(default_factory=list)  # per page: the wide pieces across its foot (pack_bands)
    exempt: set[tuple[int, int]] = field(default_factory=set)  # (page, column) ended by a forced break: no hole
    # wide pieces set past the text after them (pack_bands' floats), whose section or group heading that text prints
    moved: set[int] = field(default_factory=set)
    floated: set[int] = field(default_factory=set)  # wide pieces set past the text after them (pack_bands' floats)
    softened: int = 0  # splits of pieces kept together (`soft_keep`), each to fill a hole over MAX_HOLE

    @property
    def pages(self) -> int:
        return len(self.plan)

    def band(self, page: int) -> tuple[int, ...]:
        """The wide pieces set across the top of page `page`, above its columns."""
        return self.bands[page] if page < len(self.bands) else ()

    def foot(self, page: int) -> tuple[int, ...]:
        """The wide pieces set across the foot of page `page`, under its columns."""
        return self.feet[page] if page < len(self.feet) else ()


# A position in reading order: before unit `unit` of piece `index` (unit 0: before the piece).
Position = tuple[int, int]


def holes(packing: Packing, capacity: Capacity) -> list[tuple[int, int]]:
    """(page, column) of every hole over MAX_HOLE of its column's height: at the foot of a column before the last
    page (but one a forced break ends: `Packing.exempt`), or, on the last page (balanced, not filled), a column
    but the last that ends more than MAX_HOLE of the height below the page's tallest."""
    found = []
    count = capacity.columns
    for number, page in enumerate(packing.used):
        for slot, used in enumerate(page):
            room = capacity.of(number * count + slot) + capacity.safety
            if number < len(packing.used) - 1:
                if (number, slot) not in packing.exempt and room - used > MAX_HOLE * room:
                    found.append((number, slot))
            elif slot < len(page) - 1 and max(page) - used > MAX_HOLE * room:
                found.append((number, slot))
    return found


def column_height(pieces: list[Piece], start: Position, stop: Position) -> float:
    """The height of one column holding everything from `start` to `stop`."""
    height = 0.0
    first = True
    index, unit = start
    while (index, unit) < stop and index < len(pieces):
        piece = pieces[index]
        last_unit = stop[1] if stop[0] == index else len(piece.units)
        height += piece.fragment(unit, last_unit)
        if first and (unit > 0 or not piece.opens_section):
            height += piece.heading
        if first and (unit > 0 or not piece.opens_group):
            height += piece.group_heading
        first = False
        index, unit = index + 1, 0
    return height


def against_keeps(piece: Piece, fragment: Fragment) -> bool:
    """Whether a fragment of `piece` breaks it where its keep rules allow no break (Piece.breaks, Piece.keeps)."""
    stop = len(piece.units) if fragment.stop is None else fragment.stop
    if fragment.start == 0 and stop == len(piece.units):
        return False  # the whole piece
    ends = {0, len(piece.units), *piece.breaks()}
    return fragment.start not in ends or stop not in ends or not piece.keeps(fragment.start, stop)


def fragments(pieces: list[Piece], start: Position, stop: Position) -> list[Fragment]:
    found = []
    index, unit = start
    while (index, unit) < stop and index < len(pieces):
        piece = pieces[index]
        last_unit = stop[1] if stop[0] == index else len(piece.units)
        heading = not found and (unit > 0 or not piece.opens_section)
        group = not found and piece.group_heading > 0 and (unit > 0 or not piece.opens_group)
        found.append(Fragment(index, unit, None if last_unit == len(piece.units) else last_unit, heading, group))
        index, unit = index + 1, 0
    return found
