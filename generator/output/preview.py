"""`qrs preview`: a sheet's pages as PNG images, `build/preview/<sheet>.<lang>-<page>.png`, drawn by PDFium.

The built PDF is reused when the build manifest says it is up to date (`qrs build` decides so, from
the hashes of everything it is made from); otherwise the sheet is built first.
"""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

from generator import files, write
from generator.errors import UserError
from generator.options import BuildOptions
from generator.output import formats, parallel
from generator.output.targets import Target
from generator.project import Project
from generator.report import Reporter

DEFAULT_SCALE = 2.0  # PDFium draws 72 pixels an inch at scale 1: 2 gives 144 dpi


def folder(project: Project) -> Path:
    return project.build / "preview"


def pdf(
    project: Project, target: Target, lang: str, options: BuildOptions = BuildOptions(), rebuild: bool = False
) -> tuple[Path, bool]:
    """The target's PDF, built unless the manifest says the one in build/ is up to date; and whether it was built
    now."""
    built = parallel.build(project, [target], (lang,), options, Reporter(quiet=True), jobs=1, rebuild=rebuild)
    if built.problems:
        raise UserError(built.problems)
    if built.written:
        return built.written[0].path, True
    writer = formats.writer("pdf")
    return writer.path(project, target, lang, writer.variant(options)), False


POINTS_PER_INCH = 72  # PDFium's scale 1


def page_count(pdf_file: Path) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf_file)
    try:
        return len(document)
    finally:
        document.close()


def png_pages(pdf_file: Path, targets: dict[int, Path], scale: float) -> list[Path]:
    """Each page numbered in `targets` (from 1) drawn as a PNG at `targets[number]`, `scale` pixels a point.
    A page whose pixels are those this process last wrote to its target, still there, is not encoded again:
    under `qrs watch`, an edit rewrites only the images of the pages it changed."""
    import pypdfium2

    written = []
    document = pypdfium2.PdfDocument(pdf_file)
    try:
        for number, target in targets.items():
            page = document[number - 1]
            bitmap = page.render(scale=scale)
            pixels = hashlib.sha256(f"{bitmap.width}x{bitmap.height}x{bitmap.format}".encode())
            pixels.update(bitmap.buffer)
            if not _drawn_already(target, pixels.hexdigest()):
                buffer = io.BytesIO()
                # zlib's fastest level: for these pages (flat colour, antialiased text) also the smallest files
                bitmap.to_pil().save(buffer, format="PNG", compress_level=1)
                write.atomically(target, buffer.getvalue())
                _drawn[target] = (pixels.hexdigest(), target.stat().st_mtime_ns)
            written.append(target)
            page.close()
    finally:
        document.close()
    return written


_drawn: dict[Path, tuple[str, int]] = {}  # a PNG this process wrote: its pixels' digest, and the file's mtime


def _drawn_already(target: Path, pixels: str) -> bool:
    try:
        return _drawn.get(target) == (pixels, target.stat().st_mtime_ns)
    except OSError:  # removed since
        return False


def pages(pdf_file: Path, out: Path, stem: str, scale: float = DEFAULT_SCALE) -> list[Path]:
    """Write one PNG a page, `<out>/<stem>-<n>.png` (n from 1), and remove pages the PDF no longer has."""
    files.refuse_folder_link(out, "writes")  # nor removes: the stale images below are deleted from `out`
    count = page_count(pdf_file)
    written = png_pages(pdf_file, {number: out / f"{stem}-{number}.png" for number in range(1, count + 1)}, scale)
    pattern = re.compile(rf"^{re.escape(stem)}-(\d+)\.png$")
    for old in out.glob(f"{stem}-*.png"):
        match = pattern.match(old.name)
        if match and int(match.group(1)) > len(written):
            old.unlink(missing_ok=True)
    return written


def preview(
    project: Project,
    target: Target,
    lang: str,
    out: Path | None = None,
    scale: float = DEFAULT_SCALE,
    options: BuildOptions = BuildOptions(),
    rebuild: bool = False,
) -> tuple[Path, bool, list[Path]]:
    """Build (or reuse) one sheet's (or handout's) PDF in one language and draw its pages: (pdf, built now, PNGs)."""
    pdf_file, built = pdf(project, target, lang, options, rebuild)
    return pdf_file, built, pages(pdf_file, out or folder(project), f"{target.ident}.{lang}", scale)
