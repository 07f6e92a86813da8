"""What is checked of a sheet laid out: the build's findings on the laid-out boxes (more pages than allowed, a block
split or wider than its column: `findings`), what the layout report flags in the plan (`defects`,
`placement_defects`), whether the pages are those planned (`holds`), and which blocks span the page unasked
(`spans`)."""

from __future__ import annotations

from generator.rendering import layout, measure, told
from generator.rendering.fit import SHRINK


def content_height(column_box) -> float:
    """From the column's top to the bottom border of its last block (its bottom margin is not ink)."""
    sections = [box for box in column_box.children if getattr(box, "element_tag", None) == "section"]
    if not sections:
        return 0.0
    last = sections[-1]
    return last.position_y + last.margin_height() - last.margin_bottom - column_box.content_box_y()


def defects(plan: list, measured: dict[str, measure.Measured], size: float) -> list[str]:
    """What the layout report flags in a plan: a table continued with fewer rows on a side than a break leaves
    (told.side_rule, at the body's `size` against 7.6 pt), a column starting inside a group without the group's
    heading."""
    found = []
    for number, page in enumerate(plan, start=1):
        for slot, column in enumerate(page, start=1):
            for item in column:
                if item.block.text_units or not (item.continued or item.continues):
                    continue
                if item.start_cut or item.stop_cut:
                    continue  # a row cut between its lines: each side keeps measure.MIN_LINES of them, as text does
                units = measured[item.block_id].units
                stop = item.stop if item.stop is not None else len(units)
                rows = stop - item.start
                if not layout.Piece(0.0, units, **told.side_rule(item.block, size)).keeps(item.start, stop):
                    found.append(
                        f"page {number} column {slot}: block '{item.block_id}' continued with {rows} row(s) on a side"
                    )
            first = column[0] if column else None
            if (
                first is not None
                and first.in_group
                and not (first.group and not first.continued)
                and not first.group_heading
            ):
                found.append(f"page {number} column {slot}: the heading of group '{first.in_group.id}' is not repeated")
    return found


def placement_defects(packing: layout.Packing, block_ids: list[str], flagged: list[str]) -> list[str]:
    """What the packer placed against the rules because nothing else fit (layout.Packing.broken, .overfull), by
    block, unless `flagged` (defects) already names the block."""
    found = []
    for index in dict.fromkeys(packing.broken):
        name = f"block '{block_ids[index]}'"
        if index not in packing.overfull and not any(name in defect for defect in flagged):
            found.append(
                f"{name} is split where it should hold together: its rows, steps or paragraphs are too tall "
                f"for a column to keep {layout.MIN_UNITS} of them (shorten them)"
            )
    for index in dict.fromkeys(packing.overfull):
        found.append(
            f"block '{block_ids[index]}' is taller than its column and runs past its foot (shorten it, or "
            "cut it in two)"
        )
    return found


def layout_findings(sheet, laid, options=None):
    """Layout problems measured on the laid-out boxes, as (path in the source, message): more pages
    than declared (the sheet as declared only: a variant takes the pages it needs), a block split across columns
    or pages, text wider than its column."""
    return iter(laid.findings)


def _pages_finding(laid) -> str | None:
    """More pages than the sheet declares (the sheet as declared), or than were planned (a block ran past its
    column's foot onto a page of its own): the one that is true, never a limit the pages are within."""
    pages, planned = len(laid.document.pages), len(laid.plan)
    most = laid.frame.pages if laid.strict else None  # a variant takes the pages it needs: its report says so
    if most is not None and pages > most:
        # the sheet as declared was tried down to the smallest type before taking more pages
        return f"the sheet takes {pages} pages; it must fit {most}, even with the type set at {SHRINK[-1]:.0%}"
    if pages > planned:
        return (
            f"the sheet takes {pages} pages where {planned} were planned: a block taller than its column runs "
            "onto the next (the block named split below: shorten it)"
        )
    return None


def findings(sheet, laid):
    document = laid.document
    pages = _pages_finding(laid)
    if pages:
        yield ("paper", "pages"), pages
    column_height = laid.frame.column_height
    boxes = measure.section_boxes(document)
    where = {block.id: place for place, block in sheet.placed_blocks()}
    for item in (item for page in laid.plan for column in page for item in column):
        loc = where.get(item.block_id, ("changelog", 0, "changes"))
        name = item.block.named
        fragments = boxes.get(item.id, [])
        height = sum(box.margin_height() for box in fragments) / layout.PX_PER_MM
        if len(fragments) > 1:
            never = (
                " (a row, step or paragraph of it is taller than a column: shorten it)"
                if item.splits
                else " (it is never continued: shorten it, or cut it in two)"
            )
            why = (
                f": it is {height:.0f} mm tall and a column holds {column_height:.0f} mm{never}"
                if height > column_height
                else ""
            )
            yield loc, f"{name} is split across {len(fragments)} columns or pages{why}"
        overflow = max((measure.overflow(box) for box in fragments), default=0.0)
        if overflow > TOO_WIDE_MM:
            yield (
                loc,
                (
                    f"{name} is {overflow:.1f} mm wider than its column: a word, a number or a table "
                    "too wide to fit (shorten it, or allow a break)"
                ),
            )
    yield from _band_findings(laid, boxes, where)


def _band_findings(laid, boxes: dict, where: dict):
    """A block spanning the page that is still too wide for it: nothing wider is left to give it."""
    for item in (item for band in laid.bands + laid.feet for item in band):
        overflow = max((measure.overflow(box) for box in boxes.get(item.id, [])), default=0.0)
        if overflow > TOO_WIDE_MM:
            yield (
                where[item.block_id],
                (
                    f"block '{item.block_id}' is {overflow:.1f} mm wider than the page, even spanning its columns: a "
                    "table too wide to fit (fewer columns, shorter cells, or a smaller type: paper: type)"
                ),
            )


TOO_WIDE_MM = 0.3  # content reaching this far past a block's edge is too wide: made wide, else a finding


def spans(measured: measure.Measured, column_width: float) -> bool:
    """Whether a block measured in a column spans the page without being asked: a table too wide for the column
    by its many columns, none half as wide as the column (a matrix of sixteen troop types). A table with one column
    wider than that is too wide for a word in a cell: it stays, and is told, so that the author shortens the word
    (spanning the page would hide a typo behind a page break)."""
    if measured.overflow <= TOO_WIDE_MM or not measured.widths:
        return False
    return max(measured.widths) / layout.PX_PER_MM < column_width / 2


def holds(document, plan: list, planned: list[list[float]], tolerance: float = 0.5) -> bool:
    """Whether the pages are those planned: as many, each column as tall as the packer expected (millimetres)."""
    if len(document.pages) != len(plan):
        return False
    for page, planned in zip(document.pages, planned):
        columns = [
            box
            for box in page._page_box.descendants()
            if getattr(box, "element_tag", None) == "div" and "column" in box.element.get("class", "")
        ]
        taken = [
            sum(
                section.margin_height()
                for section in column.children
                if getattr(section, "element_tag", None) == "section"
            )
            / layout.PX_PER_MM
            for column in columns
        ]
        if any(abs(height - expected) > tolerance for height, expected in zip(taken, planned)):
            return False
    return True
