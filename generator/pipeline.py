"""The whole pipeline on one screen: load → validate → render → write."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator import i18n
from generator.errors import UserError
from generator.load import Located, load_file
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


def load(path: Path) -> tuple[Located, Sheet]:
    """A validated sheet, with the located data that maps it back to its file."""
    located = load_file(path)
    return located, validate(located)


def check_with_translations(project: Project, path: Path) -> None:
    """A source and every catalogue of it: a stale or missing translation is a problem naming file:line."""
    located, sheet = load(path)
    problems = []
    for lang in i18n.translated_languages(project.sources, sheet):
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        try:
            i18n.translate(located, sheet, lang, catalogue, allow_fallback=False)
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)


def translation_status(project: Project, path: Path) -> list[tuple[str, str, i18n.Status]]:
    """(sheet, language, status) for every catalogue of a sheet."""
    located, sheet = load(path)
    wanted = i18n.entries(located, sheet)
    return [
        (sheet.sheet, lang, i18n.status(i18n.read(i18n.catalogue_path(project.sources, sheet.sheet, lang)), wanted))
        for lang in i18n.translated_languages(project.sources, sheet)
    ]


def update_translations(project: Project, path: Path, languages: tuple[str, ...] = ()) -> list[tuple[Path, i18n.Status]]:
    """Create or refresh a sheet's catalogues (the given languages, or those it has)."""
    located, sheet = load(path)
    results = []
    for lang in languages or i18n.translated_languages(project.sources, sheet):
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        results.append((catalogue, i18n.update(located, sheet, lang, catalogue)))
    return results


def build(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()) -> Path:
    """Build one sheet in one language; the previous PDF stays until the new one is complete."""
    from generator import render, write  # render imports WeasyPrint: only when something is rendered

    located, sheet = load(path)
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
