"""The web edition: build/html/<sheet>.<lang>.html and build/html/handouts/<id>.<lang>.html, one self-contained
page each, listed by build/html/index.html (generator.output.web_index)."""

from __future__ import annotations

from pathlib import Path

from generator.output.formats import Rendered, file_path

HELP = "a web page in build/html/, and an index.html"
FOLDER = "html"  # under the build folder
OPTIONS: tuple = ()


def own_options(params: dict) -> None:
    return None


def variant(options) -> str | None:
    """What the build options add to a page's name (paper, marks and ink concern PDFs only): the English terms
    beside their first mention, build/html/warhammer.gloss.fr.html."""
    return "gloss" if options.gloss else None


def path(project, target, lang: str, variant: str | None = None) -> Path:
    return file_path(project, FOLDER, target, lang, variant, "html")


def render(project, prepared, options) -> Rendered:
    from generator.rendering import web  # the templates and fonts (not WeasyPrint): only when a page is made

    return Rendered(web.page(project, prepared.sheet, options, prepared.untranslated, prepared.marks).encode("utf-8"))


def finished(project) -> Path | None:
    """After a build of pages: build/html/index.html lists those on disk (None: it was already so)."""
    from generator.output import web_index

    return web_index.write_index(project)
