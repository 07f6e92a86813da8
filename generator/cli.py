"""The `qrs` command: parses arguments and reports; the work is done in generator.pipeline."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

import click

from generator import i18n, pipeline
from generator.errors import UserError
from generator.project import Project

EXIT_USER_ERROR = 2
EXIT_INTERNAL_ERROR = 1


@click.group()
@click.option("--sources", type=click.Path(file_okay=False, path_type=Path), default=Path("sources"),
              show_default=True, help="Folder of sheet sources.")
@click.option("--build-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/ beside the sources).")
@click.pass_context
def cli(context: click.Context, sources: Path, build_dir: Path | None) -> None:
    """qrs: printable quick-reference sheets for tabletop wargames."""
    context.obj = Project.at(sources, build_dir)


@cli.command("list")
@click.pass_obj
def list_sheets(project: Project) -> None:
    """List the sheets: id, game, title, edition."""
    for path in project.sheet_paths():
        sheet = pipeline.check(path)
        click.echo(f"{sheet.sheet}\t{sheet.game}\t{sheet.title}\t{sheet.edition}\t{sheet.lang}")


@cli.command()
@click.argument("sheets", nargs=-1)
@click.pass_obj
def check(project: Project, sheets: tuple[str, ...]) -> None:
    """Validate sheets without rendering them."""
    problems = []
    paths = project.sheet_paths(sheets)
    for path in paths:
        try:
            pipeline.check_with_translations(project, path)
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)
    click.echo(f"{len(paths)} sheet(s) checked, no problem found")


@cli.command()
@click.argument("sheets", nargs=-1)
@click.option("--lang", "languages", multiple=True, help="Language(s) to build (default: the sheet's own).")
@click.option("--paper", type=click.Choice(["A4", "letter"], case_sensitive=False), default=None,
              help="Override the sheets' paper size.")
@click.option("--allow-fallback", is_flag=True,
              help="Print the canonical text where a translation is missing or stale (the sheet says so).")
@click.option("--gloss", type=click.Choice(["en"]), default=None,
              help="Show each game term's English original beside its first mention.")
@click.pass_obj
def build(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], paper: str | None,
          allow_fallback: bool, gloss: str | None) -> None:
    """Render sheets to PDF in build/, in every language they have (or those given)."""
    options = pipeline.BuildOptions(paper={"a4": "A4", "letter": "letter"}[paper.lower()] if paper else None,
                                    allow_fallback=allow_fallback, gloss=gloss is not None)
    problems = []
    for path in project.sheet_paths(sheets):
        for lang in languages or i18n.languages(project.sources, pipeline.check(path)):
            try:
                output = pipeline.build(project, path, lang, options)
            except UserError as error:
                problems.extend(error.problems)
                continue
            click.echo(f"wrote {output.relative_to(Path.cwd()) if output.is_relative_to(Path.cwd()) else output}")
    if problems:
        raise UserError(problems)


@cli.group("i18n")
def i18n_group() -> None:
    """Translation catalogues: sources/i18n/<sheet>.<lang>.po."""


@i18n_group.command("status")
@click.argument("sheets", nargs=-1)
@click.pass_obj
def i18n_status(project: Project, sheets: tuple[str, ...]) -> None:
    """How many strings are translated, stale and missing, per sheet and language."""
    click.echo(f"{'sheet':<20} {'lang':<5} {'translated':>10} {'stale':>6} {'missing':>8}")
    for path in project.sheet_paths(sheets):
        for sheet_id, lang, found in pipeline.translation_status(project, path):
            click.echo(f"{sheet_id:<20} {lang:<5} {len(found.translated):>10} {len(found.stale):>6} {len(found.missing):>8}")


@i18n_group.command("update")
@click.argument("sheets", nargs=-1)
@click.option("--lang", "languages", multiple=True, help="Create or refresh these languages (default: existing ones).")
@click.pass_obj
def i18n_update(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...]) -> None:
    """Refresh catalogues after a source change: new strings added, changed ones marked fuzzy."""
    for path in project.sheet_paths(sheets):
        for catalogue, found in pipeline.update_translations(project, path, languages):
            click.echo(f"{catalogue}: {len(found.translated)} translated, {len(found.stale)} stale, {len(found.missing)} missing")


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="qrs", standalone_mode=False)
    except UserError as error:
        for problem in error.problems:
            click.echo(str(problem), err=True)
        click.echo(f"{len(error.problems)} problem(s) found", err=True)
        sys.exit(EXIT_USER_ERROR)
    except click.exceptions.Abort:
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except Exception as error:  # noqa: BLE001 - a bug: short report, distinct exit code
        frame = traceback.extract_tb(error.__traceback__)[-1]
        click.echo(f"internal error: {type(error).__name__}: {error} (at {Path(frame.filename).name}:{frame.lineno})", err=True)
        click.echo("This is a bug in qrs, not in your sources; please report it with the command you ran.", err=True)
        sys.exit(EXIT_INTERNAL_ERROR)
