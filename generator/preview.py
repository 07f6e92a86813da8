"""`qrs preview`: a sheet's pages as PNG images, `build/preview/<sheet>.<lang>-<page>.png`, drawn by PDFium.

The built PDF is reused when it is newer than everything it is made from (the source, its catalogue,
the templates); otherwise the sheet is built first, by `pipeline.build`.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from generator import i18n, pipeline, write
from generator.project import Project

DEFAULT_SCALE = 2.0  # PDFium draws 72 pixels an inch at scale 1: 2 gives 144 dpi


def folder(project: Project) -> Path:
    return project.build / "preview"


def inputs(project: Project, source: Path, lang: str) -> list[Path]:
    """The files a sheet's PDF in one language is made from."""
    found = [source, i18n.catalogue_path(project.sources, source.stem, lang)]
    found += [path for path in project.templates.rglob("*") if path.is_file() and "__pycache__" not in path.parts]
    return [path for path in found if path.exists()]


def is_fresh(project: Project, source: Path, lang: str) -> bool:
    """True when the built PDF is newer than every file it is made from."""
    pdf = project.pdf_path(source.stem, lang)
    if not pdf.exists():
        return False
    built = pdf.stat().st_mtime
    return all(path.stat().st_mtime <= built for path in inputs(project, source, lang))


def pdf(project: Project, source: Path, lang: str, options: pipeline.BuildOptions = pipeline.BuildOptions(),
        rebuild: bool = False) -> tuple[Path, bool]:
    """The sheet's PDF, built unless a fresh one is there; and whether it was built now."""
    if not rebuild and is_fresh(project, source, lang):
        return project.pdf_path(source.stem, lang), False
    return pipeline.build(project, source, lang, options), True


def pages(pdf_file: Path, out: Path, stem: str, scale: float = DEFAULT_SCALE) -> list[Path]:
    """Write one PNG a page, `<out>/<stem>-<n>.png` (n from 1), and remove pages the PDF no longer has."""
    import pypdfium2

    written = []
    document = pypdfium2.PdfDocument(pdf_file)
    try:
        for number, page in enumerate(document, start=1):
            image = page.render(scale=scale).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG")
            target = out / f"{stem}-{number}.png"
            write.atomically(target, buffer.getvalue())
            written.append(target)
            page.close()
    finally:
        document.close()
    pattern = re.compile(rf"^{re.escape(stem)}-(\d+)\.png$")
    for old in out.glob(f"{stem}-*.png"):
        match = pattern.match(old.name)
        if match and int(match.group(1)) > len(written):
            old.unlink(missing_ok=True)
    return written


def preview(project: Project, source: Path, lang: str, out: Path | None = None, scale: float = DEFAULT_SCALE,
            options: pipeline.BuildOptions = pipeline.BuildOptions(), rebuild: bool = False) -> tuple[Path, bool, list[Path]]:
    """Build (or reuse) one sheet's PDF in one language and draw its pages: (pdf, built now, PNG files)."""
    pdf_file, built = pdf(project, source, lang, options, rebuild)
    return pdf_file, built, pages(pdf_file, out or folder(project), f"{source.stem}.{lang}", scale)
