"""Wide blocks: a block too wide for a column (or that asks to be `wide`) spans the page, set in a band across the top
of a page above its columns. `pack_bands` plans each stretch between two bands with generator.rendering.layout.pack,
the columns under a band that much shorter. Pure, as the packer: measured heights in, a plan out."""

from __future__ import annotations

from dataclasses import replace

from generator.rendering import layout
from generator.rendering.layout import Capacity, Packing, Piece


def pack_bands(pieces: list[Piece], capacity: Capacity) -> Packing:
    """`pack`, with wide pieces set in bands across the top of a page: a run of wide pieces starts a new page, the
    columns under it have that much less room, and what comes before it ends the page before, balanced as a last
    page. Each stretch between two bands is packed alone: a band always starts a page, so no plan of one stretch
    changes what the next can do, and the fewest pages of each is the fewest of all."""
    if not any(piece.wide for piece in pieces):
        return layout.pack(pieces, capacity)
    packings = []
    for band, start, stop in _stretches(pieces):
        top = sum(pieces[index].height for index in band) + (capacity.first_page_top if not packings else 0.0)
        room = Capacity(capacity.column_height, top, capacity.columns, capacity.safety)
        packing = layout.pack(_opened(pieces[start:stop], band), room) if stop > start else Packing([[[]]], [[0.0]])
        if top > capacity.column_height - capacity.safety:
            packing.overfull.append(band[0] - start)  # a band taller than the page: told as an overfull piece
        packings.append((start, band, packing))
    return _joined(packings)


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


def _joined(packings: list[tuple[int, tuple[int, ...], Packing]]) -> Packing:
    """One packing of the stretches' pages, one after another, their pieces numbered in the whole sheet."""
    joined = Packing([], [], [])
    for start, band, packing in packings:
        joined.plan += [[[replace(fragment, index=fragment.index + start) for fragment in column] for column in page]
                        for page in packing.plan]
        joined.used += packing.used
        joined.overfull = sorted(joined.overfull + [index + start for index in packing.overfull])
        joined.broken = sorted(joined.broken + [index + start for index in packing.broken])
        joined.salvaged = joined.salvaged or packing.salvaged
        joined.largest_hole = max(joined.largest_hole, packing.largest_hole)
        joined.blank += packing.blank
        joined.exempt |= {(page + len(joined.bands), slot) for page, slot in packing.exempt}
        joined.softened += packing.softened
        joined.bands += [band] + [()] * (packing.pages - 1)
    return joined
