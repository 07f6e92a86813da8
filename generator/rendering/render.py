"""Rendering: a validated Sheet laid out on its pages. The blocks measured once a type scale (chunks), the scale
chosen (fit) from measurements and estimates (estimates), the columns planned (layout, bands) and the pages laid
out by WeasyPrint (pages). `layout` runs them; the names the pipeline and the tests use are here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from generator.composing.diff import Marks
from generator.model.glyphs import FONTS  # noqa: F401 (named here by the tests)
from generator.model.types import Sheet
from generator.project import Project
from generator.rendering import chunks as chunking
from generator.rendering import estimates, figures, findings, fit, heights, layout_report, planned
from generator.rendering import layout as layout_module
from generator.rendering.findings import layout_findings  # noqa: F401 (named here by the pipeline and tests)
from generator.rendering.inline import Inline  # noqa: F401 (the renderer's, named here)
from generator.rendering.items import Item, items
from generator.rendering.layout import page_frame
from generator.rendering.pages import ProjectFetcher, keep_pages, pages, pdf  # noqa: F401 (named here)
from generator.rendering.templating import (
    TYPE_SIZES,
    html,  # noqa: F401 (named here by the pipeline and tests)
)
from generator.rendering.templating import context as _context

if TYPE_CHECKING:
    import weasyprint


@dataclass
class Laid:
    """A sheet laid out: the document, the plan it follows and the type scale it needed."""

    document: weasyprint.Document
    plan: list[list[list[Item]]]
    scale: float
    frame: layout_module.Frame
    header: float  # millimetres the sheet's header takes on the first page
    planned: list[list[float]]  # per page, per column: the millimetres the packer expected the column to take
    strict: bool = True  # the sheet as declared (not a variant): more pages than declared is an error
    declared: int | None = None  # the most pages the author allows (`paper.pages`), if any
    imposed: bool = False  # half pages, two to a side of paper (`--impose`)
    findings: list = field(default_factory=list)  # layout problems found on the laid-out boxes (layout_findings)
    defects: list = field(default_factory=list)  # what the layout report flags in the plan (findings.defects)
    bands: list[list[Item]] = field(default_factory=list)  # per page: the wide blocks across its top
    feet: list[list[Item]] = field(default_factory=list)  # per page: the wide blocks across its foot
    floated: set[str] = field(default_factory=set)  # the wide blocks set past the text after them (floats)
    banded: list[float] = field(default_factory=list)  # per page: the millimetres its bands take

    def room_without_band(self, number: int) -> float:
        """The height of page `number`'s columns, mm, were no band above or below them: the column's, less the
        header."""
        return self.frame.column_height - (self.header if number == 0 else 0)

    def room(self, number: int) -> float:
        """The height of page `number`'s columns, mm: the column's, less the header and the bands above and below
        them."""
        return self.room_without_band(number) - (self.banded[number] if number < len(self.banded) else 0.0)

    def columns_used(self) -> list[list[float]]:
        """Per page, per column: the share of the column's height its blocks take on the laid-out page."""
        shares = []
        for number, page in enumerate(self.document.pages):
            columns = [
                box
                for box in page._page_box.descendants()
                if getattr(box, "element_tag", None) == "div" and "column" in box.element.get("class", "")
            ]
            rooms = [room * layout_module.PX_PER_MM for room in self.segments(number)]
            count = self.frame.columns
            shares.append(
                [
                    round(findings.content_height(column) / rooms[slot // count], 3)
                    for slot, column in enumerate(columns)
                ]
            )
        return shares

    def segments(self, number: int) -> list[float]:
        """The height of each set of columns on page `number`, mm: one, or, under a band across the page's middle
        (`feet`), the balanced columns above it (as tall as the tallest) and those under it (what is left)."""
        room = self.room(number)
        if (
            number >= len(self.feet)
            or not self.feet[number]
            or number >= len(self.planned)
            or len(self.planned[number]) <= self.frame.columns  # a band across the foot, no columns under it
        ):
            return [room]
        above = max(self.planned[number][: self.frame.columns], default=0.0)
        return [above, max(room - above, 1.0)]

    def holds(self, tolerance: float = 0.5) -> bool:
        """Whether the pages are those planned: as many, each column as tall as the packer expected (millimetres)."""
        return findings.holds(self.document, self.plan, self.planned, tolerance)

    def report(self) -> dict:
        """The layout in numbers: what `qrs build --json` tells and the layout warnings are made of."""
        used = self.columns_used()
        report = {
            "scale": self.scale,
            "pages": [
                [
                    {
                        "used": share,
                        "blocks": [item.id for item in column],
                        "continued": [item.block_id for item in column if item.continued],
                    }
                    for share, column in zip(shares, page)
                ]
                for shares, page in zip(used, self.plan)
            ],
            "declared_pages": self.declared,
            "kept_pages": None if self.strict else self.frame.pages,  # a variant's aim: the sheet's own page count
            "imposed": self.imposed,
            "columns": self.frame.columns,
            "variant": not self.strict,  # laid out for the command line's page box: nothing for the author to change
            "defects": self.defects,  # a table split with fewer rows on a side than a break leaves, a group heading not repeated
            "bands": [[item.id for item in band] for band in self.bands] or [[] for _ in self.plan],
            "feet": [[item.id for item in foot] for foot in self.feet] or [[] for _ in self.plan],
            "floated": sorted(self.floated),
            "band_used": [
                round(1 - self.room(number) / self.room_without_band(number), 3) for number in range(len(self.plan))
            ],
        }
        return {**report, "warnings": layout_report.layout_warnings(report)}


def layout(project: Project, sheet: Sheet, options, untranslated: int = 0, marks: Marks | None = None) -> Laid:
    """Measure the blocks (or read their heights from the cache), plan the columns at the type scale that fits the
    fewest pages (within the author's most; a variant: within the sheet's own, where it can) (generator.rendering.
    layout.pack, fit.choose_scale), and lay the pages out. The cache never decides
    an error: a layout planned from kept heights that does not hold on the page is planned again from heights
    measured now."""
    cache = heights.Cache(heights.folder(project.build) / f"{sheet.sheet}.{sheet.lang}.json")
    try:
        laid = _layout(project, sheet, options, untranslated, marks, cache)
    except _Doubt:
        laid = None
    if laid is None or cache.read and laid.findings:
        cache = cache.emptied()
        laid = _layout(project, sheet, options, untranslated, marks, cache)
    cache.save()
    return laid


class _Doubt(Exception):
    """A layout planned from kept heights or a kept decision that does not hold on the page."""


def _layout(
    project: Project, sheet: Sheet, options, untranslated: int, marks: Marks | None, cache: heights.Cache
) -> Laid:
    frame = page_frame(sheet, options)
    if not fit.strict(sheet, options):
        frame = replace(frame, pages=kept_pages(project, sheet, options, untranslated, cache))
    whole = items(sheet)
    context = partial(_context, project, sheet, options, untranslated, marks)
    attempt, key, predict = _attempts(project, sheet, context, frame, cache)
    ceiling = None
    while True:
        chosen = fit.choose_scale(attempt, frame, cache, key, bool(getattr(options, "impose", None)), ceiling, predict)
        context, measured, header, packing = chosen.plan
        whole = planned.moved(items(sheet), packing)
        tall = planned.tall(frame)
        plan = [
            [
                [
                    planned.fragment(whole[fragment.index], fragment, measured[whole[fragment.index].id], tall)
                    for fragment in column
                ]
                for column in page
            ]
            for page in packing.plan
        ]
        bands, feet = (planned.bands(whole, packing, measured, placed) for placed in (packing.band, packing.foot))
        context.update(plan=plan, bands=bands if any(bands) else None, feet=feet if any(feet) else None)
        laid = Laid(
            pages(project, context, plan),
            plan,
            context["scale"],
            frame,
            header,
            packing.used,
            strict=fit.strict(sheet, options),
            bands=bands,
            feet=feet,
            floated={whole[index].id for index in packing.floated},
            banded=[sum(measured[item.id].height for item in band + foot) for band, foot in zip(bands, feet)],
            declared=sheet.paper.pages,
            imposed=bool(getattr(options, "impose", None)),
        )
        holds = laid.holds()
        if not holds and cache.read:
            raise _Doubt()
        if holds or chosen.scale <= 1:
            break
        ceiling = 1.0  # grown type whose pages are not those planned (a measurement that does not hold): 100 %
    cache.decide(key, chosen.scale)
    laid.findings = list(findings.findings(sheet, laid))
    laid.defects = findings.defects(plan, measured, context["type_sizes"]["size"] / TYPE_SIZES["size"])
    laid.defects += findings.placement_defects(packing, [item.block_id for item in whole], laid.defects)
    laid.defects += figures.fitted(sheet, frame, project.sources)
    return laid


def _attempts(project: Project, sheet: Sheet, context, frame: layout_module.Frame, cache: heights.Cache):
    """The sheet laid out at a scale (fit.choose_scale's `attempt`), the key of the scale decided for it, and the
    estimate of a layout at a scale from the one at 100 % (`predict`)."""
    whole = items(sheet)
    normal = context(1.0)
    chunks = chunking.Chunks.of(project, normal, whole)
    return (
        partial(_attempt, project, context, frame, whole, chunks, cache),
        chunking.decision_key(project, normal, chunks, whole, frame),
        partial(estimates.predict, frame, whole),
    )


# What makes a variant: the sheet itself has none of it.
_PLAIN = dict(paper=None, crop_marks=False, ink_saver=False, impose=None, gloss=False, changes_since=None)


def kept_pages(project: Project, sheet: Sheet, options, untranslated: int, cache: heights.Cache) -> int | None:
    """The pages a variant keeps where it fits them at the smallest type or more: the sheet's own page count (its
    scale decided before, kept in the same cache, else its layout at 100 % or set smaller to fit: one measurement),
    in half pages when imposed (two to a side of paper). None for an errata sheet: another sheet, as short as it is."""
    if getattr(options, "errata_only", False):
        return None
    plain = replace(options, **_PLAIN)
    frame = page_frame(sheet, plain)
    attempt, key, predict = _attempts(
        project, sheet, partial(_context, project, sheet, plain, untranslated, None), frame, cache
    )
    pages = fit.page_count(attempt, frame, cache, key, predict)
    return 2 * pages if getattr(options, "impose", None) else pages


def _attempt(project, context_at, frame, whole, chunks: chunking.Chunks, cache, scale: float) -> fit.Attempt:
    context = context_at(scale)
    measured, header = chunking.measured(project, context, chunks, cache)
    return estimates.packed(frame, whole, context, measured, header, scale)
