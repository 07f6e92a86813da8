"""Stage 3, render: a validated Sheet → HTML (Jinja) → laid-out pages (WeasyPrint) → PDF bytes.

WeasyPrint reads only what `ProjectFetcher` serves: the project's templates and the font
package's files. Anything else a template or stylesheet names stops the render.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
import hashlib
import mimetypes
import os
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jinja2
import weasyprint
from babel.dates import format_date
from markupsafe import Markup
from weasyprint.urls import URLFetcher, URLFetcherResponse

from generator import __version__, i18n, markup, typography
from generator.diff import Marks
from generator.errors import UserError
from generator.glyphs import FONTS
from generator import layout as layout_module
from generator.model import Block, Section, Sheet
from generator.project import Project
from generator.validate import keyword_index


# The words templates print, in English; other languages come from templates/i18n/<lang>.po.
UI_WORDS = {
    "page": "page",
    "edition": "edition",
    "errata": "Errata in this edition",
    "partly_untranslated": "partly untranslated",
    "or": "or",
    "units": "Units",
    "unit": "Unit",
    "save": "Sv",
    "equipment": "Equipment",
    "special_rules": "Special rules",
}


class ProjectFetcher(URLFetcher):
    """Serves the project's templates and fonts; refuses every other URL (no network, no other file)."""

    def __init__(self, templates: Path):
        super().__init__(fail_on_errors=True)
        self.roots = {templates.resolve(): templates.resolve(), templates.resolve() / "fonts": FONTS}
        self.fetched: list[str] = []

    def fetch(self, url, headers=None):
        self.fetched.append(url)
        parts = urlsplit(url)
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


def css_string(text: str) -> Markup:
    """Text for the inside of a CSS string in a <style> element: HTML escaping does not apply there,
    so the quote, the backslash, line breaks and '<' (which could close the element) are CSS-escaped."""
    escaped = "".join(f"\\{ord(char):x} " if char in '"\\<>\n\r\x0c' else char for char in str(text))
    return Markup(escaped)


class Inline:
    """Turns the sheet's inline markup into safe HTML, with the language's typography."""

    def __init__(self, sheet: Sheet, lang: str, gloss: bool = False):
        self.typo = typography.for_language(lang)
        self.keywords = keyword_index(sheet)
        self.gloss = gloss
        self.glossed: set[str] = set()

    def name_keyword(self, key: str, shown: str | None) -> str:
        return shown or self.keywords[key.casefold()].term

    def name_keyword_glossed(self, key: str, shown: str | None) -> str:
        """With --gloss: the game's English term beside the first mention of each keyword."""
        name = self.name_keyword(key, shown)
        keyword = self.keywords[key.casefold()]
        if keyword.original and keyword.original != keyword.term and keyword.id not in self.glossed:
            self.glossed.add(keyword.id)
            return f"{name} ({keyword.original})"
        return name

    def __call__(self, text: str | None) -> Markup:
        if not text:
            return Markup("")
        namer = self.name_keyword_glossed if self.gloss else self.name_keyword
        return markup.to_html(markup.parse(text), self.typo, namer)

    def plain(self, text: str) -> str:
        return markup.to_plain(markup.parse(text), self.typo, self.name_keyword)


@dataclass(frozen=True)
class Item:
    """One packable unit of the page: a block (with its section's heading if it is the first), or the changes box."""

    block: Block | None
    section: Section | None = None
    first: bool = False

    @property
    def id(self) -> str:
        return self.block.id if self.block else "errata"


def items(sheet: Sheet) -> list[Item]:
    found = [Item(block, section, position == 0)
             for section in sheet.sections for position, block in enumerate(section.blocks)]
    if sheet.changes_box and sheet.current_changes:
        found.append(Item(None))
    return found


def page_frame(sheet: Sheet, options) -> layout_module.Frame:
    paper = sheet.paper
    return layout_module.frame(options.paper or paper.size, paper.orientation, paper.columns, paper.pages)


def html(project: Project, sheet: Sheet, options, untranslated: int = 0, marks: Marks | None = None,
         plan: layout_module.Plan | None = None) -> str:
    """The sheet's HTML: packed into the columns of `plan`, or (without one) in one column, to be measured."""
    lang = sheet.lang
    paper = options.paper or sheet.paper.size
    template = _environment(project.templates).get_template("sheet.html.j2")
    return template.render(
        sheet=sheet,
        lang=lang,
        t=Inline(sheet, lang, gloss=options.gloss),
        words=ui_words(project.templates, lang, options.allow_fallback),
        untranslated=untranslated,
        marks=marks or Marks(),
        items=items(sheet),
        plan=plan,
        frame=page_frame(sheet, options),
        crop_marks=getattr(options, "crop_marks", False),
        ink_saver=getattr(options, "ink_saver", False),
        page_size=f"{paper} {sheet.paper.orientation}",
        long_date=format_date(datetime.date.fromisoformat(sheet.date), format="long", locale=lang.replace("-", "_")),
        generator=f"qrs {__version__}",
    )


def ui_words(templates: Path, lang: str, allow_fallback: bool) -> dict[str, str]:
    if lang == "en":
        return dict(UI_WORDS)
    catalogue_file = templates / "i18n" / f"{lang}.po"
    if not catalogue_file.exists():
        if allow_fallback:
            return dict(UI_WORDS)
        raise UserError.at(catalogue_file, 1, 1, f"the templates have no '{lang}' catalogue: copy templates/i18n/fr.po and translate it")
    translated = {message.context: message.string for message in i18n.read(catalogue_file) if message.context}
    words = {}
    for key, english in UI_WORDS.items():
        if not translated.get(key) and not allow_fallback:
            raise UserError.at(catalogue_file, 1, 1, f"no '{lang}' translation of the template word '{english}' ({key})")
        words[key] = translated.get(key) or english
    return words


def layout(project: Project, sheet: Sheet, options, untranslated: int = 0, marks: Marks | None = None) -> weasyprint.Document:
    """Measure every block in one column, pack the blocks into the sheet's columns, lay the pages out."""
    measured = _render(project, html(project, sheet, options, untranslated, marks))
    heights, header = _measure(measured, [item.id for item in items(sheet)])
    frame = page_frame(sheet, options)
    plan = layout_module.pack(heights, frame.column_height, header, frame.columns)
    return _render(project, html(project, sheet, options, untranslated, marks, plan))


def _render(project: Project, document_html: str) -> weasyprint.Document:
    fetcher = ProjectFetcher(project.templates)
    source = weasyprint.HTML(string=document_html, base_url=project.templates.resolve().as_uri() + "/", url_fetcher=fetcher)
    try:
        return source.render()
    except weasyprint.urls.FatalURLFetchingError as error:
        raise UserError.at(project.templates, 1, 1, f"rendering stopped: {error.__cause__ or error}") from None


def _measure(document: weasyprint.Document, ids: list[str]) -> tuple[list[float], float]:
    """Each block's height (margins included, summed over fragments) and the header's, in millimetres."""
    boxes = _block_boxes(document)
    heights = [sum(box.margin_height() for box in boxes.get(ident, [])) / layout_module.PX_PER_MM for ident in ids]
    header = next((box for box in document.pages[0]._page_box.descendants()
                   if getattr(box, "element_tag", None) == "header"), None)
    return heights, (header.margin_height() / layout_module.PX_PER_MM if header else 0.0)


def layout_findings(sheet: Sheet, document: weasyprint.Document, options=None):
    """Layout problems measured on the laid-out boxes, as (path in the source, message): more pages
    than declared, a block split across columns or pages, text wider than its column."""
    pages = len(document.pages)
    if pages > sheet.paper.pages:
        yield ("paper", "pages"), f"the sheet takes {pages} pages; it must fit {sheet.paper.pages}"
    column_height = page_frame(sheet, options).column_height if options else None
    boxes = _block_boxes(document)
    where = {block.id: ("sections", s, "blocks", b)
             for s, section in enumerate(sheet.sections) for b, block in enumerate(section.blocks)}
    for item in items(sheet):
        loc = where.get(item.id, ("changelog", 0, "changes"))
        name = f"block '{item.id}'" if item.block else "the changes box"
        fragments = boxes.get(item.id, [])
        height = sum(box.margin_height() for box in fragments) / layout_module.PX_PER_MM
        if len(fragments) > 1:
            why = (f": it is {height:.0f} mm tall and a column holds {column_height:.0f} mm"
                   if column_height and height > column_height else "")
            yield loc, f"{name} is split across {len(fragments)} columns or pages{why}"
        overflow = max((_overflow(box) for box in fragments), default=0.0)
        if overflow > 0.3:
            yield loc, (f"{name} is {overflow:.1f} mm wider than its column: a word, a number or a table "
                        "too wide to fit (shorten it, or allow a break)")


def _block_boxes(document: weasyprint.Document) -> dict[str, list]:
    """The boxes each block was laid out in: more than one means it was split."""
    found: dict[str, list] = {}
    for page in document.pages:
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is None or box.element_tag != "section" or "block" not in element.get("class", "").split():
                continue
            found.setdefault(element.get("id"), []).append(box)
    return found


def _overflow(block_box) -> float:
    """How far (mm) anything inside a block reaches past the block's right edge."""
    right = block_box.position_x + block_box.margin_width()
    furthest = max((box.position_x + box.margin_width() for box in block_box.descendants()
                    if hasattr(box, "margin_width") and box.width is not None), default=right)
    return max(0.0, (furthest - right) / layout_module.PX_PER_MM)


def pdf(sheet: Sheet, document: weasyprint.Document) -> bytes:
    """Identical input gives identical bytes: fixed identifier, dates from the edition."""
    identifier = hashlib.sha256(f"{sheet.sheet}/{sheet.lang}/{sheet.edition}".encode()).hexdigest()[:32]
    # fontTools stamps subset fonts with the current time unless SOURCE_DATE_EPOCH says otherwise.
    edition_day = datetime.datetime.fromisoformat(sheet.date).replace(tzinfo=datetime.timezone.utc)
    os.environ["SOURCE_DATE_EPOCH"] = str(int(edition_day.timestamp()))
    return document.write_pdf(pdf_identifier=identifier.encode(), pdf_tags=True)
