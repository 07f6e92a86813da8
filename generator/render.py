"""Stage 3, render: a validated Sheet → HTML (Jinja) → laid-out pages (WeasyPrint) → PDF bytes.

WeasyPrint reads only what `ProjectFetcher` serves: the project's templates and the font
package's files. Anything else a template or stylesheet names stops the render.
"""

from __future__ import annotations

import datetime
import hashlib
import mimetypes
import os
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import font_source_sans_pro
import jinja2
import weasyprint
from babel.dates import format_date
from markupsafe import Markup
from weasyprint.urls import URLFetcher, URLFetcherResponse

from generator import __version__, i18n, markup, typography
from generator.diff import Marks
from generator.errors import UserError
from generator.model import Sheet
from generator.project import Project
from generator.validate import keyword_index

FONTS = Path(font_source_sans_pro.__file__).resolve().parent / "files"

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


def html(project: Project, sheet: Sheet, options, untranslated: int = 0, marks: Marks | None = None) -> str:
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
    fetcher = ProjectFetcher(project.templates)
    document_html = weasyprint.HTML(
        string=html(project, sheet, options, untranslated, marks),
        base_url=project.templates.resolve().as_uri() + "/",
        url_fetcher=fetcher,
    )
    try:
        return document_html.render()
    except weasyprint.urls.FatalURLFetchingError as error:
        raise UserError.at(project.templates, 1, 1, f"rendering stopped: {error.__cause__ or error}") from None


def layout_findings(sheet: Sheet, document: weasyprint.Document):
    """Layout problems found on the laid-out boxes, as (path in the source, message)."""
    pages = len(document.pages)
    if pages > sheet.paper.pages:
        yield ("paper", "pages"), f"the sheet takes {pages} pages; it must fit {sheet.paper.pages}"
    fragments = _block_fragments(document)
    for s, section in enumerate(sheet.sections):
        for b, block in enumerate(section.blocks):
            count = fragments.get(block.id, 0)
            if count > 1:
                yield ("sections", s, "blocks", b), f"block '{block.id}' is split across {count} columns or pages"


def _block_fragments(document: weasyprint.Document) -> dict[str, int]:
    """How many boxes each block was laid out in: more than one means it was split."""
    counts: dict[str, int] = {}
    for page in document.pages:
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is None or box.element_tag != "section" or "block" not in element.get("class", ""):
                continue
            block_id = element.get("id")
            counts[block_id] = counts.get(block_id, 0) + 1
    return counts


def pdf(sheet: Sheet, document: weasyprint.Document) -> bytes:
    """Identical input gives identical bytes: fixed identifier, dates from the edition."""
    identifier = hashlib.sha256(f"{sheet.sheet}/{sheet.lang}/{sheet.edition}".encode()).hexdigest()[:32]
    # fontTools stamps subset fonts with the current time unless SOURCE_DATE_EPOCH says otherwise.
    edition_day = datetime.datetime.fromisoformat(sheet.date).replace(tzinfo=datetime.timezone.utc)
    os.environ["SOURCE_DATE_EPOCH"] = str(int(edition_day.timestamp()))
    return document.write_pdf(pdf_identifier=identifier.encode(), pdf_tags=True)
