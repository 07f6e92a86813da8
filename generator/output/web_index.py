"""build/html/index.html: every web page built, sheets then handouts, each in every language it was built in,
with its PDF beside it where one was built.

Made from the pages on disk (their <title> and language), not from the sources: writing it loads no sheet, so a
build with nothing else to do stays cheap. Written only when its text changes.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from generator import write
from generator.output import formats
from generator.output.targets import HandoutTarget, SheetTarget, Target
from generator.project import SHEET_ID, Project

# The pages the index lists: <id>.<lang>.html, and a deck's <id>.cards-<size>[.<section>].<lang>.html (variants,
# such as errata-2.0 or a deck's ink saver, are left out).
PAGE = re.compile(
    r"^(?P<id>[a-z0-9][a-z0-9-]{0,59})"
    r"(?:\.(?P<deck>cards-(?:[a-z0-9]+|\d{2,3}(?:\.\d)?x\d{2,3}(?:\.\d)?)"
    r"(?:\.[a-z0-9][a-z0-9-]{0,59})?))?"
    r"\.(?P<lang>[a-z]{2}(?:-[A-Z]{2})?)\.html\Z"
)
VARIANT_WORDS = {"a4", "letter", "marks", "ink-saver", "gloss"}  # what a variant adds after a deck's size
TITLE = re.compile(r"<title>(.*?)</title>", re.S)

STYLE = """
html { font-family: "Source Sans", system-ui, sans-serif; line-height: 1.4; color: #1a1a1a; background: #fff; }
body { margin: 0 auto; padding: 1rem; max-width: 48rem; }
h1 { font-size: 1.5rem; border-bottom: 3px solid #7a1f1f; padding-bottom: 0.25rem; }
h2 { font-size: 1.125rem; color: #7a1f1f; margin-top: 1.5rem; }
ul { list-style: none; padding: 0; }
li { margin: 0 0 0.5rem 0; }
a { color: inherit; }
.lang { display: inline-block; min-width: 2rem; font-weight: 700; text-transform: uppercase; color: #555; }
.pdf { margin-left: 0.5rem; font-size: 0.875rem; }
@media (prefers-color-scheme: dark) { html { color: #e8e6e3; background: #141414; } h1 { border-color: #c98a8a; }
  h2 { color: #d9a3a3; } .lang { color: #a9a5a0; } }
"""


@dataclass(frozen=True)
class Page:
    path: Path  # the page, in build/html/ or build/html/handouts/
    ident: str
    lang: str
    title: str  # as the page's <title> says it, unescaped
    pdf: Path | None  # the PDF of the same sheet and language, where one was built
    deck: str | None = None  # a deck's page: cards-<size>[.<section>]


def write_index(project: Project) -> Path | None:
    """Write build/html/index.html from the pages there; None when it is already what they make."""
    folder = project.build / formats.writer("html").FOLDER
    sheets, handouts = (pages(project, folder / kind.folder, kind) for kind in (SheetTarget, HandoutTarget))
    target = folder / "index.html"
    text = index_html(sheets, handouts, folder)
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return None
    write.atomically(target, text.encode("utf-8"))
    return target


def pages(project: Project, folder: Path, kind: type[Target]) -> list[Page]:
    """The pages of one kind of target in `folder`, each with its PDF where one was built."""
    found = []
    for path in sorted(folder.glob("*.html")) if folder.is_dir() else []:
        match = PAGE.match(path.name)
        if (
            not match
            or not SHEET_ID.match(match["id"])
            or not path.is_file()
            or path.is_symlink()
            or VARIANT_WORDS & set((match["deck"] or "").split(".")[1:])
        ):
            continue
        pdf_of = formats.writer("cards" if match["deck"] else "pdf").path
        pdf = pdf_of(project, kind(folder / f"{match['id']}.yaml"), match["lang"], match["deck"])
        found.append(
            Page(
                path,
                match["id"],
                match["lang"],
                _title(path) or match["id"],
                pdf if pdf.is_file() else None,
                match["deck"],
            )
        )
    return found


def _title(path: Path) -> str | None:
    found = TITLE.search(path.read_text(encoding="utf-8", errors="replace"))
    return html.unescape(found.group(1)).strip() if found else None


def index_html(sheets: list[Page], handouts: list[Page], folder: Path) -> str:
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        '<meta name="color-scheme" content="light dark">\n',
        f"<title>Quick-reference sheets</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        "<h1>Quick-reference sheets</h1>\n",
    ]
    for heading, listed in (("Sheets", sheets), ("Army handouts", handouts)):
        if listed:
            parts.append(f"<h2>{heading}</h2>\n<ul>\n")
            parts += [_entry(page, folder) for page in listed]
            parts.append("</ul>\n")
    if not sheets and not handouts:
        parts.append("<p>No web page has been built yet: <code>qrs build --format html</code>.</p>\n")
    parts.append("</body>\n</html>\n")
    return "".join(parts)


def _entry(page: Page, folder: Path) -> str:
    href = page.path.relative_to(folder).as_posix()
    pdf = ""
    if page.pdf is not None:
        pdf_href = Path("..", page.pdf.relative_to(folder.parent)).as_posix()
        pdf = f' <a class="pdf" href="{html.escape(pdf_href)}">PDF</a>'
    title = f"{page.title} ({page.deck.replace('.', ', ').replace('-', ' ', 1)})" if page.deck else page.title
    return (
        f'<li><span class="lang">{html.escape(page.lang)}</span> '
        f'<a href="{html.escape(href)}" hreflang="{page.lang}" lang="{page.lang}">{html.escape(title)}</a>'
        f"{pdf}</li>\n"
    )
