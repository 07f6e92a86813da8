"""An attempt at a type scale from measurements, or estimates of them: the pieces packed, nothing rendered
(`packed`), and the estimate of an attempt at another scale from those laid out (`predict`, fit.choose_scale's)."""

from __future__ import annotations

import math
from dataclasses import replace

from generator.rendering import fit, measure, planned, told
from generator.rendering import layout as layout_module
from generator.rendering.bands import pack_bands
from generator.rendering.templating import TYPE_SIZES, base


def packed(
    frame,
    whole,
    context: dict,
    measured: dict[str, measure.Measured],
    header: float,
    scale: float,
    size: float | None = None,
) -> fit.Attempt:
    """The attempt at `scale` from its measurements (or estimates of them): the pieces packed, nothing rendered."""
    capacity = layout_module.Capacity(frame.column_height, header, frame.columns)
    if size is None:
        size = context["type_sizes"]["size"] / TYPE_SIZES["size"]  # the body's size against 7.6 pt: a line's height
    pieces = [told.piece(item, measured[item.id], size, planned.tall(frame)) for item in whole]
    packing = pack_bands(pieces, capacity)
    page = sum(capacity.of(column) for column in range(frame.columns, 2 * frame.columns))  # a page after the first
    # a band takes its height from every column of its page
    content = sum(piece.height * (frame.columns if piece.wide else 1) for piece in pieces)
    fill = (content + header * frame.columns) / page
    return fit.Attempt(
        scale,
        packing.pages + len(packing.overfull) * fit.OVERFULL_PAGES,
        packing.blank,
        packing.largest_hole,
        fill,
        (context, measured, header, packing),
    )


def predict(frame, whole, normal: fit.Attempt, scale: float, other: fit.Attempt | None = None) -> fit.Attempt:
    """An estimate of the attempt at `scale` from the one at 100 % (fit.choose_scale's `predict`): every height
    measured at 100 % times scale^fit.GROWTH, packed at that scale's line height; nothing rendered. With `other`,
    an attempt laid out at another scale, each block grows as its own two measurements say (a table whose cells wrap
    more as type shrinks shrinks less than prose). Its plan is never laid out: the scale it leads to is measured."""
    context, measured, header, _ = normal.plan
    others, other_header = (other.plan[1], other.plan[2]) if other is not None else ({}, 0.0)

    def factor(height: float, there: float | None) -> float:
        if other is None or there is None or height <= 0 or there <= 0:
            return scale**fit.GROWTH
        return scale ** (math.log(there / height) / math.log(other.scale))

    size = round(TYPE_SIZES["size"] * base(context["sheet"]) * scale, 3) / TYPE_SIZES["size"]
    return packed(
        frame,
        whole,
        context,
        {
            ident: _scaled(value, factor(value.height, others[ident].height if ident in others else None))
            for ident, value in measured.items()
        },
        header * factor(header, other_header),
        scale,
        size,
    )


def _scaled(measured: measure.Measured, factor: float) -> measure.Measured:
    return replace(
        measured,
        height=measured.height * factor,
        units=tuple(unit * factor for unit in measured.units),
        head=measured.head * factor,
        tail=measured.tail * factor,
        cont_head=measured.cont_head * factor,
        cont_tail=measured.cont_tail * factor,
        heading=measured.heading * factor,
        group_heading=measured.group_heading * factor,
        repeats=tuple(repeat * factor for repeat in measured.repeats),
        closes=tuple(close * factor for close in measured.closes),
        cuts=tuple(
            replace(
                cut,
                top=cut.top * factor,
                bottom=cut.bottom * factor,
                lines=tuple((foot * factor, chars) for foot, chars in cut.lines),
            )
            for cut in measured.cuts
        ),
    )
