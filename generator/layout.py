"""Page geometry and column packing: blocks are measured, then placed into explicit columns.

WeasyPrint's CSS columns split tables across columns (break-inside is not honoured on tables) and
balancing them is its slowest step. So the generator lays every block out once in a single column
of the final width, reads each block's height from the laid-out boxes, and packs the blocks, in
reading order, into the pages × columns the sheet declares. No block is ever split.
"""

from __future__ import annotations

from dataclasses import dataclass

PAPER_MM = {"A4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait width, height
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
    pages: int
    margins: tuple[float, float, float, float] = MARGINS_MM

    @property
    def column_width(self) -> float:
        content = self.page_width - self.margins[1] - self.margins[3]
        return round((content - (self.columns - 1) * (COLUMN_GAP_MM + RULE_MM)) / self.columns, 2)

    @property
    def column_height(self) -> float:
        return self.page_height - self.margins[0] - self.margins[2]


def frame(size: str, orientation: str, columns: int, pages: int) -> Frame:
    width, height = PAPER_MM[size]
    if orientation == "landscape":
        width, height = height, width
    return Frame(width, height, columns, pages)


# A plan: for each page, for each column, the indices of the blocks it holds, in reading order.
Plan = list[list[list[int]]]


def pack(heights: list[float], column_height: float, first_page_top: float, columns: int) -> Plan:
    """Blocks in reading order, each in the first column with room for it; a block taller than a
    column gets a column of its own (the layout check then names it). Heights in millimetres;
    `first_page_top` is the height the sheet's header takes on the first page."""
    plan: Plan = [[[]]]
    room = column_height - first_page_top
    for index, height in enumerate(heights):
        column = plan[-1][-1]
        if column and height > room:
            if len(plan[-1]) == columns:
                plan.append([])
            plan[-1].append([])
            column = plan[-1][-1]
            room = column_height - (first_page_top if len(plan) == 1 else 0)
        column.append(index)
        room -= height
    return plan
