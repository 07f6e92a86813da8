"""The whole pipeline on one screen: load → validate → render → write."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.errors import UserError
from generator.load import load_file
from generator.model import Sheet
from generator.project import Project
from generator.validate import validate


@dataclass(frozen=True)
class BuildOptions:
    paper: str | None = None  # overrides the sheet's paper size: "A4" or "letter"


def check(path: Path) -> Sheet:
    """Load and validate one source; raise UserError naming every problem."""
    return validate(load_file(path))


def build(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()) -> Path:
    """Build one sheet in one language; the previous PDF stays until the new one is complete."""
    from generator import render, write  # render imports WeasyPrint: only when something is rendered

    located = load_file(path)
    sheet = validate(located)
    document = render.layout(project, sheet, lang, options)
    problems = [located.problem(loc, message) for loc, message in render.layout_findings(sheet, document)]
    if problems:
        raise UserError(problems)
    output = project.pdf_path(sheet.sheet, lang)
    write.atomically(output, render.pdf(sheet, document))
    return output
