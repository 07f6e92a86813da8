"""`qrs i18n`: the translation catalogues' status, and their update after a source change."""

from __future__ import annotations

import click

from generator.cli.options import complete_sheets, complete_sheets_and_handouts, language_codes, pipeline, translations
from generator.project import Project
from generator.report import current as reporter
from generator.report import shown


@click.group("i18n")
def i18n_group() -> None:
    """Translation catalogues: sources/i18n/<sheet>.<lang>.po."""


@i18n_group.command("status")
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets)
@click.pass_obj
def i18n_status(project: Project, sheets: tuple[str, ...]) -> None:
    """How many strings are translated, stale and missing, per sheet, handout and language, and of the templates'
    words (ui) in each of those languages."""
    from generator.composing import words

    if not reporter().json:
        click.echo(f"{'sheet':<32} {'lang':<5} {'translated':>10} {'stale':>6} {'missing':>8}")
    sheet_paths, handout_paths = project.sources_named(sheets)
    rows = [row for path in sheet_paths for row in translations.translation_status(project, path)]
    rows += [row for path in handout_paths for row in translations.handout_translation_status(project, path)]
    languages = sorted({lang for _, lang, _ in rows} | {pipeline.check(path).lang for path in sheet_paths})
    rows += [("ui", lang, found) for lang in languages if (found := words.status(project, lang)) is not None]
    for name, lang, found in rows:
        counts = {"translated": len(found.translated), "stale": len(found.stale), "missing": len(found.missing)}
        line = f"{name:<32} {lang:<5} {counts['translated']:>10} {counts['stale']:>6} {counts['missing']:>8}"
        reporter().record("translation", line, {"sheet": name, "lang": lang, **counts})


@i18n_group.command("update")
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets_and_handouts)
@click.option(
    "--lang",
    "languages",
    multiple=True,
    callback=language_codes,
    help="Create or refresh these languages (default: existing ones).",
)
@click.pass_obj
def i18n_update(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...]) -> None:
    """Refresh catalogues after a source change: new strings added, changed ones marked fuzzy."""
    sheet_paths, handout_paths = project.sources_named(sheets)
    updates = [(translations.update_translations, path) for path in sheet_paths]
    updates += [(translations.update_handout_translations, path) for path in handout_paths]
    for update, path in updates:
        for catalogue, found in update(project, path, languages):
            reporter().wrote(
                catalogue,
                f"{shown(catalogue)}: {len(found.translated)} translated, {len(found.stale)} stale, "
                f"{len(found.missing)} missing",
            )
