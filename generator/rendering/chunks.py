"""Each block's measuring chunk, its HTML the same at every type scale, and the blocks measured at a scale: from
the heights cache, else in one WeasyPrint pass over the blocks whose chunk is new (generator.rendering.measure
reads the boxes). A block too wide for its column is measured again at the page's width."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

import jinja2
from markupsafe import Markup

from generator.project import Project
from generator.rendering import figures, findings, forks, heights, measure, templating, widths
from generator.rendering.items import Item
from generator.rendering.pages import prepare, render, stylesheet_text


@dataclass(frozen=True)
class Chunks:
    """Each block's measuring chunk and the header, as HTML: the same at every type scale (sizes come from the
    page's styles), so rendered once a layout."""

    header: str
    blocks: dict[str, str]  # item id → its chunk
    context: dict  # what they were rendered with (no scale)
    sets: dict[str, list[Item]]  # the tables of each column set the sheet's tables name, in reading order
    items: dict[str, Item] = field(default_factory=dict)  # by id: a block too wide for a column is measured again

    @classmethod
    def of(cls, project: Project, context: dict, whole: list[Item]) -> "Chunks":
        environment = templating.environment(project.templates)
        # without the scale: a template that used it would fail here, rather than be measured at the wrong size
        context = {name: value for name, value in context.items() if name not in ("scale", "type_sizes")}
        sets: dict[str, list[Item]] = {}
        for item in whole:
            if item.block.type == "table" and isinstance(item.block.columns, str):
                sets.setdefault(item.block.columns, []).append(item)
        return cls(
            environment.get_template("header.html.j2").render(context),
            {item.id: chunk(environment, context, item) for item in whole},
            context,
            {name: items for name, items in sets.items() if len(items) > 1},
            {item.id: item for item in whole},
        )

    def keys(self, project: Project, context: dict) -> tuple[str, dict[str, str]]:
        """The measurements' keys at the context's scale: the header's, and each block's by item id."""
        style = _style_key(project, context)
        return heights.key(style, "header", self.header), {
            ident: heights.key(style, chunk) for ident, chunk in self.blocks.items()
        }

    def digest(self, project: Project, context: dict) -> str:
        """One key for every measurement at the context's scale."""
        header_key, keys = self.keys(project, context)
        return heights.key(header_key, *keys.values())


def chunk(environment: jinja2.Environment, context: dict, item: Item) -> str:
    return environment.get_template("piece.html.j2").render(
        context,
        whole=item,
        probes=[replace(item, stop=1, probe=True)] if item.may_continue else [],
        heading_probe=item.section is not None,
    )


def decision_key(project: Project, context: dict, chunks: Chunks, whole: list[Item], frame) -> str:
    """Everything a scale decision depends on: the heights at every scale (each block's chunk and the header's,
    the styles but the scale), the blocks' order and what the packer is told of each (breaks, continuation,
    opening a section), the page frame; the renderer's own code is in every key (heights.key)."""
    style = _style_key(project, context, scaled=False)
    packing = [repr((item.id, item.block.break_before, item.splits, item.first, item.block.wide)) for item in whole]
    return heights.key(
        style, repr(frame), repr(context["type_sizes"]), chunks.header, *chunks.blocks.values(), *packing
    )


def measured(
    project: Project, context: dict, chunks: Chunks, cache: heights.Cache
) -> tuple[dict[str, measure.Measured], float]:
    """Every block's measurement and the header's height at the context's scale: from the cache, else from one
    measuring pass over the blocks whose key is new (shared among processes where the build allows: forks)."""
    header_key, keys = chunks.keys(project, context)
    found = {ident: cache.get(name) for ident, name in keys.items()}
    header = cache.get(header_key)
    missing = [ident for ident, value in found.items() if value is None]
    if missing or header is None:
        prepare(project)  # before any fork: the measuring processes share the fonts
        parts = forks.in_parts(
            partial(_measured_now, project, context, chunks), missing, lambda ident: layout_cost(chunks.blocks[ident])
        )
        header = parts[0][1]  # every part's document holds the header
        cache.put(header_key, header)
        for fresh, _ in parts:
            for ident, value in fresh.items():
                cache.put(keys[ident], value)
                found[ident] = value
    if chunks.sets:
        found.update(_shared_widths(project, context, chunks, cache, found))
    found.update(_wide(project, context, chunks, cache, found))
    return found, header.height


def layout_cost(chunk: str) -> int:
    """About what laying a chunk out costs, in characters of text: each element (a table cell above all) costs as
    much as a hundred characters (fitted to a roster's blocks, each measured alone: a table of 169 cells took 0.26 s,
    12,000 characters of prose 0.10 s)."""
    return len(chunk) + 100 * chunk.count("<")


def _measured_now(
    project: Project, context: dict, chunks: Chunks, missing: list[str]
) -> tuple[dict[str, measure.Measured], measure.Measured]:
    """One measuring pass over the blocks `missing`: their measurements, and the header's."""
    document = render(
        project,
        templating.environment(project.templates)
        .get_template("sheet.html.j2")
        .render(dict(context, chunks=[Markup(chunks.blocks[ident]) for ident in missing])),
        stylesheet_text(project),
    )
    return measure.measure(document, missing), measure.Measured(height=measure.header_height(document))


def _wide(
    project: Project, context: dict, chunks: Chunks, cache: heights.Cache, found: dict[str, measure.Measured]
) -> dict[str, measure.Measured]:
    """The blocks that span the page, measured again at its width: those the source makes `wide`, and those that
    span it without the author asking: tables too wide for a column by their many columns (findings.spans), figures at
    true size wider than a column (figures.spans), preformatted text too wide for one at 6 pt (widths.too_wide)."""
    frame = context["frame"]
    column = frame.column_width
    wide = [
        ident
        for ident, item in chunks.items.items()
        if item.block.wide
        or findings.spans(found[ident], column)
        or figures.spans(item.block, column)
        or item.block.type == "preformatted"
        and widths.too_wide(item.block, frame, 0.0)
    ]
    if not wide:
        return {}
    environment, style = templating.environment(project.templates), _style_key(project, context)
    width = context["frame"].content_width
    html_of = {ident: chunk(environment, chunks.context, replace(chunks.items[ident], wide=True)) for ident in wide}
    keys = {ident: heights.key(style, "wide", str(width), chunk) for ident, chunk in html_of.items()}
    again = {ident: cache.get(name) for ident, name in keys.items()}
    missing = [ident for ident, value in again.items() if value is None]
    if missing:
        document = render(
            project,
            environment.get_template("sheet.html.j2").render(
                dict(context, measure_width=width, chunks=[Markup(html_of[ident]) for ident in missing])
            ),
            stylesheet_text(project),
        )
        for ident, value in measure.measure(document, missing).items():
            cache.put(keys[ident], replace(value, wide=True))
            again[ident] = replace(value, wide=True)
    return again


def _shared_widths(
    project: Project, context: dict, chunks: Chunks, cache: heights.Cache, found: dict[str, measure.Measured]
) -> dict[str, measure.Measured]:
    """The tables of one column set, measured again with the same column widths (each column as wide as the widest
    of the set needs it, the set's tables as wide as the column): one under another, their columns line up."""
    shared: dict[str, tuple[float, ...]] = {}
    for column_set in chunks.sets.values():
        widths = [found[item.id].widths for item in column_set]
        if not all(widths) or len({len(each) for each in widths}) != 1:
            continue
        widest = [max(column) for column in zip(*widths)]
        total = sum(widths[0])
        shared.update(
            {item.id: tuple(round(width * total / sum(widest), 3) for width in widest) for item in column_set}
        )
    environment, style = templating.environment(project.templates), _style_key(project, context)
    html_of = {
        ident: chunk(
            environment,
            chunks.context,
            replace(
                next(item for column_set in chunks.sets.values() for item in column_set if item.id == ident),
                widths=widths,
            ),
        )
        for ident, widths in shared.items()
    }
    keys = {ident: heights.key(style, "shared", chunk) for ident, chunk in html_of.items()}
    again = {ident: cache.get(name) for ident, name in keys.items()}
    missing = [ident for ident, value in again.items() if value is None]
    if missing:
        document = render(
            project,
            environment.get_template("sheet.html.j2").render(
                dict(context, chunks=[Markup(html_of[ident]) for ident in missing])
            ),
            stylesheet_text(project),
        )
        for ident, value in measure.measure(document, missing).items():
            cache.put(keys[ident], value)
            again[ident] = value
    return again


def _style_key(project: Project, context: dict, scaled: bool = True) -> str:
    """What decides heights besides a block's own HTML: the stylesheet, the page's styles, the language, the
    column's width, the ink saver's styles; and (`scaled`) the type sizes at the context's scale. Not crop marks:
    they add bleed and marks outside the page's box, so the plain sheet's heights and decisions serve `--marks`."""
    stylesheet = (project.templates / "sheet.css").read_text(encoding="utf-8")
    page_styles = (project.templates / "sheet.html.j2").read_text(encoding="utf-8")
    parts = [
        stylesheet,
        page_styles,
        context["lang"],
        str(context["frame"].column_width),
        str(context["ink_saver"]),
    ]
    if scaled:
        parts += [repr(context["type_sizes"]), str(context["scale"])]
    return "\0".join(parts)
