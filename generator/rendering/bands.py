"""Wide blocks: a block too wide for a column (or that asks to be `wide`) spans the page, set in a band across it,
as a typesetter places a wide figure: under the balanced columns of what comes before it, on the page where that
ends, what follows in columns under the band (a page may so hold two sets of columns: `Packing.feet`); where the
band does not fit there, across the top of a new page, above shorter columns (`Packing.bands`). `pack_bands` plans
each stretch between two bands with generator.rendering.layout.pack. Pure, as the packer: measured heights in, a
plan out."""

from __future__ import annotations

from dataclasses import replace

from generator.rendering import layout
from generator.rendering.layout import Capacity, Packing, Piece


MIN_UNDER = 0.2  # the share of a column's height that must stay under a band mid-page for columns to go on there


def pack_bands(pieces: list[Piece], capacity: Capacity) -> Packing:
    """`pack`, with wide pieces set in bands across the page. Each run of wide pieces goes under the balanced columns
    of the stretch before it, on its last page, where it fits there without a page more, and the stretch after it
    starts under it, on the same page; else it starts a new page, the columns under it that much shorter, and what
    comes before it ends the page before, balanced as a last page. Each stretch between two bands is packed alone:
    a band always ends a page's columns, so no plan of one stretch changes what the next can do, and the fewest
    pages of each is the fewest of all."""
    if not any(piece.wide for piece in pieces):
        return layout.pack(pieces, capacity)
    stretches = _stretches(pieces)
    joined = Packing([], [], [])
    above = None  # the millimetres taken above this stretch's first columns, when it starts under a band mid-page
    for number, (band, start, stop) in enumerate(stretches):
        under = above is not None  # starts on the page before's last page, under its band
        on_top = () if under else band
        top = above if under else (
            sum(pieces[index].height for index in band) + (capacity.first_page_top if not joined.plan else 0.0))
        room = Capacity(capacity.column_height, top, capacity.columns, capacity.safety)
        stretch = _opened(pieces[start:stop], band)
        packing = layout.pack(stretch, room) if stop > start else Packing([[[]]], [[0.0]])
        following = stretches[number + 1][0] if number + 1 < len(stretches) else ()
        above = None
        if following and stop > start and not (under and packing.pages == 1):  # one band across a page's middle
            height = sum(pieces[index].height for index in following)
            below = layout.pack(stretch, replace(room, last_page_foot=height))
            last = packing.pages - 1
            taken = (top if last == 0 else 0.0) + max(below.used[last], default=0.0) + height + capacity.safety
            if (below.pages == packing.pages and len(below.overfull) <= len(packing.overfull)
                    and capacity.column_height - taken >= MIN_UNDER * capacity.column_height):
                packing, above = below, taken
                packing.feet = [()] * last + [following]
        if top > capacity.column_height - capacity.safety:
            packing.overfull.append(band[0] - start)  # a band taller than the page: told as an overfull piece
        _join(joined, start, on_top, packing, under, capacity.columns)
    return joined


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


def _join(joined: Packing, start: int, band: tuple[int, ...], packing: Packing, merged: bool, count: int) -> None:
    """The stretch's pages after those joined, its pieces numbered in the whole sheet; `merged`: its first page is
    the last page joined (it starts under a band there), its columns after that page's."""
    plan = [[[replace(fragment, index=fragment.index + start) for fragment in column] for column in page]
            for page in packing.plan]
    offset = len(joined.plan) - 1 if merged else len(joined.plan)
    feet = packing.feet or [()] * packing.pages
    if merged:
        joined.plan[-1] += plan[0]
        joined.used[-1] += packing.used[0]
        plan, used, feet = plan[1:], packing.used[1:], feet[1:]
        joined.bands += [()] * (packing.pages - 1)
    else:
        used = packing.used
        joined.bands += [band] + [()] * (packing.pages - 1)
    joined.plan += plan
    joined.used += used
    joined.feet += feet
    joined.overfull = sorted(joined.overfull + [index + start for index in packing.overfull])
    joined.broken = sorted(joined.broken + [index + start for index in packing.broken])
    joined.salvaged = joined.salvaged or packing.salvaged
    joined.largest_hole = max(joined.largest_hole, packing.largest_hole)
    joined.blank += packing.blank
    joined.exempt |= {(page + offset, slot + (count if merged and page == 0 else 0)) for page, slot in packing.exempt}
    joined.softened += packing.softened
