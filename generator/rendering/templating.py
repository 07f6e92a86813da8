"""A sheet's HTML through the Jinja templates: what every template is given (`context`), the environment, and the
whole document (`html`). Nothing here imports WeasyPrint: the web edition is made from this alone."""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

import jinja2

from generator import __version__
from generator.composing.diff import Marks
from generator.composing.words import ui_words
from generator.model.types import Sheet
from generator.project import Project
from generator.rendering import figures, imprint, widths
from generator.rendering.inline import Inline, css_string
from generator.rendering.items import Item, items
from generator.rendering.layout import page_frame


@cache
def environment(templates: Path) -> jinja2.Environment:
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


def context(project: Project, sheet: Sheet, options, untranslated: int, marks: Marks | None, scale: float) -> dict:
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
        type_sizes={name: round(points * base(sheet) * scale, 3) for name, points in TYPE_SIZES.items()},
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
        keys_on_one_line=widths.keys_on_one_line,  # a matrix's short row keys: never wrapped
        words_fit=widths.words_fit,  # a table whose columns may widen for a long word: hyphens: manual
    )


def base(sheet: Sheet) -> float:
    """The sheet's own body size (`paper.type`) against the design's 7.6 pt: every size and space follows it."""
    return sheet.paper.type_points / TYPE_SIZES["size"]


def html(
    project: Project,
    sheet: Sheet,
    options,
    untranslated: int = 0,
    marks: Marks | None = None,
    plan: list[list[list[Item]]] | None = None,
    scale: float = 1.0,
    template: str = "sheet.html.j2",
    **extra,
) -> str:
    """The sheet's HTML, packed into the columns of `plan` (by default every block whole, in one column);
    `extra` adds to (or replaces) what the templates are given (the web edition's page, generator.rendering.web)."""
    given = context(project, sheet, options, untranslated, marks, scale)
    given["plan"] = plan if plan is not None else [[items(sheet)]]
    given.update(extra)
    return environment(project.templates).get_template(template).render(given)
