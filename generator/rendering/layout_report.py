"""The layout report (generator.rendering.render.Laid.report): what the build tells of a laid-out sheet, its holes,
blank columns and defects, and the pages a variant takes beyond the sheet's own."""

from __future__ import annotations

from generator.rendering.layout import MAX_HOLE


def layout_warnings(report: dict) -> list[str]:
    """What a reader would notice: a hole at the foot of a column before the last page (whose columns are balanced,
    not filled, as are those of a page before a band, `report["bands"]`, and those above a band across a page's
    middle, `report["feet"]`), a blank column on a page that holds content, a block continued with fewer than MIN_UNITS rows on
    a side or without its group's heading (`report["defects"]`). A variant (another paper, crop marks, an errata
    sheet...: `report["variant"]`) is laid out for the command line's page box, and its author has nothing to change
    for it: only its defects are told, and the pages it takes beyond the sheet's own (`report["kept_pages"]`)."""
    pages = report["pages"]
    if report.get("variant"):  # laid out for the command line's page box: nothing there for the author to change
        return list(report.get("defects", [])) + _beyond_kept(report)
    warnings = []
    bands = report.get("bands") or [[] for _ in pages]  # per page: the wide blocks across its top
    feet = report.get("feet") or [[] for _ in pages]  # per page: the wide blocks across its middle
    count = report["columns"]
    for number, page in enumerate(pages, start=1):
        if bands[number - 1] and not any(column["blocks"] for column in page):
            continue  # a page the band fills: nothing under it, no blank column to tell
        # balanced as a last page, not filled: the last, the last with text (a floated band after it), or one a band
        # starting the next page ends (a floated band does not: the text after it fills this page first)
        following = pages[number:]
        ends_stretch = (
            not any(column["blocks"] for page_after in following for column in page_after)
            or bool(bands[number])
            and not set(bands[number]) & set(report.get("floated", []))
        )
        # under a band across its middle, a page holds two sets of columns: those above it balanced
        sets = (
            [(page[:count], True), (page[count:], ends_stretch)]
            if feet[number - 1] and len(page) > count
            else [(page, ends_stretch)]  # no band across its middle: one set of columns (a band at its foot)
        )
        for first, (columns, balanced) in zip((1, count + 1), sets):
            for slot in range(first, first + count):
                column = columns[slot - first] if slot - first < len(columns) else None
                if column is None or not column["blocks"]:
                    warnings.append(f"page {number} column {slot}: blank, on a page that holds content")
                elif not balanced and 1 - column["used"] > MAX_HOLE:
                    warnings.append(f"page {number} column {slot}: {1 - column['used']:.0%} of its height left empty")
    warnings.extend(report.get("defects", []))
    return warnings


def _beyond_kept(report: dict) -> list[str]:
    """A variant that takes more pages than the sheet's own: it was tried down to the smallest type first."""
    kept, taken = report.get("kept_pages"), len(report["pages"])
    if kept is None or taken <= kept:
        return []
    # an imposed sheet's are half pages, two for each of the sheet's own: said so, lest the counts seem to disagree
    own = (
        f"the sheet's own {kept // 2} pages make {kept}" if report.get("imposed") else f"the sheet itself takes {kept}"
    )
    what = "half pages" if report.get("imposed") else "pages"
    return [f"{taken} {what} where {own}: it does not fit {kept} even with the type set at {SMALLEST_SCALE:.0%}"]


SMALLEST_SCALE = 0.9  # the smallest type a sheet is set at (generator.rendering.fit.SHRINK ends with it)


def pages_used(report: dict) -> float:
    """Pages filled, the last one by the share of its columns used (and of its height a band takes): 1.4."""
    last = report["pages"][-1]
    band = (report.get("band_used") or [0.0])[-1]  # the columns' shares are of the room under the band
    return len(report["pages"]) - 1 + band + (1 - band) * sum(column["used"] for column in last) / report["columns"]
