"""The packer's plan read back as what the pages print (generator.rendering.items.Item): its units as rows and
the cuts between a row's lines, the headings a floated band leaves to the text after it, the wide blocks of each
page's bands. Nothing here renders."""

from __future__ import annotations

from dataclasses import replace

from generator.rendering import cuts, layout, measure
from generator.rendering.items import Item


def moved(whole: list[Item], packing: layout.Packing) -> list[Item]:
    """The items as the plan prints them: a wide block set past the text after it (a float: Packing.moved) leaves
    its section's heading (and its group's) to that text."""
    banded = {index for page in packing.bands + packing.feet for index in page}
    found = list(whole)
    for wide in packing.moved:
        after = next((index for index in range(wide + 1, len(whole)) if index not in banded), None)
        if after is not None:
            found[after] = replace(
                found[after],
                first=found[after].first or whole[wide].first,
                group=found[after].group or whole[wide].group,
            )
        found[wide] = replace(found[wide], first=False, group=None)
    return found


def bands(
    whole: list[Item], packing: layout.Packing, measured: dict[str, measure.Measured], placed
) -> list[list[Item]]:
    """Per page: the wide blocks set across its top (`placed`: packing.band) or its foot (packing.foot), whole, with
    the widths measured at the page's width."""
    return [
        [replace(whole[index], wide=True, widths=measured[whole[index].id].widths) for index in placed(page)]
        for page in range(packing.pages)
    ]


def tall(frame) -> float:
    """A table row taller than this (millimetres) may be cut between its lines (generator.rendering.cuts)."""
    return frame.column_height / 3


def fragment(item: Item, fragment: layout.Fragment, measured: measure.Measured, tall: float) -> Item:
    """The packer's fragment as the page prints it: its units read back as rows, and where a row is cut."""
    rows = cuts.told(item, measured, tall) if measured.units else None
    (start, start_cut), (stop, stop_cut) = (
        (rows.at(fragment.start), rows.at(fragment.stop)) if rows else ((fragment.start, None), (fragment.stop, None))
    )
    return replace(
        item,
        start=start,
        stop=stop,
        start_cut=start_cut,
        stop_cut=stop_cut,
        heading=fragment.heading,
        group_heading=fragment.group_heading,
        widths=measured.widths,
    )
