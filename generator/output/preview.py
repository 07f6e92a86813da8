"""`qrs preview`: a sheet's pages as PNG images, `build/preview/<sheet>.<lang>-<page>.png`, drawn by PDFium.

The built PDF is reused when the build manifest says it is up to date (`qrs build` decides so, from
the hashes of everything it is made from); otherwise the sheet is built first.
"""

from __future__ import annotations

import io
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from generator.output import parallel, write

from generator import pipeline
from generator.errors import UserError
from generator.project import Project, variant_of
from generator.report import Reporter

DEFAULT_SCALE = 2.0  # PDFium draws 72 pixels an inch at scale 1: 2 gives 144 dpi


def folder(project: Project) -> Path:
    return project.build / "preview"


@dataclass
class _Written(Reporter):
    """Keeps the paths a build wrote instead of printing them."""

    paths: list[Path] = field(default_factory=list)

    def wrote(self, path: Path, text: str | None = None, layout: dict | None = None, untranslated: int = 0) -> None:
        self.paths.append(Path(path))


def pdf(project: Project, source: Path, lang: str, options: pipeline.BuildOptions = pipeline.BuildOptions(),
        rebuild: bool = False) -> tuple[Path, bool]:
    """The sheet's PDF, built unless the manifest says the one in build/ is up to date; and whether it was built now."""
    settings = asdict(options)
    written = _Written(quiet=True)
    problems = parallel.build(project, [source], [], (lang,), settings, written, jobs=1, rebuild=rebuild)
    if problems:
        raise UserError(problems)
    return project.pdf_path(source.stem, lang, variant_of(settings)), bool(written.paths)


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
