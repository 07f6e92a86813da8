"""The whole pipeline on one screen: load → validate → render → write."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator import i18n
from generator.errors import UserError
from generator.load import load_file
from generator.model import Sheet
from generator.project import Project
from generator.validate import validate


@dataclass(frozen=True)
class BuildOptions:
    paper: str | None = None  # overrides the sheet's paper size: "A4" or "letter"
    allow_fallback: bool = False  # print canonical text where a translation is missing or stale
    gloss: bool = False  # show each keyword's English original beside its first mention


def check(path: Path) -> Sheet:
    """Load and validate one source; raise UserError naming every problem."""
    return validate(load_file(path))


def check_translations(project: Project, path: Path) -> list[i18n.Status]:
    """Every catalogue of a sheet: a stale or missing translation is a problem naming file:line."""
    located = load_file(path)
    sheet = validate(located)
    problems = []
    for lang in i18n.languages(project.sources, sheet)[1:]:
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        try:
            i18n.translate(located, sheet, lang, catalogue, allow_fallback=False)
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)


def build(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()) -> Path:
    """Build one sheet in one language; the previous PDF stays until the new one is complete."""
    from generator import render, write  # render imports WeasyPrint: only when something is rendered

    located = load_file(path)
    sheet = validate(located)
    untranslated = 0
    if lang != sheet.lang:
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        sheet, untranslated = i18n.translate(located, sheet, lang, catalogue, options.allow_fallback)
    document = render.layout(project, sheet, options, untranslated)
    problems = [located.problem(loc, message) for loc, message in render.layout_findings(sheet, document)]
    if problems:
        raise UserError(problems)
    output = project.pdf_path(sheet.sheet, lang)
    write.atomically(output, render.pdf(sheet, document))
    return output
