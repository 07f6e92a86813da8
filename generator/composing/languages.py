"""A sheet's and a handout's translations: a document in one of its languages, its catalogues checked, refreshed
after a source change (with the other sheets of its game as translation memory), and their status."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from generator.composing import catalogue_update, words
from generator.composing import translate as i18n
from generator.composing.handout import load_handout
from generator.errors import Problem, UserError
from generator.model.types import Handout, Sheet
from generator.model.validate import check, load
from generator.project import Project
from generator.reading import catalogues
from generator.reading.sources import Located
from generator.report import shown


def check_with_translations(
    project: Project, path: Path, languages: tuple[str, ...] = (), allow_fallback: bool = False
) -> None:
    """A source and its catalogues (every one, or those of `languages`), every problem at once: a stale or
    missing translation (unless `allow_fallback`) and the problems of the translated strings, at file:line."""
    located, sheet = load(path)
    problems = translation_problems(project, located, sheet, languages, allow_fallback)
    if problems:
        raise UserError(problems)


def in_progress(project: Project, located: Located, sheet: Sheet) -> dict[str, int]:
    """The sheet's languages in progress: those whose catalogue lacks translations never made, with how many. A
    build or check that names no language leaves them out, saying so; naming one asks for it whole. A stale
    translation (made for a text the source has since changed) is no work in progress but a problem, as before:
    its catalogue was complete, and printing the old translation would mislead."""
    found = {}
    for lang in i18n.translated_languages(project.sources, sheet):
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        try:
            status = i18n.status(catalogues.read(catalogue), i18n.entries(located, sheet, lang))
        except UserError:
            continue  # an unreadable catalogue is a problem the check and the build report, not work in progress
        if status.missing and not status.stale:
            found[lang] = len(status.missing)
    return found


def progress_note(project: Project, sheet_id: str, lang: str, count: int) -> str:
    """What a build or check says of a language in progress, and the command that builds it anyway."""
    catalogue = i18n.catalogue_path(project.sources, sheet_id, lang)
    return (
        f"{shown(catalogue)}: '{lang}' is in progress ({count} string(s) to translate), left out; "
        f"'qrs build {sheet_id} --lang {lang} --allow-fallback' prints it with the canonical text where missing"
    )


def translation_problems(
    project: Project,
    located: Located,
    sheet: Sheet,
    languages: tuple[str, ...] = (),
    allow_fallback: bool = False,
    in_progress: tuple[str, ...] = (),
) -> list[Problem]:
    """The problems of a loaded sheet's catalogues (every one, or those of `languages`) and of the templates' words
    in those languages; in the languages `in_progress`, a missing translation is not one (those made are checked)."""
    problems = []
    for lang in languages or i18n.languages(project.sources, sheet):
        problems.extend(words.catalogue_problems(project, lang))  # the templates' words the build fills in
        if lang == sheet.lang:
            continue
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        try:
            i18n.translate(located, sheet, lang, catalogue, allow_fallback or lang in in_progress)
        except UserError as error:
            problems.extend(error.problems)
    return problems


def translation_status(project: Project, path: Path) -> list[tuple[str, str, i18n.Status]]:
    """(sheet, language, status) for every catalogue of a sheet."""
    located, sheet = load(path)
    return [
        (
            sheet.sheet,
            lang,
            i18n.status(
                catalogues.read(i18n.catalogue_path(project.sources, sheet.sheet, lang)),
                i18n.entries(located, sheet, lang),
            ),
        )
        for lang in i18n.translated_languages(project.sources, sheet)
    ]


def handout_translation_status(project: Project, path: Path) -> list[tuple[str, str, i18n.Status]]:
    """(handout, language, status) for every language a handout is printed in besides its own."""
    located, handout, _, _ = load_handout(project, path)
    return [
        (
            handout.handout,
            lang,
            i18n.status(
                _read_if_any(i18n.catalogue_path(project.handouts, handout.handout, lang)),
                i18n.entries(located, handout, lang),
            ),
        )
        for lang in handout.outputs
        if lang != handout.lang
    ]


def _read_if_any(catalogue_file: Path):
    """A catalogue, or an empty one where none was made yet (every string is then missing)."""
    from babel.messages.catalog import Catalog

    return catalogues.read(catalogue_file) if catalogue_file.is_file() else Catalog()


def update_translations(
    project: Project, path: Path, languages: tuple[str, ...] = ()
) -> list[tuple[Path, i18n.Status]]:
    """Create or refresh a sheet's catalogues (the given languages, or those it has)."""
    located, sheet = load(path)
    # the other sheets of its game, read once, and only if some catalogue is refreshed
    siblings = cache(
        lambda: [
            other.stem for other in project.sheet_paths() if other.stem != sheet.sheet and _game_of(other) == sheet.game
        ]
    )
    results = []
    for lang in languages or i18n.translated_languages(project.sources, sheet):
        if lang != sheet.lang:  # the sheet's own language needs no catalogue of the sheet, only the templates' words
            catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
            results.append(
                (
                    catalogue,
                    catalogue_update.update(located, sheet, lang, catalogue, _memory(project, siblings(), lang)),
                )
            )
        template_words = words.update_catalogue(project, lang)  # a language the templates do not carry
        if template_words:
            results.append(template_words)
    return results


def _memory(project: Project, siblings: list[str], lang: str) -> list:
    """The catalogues whose translations a sheet's new strings are offered: those of the other sheets of its game
    (`siblings`, by id), in this language."""
    paths = [i18n.catalogue_path(project.sources, sheet_id, lang) for sheet_id in siblings]
    return [catalogues.read(path) for path in paths if path.is_file()]


def _game_of(path: Path) -> str | None:
    try:
        return check(path).game
    except UserError:  # another sheet's problems are its own: it only offers no translations
        return None


def translated(project: Project, path: Path, lang: str | None, allow_fallback: bool = False) -> Sheet:
    """A sheet in one of its languages (its own by default)."""
    located, sheet = load(path)
    if lang and lang != sheet.lang:
        sheet, _ = i18n.translate(
            located, sheet, lang, i18n.catalogue_path(project.sources, sheet.sheet, lang), allow_fallback
        )
    return sheet


def translated_pair(
    project: Project,
    located: Located,
    handout: Handout,
    sheet_located: Located | None,
    sheet: Sheet | None,
    lang: str,
    allow_fallback: bool,
) -> tuple[Handout, Sheet, int]:
    """The handout and its sheet (if it has one) in one language, and how many strings fell back to the canonical
    text. A handout whose words are a roster's (as_written) prints them as written: it has no catalogue."""
    untranslated = 0
    if sheet is not None and lang != sheet.lang:
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        sheet, missing = i18n.translate(sheet_located, sheet, lang, catalogue, allow_fallback)
        untranslated += missing
    if lang != handout.lang and not handout.as_written:
        catalogue = i18n.catalogue_path(project.handouts, handout.handout, lang)
        handout, missing = i18n.translate(located, handout, lang, catalogue, allow_fallback)
        untranslated += missing
    return handout, sheet, untranslated


def update_handout_translations(
    project: Project, path: Path, languages: tuple[str, ...] = ()
) -> list[tuple[Path, i18n.Status]]:
    """Create or refresh a handout's catalogues (the given languages, or those it is printed in)."""
    located, handout, _, _ = load_handout(project, path)
    results = []
    if handout.as_written:
        return []  # a roster's words print as written: nothing to translate
    for lang in languages or [lang for lang in handout.outputs if lang != handout.lang]:
        catalogue = i18n.catalogue_path(project.handouts, handout.handout, lang)
        sheet_catalogue = i18n.catalogue_path(project.sources, handout.sheet, lang) if handout.sheet else None
        memory = [catalogues.read(sheet_catalogue)] if sheet_catalogue and sheet_catalogue.is_file() else []
        results.append((catalogue, catalogue_update.update(located, handout, lang, catalogue, memory)))
    return results
