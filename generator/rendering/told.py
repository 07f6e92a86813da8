"""What the packer (generator.rendering.layout) is told of a block: its measured heights, where it may break, what
it keeps together and repeats."""

from __future__ import annotations

from generator.model.blocks.block import Subheaded
from generator.rendering import cuts, layout, measure


def piece(item, measured: measure.Measured, scale: float, tall: float = float("inf")) -> layout.Piece:
    """What the packer is told of a block. One kept together (`keep: together`) that could continue is told its
    units too, as `soft_keep`: the packer splits it only where keeping it whole would leave a hole over
    layout.MAX_HOLE. A block that never continues (a matrix, saves, a figure) has none: it is never split. A table
    row taller than `tall` is told as its parts between lines (generator.rendering.cuts); any other of six lines or
    more too, cut there only where keeping it whole would leave a hole (`Piece.soft`)."""
    rows = cuts.told(item, measured, tall) if item.may_continue else None
    units = rows.heights if rows else ()
    subheadings = _subheadings(item.block, measured, rows) if isinstance(item.block, Subheaded) and units else {}
    under = _under(item.block, measured, rows) if isinstance(item.block, Subheaded) and units else frozenset()
    if under:
        subheadings["kept"] = subheadings.get("kept", frozenset()) | under
    return layout.Piece(
        soft_keep=bool(units) and not item.splits,
        height=measured.height,
        units=units,
        head=measured.head,
        tail=measured.tail,
        pads=rows.pads if rows and len(units) > len(measured.units) else (),
        soft=rows.soft if rows else frozenset(),
        inside=rows.inside if rows else frozenset(),
        cont_head=measured.cont_head,
        cont_tail=measured.cont_tail,
        closes=_closes(measured, rows) if rows and measured.closes else (),
        heading=measured.heading,
        opens_section=item.first,
        group_heading=measured.group_heading if item.in_group else 0.0,
        opens_group=item.in_group is None or item.group is not None,
        breaks_before=item.block.break_before,
        **side_rule(item.block, scale),
        wide=measured.wide,
        **subheadings,
    )


def side_rule(block, scale: float) -> dict:
    """What a break leaves of a block on a side besides layout.MIN_UNITS units (Piece.keeps): one paragraph or step
    three lines tall; two rows as tall as four lines of text (two rows of a few words each: not enough), or one row
    of six lines, as much as two paragraphs (a wargear rule beside its name: a column's foot takes it as a
    paragraph, where keeping it with the next row left a quarter of the column empty)."""
    if block.text_units:
        return {"min_side": 3 * LINE_MM * scale, "min_side_units": 1}
    return {"min_side": 4 * LINE_MM * scale, "min_side_units": 2, "min_alone": 6 * LINE_MM * scale}


def _closes(measured: measure.Measured, rows: cuts.Rows) -> tuple[float, ...]:
    """By the packer's unit: the list's foot a fragment stopping there prints (measure.Measured.closes, by row):
    stopping at a row's top, the foot after the row before it; inside a row cut between its lines, its own."""
    return tuple(
        measured.closes[row] if cut is not None else measured.closes[row - 1] if row else 0.0 for row, cut in rows.units
    )


def _under(block: Subheaded, measured: measure.Measured, rows: cuts.Rows) -> frozenset[int]:
    """The units of the rows printed under the row above them (a table's `under`): no fragment starts at one."""
    if len(measured.units) != len(block.lines):
        return frozenset()  # a measurement that is not of these rows
    return frozenset(rows.unit_of_row(row) for row in block.under_rows())


def _subheadings(block: Subheaded, measured: measure.Measured, rows: cuts.Rows) -> dict:
    """What the packer is told of a block's sub-headings: each keeps the two rows after it (a sub-heading at a
    column's foot, or over one row, heads nothing there), and a fragment starting among its rows repeats it."""
    positions = block.subheadings()
    if not positions or len(measured.repeats) != len(positions) or len(measured.units) != len(block.lines):
        return {}  # nothing to keep together, or a measurement that is not of these rows
    height = dict(zip(positions, measured.repeats))
    over = [max((position for position in positions if position < row), default=None) for row, _ in rows.units]
    repeats = tuple(
        0.0 if (row in height and cut is None) or head is None else height[head]
        for (row, cut), head in zip(rows.units, over)
    )
    kept = frozenset(
        rows.unit_of_row(row)
        for position in positions
        for row in (position + 1, position + 2)
        if row < len(measured.units)
    )
    return {"repeats": repeats, "kept": kept}


LINE_MM = 7.6 * 1.22 * 25.4 / 72  # a line of body text at scale 1 (sheet.css: 7.6 pt, line-height 1.22)
