"""`qrs export`: a sheet's or a handout's pages as images, for forums and chats.

`build/export/<sheet>.<lang>-<page>.png` (or `.svg`), handouts in `build/export/handouts/`. The pages are drawn
from the built PDF (reused when the build manifest says it is up to date, as `qrs preview` does):

- PNG by PDFium (pypdfium2), at the resolution asked for;
- SVG by `pdftocairo` (poppler-utils), a vector drawing of the page: sharp at any size, its text drawn as
  outlines of the sheet's own font, so that it looks the same everywhere without a font installed. pdftocairo
  is a program of its own; where it is missing, the command says how to install it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from generator import files, write
from generator.errors import UserError
from generator.options import BuildOptions
from generator.output import preview
from generator.output.targets import Target, named
from generator.project import Project
from generator.report import shown

FORMATS = ("png", "svg")
DEFAULT_DPI = 150


class MissingTool(Exception):
    """A program the export needs is not installed (pdftocairo for SVG): said with how to install it, exit 69."""


def folder(project: Project, target: Target) -> Path:
    return project.build / "export" / target.folder


def parse_pages(text: str | None) -> tuple[int, ...]:
    """'1,3' → (1, 3); None → () (every page)."""
    if text is None:
        return ()
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() and int(part) >= 1 for part in parts):
        raise ValueError(f"'{text}' is not a list of page numbers from 1, separated by commas (1,2)")
    return tuple(sorted(set(map(int, parts))))


def export(
    project: Project,
    target: Target,
    lang: str,
    form: str,
    dpi: int = DEFAULT_DPI,
    pages: tuple[int, ...] = (),
    rebuild: bool = False,
    options: BuildOptions = BuildOptions(),
) -> tuple[Path, bool, list[Path]]:
    """Build (or reuse) one sheet's or handout's PDF in one language and draw the pages asked for (all by default):
    (the PDF, whether it was built now, the images written)."""
    if form == "svg" and not converter():
        raise MissingTool(
            "SVG export needs pdftocairo, from poppler-utils: apt-get install poppler-utils "
            "(brew install poppler on macOS)"
        )
    pdf, built = preview.pdf(project, target, lang, options, rebuild)
    source = target.source
    count = preview.page_count(pdf)
    missing = [number for number in pages if number > count]
    if missing:
        raise UserError.at(pdf, 0, 0, f"it has {count} page(s): no page {', '.join(map(str, missing))}")
    out = folder(project, target)
    wanted = pages or tuple(range(1, count + 1))
    draw = preview.png_pages if form == "png" else svg_pages
    images = draw(
        pdf, {number: image(out, source, lang, number, form) for number in wanted}, dpi / preview.POINTS_PER_INCH
    )
    if not pages:  # every page drawn: the images of pages the PDF no longer has go
        remove_images(out, source, lang, form, keep=len(images))
    return pdf, built, images


def image(out: Path, source: Path, lang: str, number: int, form: str) -> Path:
    """build/export/<id>.<lang>-<page>.<form>."""
    return out / f"{source.stem}.{lang}-{number}.{form}"


def remove_images(
    out: Path, source: Path, lang: str, form: str, pages: tuple[int, ...] = (), keep: int = 0
) -> list[Path]:
    """Remove the images an earlier export left of these pages (all by default) past the first `keep`: under the
    name an export writes, they would pass for its own. Returns those removed."""
    pattern = re.compile(rf"^{re.escape(source.stem)}\.{re.escape(lang)}-(\d+)\.{form}$")
    if out.is_dir():
        files.refuse_folder_link(out, "writes")  # nor removes
    removed = []
    for old in sorted(out.glob(f"{source.stem}.{lang}-*.{form}")) if out.is_dir() else []:
        found = pattern.match(old.name)
        if found and int(found.group(1)) > keep and (not pages or int(found.group(1)) in pages) and old.is_file():
            old.unlink(missing_ok=True)
            removed.append(old)
    return removed


def converter() -> str | None:
    return shutil.which("pdftocairo")


def svg_pages(pdf: Path, targets: dict[int, Path], scale: float) -> list[Path]:
    """Each page (numbered from 1) as SVG at `targets[number]`. An SVG has no resolution: `scale` is not used,
    the drawing is the page's size in points."""
    written = []
    with tempfile.TemporaryDirectory(prefix="qrs-svg-") as work:
        for number, target in targets.items():
            drawn = Path(work) / f"{number}.svg"
            result = subprocess.run(
                [converter(), "-svg", "-f", str(number), "-l", str(number), str(pdf), str(drawn)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            if result.returncode != 0 or not drawn.is_file():
                raise UserError.at(pdf, 1, 1, f"pdftocairo could not draw page {number}: {result.stderr.strip()}")
            write.atomically(target, drawn.read_bytes())
            written.append(target)
    return written


def export_named(
    project: Project,
    names: tuple[str, ...],
    languages: tuple[str, ...],
    form: str,
    dpi: int,
    pages: tuple[int, ...],
    rebuild: bool,
    options: BuildOptions,
    report,
) -> list:
    """Export the sheets and handouts named (ids), in the languages given or every one each has; report each file
    written, and return the problems found in the sources."""
    problems = []
    for target in named(project, names):
        try:
            own = languages or target.printed_languages(project)
        except UserError as error:
            problems.extend(error.problems)
            continue
        for lang in own:  # a language that fails stops neither the others nor the other sheets
            try:
                pdf, built, images = export(project, target, lang, form, dpi, pages, rebuild, options)
            except UserError as error:
                problems.extend(error.problems)
                removed = remove_images(folder(project, target), target.source, lang, form, pages)
                gone = (
                    f"; removed, as an earlier export's: {', '.join(str(shown(old)) for old in removed)}"
                    if removed
                    else ""
                )
                report.result(
                    "left-out",
                    f"{target.ident} in '{lang}': not exported (its problems are below){gone}",
                    {
                        "why": "not exported",
                        "name": target.ident,
                        "lang": lang,
                        "removed": [str(old) for old in removed],
                    },
                )
                continue
            for written in ([pdf] if built else []) + images:
                report.wrote(written)
    return problems
