"""The author's tools: `qrs new`, `qrs schema`, `qrs preview`, `qrs export`, `qrs watch`."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.options import EXIT_UNAVAILABLE, complete_handouts, complete_sheets_and_handouts, language_codes
from generator.errors import Interrupted, UserError
from generator.options import BuildOptions
from generator.output.targets import HandoutTarget, Target, named
from generator.project import Project
from generator.report import current as reporter
from generator.report import shown


@click.command("schema")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to write them in (default: schema/ beside the sources folder).",
)
@click.option("--check", "check_only", is_flag=True, help="Write nothing; a problem if a file is out of date.")
@click.pass_obj
def schema_command(project: Project, out: Path | None, check_only: bool) -> None:
    """Write the JSON Schemas of sheets and handouts, for editors' completion and checks as you type."""
    from generator.output import json_schema as schema

    folder = out or project.sources.parent / schema.FOLDER
    if check_only:
        schema.check(folder)
    for path in [] if check_only else schema.write(folder):
        reporter().wrote(path)
    reporter().result("schemas", f"{shown(folder)}: the schemas are up to date", {"folder": str(folder.resolve())})


@click.command("new")
@click.argument("sheet_id")
@click.option("--game", required=True, help="The game's name, printed at the top of the sheet.")
@click.option("--lang", required=True, callback=language_codes, help="The language the source is written in (fr, en…).")
@click.option("--title", default=None, help="The sheet's title (default: 'Feuille de référence' in French…).")
@click.pass_obj
def new(project: Project, sheet_id: str, game: str, lang: str, title: str | None) -> None:
    """Start a sheet: sources/SHEET_ID.yaml with one commented example of each block type."""
    from generator.cli import scaffold

    for path in scaffold.create(project, sheet_id, game, lang, title):
        reporter().wrote(path)
    if scaffold.template_words_missing(project, lang):
        reporter().say(
            f"note: to build it, the templates need their words in '{lang}': "
            f"run 'qrs i18n update {sheet_id} --lang {lang}' and translate sources/i18n/ui.{lang}.po"
        )


@click.command("preview")
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets_and_handouts)
@click.option(
    "--handout",
    "handouts",
    multiple=True,
    shell_complete=complete_handouts,
    help="A handout to draw (its id or file), as many times as needed (its id alone does as well).",
)
@click.option(
    "--lang",
    "languages",
    multiple=True,
    callback=language_codes,
    help="Language(s) to draw (default: the sheet's own).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of the images (default: build/preview/).",
)
@click.option(
    "--scale",
    type=click.FloatRange(0.1, 10),
    default=2.0,
    show_default=True,
    help="Pixels per PDF point (1 is 72 dpi).",
)
@click.option("--rebuild", is_flag=True, help="Build the PDF even when the one in build/ is up to date.")
@click.option(
    "--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks."
)
@click.pass_obj
def preview_command(
    project: Project,
    sheets: tuple[str, ...],
    handouts: tuple[str, ...],
    languages: tuple[str, ...],
    out: Path | None,
    scale: float,
    rebuild: bool,
    allow_fallback: bool,
) -> None:
    """Draw each page of a sheet (or handout) as a PNG image: build/preview/<sheet>.<lang>-<page>.png."""
    from generator.output import preview

    if not (sheets or handouts):
        raise click.UsageError("name a sheet or a handout (its id or file)")
    options = BuildOptions(allow_fallback=allow_fallback)
    problems = []
    for target in _named(project, sheets, handouts):
        try:
            own = languages or target.languages(project)
        except UserError as error:
            problems.extend(error.problems)
            continue
        for lang in own:
            try:
                pdf, built, images = preview.preview(project, target, lang, out, scale, options, rebuild)
            except UserError as error:
                problems.extend(error.problems)
                continue
            if built:
                reporter().wrote(pdf)
            for image in images:
                reporter().wrote(image)
    if problems:
        raise UserError(problems)


def _named(project: Project, names: tuple[str, ...], handouts: tuple[str, ...]) -> list[Target]:
    """The sheets and handouts named (ids or files), and the handouts given with --handout, each once."""
    found = named(project, names) if names else []
    found += [HandoutTarget(path) for path in project.handout_paths(handouts)] if handouts else []
    return list(dict.fromkeys(found))


@click.command("export")
@click.argument("names", nargs=-1, required=True)
@click.option(
    "--format",
    "form",
    type=click.Choice(["png", "svg"]),
    default="png",
    show_default=True,
    help="PNG (a picture, drawn at --dpi) or SVG (a vector drawing; needs pdftocairo).",
)
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True, help="PNG resolution.")
@click.option("--pages", default=None, metavar="1,2", help="Only these pages (default: every page).")
@click.option(
    "--lang", "languages", multiple=True, callback=language_codes, help="Language(s) (default: every one it has)."
)
@click.option("--rebuild", is_flag=True, help="Build the PDF even when the one in build/ is up to date.")
@click.option(
    "--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks."
)
@click.pass_obj
def export_command(
    project: Project,
    names: tuple[str, ...],
    form: str,
    dpi: int,
    pages: str | None,
    languages: tuple[str, ...],
    rebuild: bool,
    allow_fallback: bool,
) -> None:
    """Draw sheets' and handouts' pages as images: build/export/<sheet>.<lang>-<page>.png|svg."""
    from generator.output import export

    try:
        problems = export.export_named(
            project,
            names,
            languages,
            form,
            dpi,
            export.parse_pages(pages),
            rebuild,
            BuildOptions(allow_fallback=allow_fallback),
            reporter(),
        )
    except export.MissingTool as error:
        unavailable = click.ClickException(str(error))
        unavailable.exit_code = EXIT_UNAVAILABLE
        raise unavailable from None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--pages") from None
    if problems:
        raise UserError(problems)


@click.command("watch")
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets_and_handouts)
@click.option(
    "--lang",
    "languages",
    multiple=True,
    callback=language_codes,
    help="Language(s) to build (default: every one each sheet has; one in progress is left out and said).",
)
@click.option(
    "--handout",
    "handouts",
    multiple=True,
    shell_complete=complete_handouts,
    help="A handout to watch (its id or file), as many times as needed (its id alone does as well).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port of the live preview (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to serve on: 0.0.0.0 to see the preview from another device of the network.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the preview in the web browser.")
@click.option("--scale", type=click.FloatRange(0.1, 10), default=1.5, show_default=True, help="Pixels per PDF point.")
@click.option(
    "--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks."
)
@click.pass_obj
def watch_command(
    project: Project,
    sheets: tuple[str, ...],
    handouts: tuple[str, ...],
    languages: tuple[str, ...],
    port: int,
    host: str,
    open_browser: bool,
    scale: float,
    allow_fallback: bool,
) -> None:
    """Rebuild on every save of a source, catalogue or template, with a live preview in the browser."""
    from generator.cli import watch

    report = reporter()
    watcher = watch.Watcher(
        project,
        sheets,
        languages,
        BuildOptions(allow_fallback=allow_fallback),
        scale,
        on_wrote=report.wrote,
        on_problems=report.problems,
        handouts=handouts,
        on_note=report.say,
    )
    try:
        watcher.run(port=port, host=host, announce=report.say, open_browser=open_browser)
    except KeyboardInterrupt:
        raise Interrupted("interrupted: the watch stopped; the last good outputs are in place") from None
    except watch.CannotServe as error:
        raise click.BadParameter(
            f"{error}: give another port, or --port 0 for any free one", param_hint="--port"
        ) from None
