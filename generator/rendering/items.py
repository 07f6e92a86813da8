"""What the page prints of each block: an Item, whole or a fragment of it, in reading order. The templates ask an
Item what to print; the packer's plan is made of them. Nothing here renders."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from generator.model.blocks.block import Subheaded, Subheading
from generator.model.blocks.errata import ChangesBox
from generator.model.types import Block, Group, Section, Sheet
from generator.rendering import cuts, measure


@dataclass(frozen=True)
class Item:
    """What the page prints of one block (the changes box too): whole, or units [start, stop) of it,
    a block continued across columns. Templates ask it what to print."""

    block: Block | ChangesBox
    section: Section | None = None
    first: bool = False  # the first block of its section: it prints the section's heading
    start: int = 0
    stop: int | None = None  # None: to the block's last unit
    heading: bool = False  # the column starts inside the section: repeat its heading, marked continued
    widths: tuple[float, ...] | None = None  # the table's column widths as measured on the whole block
    probe: bool = False  # the measuring pass's continuation probe
    group: Group | None = None  # the first block of a group prints the group's heading above its own title
    in_group: Group | None = None  # the group the block is in (opened by it or by a block before it)
    group_heading: bool = False  # the column starts inside the block's group: repeat its heading, marked continued
    wide: bool = False  # set across the page's columns, in a band above them (layout.pack_bands): natural width
    start_cut: cuts.Cut | None = None  # the fragment starts inside row `start`, after this cut
    stop_cut: cuts.Cut | None = None  # the fragment ends inside row `stop`, at this cut (its head printed)

    @property
    def block_id(self) -> str:
        return self.block.id

    @property
    def id(self) -> str:
        if self.probe:
            return self.block_id + measure.PROBE
        if self.start_cut:
            return f"{self.block_id}-cont-{self.start}-{self.start_cut.chars}"
        return self.block_id if self.start == 0 else f"{self.block_id}-cont-{self.start}"

    @property
    def continued(self) -> bool:
        return self.start > 0 or self.probe or self.start_cut is not None

    @property
    def continues(self) -> bool:
        return self.stop is not None

    @property
    def splits(self) -> bool:
        return self.block.splits

    @property
    def may_continue(self) -> bool:
        """Whether the block could continue into the next column: it splits, or it is kept together (`keep:
        together`) but yields where keeping it whole would leave a hole (generator.rendering.layout.pack). Such a
        block is measured with its units and continuation, and printed continued like any other."""
        return self.block.may_continue

    @property
    def repeats(self) -> list[Subheading]:
        """The sub-headings printed "(cont.)" above the fragment's first row: in a continuation, the one whose rows
        hold it; in the measuring probe, every one of the block's, each measured for the packer
        (measure.REPEAT)."""
        if not isinstance(self.block, Subheaded):
            return []
        if self.probe:
            return [self.block.lines[position] for position in self.block.subheadings()]
        over = self.block.subheading_over(self.start) if self.start > 0 else None
        return [over] if over else []

    @property
    def cuts_units(self) -> bool:
        """Whether the block's tall rows may be cut between their lines (generator.rendering.cuts)."""
        return self.block.cuts_units

    def shows(self, unit: int) -> bool:
        return self.start <= unit and (self.stop is None or unit < self.stop)

    def part(self, row: int) -> str | None:
        """What the fragment prints of a row: "whole", its "head" (the fragment ends in it), its "tail" (the
        fragment starts in it, its first cell repeated "(cont.)"), its "middle" (both), or None."""
        starts_in, stops_in = row == self.start and self.start_cut, row == self.stop and self.stop_cut
        if starts_in and stops_in:
            return "middle"
        if starts_in:
            return "tail"
        if stops_in:
            return "head"
        return "whole" if self.shows(row) else None

    def unit_class(self, row: int) -> str:
        """The classes of a list item that is a unit (a bullet, a numbered line, a step): "u", and where the fragment
        prints it continued from the column before, cut between its lines, cuts.CONTINUED (no number or bullet)."""
        return f"u {cuts.CONTINUED}" if self.part(row) in ("tail", "middle") else "u"

    def cell(self, row: int, column: int, html: Markup, continued: str = "", skip: int = 0) -> Markup:
        """A cell's markup in the part of its unit the fragment prints: the cut cell cut, the first cell of a
        continued part repeated with `continued`, the others of a continued part empty. `skip`: the printing
        characters of the unit's source before this markup in its cut cell (a term, before its text)."""
        part = self.part(row)
        if part == "whole":
            return html
        cut = self.start_cut if part in ("tail", "middle") else self.stop_cut
        if column != cut.cell:
            if part == "head":
                return html
            if column != 0:
                return Markup("")
            first, br, rest = html.partition(Markup("<br>"))  # "(cont.)" after a weapon's name, before its carriers
            return Markup("{} {}{}{}").format(first, continued, br, rest)
        if part in ("head", "middle"):
            html = _cut(html, self.stop_cut.chars - skip)[0]
        return _cut(html, self.start_cut.chars - skip)[1] if part in ("tail", "middle") else html

    @staticmethod
    def printing(text: str) -> int:
        """How many printing characters plain text holds (what a cut counts: measure.printing)."""
        return len(measure.printing(text))

    def shows_any(self, first: int, end: int) -> bool:
        """Whether the fragment prints any of units [first, end), or a part of one (a unit cut between lines)."""
        stop = end + 1 if self.stop is None else self.stop + (1 if self.stop_cut else 0)
        return first < stop and end > self.start

    @property
    def colgroup(self) -> Markup:
        """Column widths: measured (every fragment of a table alike), else those the source declares."""
        if self.widths:
            return Markup("<colgroup>{}</colgroup>").format(
                Markup("").join(Markup('<col style="width: {}px">').format(width) for width in self.widths)
            )
        columns = self.block.header if self.block.type == "table" else []
        if any(column.width for column in columns):
            return Markup("<colgroup>{}</colgroup>").format(
                Markup("").join(
                    Markup('<col style="width: {}">').format(column.width) if column.width else Markup("<col>")
                    for column in columns
                )
            )
        return Markup("")


def _cut(html: Markup, chars: int) -> tuple[Markup, Markup]:
    """A cell's markup cut (generator.rendering.cuts.cut_markup): a measurement not of this markup (it holds fewer
    characters) leaves it whole before the cut, and nothing after it."""
    return cuts.cut_markup(html, chars) or (html, Markup(""))


def items(sheet: Sheet) -> list[Item]:
    """The sheet's blocks in reading order, whole, then the changes box (a section of its own)."""
    found = [
        Item(block, section, position == 0, group=_opened_group(section, position), in_group=section.group_of(block))
        for section in sheet.sections
        for position, block in enumerate(section.blocks)
    ]
    box = ChangesBox.of(sheet)
    if box is not None:
        found.append(Item(box, first=True))
    return found


def _opened_group(section: Section, position: int) -> Group | None:
    """The group a block opens: its own, when the block before it is in another group (or none)."""
    block = section.blocks[position]
    if block.group is None or (position > 0 and section.blocks[position - 1].group == block.group):
        return None
    return section.group_of(block)
