"""The packer always plans (generator.rendering.layout.pack): random pieces of any height, rows taller than a
column, keep rules, forced breaks, section and group headings, one to four columns, a header on the first page.

A few hundred examples a run; QRS_PROPERTY_EXAMPLES=10000 asks for more (a release, a change to the packer)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.rendering import layout

EXAMPLES = int(os.environ.get("QRS_PROPERTY_EXAMPLES", "300"))
COLUMN_MM = 100.0  # the column's height: every other height is drawn around it, some taller than it

heights = st.floats(min_value=0.5, max_value=1.6 * COLUMN_MM, allow_nan=False)
small = st.floats(min_value=0.0, max_value=0.15 * COLUMN_MM, allow_nan=False)


@st.composite
def pieces(draw) -> layout.Piece:
    """A block that never splits, or one of units (rows, steps) with its title, header and their repeats, some
    kept together (`soft_keep`)."""
    units = tuple(draw(st.lists(heights, max_size=12))) if draw(st.booleans()) else ()
    head, tail, cont_head, cont_tail = (draw(small) for _ in range(4))
    height = head + sum(units) + tail if units else draw(heights)
    return layout.Piece(
        height,
        units,
        head,
        tail,
        cont_head,
        cont_tail,
        heading=draw(small),
        opens_section=draw(st.booleans()),
        group_heading=draw(small),
        opens_group=draw(st.booleans()),
        breaks_before=draw(st.sampled_from([None, None, None, "column", "page"])),
        min_side=draw(st.sampled_from([float("inf"), 10.0, 30.0])),
        min_side_units=draw(st.sampled_from([1, 2])),
        min_alone=draw(st.sampled_from([float("inf"), 20.0])),  # a table's row of six lines alone on a side
        soft_keep=bool(units) and draw(st.booleans()),
    )


capacities = st.builds(
    layout.Capacity,
    st.just(COLUMN_MM),
    st.floats(0.0, 0.4 * COLUMN_MM),
    st.integers(1, 4),
    st.sampled_from([0.0, layout.SAFETY_MM]),
)


def placed_units(packing: layout.Packing, all_pieces: list[layout.Piece]) -> list[tuple[int, int]]:
    """(piece, unit) of every unit the plan prints, in reading order; a piece without units is its unit 0."""
    found = []
    for page in packing.plan:
        for column in page:
            for fragment in column:
                count = len(all_pieces[fragment.index].units) or 1
                stop = count if fragment.stop is None else fragment.stop
                found += [(fragment.index, unit) for unit in range(fragment.start, stop)]
    return found


def check_plan(all_pieces: list[layout.Piece], capacity: layout.Capacity) -> None:
    packing = layout.pack(all_pieces, capacity)
    assert not packing.salvaged  # the relaxed packer planned it (the salvage plan keeps no rule)
    expected = [(index, unit) for index, piece in enumerate(all_pieces) for unit in range(len(piece.units) or 1)]
    assert placed_units(packing, all_pieces) == expected  # every unit once, in reading order
    columns = [column for page in packing.plan for column in page]
    for number, column in enumerate(columns):
        if not column and any(columns[number:]):
            assert _forced_page_follows(columns, number, capacity.columns, all_pieces), packing.plan
    used = [height for page in packing.used for height in page]
    for number, column in enumerate(columns):
        if used[number] > capacity.of(number) + capacity.safety:  # overfull only where reported
            assert column[0].index in packing.overfull
        for fragment in column:  # broken against the keep rules only where reported
            if layout.against_keeps(all_pieces[fragment.index], fragment):
                assert fragment.index in packing.broken
    split = {fragment.index for column in columns for fragment in column if fragment.start or fragment.stop is not None}
    if any(all_pieces[index].soft_keep for index in split):  # a piece kept together yields only to fill a hole
        assert packing.softened and not packing.broken and not packing.overfull
    ends = {
        (fragment.index, end) for column in columns for fragment in column for end in (fragment.start, fragment.stop)
    }
    if any(end in all_pieces[index].soft for index, end in ends if end):  # a row cut softly: only to fill a hole
        assert packing.softened and not packing.broken and not packing.overfull


def _forced_page_follows(columns, number: int, count: int, all_pieces) -> bool:
    """Whether an empty column is the rest of a page ended by a forced page break: the next column that holds
    anything is on a later page and starts a piece that breaks before a page."""
    following = next(later for later in range(number + 1, len(columns)) if columns[later])
    fragment = columns[following][0]
    return (
        following // count > number // count
        and following % count == 0
        and fragment.start == 0
        and all_pieces[fragment.index].breaks_before == "page"
    )


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(pieces(), min_size=1, max_size=8), capacities)
def test_the_packer_always_plans_every_unit_once_in_order(all_pieces, capacity):
    check_plan(all_pieces, capacity)


@st.composite
def cut_pieces(draw) -> layout.Piece:
    """A piece whose units may be the parts of rows cut between lines: each adds padding where a fragment starts
    or stops inside its row (generator.rendering.cuts), some cut softly (only to fill a hole: `soft`)."""
    piece = draw(pieces())
    if not piece.units:
        return piece
    inside = frozenset(unit for unit in range(1, len(piece.units)) if draw(st.booleans()))
    pads = tuple((draw(small), draw(small)) if unit in inside else (0.0, 0.0) for unit in range(len(piece.units)))
    soft = frozenset(unit for unit in inside if draw(st.booleans()))
    return layout.Piece(**{**piece.__dict__, "pads": pads, "inside": inside, "soft": soft})


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(cut_pieces(), min_size=1, max_size=8), capacities)
def test_the_packer_plans_pieces_whose_rows_are_cut_between_lines(all_pieces, capacity):
    check_plan(all_pieces, capacity)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(pieces(), st.booleans()), min_size=1, max_size=8), capacities)
def test_wide_pieces_are_banded_once_and_the_text_planned_once_in_order(drawn, capacity):
    """pack_bands: each wide piece in exactly one band (across a page's top or its middle), every unit of the
    others once, in reading order (a floated band aside, which the text after it passes)."""
    from generator.rendering import bands

    all_pieces = [
        layout.Piece(
            **{
                **piece.__dict__,
                "wide": wide,
                "units": () if wide else piece.units,
                "height": piece.height if not wide else min(piece.height, 0.5 * COLUMN_MM),
            }
        )
        for piece, wide in drawn
    ]
    packing = bands.pack_bands(all_pieces, capacity)
    banded = [index for page in packing.bands + packing.feet for index in page]
    assert sorted(banded) == [index for index, piece in enumerate(all_pieces) if piece.wide]
    narrow = [
        (index, unit)
        for index, piece in enumerate(all_pieces)
        if not piece.wide
        for unit in range(len(piece.units) or 1)
    ]
    assert placed_units(packing, all_pieces) == narrow
    assert len(packing.plan) == len(packing.used) and all(
        len(found) in (0, len(packing.plan)) for found in (packing.bands, packing.feet)
    )
    assert all(len(page) <= 2 * capacity.columns for page in packing.plan)
