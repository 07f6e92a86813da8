"""Wide blocks: a block too wide for a column (or that asks to be `wide`) spans the page, set in a band across it,
as a typesetter places a wide figure. Under the balanced columns of what comes before it, on the page where that
ends, what follows in columns under the band (a page may so hold two sets of columns: `Packing.feet`). Where it
does not fit there, across the top of a page, above shorter columns (`Packing.bands`): the next page, what follows
it filling the rest of this one first where that saves a page or a hole (it floats, as a figure does: the text's
heading is then printed by that text, `Packing.moved`), else what comes before it ends this page balanced.
`pack_bands` plans each stretch of text between two bands with generator.rendering.layout.pack. Pure, as the
packer: measured heights in, a plan out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from generator.rendering import layout
from generator.rendering.layout import Capacity, Packing, Piece

MIN_UNDER = 0.2  # the share of a column's height that must stay under a band mid-page for columns to go on there


@dataclass
class _Flow:
    """Narrow pieces packed as one stretch (`indices` in the whole sheet), with the bands floated across the top of
    its pages (`tops`: page → band) and the wide pieces whose heading the text after them prints (`moved`)."""

    indices: list[int]
    tops: dict[int, tuple[int, ...]] = field(default_factory=dict)
    moved: set[int] = field(default_factory=set)
    sunk: set[int] = field(default_factory=set)  # pages whose band (in `tops`) prints across their foot

    @property
    def floated(self) -> set[int]:
        return {index for band in self.tops.values() for index in band}

    def pieces(self, pieces: list[Piece], band: tuple[int, ...]) -> list[Piece]:
        found = _opened([pieces[index] for index in self.indices], band)
        for wide in self.moved:  # the text after a floated band prints the heading the band would have
            position = self.indices.index(_after(pieces, wide))
            found[position] = _opening(found[position], pieces[wide])
        return found

    def capacity(self, pieces: list[Piece], room: Capacity) -> Capacity:
        heights = [0.0] * (max(self.tops, default=-1) + 1)
        for page, band in self.tops.items():
            heights[page] += _height(pieces, band) - sum(
                _heading(pieces[index]) for index in band if index in self.moved
            )
        return replace(room, tops=tuple(heights))

    def pack(self, pieces: list[Piece], band: tuple[int, ...], room: Capacity, foot: float = 0.0) -> Packing:
        if not self.indices:
            return Packing([[[]]], [[0.0]])
        return layout.pack(self.pieces(pieces, band), replace(self.capacity(pieces, room), last_page_foot=foot))


def pack_bands(pieces: list[Piece], capacity: Capacity) -> Packing:
    """`pack`, with wide pieces set in bands across the page. Each run of wide pieces goes under the balanced columns
    of the text before it, on its last page, where it fits there without a page more, and the text after it starts
    under it, on the same page; else across the top of the next page, the columns under it that much shorter, the
    text after it filling the rest of this page first where that takes no more pages (`_floated`), else the text
    before it ending this page balanced, as a last page. A band whose text would run past a column under it goes a
    page later (`_past`)."""
    if not any(piece.wide for piece in pieces):
        return layout.pack(pieces, capacity)
    stretches = _stretches(pieces)
    joined = Packing([], [], [])
    above = None  # the millimetres taken above this stretch's first columns, when it starts under a band mid-page
    number = 0
    while number < len(stretches):
        band, start, stop = stretches[number]
        under = above is not None  # starts on the page before's last page, under its band
        on_top = () if under else band
        top = above if under else _height(pieces, band) + (capacity.first_page_top if not joined.plan else 0.0)
        room = Capacity(capacity.column_height, top, capacity.columns, capacity.safety)
        flow = _Flow(list(range(start, stop)))
        packing = flow.pack(pieces, band, room)
        lead = band  # the band right above the stretch's first column, whose headings it does not repeat
        if on_top and packing.overfull:
            past = _past(pieces, flow, band, replace(room, first_page_top=top - _height(pieces, band)), packing)
            if past is not None:
                (flow, packing), on_top, lead = past, (), ()
        above = None
        while number + 1 < len(stretches) and flow.indices:
            following, after, _ = stretches[number + 1]
            footed = (
                None  # a page holds one band under its columns: not one under a band, nor over one sunk to its foot
                if under and packing.pages == 1 or packing.pages - 1 in flow.sunk
                else _footed(pieces, flow, lead, room, packing, following, after)
            )
            sunk = _sunk(pieces, flow, lead, room, packing, stretches[number + 1], footed)
            if sunk is not None:
                flow, packing = sunk
                number += 1
                continue
            if footed is not None:
                packing, above = footed
                break
            floated = _floated(pieces, flow, lead, room, packing, stretches[number + 1])
            if floated is None:
                break
            flow, packing = floated
            number += 1
        _join(joined, flow, on_top, packing, under, capacity.columns)
        tall = [
            placed[0]
            for placed in flow.tops.values()  # a band taller than its page: told as overfull
            if _height(pieces, placed) > capacity.column_height - capacity.safety
        ]
        if on_top and top > capacity.column_height - capacity.safety:
            tall.append(band[0])
        joined.overfull = sorted(set(joined.overfull) | set(tall))
        number += 1
    return joined


def _footed(
    pieces, flow: _Flow, band, room: Capacity, packing: Packing, following, after: int
) -> tuple[Packing, float] | None:
    """The stretch packed with `following` under its last page's balanced columns, and the millimetres then taken
    above the columns under it; None where that takes a page more, or leaves too little room under it (less than
    MIN_UNDER of a column, or less than the block after the band needs: `after`, if it never splits)."""
    height = _height(pieces, following)
    below = flow.pack(pieces, band, room, foot=height)
    if below.pages != packing.pages or len(below.overfull) > len(packing.overfull):
        return None
    last = packing.pages - 1
    taken = (room.first_page_top if last == 0 else 0.0) + max(below.used[last], default=0.0) + height + room.safety
    left = room.column_height - taken
    first = pieces[after] if after < len(pieces) and not pieces[after].wide else None
    if left < MIN_UNDER * room.column_height or (first is not None and not first.units and first.height > left):
        return None
    below.feet = [()] * last + [following]
    return below, taken


def _sunk(
    pieces, flow: _Flow, band, room: Capacity, packing: Packing, stretch, footed: tuple[Packing, float] | None
) -> tuple[_Flow, Packing] | None:
    """The stretch and the next one packed as one flow, the band between them across the foot of the page the
    first ends on, the columns above it that much shorter, where the band under the balanced columns of the text
    before it (`footed`) would leave one of them blank or less than half as tall as the tallest (two blocks that
    never split, over three columns): where the text after the band starts on that page, on no more pages than it
    under the band, nothing overfull or broken that they were not. The text after a band that opens a section (or
    group) prints its heading."""
    following, start, stop = stretch
    last = packing.pages - 1
    if footed is None or stop == start or last in flow.tops:
        return None
    below, taken = footed
    above = list(below.used[last][: room.columns]) + [0.0] * (room.columns - len(below.used[last]))
    if min(above) >= 0.5 * max(above):
        return None  # the columns above the band stand balanced
    moved = {following[0]} if _opens(pieces, following[0]) else set()
    sunk = _Flow(
        flow.indices + list(range(start, stop)),
        {**flow.tops, last: following},
        flow.moved | moved,
        flow.sunk | {last},
    )
    together = sunk.pack(pieces, band, room)
    under = _Flow(list(range(start, stop))).pack(pieces, following, replace(room, first_page_top=taken))
    if (
        not _starts_on(together, last, sunk.indices.index(start))
        or together.pages > last + under.pages
        or len(together.overfull) + len(together.broken)
        > len(below.overfull) + len(below.broken) + len(under.overfull) + len(under.broken)
    ):
        return None
    return sunk, together


def _floated(pieces, flow: _Flow, band, room: Capacity, packing: Packing, stretch) -> tuple[_Flow, Packing] | None:
    """The stretch and the next one packed as one flow, the band between them across the top of the page after the
    one the first ends on, where that page, balanced before the band, would leave a hole over MAX_HOLE at the foot
    of a column: where the text after the band then fills the rest of that page, on no more pages than the band
    starting a page with the text before it balanced above, nothing overfull or broken that the stretch before was
    not. The text after a band that opens a section (or group) prints its heading."""
    following, start, stop = stretch
    last = packing.pages - 1
    room_last = room.of(last * room.columns) + room.safety
    if stop == start or all(room_last - used <= layout.MAX_HOLE * room_last for used in packing.used[last]):
        return None  # no text to float past it, or no hole it would fill: the band starts the next page
    moved = {following[0]} if _opens(pieces, following[0]) else set()
    floated = _Flow(flow.indices + list(range(start, stop)), {**flow.tops, last + 1: following}, flow.moved | moved)
    together = floated.pack(pieces, band, room)
    apart = _Flow(list(range(start, stop))).pack(
        pieces, following, replace(room, first_page_top=_height(pieces, following))
    )
    if (
        not _starts_on(together, last, floated.indices.index(start))
        or max(together.pages, last + 2) > packing.pages + apart.pages
        or len(together.overfull) + len(together.broken) > len(packing.overfull) + len(packing.broken)
    ):
        return None  # (where the text after the band runs past a column either way, _past gives it a page first)
    return floated, _reaching(together, last + 1)


def _starts_on(packing: Packing, page: int, index: int) -> bool:
    """Whether piece `index` starts on page `page` of the packing (the text after a band, on the band's page)."""
    return page < packing.pages and any(
        fragment.index == index and fragment.start == 0 for column in packing.plan[page] for fragment in column
    )


def _past(pieces, flow: _Flow, band, room: Capacity, packing: Packing) -> tuple[_Flow, Packing] | None:
    """The band set across the top of the stretch's second page, not its first, where a block under it ran past
    the column's foot (a block that never splits, taller than the room the band leaves): the stretch's first page
    has its whole height. None where that leaves as much overfull."""
    moved = {band[0]} if _opens(pieces, band[0]) else set()
    past = _Flow(flow.indices, {1: band}, moved)
    found = past.pack(pieces, (), room)
    if len(found.overfull) >= len(packing.overfull):
        return None
    return past, _reaching(found, 1)


def _reaching(packing: Packing, page: int) -> Packing:
    """The packing with page `page`, where a band goes: one more, empty under the band, where the text ends before."""
    missing = page + 1 - packing.pages
    if missing <= 0:
        return packing
    return replace(packing, plan=packing.plan + [[[]]] * missing, used=packing.used + [[0.0]] * missing)


def _opens(pieces: list[Piece], wide: int) -> bool:
    """Whether a wide piece prints a heading (its section's or group's) that the narrow piece after it, in the same
    section or group, would otherwise follow."""
    after = _after(pieces, wide)
    return after < len(pieces) and (
        (pieces[wide].opens_section and not pieces[after].opens_section)
        or (pieces[wide].opens_group and not pieces[after].opens_group)
    )


def _after(pieces: list[Piece], wide: int) -> int:
    """The first narrow piece after a wide one."""
    return next((index for index in range(wide + 1, len(pieces)) if not pieces[index].wide), len(pieces))


def _opening(piece: Piece, wide: Piece) -> Piece:
    """A narrow piece that prints the heading the wide piece before it would have: that much taller."""
    extra = (piece.heading if wide.opens_section and not piece.opens_section else 0.0) + (
        piece.group_heading if wide.opens_group and not piece.opens_group else 0.0
    )
    return replace(piece, height=piece.height + extra, head=piece.head + extra, opens_section=True, opens_group=True)


def _heading(piece: Piece) -> float:
    """What a wide piece that opens its section (or group) no longer prints when it floats past its text."""
    return (piece.heading if piece.opens_section else 0.0) + (piece.group_heading if piece.opens_group else 0.0)


def _height(pieces: list[Piece], band: tuple[int, ...]) -> float:
    return sum(pieces[index].height for index in band)


def _stretches(pieces: list[Piece]) -> list[tuple[tuple[int, ...], int, int]]:
    """(the band's pieces, start, stop): each run of wide pieces with the narrow pieces [start, stop) under it; the
    first stretch has no band unless the sheet starts with a wide piece."""
    found, index = [], 0
    while index < len(pieces):
        band = []
        while index < len(pieces) and pieces[index].wide:
            band.append(index)
            index += 1
        start = index
        while index < len(pieces) and not pieces[index].wide:
            index += 1
        found.append((tuple(band), start, index))
    return found


def _opened(pieces: list[Piece], band: tuple[int, ...]) -> list[Piece]:
    """The stretch's pieces; under a band, the first column does not repeat a heading the band printed above it."""
    if not band or not pieces:
        return pieces
    return [replace(pieces[0], opens_section=True, opens_group=True), *pieces[1:]]


def _join(joined: Packing, flow: _Flow, band: tuple[int, ...], packing: Packing, merged: bool, count: int) -> None:
    """The stretch's pages after those joined, its pieces numbered in the whole sheet; `merged`: its first page is
    the last page joined (it starts under a band there), its columns after that page's."""
    plan = [
        [[replace(fragment, index=flow.indices[fragment.index]) for fragment in column] for column in page]
        for page in packing.plan
    ]
    offset = len(joined.plan) - 1 if merged else len(joined.plan)
    feet = (packing.feet or []) + [()] * (packing.pages - len(packing.feet or []))
    tops = [flow.tops.get(page, ()) if page not in flow.sunk else () for page in range(packing.pages)]
    for page in flow.sunk:  # under the page's only columns, none under it
        feet[page] = flow.tops[page]
    if merged:  # the columns above the band as many as a page has (pack leaves a last page's blank ones out)
        blank = count - len(joined.plan[-1])
        joined.plan[-1] += [[]] * blank + plan[0]
        joined.used[-1] += [0.0] * blank + packing.used[0]
        plan, used, feet, tops = plan[1:], packing.used[1:], feet[1:], tops[1:]
    else:
        used = packing.used
        tops[0] = band + tops[0]
    joined.plan += plan
    joined.used += used
    joined.feet += feet
    joined.bands += tops
    joined.overfull = sorted(set(joined.overfull + [flow.indices[index] for index in packing.overfull]))
    joined.broken = sorted(joined.broken + [flow.indices[index] for index in packing.broken])
    joined.salvaged = joined.salvaged or packing.salvaged
    joined.largest_hole = max(joined.largest_hole, packing.largest_hole)
    joined.blank += packing.blank
    joined.exempt |= {(page + offset, slot + (count if merged and page == 0 else 0)) for page, slot in packing.exempt}
    joined.softened += packing.softened
    joined.moved |= flow.moved
    joined.floated |= flow.floated
