"""Rendering: a validated Sheet → HTML (Jinja) → laid-out pages (WeasyPrint) → PDF bytes.

WeasyPrint reads only what `ProjectFetcher` serves: the project's templates and the font
package's files. Anything else a template or stylesheet names stops the render.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field, replace
import hashlib
import math
import mimetypes
import os
from functools import cache, lru_cache, partial
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jinja2
from markupsafe import Markup

from generator.rendering import speedups
from generator.rendering.inline import Inline, css_string  # noqa: F401 (Inline: the renderer's, named here)

with speedups.importing_weasyprint():
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher, URLFetcherResponse
speedups.weasyprint_imported()

from generator import __version__

from generator.rendering import figures, fit, heights, layout_report, measure, planned, widths
from generator.rendering.bands import pack_bands
from generator.rendering.fit import SCALES, layout_findings  # noqa: F401  (named here by the pipeline and tests)
from generator.rendering.layout import page_frame
from generator.composing.diff import Marks
from generator.errors import UserError
from generator.model.glyphs import FONTS
from generator.rendering import layout as layout_module
from generator.model.types import Sheet
from generator.project import Project
from generator.composing.words import ui_words
from generator.rendering import imprint
from generator.rendering.items import Item, items  # noqa: F401 (items: named here by the web edition and tests)


class ProjectFetcher(URLFetcher):
    """Serves the project's templates and fonts; refuses every other URL (no network, no other file)."""

    def __init__(self, templates: Path):
        super().__init__(fail_on_errors=True)
        self.roots = {templates.resolve(): templates.resolve(), templates.resolve() / "fonts": FONTS}
        self.fetched: list[str] = []

    def fetch(self, url, headers=None):
        self.fetched.append(url)
        parts = urlsplit(url)
        if parts.scheme == "data":  # a figure's picture, embedded (generator.rendering.figures)
            return figures.served(url)
        if parts.scheme != "file":
            raise PermissionError(f"refused to fetch {url}: only the project's templates and fonts are served")
        wanted = Path(unquote(parts.path)).resolve()
        for prefix, real in sorted(self.roots.items(), key=lambda item: -len(str(item[0]))):
            if wanted.is_relative_to(prefix):
                target = (real / wanted.relative_to(prefix)).resolve()
                if target.is_relative_to(real) and target.is_file():
                    mime = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                    return URLFetcherResponse(url, target.read_bytes(), {"Content-Type": mime})
        raise PermissionError(f"refused to fetch {url}: not one of the project's templates or fonts")


@cache
def _environment(templates: Path) -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    environment.filters["css_string"] = css_string
    return environment


TYPE_SIZES = {"size": 7.6, "small": 6.6, "title": 13.0, "subtitle": 9.0, "h2": 9.0, "h3": 8.0}  # points at scale 1
MEASURE_HEIGHT_MM = 30000  # the measuring page: tall enough that no block is cut by a page break


def _context(project: Project, sheet: Sheet, options, untranslated: int, marks: Marks | None, scale: float) -> dict:
    """What every template of a sheet's document is rendered with."""
    lang = sheet.lang
    paper = options.paper or sheet.paper.size
    frame = page_frame(sheet, options)
    imposed = getattr(options, "impose", None)
    words = ui_words(project, lang, options.allow_fallback)
    return dict(
        sheet=sheet,
        lang=lang,
        t=Inline(sheet, lang, gloss=options.gloss),
        words=words,
        untranslated=untranslated,
        marks=marks or Marks(),
        frame=frame,
        crop_marks=getattr(options, "crop_marks", False),
        ink_saver=getattr(options, "ink_saver", False),
        page_size=f"{frame.page_width}mm {frame.page_height}mm" if imposed else f"{paper} {sheet.paper.orientation}",
        imprint=imprint.footer(sheet, lang, words),
        generator=f"qrs {__version__}",
        type_sizes={name: round(points * _base(sheet) * scale, 3) for name, points in TYPE_SIZES.items()},
        scale=scale,
        measure_height=MEASURE_HEIGHT_MM,
        measure_width=None,  # the measuring column's width, mm, when not the page's column's (a wide block's pass)
        plan=None,
        bands=None,  # per page of the plan: the items set across its top, above its columns
        feet=None,  # per page of the plan: the items set across its foot, under its columns
        page_number=None,  # a page laid out alone (_pages): its number and the count are printed as text
        plan_pages=None,
        chunks=None,
        figure=partial(figures.data_uri, project.sources),  # a figure's picture, as a data: URI
        figure_width=partial(figures.printed_width, project.sources, frame),  # scaled to fit a column's height
        web=False,  # the web edition (generator.rendering.web): tables in a box that scrolls sideways
        preformatted_points=widths.preformatted_points,  # a diagram's size: its longest line fits the column
        matrix_column=widths.matrix_column,  # a matrix's data columns: one width, the widest's
        words_fit=widths.words_fit,  # a table whose columns may widen for a long word: hyphens: manual
    )


def _base(sheet: Sheet) -> float:
    """The sheet's own body size (`paper.type`) against the design's 7.6 pt: every size and space follows it."""
    return sheet.paper.type_points / TYPE_SIZES["size"]


def html(project: Project, sheet: Sheet, options, untranslated: int = 0, marks: Marks | None = None,
         plan: list[list[list[Item]]] | None = None, scale: float = 1.0, template: str = "sheet.html.j2",
         **extra) -> str:
    """The sheet's HTML, packed into the columns of `plan` (by default every block whole, in one column);
    `extra` adds to (or replaces) what the templates are given (the web edition's page, generator.rendering.web)."""
    context = _context(project, sheet, options, untranslated, marks, scale)
    context["plan"] = plan if plan is not None else [[items(sheet)]]
    context.update(extra)
    return _environment(project.templates).get_template(template).render(context)


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
    defects: list = field(default_factory=list)  # what the layout report flags in the plan (fit.defects)
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
            columns = [box for box in page._page_box.descendants()
                       if getattr(box, "element_tag", None) == "div" and "column" in box.element.get("class", "")]
            rooms = [room * layout_module.PX_PER_MM for room in self.segments(number)]
            count = self.frame.columns
            shares.append([round(fit.content_height(column) / rooms[slot // count], 3)
                           for slot, column in enumerate(columns)])
        return shares

    def segments(self, number: int) -> list[float]:
        """The height of each set of columns on page `number`, mm: one, or, under a band across the page's middle
        (`feet`), the balanced columns above it (as tall as the tallest) and those under it (what is left)."""
        room = self.room(number)
        if number >= len(self.feet) or not self.feet[number] or number >= len(self.planned):
            return [room]
        above = max(self.planned[number][:self.frame.columns], default=0.0)
        return [above, max(room - above, 1.0)]

    def holds(self, tolerance: float = 0.5) -> bool:
        """Whether the pages are those planned: as many, each column as tall as the packer expected (millimetres)."""
        return fit.holds(self.document, self.plan, self.planned, tolerance)

    def report(self) -> dict:
        """The layout in numbers: what `qrs build --json` tells and the layout warnings are made of."""
        used = self.columns_used()
        report = {
            "scale": self.scale,
            "pages": [[{"used": share, "blocks": [item.id for item in column],
                        "continued": [item.block_id for item in column if item.continued]}
                       for share, column in zip(shares, page)] for shares, page in zip(used, self.plan)],
            "declared_pages": self.declared,
            "kept_pages": None if self.strict else self.frame.pages,  # a variant's aim: the sheet's own page count
            "imposed": self.imposed,
            "columns": self.frame.columns,
            "variant": not self.strict,  # laid out for the command line's page box: nothing for the author to change
            "defects": self.defects,  # a table split with fewer than 3 rows on a side, a group heading not repeated
            "bands": [[item.id for item in band] for band in self.bands] or [[] for _ in self.plan],
            "feet": [[item.id for item in foot] for foot in self.feet] or [[] for _ in self.plan],
            "floated": sorted(self.floated),
            "band_used": [round(1 - self.room(number) / self.room_without_band(number), 3)
                          for number in range(len(self.plan))],
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


def _layout(project: Project, sheet: Sheet, options, untranslated: int, marks: Marks | None, cache: heights.Cache
            ) -> Laid:
    frame = page_frame(sheet, options)
    if not fit.strict(sheet, options):
        frame = replace(frame, pages=kept_pages(project, sheet, options, untranslated, cache))
    whole = items(sheet)
    context = partial(_context, project, sheet, options, untranslated, marks)
    attempt, key, predict = _attempts(project, sheet, context, frame, cache)
    ceiling = None
    while True:
        chosen = fit.choose_scale(attempt, frame, cache, key, bool(getattr(options, "impose", None)), ceiling,
                                  predict)
        context, measured, header, packing = chosen.plan
        whole = planned.moved(items(sheet), packing)
        tall = planned.tall(frame)
        plan = [[[planned.fragment(whole[fragment.index], fragment, measured[whole[fragment.index].id], tall)
                  for fragment in column] for column in page] for page in packing.plan]
        bands, feet = (planned.bands(whole, packing, measured, placed) for placed in (packing.band, packing.foot))
        context.update(plan=plan, bands=bands if any(bands) else None, feet=feet if any(feet) else None)
        laid = Laid(_pages(project, context, plan), plan, context["scale"], frame, header, packing.used,
                    strict=fit.strict(sheet, options), bands=bands, feet=feet,
                    floated={whole[index].id for index in packing.floated},
                    banded=[sum(measured[item.id].height for item in band + foot) for band, foot in zip(bands, feet)],
                    declared=sheet.paper.pages, imposed=bool(getattr(options, "impose", None)))
        holds = laid.holds()
        if not holds and cache.read:
            raise _Doubt()
        if holds or chosen.scale <= 1:
            break
        ceiling = 1.0  # grown type whose pages are not those planned (a measurement that does not hold): 100 %
    cache.decide(key, chosen.scale)
    laid.findings = list(fit.findings(sheet, laid))
    laid.defects = fit.defects(plan, measured)
    laid.defects += fit.placement_defects(packing, [item.block_id for item in whole], laid.defects)
    laid.defects += figures.fitted(sheet, frame, project.sources)
    return laid


def _attempts(project: Project, sheet: Sheet, context, frame: layout_module.Frame, cache: heights.Cache):
    """The sheet laid out at a scale (fit.choose_scale's `attempt`), the key of the scale decided for it, and the
    estimate of a layout at a scale from the one at 100 % (`predict`)."""
    whole = items(sheet)
    normal = context(1.0)
    chunks = _Chunks.of(project, normal, whole)
    return (partial(_attempt, project, context, frame, whole, chunks, cache),
            _decision_key(project, normal, chunks, whole, frame), partial(_predict, frame, whole))


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
    attempt, key, predict = _attempts(project, sheet, partial(_context, project, sheet, plain, untranslated, None),
                                      frame, cache)
    pages = fit.page_count(attempt, frame, cache, key, predict)
    return 2 * pages if getattr(options, "impose", None) else pages


def _pages(project: Project, context: dict, plan: list) -> weasyprint.Document:
    """The planned pages, laid out one document a page and joined (the page numbers printed as text): a page's
    layout depends only on its own HTML, so a page unchanged since the last layout in this process (`keep_pages`,
    under `qrs watch`) is taken as it was."""
    template = _environment(project.templates).get_template("sheet.html.j2")
    stylesheet = _stylesheet_text(project)
    bands, feet = context.get("bands"), context.get("feet")
    documents = [_page(project, template.render(dict(context, plan=[page], page_number=number, plan_pages=len(plan),
                                                     bands=[bands[number - 1]] if bands else None,
                                                     feet=[feet[number - 1]] if feet else None)),
                       stylesheet) for number, page in enumerate(plan, start=1)]
    return documents[0].copy([page for document in documents for page in document.pages])


_laid_pages: OrderedDict[str, weasyprint.Document] = OrderedDict()  # by the digest of a page's HTML and stylesheet
_pages_kept = 0


def keep_pages(count: int) -> None:
    """Keep the layouts of the last `count` pages laid out (a long-lived process: `qrs watch`); 0, the default,
    keeps none (a build lays each page out once)."""
    global _pages_kept
    _pages_kept = count
    while len(_laid_pages) > count:
        _laid_pages.popitem(last=False)


def _page(project: Project, page_html: str, stylesheet: bytes) -> weasyprint.Document:
    if not _pages_kept:
        return _render(project, page_html, stylesheet)
    key = heights.key(str(project.templates.resolve()), hashlib.sha256(stylesheet).hexdigest(), page_html)
    if key in _laid_pages:
        _laid_pages.move_to_end(key)
        return _laid_pages[key]
    laid = _laid_pages[key] = _render(project, page_html, stylesheet)
    keep_pages(_pages_kept)
    return laid


@dataclass(frozen=True)
class _Chunks:
    """Each block's measuring chunk and the header, as HTML: the same at every type scale (sizes come from the
    page's styles), so rendered once a layout."""

    header: str
    blocks: dict[str, str]  # item id → its chunk
    context: dict  # what they were rendered with (no scale)
    sets: dict[str, list[Item]]  # the tables of each column set the sheet's tables name, in reading order
    items: dict[str, Item] = field(default_factory=dict)  # by id: a block too wide for a column is measured again

    @classmethod
    def of(cls, project: Project, context: dict, whole: list[Item]) -> "_Chunks":
        environment = _environment(project.templates)
        # without the scale: a template that used it would fail here, rather than be measured at the wrong size
        context = {name: value for name, value in context.items() if name not in ("scale", "type_sizes")}
        sets: dict[str, list[Item]] = {}
        for item in whole:
            if item.block is not None and item.block.type == "table" and isinstance(item.block.columns, str):
                sets.setdefault(item.block.columns, []).append(item)
        return cls(environment.get_template("header.html.j2").render(context), {
            item.id: _chunk(environment, context, item) for item in whole}, context,
            {name: items for name, items in sets.items() if len(items) > 1}, {item.id: item for item in whole})

    def keys(self, project: Project, context: dict) -> tuple[str, dict[str, str]]:
        """The measurements' keys at the context's scale: the header's, and each block's by item id."""
        style = _style_key(project, context)
        return heights.key(style, "header", self.header), {ident: heights.key(style, chunk) for ident, chunk in self.blocks.items()}

    def digest(self, project: Project, context: dict) -> str:
        """One key for every measurement at the context's scale."""
        header_key, keys = self.keys(project, context)
        return heights.key(header_key, *keys.values())


def _chunk(environment: jinja2.Environment, context: dict, item: Item) -> str:
    return environment.get_template("piece.html.j2").render(
        context, whole=item, probes=[replace(item, stop=1, probe=True)] if item.may_continue else [],
        heading_probe=item.block is not None)


def _attempt(project, context_at, frame, whole, chunks: _Chunks, cache, scale: float) -> fit.Attempt:
    context = context_at(scale)
    measured, header = _measured(project, context, chunks, cache)
    return _packed(frame, whole, context, measured, header, scale)


def _packed(frame, whole, context: dict, measured: dict[str, measure.Measured], header: float, scale: float,
            size: float | None = None) -> fit.Attempt:
    """The attempt at `scale` from its measurements (or estimates of them): the pieces packed, nothing rendered."""
    capacity = layout_module.Capacity(frame.column_height, header, frame.columns)
    if size is None:
        size = context["type_sizes"]["size"] / TYPE_SIZES["size"]  # the body's size against 7.6 pt: a line's height
    pieces = [fit.piece(item, measured[item.id], size, planned.tall(frame)) for item in whole]
    packing = pack_bands(pieces, capacity)
    page = sum(capacity.of(column) for column in range(frame.columns, 2 * frame.columns))  # a page after the first
    # a band takes its height from every column of its page
    content = sum(piece.height * (frame.columns if piece.wide else 1) for piece in pieces)
    fill = (content + header * frame.columns) / page
    return fit.Attempt(scale, packing.pages + len(packing.overfull) * fit.OVERFULL_PAGES, packing.blank,
                       packing.largest_hole, fill, (context, measured, header, packing))


def _predict(frame, whole, normal: fit.Attempt, scale: float, other: fit.Attempt | None = None) -> fit.Attempt:
    """An estimate of the attempt at `scale` from the one at 100 % (fit.choose_scale's `predict`): every height
    measured at 100 % times scale^fit.GROWTH, packed at that scale's line height; nothing rendered. With `other`,
    an attempt laid out at another scale, each block grows as its own two measurements say (a table whose cells wrap
    more as type shrinks shrinks less than prose). Its plan is never laid out: the scale it leads to is measured."""
    context, measured, header, _ = normal.plan
    others, other_header = (other.plan[1], other.plan[2]) if other is not None else ({}, 0.0)

    def factor(height: float, there: float | None) -> float:
        if other is None or there is None or height <= 0 or there <= 0:
            return scale ** fit.GROWTH
        return scale ** (math.log(there / height) / math.log(other.scale))

    size = round(TYPE_SIZES["size"] * _base(context["sheet"]) * scale, 3) / TYPE_SIZES["size"]
    return _packed(frame, whole, context,
                   {ident: _scaled(value, factor(value.height, others[ident].height if ident in others else None))
                    for ident, value in measured.items()},
                   header * factor(header, other_header), scale, size)


def _scaled(measured: measure.Measured, factor: float) -> measure.Measured:
    return replace(measured, height=measured.height * factor, units=tuple(unit * factor for unit in measured.units),
                   head=measured.head * factor, tail=measured.tail * factor, cont_head=measured.cont_head * factor,
                   cont_tail=measured.cont_tail * factor, heading=measured.heading * factor,
                   group_heading=measured.group_heading * factor,
                   repeats=tuple(repeat * factor for repeat in measured.repeats),
                   cuts=tuple(replace(cut, top=cut.top * factor, bottom=cut.bottom * factor,
                                      lines=tuple((foot * factor, chars) for foot, chars in cut.lines))
                              for cut in measured.cuts))


def _decision_key(project: Project, context: dict, chunks: _Chunks, whole: list[Item], frame) -> str:
    """Everything a scale decision depends on: the heights at every scale (each block's chunk and the header's,
    the styles but the scale), the blocks' order and what the packer is told of each (breaks, continuation,
    opening a section), the page frame; the renderer's own code is in every key (heights.key)."""
    style = _style_key(project, context, scaled=False)
    packing = [repr((item.id, item.block.break_before if item.block else None, item.splits, item.first,
                     item.block.wide if item.block else None)) for item in whole]
    return heights.key(style, repr(frame), repr(context["type_sizes"]), chunks.header, *chunks.blocks.values(), *packing)


def _measured(project: Project, context: dict, chunks: _Chunks, cache: heights.Cache
              ) -> tuple[dict[str, measure.Measured], float]:
    """Every block's measurement and the header's height at the context's scale: from the cache, else from one
    measuring pass over the blocks whose key is new."""
    header_key, keys = chunks.keys(project, context)
    found = {ident: cache.get(name) for ident, name in keys.items()}
    header = cache.get(header_key)
    missing = [ident for ident, value in found.items() if value is None]
    if missing or header is None:
        context = dict(context, chunks=[Markup(chunks.blocks[ident]) for ident in missing])
        document = _render(project, _environment(project.templates).get_template("sheet.html.j2").render(context),
                           _stylesheet_text(project))
        fresh = measure.measure(document, missing)
        header = measure.Measured(height=measure.header_height(document))
        cache.put(header_key, header)
        for ident, value in fresh.items():
            cache.put(keys[ident], value)
            found[ident] = value
    if chunks.sets:
        found.update(_shared_widths(project, context, chunks, cache, found))
    found.update(_wide(project, context, chunks, cache, found))
    return found, header.height


def _wide(project: Project, context: dict, chunks: _Chunks, cache: heights.Cache,
          found: dict[str, measure.Measured]) -> dict[str, measure.Measured]:
    """The blocks that span the page, measured again at its width: those the source makes `wide`, and those that
    span it without the author asking: tables too wide for a column by their many columns (fit.spans), figures at
    true size wider than a column (figures.spans), preformatted text too wide for one at 6 pt (widths.too_wide)."""
    frame = context["frame"]
    column = frame.column_width
    wide = [ident for ident, item in chunks.items.items() if item.block is not None
            and (item.block.wide or fit.spans(found[ident], column) or figures.spans(item.block, column)
                 or item.block.type == "preformatted" and widths.too_wide(item.block, frame, 0.0))]
    if not wide:
        return {}
    environment, style = _environment(project.templates), _style_key(project, context)
    width = context["frame"].content_width
    html_of = {ident: _chunk(environment, chunks.context, replace(chunks.items[ident], wide=True)) for ident in wide}
    keys = {ident: heights.key(style, "wide", str(width), chunk) for ident, chunk in html_of.items()}
    again = {ident: cache.get(name) for ident, name in keys.items()}
    missing = [ident for ident, value in again.items() if value is None]
    if missing:
        document = _render(project, environment.get_template("sheet.html.j2").render(
            dict(context, measure_width=width, chunks=[Markup(html_of[ident]) for ident in missing])),
            _stylesheet_text(project))
        for ident, value in measure.measure(document, missing).items():
            cache.put(keys[ident], replace(value, wide=True))
            again[ident] = replace(value, wide=True)
    return again


def _shared_widths(project: Project, context: dict, chunks: _Chunks, cache: heights.Cache,
                   found: dict[str, measure.Measured]) -> dict[str, measure.Measured]:
    """The tables of one column set, measured again with the same column widths (each column as wide as the widest
    of the set needs it, the set's tables as wide as the column): one under another, their columns line up."""
    shared: dict[str, tuple[float, ...]] = {}
    for column_set in chunks.sets.values():
        widths = [found[item.id].widths for item in column_set]
        if not all(widths) or len({len(each) for each in widths}) != 1:
            continue
        widest = [max(column) for column in zip(*widths)]
        total = sum(widths[0])
        shared.update({item.id: tuple(round(width * total / sum(widest), 3) for width in widest) for item in column_set})
    environment, style = _environment(project.templates), _style_key(project, context)
    html_of = {ident: _chunk(environment, chunks.context, replace(next(item for column_set in chunks.sets.values()
                                                                      for item in column_set if item.id == ident),
                                                                 widths=widths))
               for ident, widths in shared.items()}
    keys = {ident: heights.key(style, "shared", chunk) for ident, chunk in html_of.items()}
    again = {ident: cache.get(name) for ident, name in keys.items()}
    missing = [ident for ident, value in again.items() if value is None]
    if missing:
        document = _render(project, environment.get_template("sheet.html.j2").render(
            dict(context, chunks=[Markup(html_of[ident]) for ident in missing])), _stylesheet_text(project))
        for ident, value in measure.measure(document, missing).items():
            cache.put(keys[ident], value)
            again[ident] = value
    return again


def _style_key(project: Project, context: dict, scaled: bool = True) -> str:
    """What decides heights besides a block's own HTML: the stylesheet, the page's styles, the language, the
    column's width, the variant's styles; and (`scaled`) the type sizes at the context's scale."""
    stylesheet = (project.templates / "sheet.css").read_text(encoding="utf-8")
    page_styles = (project.templates / "sheet.html.j2").read_text(encoding="utf-8")
    parts = [stylesheet, page_styles, context["lang"], str(context["frame"].column_width), str(context["ink_saver"]),
             str(context["crop_marks"])]
    if scaled:
        parts += [repr(context["type_sizes"]), str(context["scale"])]
    return "\0".join(parts)


def _stylesheet_text(project: Project) -> bytes:
    """templates/sheet.css, read as WeasyPrint reads the project's files: through the fetcher, confined."""
    try:
        return ProjectFetcher(project.templates).fetch(project.templates.resolve().as_uri() + "/sheet.css").read()
    except PermissionError as error:  # the stylesheet itself is not one of the project's files
        raise UserError.at(project.templates, 1, 1, f"rendering stopped: {error}") from None


def _render(project: Project, document_html: str, stylesheet_text: bytes) -> weasyprint.Document:
    fetcher = ProjectFetcher(project.templates)
    try:
        stylesheet, fonts = _stylesheet(project.templates.resolve(), stylesheet_text)
        source = weasyprint.HTML(string=document_html, base_url=project.templates.resolve().as_uri() + "/",
                                 url_fetcher=fetcher)
        # <ol start>: a list continued in the next column
        return source.render(stylesheets=[stylesheet], font_config=fonts, presentational_hints=True)
    except weasyprint.urls.FatalURLFetchingError as error:
        raise UserError.at(project.templates, 1, 1, f"rendering stopped: {error.__cause__ or error}") from None


@lru_cache(maxsize=4)  # a few versions: `qrs watch` over a stylesheet being edited
def _stylesheet(templates: Path, text: bytes) -> tuple[weasyprint.CSS, FontConfiguration]:
    """The stylesheet parsed once a process (and again when it changes, under `qrs watch`), with the fonts its
    @font-face rules load: parsing it took a measuring pass of one block a third of its time."""
    fonts = FontConfiguration()
    stylesheet = weasyprint.CSS(string=text.decode("utf-8"), base_url=templates.as_uri() + "/",
                                url_fetcher=ProjectFetcher(templates), font_config=fonts)
    return stylesheet, fonts


def pdf(sheet: Sheet, document: weasyprint.Document, variant: str | None = None) -> bytes:
    """Identical input gives identical bytes: fixed identifier, dates from the edition. `variant` is a standard
    WeasyPrint writes the PDF to (pdf/ua-1: accessible, pdf/a-3b: archival): its declaration and what it requires."""
    os.environ["SOURCE_DATE_EPOCH"] = imprint.source_date_epoch(sheet)
    return document.write_pdf(pdf_identifier=imprint.identifier(sheet), pdf_tags=True, pdf_variant=variant)
