"""WeasyPrint: HTML laid out into pages (`render`), a sheet's planned pages laid out one document a page (`pages`),
and their PDF (`pdf`). WeasyPrint reads only what `ProjectFetcher` serves: the project's templates and the font
package's files. Anything else a template or stylesheet names stops the render.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import mimetypes
import os
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from generator.rendering import speedups

with speedups.importing_weasyprint():
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher, URLFetcherResponse
speedups.weasyprint_imported()

from generator.errors import UserError  # noqa: E402 - after WeasyPrint, imported as speedups says
from generator.model.glyphs import FONTS  # noqa: E402
from generator.model.types import Sheet  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.rendering import figures, heights, imprint  # noqa: E402
from generator.rendering.templating import environment  # noqa: E402


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


def pages(project: Project, context: dict, plan: list) -> weasyprint.Document:
    """The planned pages, laid out one document a page and joined (the page numbers printed as text): a page's
    layout depends only on its own HTML, so a page unchanged since the last layout in this process (`keep_pages`,
    under `qrs watch`) is taken as it was."""
    template = environment(project.templates).get_template("sheet.html.j2")
    stylesheet = stylesheet_text(project)
    bands, feet = context.get("bands"), context.get("feet")
    documents = [
        _page(
            project,
            template.render(
                dict(
                    context,
                    plan=[page],
                    page_number=number,
                    plan_pages=len(plan),
                    bands=[bands[number - 1]] if bands else None,
                    feet=[feet[number - 1]] if feet else None,
                )
            ),
            stylesheet,
        )
        for number, page in enumerate(plan, start=1)
    ]
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
        return render(project, page_html, stylesheet)
    key = heights.key(str(project.templates.resolve()), hashlib.sha256(stylesheet).hexdigest(), page_html)
    if key in _laid_pages:
        _laid_pages.move_to_end(key)
        return _laid_pages[key]
    laid = _laid_pages[key] = render(project, page_html, stylesheet)
    keep_pages(_pages_kept)
    return laid


def stylesheet_text(project: Project) -> bytes:
    """templates/sheet.css, read as WeasyPrint reads the project's files: through the fetcher, confined."""
    try:
        return ProjectFetcher(project.templates).fetch(project.templates.resolve().as_uri() + "/sheet.css").read()
    except PermissionError as error:  # the stylesheet itself is not one of the project's files
        raise UserError.at(project.templates, 1, 1, f"rendering stopped: {error}") from None


def prepare(project: Project) -> None:
    """The stylesheet parsed and its fonts loaded in this process, as `render` finds them: a process forked after
    shares them, and leaves no font folder of its own behind (WeasyPrint removes one only when its owner is
    collected, which a forked process ending at once never is)."""
    with _stopped_at_the_templates(project):
        _stylesheet(project.templates.resolve(), stylesheet_text(project))


def render(project: Project, document_html: str, stylesheet_text: bytes) -> weasyprint.Document:
    fetcher = ProjectFetcher(project.templates)
    with _stopped_at_the_templates(project):
        stylesheet, fonts = _stylesheet(project.templates.resolve(), stylesheet_text)
        source = weasyprint.HTML(
            string=document_html, base_url=project.templates.resolve().as_uri() + "/", url_fetcher=fetcher
        )
        # <ol start>: a list continued in the next column
        return source.render(stylesheets=[stylesheet], font_config=fonts, presentational_hints=True)


@contextlib.contextmanager
def _stopped_at_the_templates(project: Project) -> Iterator[None]:
    """A URL the fetcher refuses (a template or the stylesheet reaching outside the project) stops the render: a
    problem at the templates' folder."""
    try:
        yield
    except weasyprint.urls.FatalURLFetchingError as error:
        raise UserError.at(project.templates, 1, 1, f"rendering stopped: {error.__cause__ or error}") from None


@lru_cache(maxsize=4)  # a few versions: `qrs watch` over a stylesheet being edited
def _stylesheet(templates: Path, text: bytes) -> tuple[weasyprint.CSS, FontConfiguration]:
    """The stylesheet parsed once a process (and again when it changes, under `qrs watch`), with the fonts its
    @font-face rules load: parsing it took a measuring pass of one block a third of its time."""
    fonts = FontConfiguration()
    _font_configurations.add(fonts)
    stylesheet = weasyprint.CSS(
        string=text.decode("utf-8"),
        base_url=templates.as_uri() + "/",
        url_fetcher=ProjectFetcher(templates),
        font_config=fonts,
    )
    return stylesheet, fonts


def pdf(sheet: Sheet, document: weasyprint.Document, variant: str | None = None) -> bytes:
    """Identical input gives identical bytes: fixed identifier, dates from the edition. `variant` is a standard
    WeasyPrint writes the PDF to (pdf/ua-1: accessible, pdf/a-3b: archival): its declaration and what it requires."""
    os.environ["SOURCE_DATE_EPOCH"] = imprint.source_date_epoch(sheet)
    return document.write_pdf(pdf_identifier=imprint.identifier(sheet), pdf_tags=True, pdf_variant=variant)


# WeasyPrint removes a FontConfiguration's font folder when the object is collected; the process's imports are set
# aside from the collector and the command ends without collecting (generator.rendering.speedups): each folder the
# stylesheets' fonts were written to is removed at exit instead (a forked measuring process made none: `prepare`).
_font_configurations: weakref.WeakSet[FontConfiguration] = weakref.WeakSet()


@atexit.register
def _remove_font_folders() -> None:
    for fonts in list(_font_configurations):
        fonts.__del__()  # WeasyPrint's own clean-up: its folder removed (again when collected: nothing to remove)
