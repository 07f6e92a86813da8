"""The `qrs` command: parses arguments and reports; the work is done in generator.pipeline."""

from __future__ import annotations

import re
import sys
import traceback
from pathlib import Path

import click

from generator import lazy

from generator.output import parallel
from generator.errors import UserError
from generator.project import Project
from generator.report import META_KEY, Reporter, shown
from generator.report import current as reporter

# Imported when first used: a build with nothing to do needs neither the pipeline nor the model (nor WeasyPrint).
i18n, pipeline = lazy.module("generator.source.i18n"), lazy.module("generator.pipeline")

EXIT_USER_ERROR = 2
EXIT_INTERNAL_ERROR = 1


def _language_codes(context: click.Context, parameter: click.Parameter, value):
    """--lang takes language codes the renderer knows (fr, en, en-GB): never a path, never 'zz'."""
    if not value:
        return value
    from generator.schema.model import known_language  # the model imports pydantic: only when a language is given

    for code in (value,) if isinstance(value, str) else value:
        if not re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", code) or not known_language(code):
            raise click.BadParameter(f"'{code}' is not a known language code (fr, en, de, en-GB…)")
    return value


def _shard(context: click.Context, parameter: click.Parameter, value):
    try:
        return parallel.parse_shard(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _speed_options(command):
    """--jobs, --shard, --rebuild: options of the commands that build many outputs (generator.output.parallel)."""
    command = click.option("--rebuild", is_flag=True,
                           help="Build every output, even those build/.qrs-manifest.json says are up to date.")(command)
    command = click.option("--shard", metavar="K/N", default=None, callback=_shard,
                           help="Build only the K-th of N parts of the outputs (a deterministic split, for CI runners).")(command)
    return click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                        help="Worker processes (default: one per core; 1 builds in this process).")(command)


def _print_options(command):
    """--paper, --allow-fallback, --marks, --ink-saver: how sheets and handouts alike are printed."""
    for option in reversed([
        click.option("--paper", type=click.Choice(["A4", "letter"], case_sensitive=False), default=None,
                     help="Override the paper size the sources declare."),
        click.option("--allow-fallback", is_flag=True,
                     help="Print the canonical text where a translation is missing or stale (the footer says so)."),
        click.option("--marks", "crop_marks", is_flag=True, help="Crop marks and 3 mm of bleed, for a print shop."),
        click.option("--ink-saver", is_flag=True, help="No solid fills, light rules."),
    ]):
        command = option(command)
    return command


def _print_settings(paper: str | None, allow_fallback: bool, crop_marks: bool, ink_saver: bool) -> dict:
    """pipeline.BuildOptions' printing fields (every field a command sets is part of each output's manifest key)."""
    return dict(paper={"a4": "A4", "letter": "letter"}[paper.lower()] if paper else None,
                allow_fallback=allow_fallback, crop_marks=crop_marks, ink_saver=ink_saver)


@click.group()
@click.option("--sources", type=click.Path(file_okay=False, path_type=Path), default=Path("sources"),
              show_default=True, help="Folder of sheet sources.")
@click.option("--build-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/ beside the sources).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@click.option("--verbose", "-v", is_flag=True, help="Also print how full each column of each page is.")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object a line for each output written and each problem ({"event": "wrote"|"problem", …}).')
@click.pass_context
def cli(context: click.Context, sources: Path, build_dir: Path | None, quiet: bool = False, as_json: bool = False,
        verbose: bool = False) -> None:
    """qrs: printable quick-reference sheets for tabletop wargames."""
    chosen = context.obj if isinstance(context.obj, Reporter) else Reporter()  # main() passes its own
    chosen.quiet, chosen.json, chosen.verbose = quiet, as_json, verbose
    context.meta[META_KEY] = chosen
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
@click.option("--lang", "languages", multiple=True, callback=_language_codes,
              help="Check only these languages' catalogues (default: every catalogue).")
@click.option("--allow-fallback", is_flag=True,
              help="Missing and stale translations are not problems (the translated strings are still checked).")
@click.pass_obj
def check(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], allow_fallback: bool) -> None:
    """Validate sheets and handouts (all, or those named) and their translations, without rendering them."""
    problems = []
    sheet_paths, handout_paths = project.sources_named(sheets)
    checks = [(pipeline.check_with_translations, path) for path in sheet_paths]
    checks += [(pipeline.check_handout, path) for path in handout_paths]
    for run, path in checks:
        try:
            run(project, path, languages, allow_fallback)
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)
    reporter().say(f"{len(sheet_paths)} sheet(s) and {len(handout_paths)} handout(s) checked, no problem found")


@cli.command()
@click.argument("sheets", nargs=-1)
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to build (default: every language the sheet has a catalogue for, and its own).")
@_print_options
@click.option("--gloss", type=click.Choice(["en"]), default=None,
              help="Show each game term's English original beside its first mention.")
@click.option("--changes-since", metavar="EDITION", default=None,
              help="Mark with a bar in the margin what changed since this edition (read from git).")
@click.option("--errata-only", is_flag=True,
              help="Print only what changed since --changes-since (default: the previous edition).")
@click.option("--all", "everything", is_flag=True, help="Every sheet and every handout (what `make` builds).")
@_speed_options
@click.pass_obj
def build(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], paper: str | None,
          allow_fallback: bool, crop_marks: bool, ink_saver: bool, gloss: str | None, changes_since: str | None,
          errata_only: bool, everything: bool = False, jobs: int | None = None, shard: tuple[int, int] | None = None,
          rebuild: bool = False) -> None:
    """Render sheets to PDF in build/, in every language they have (or those given).

    SHEET@REVISION builds a sheet as it was at a git revision or tag: build/SHEET@REVISION.LANG.pdf.
    Only the outputs whose inputs changed since they were built are built (build/.qrs-manifest.json)."""
    if everything and sheets:
        raise click.UsageError("--all builds every sheet and handout: name no SHEET with it")
    settings = dict(_print_settings(paper, allow_fallback, crop_marks, ink_saver), gloss=gloss is not None,
                    changes_since=changes_since, errata_only=errata_only)
    problems = []
    for name, revision in (sheet.partition("@")[::2] for sheet in sheets if "@" in sheet):
        options = pipeline.BuildOptions(**settings)
        for lang in languages or [None]:
            try:
                for output in pipeline.build_at_revision(project, name, revision, lang, options):
                    reporter().wrote(output)
            except UserError as error:
                problems.extend(error.problems)
    current = tuple(sheet for sheet in sheets if "@" not in sheet)
    problems += parallel.build(project, project.sheet_paths(current) if current or not sheets else [],
                               project.handout_paths() if everything else [], languages, settings, reporter(),
                               jobs, shard, rebuild, incremental=not (changes_since or errata_only))
    if problems:
        raise UserError(problems)


@cli.command()
@click.argument("handouts", nargs=-1)
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to build (default: those the handout lists).")
@_print_options
@_speed_options
@click.pass_obj
def handout(project: Project, handouts: tuple[str, ...], languages: tuple[str, ...], paper: str | None,
            allow_fallback: bool, crop_marks: bool, ink_saver: bool, jobs: int | None = None,
            shard: tuple[int, int] | None = None, rebuild: bool = False) -> None:
    """Render per-army handouts (sources/handouts/*.yaml, or the files given) to build/handouts/."""
    settings = _print_settings(paper, allow_fallback, crop_marks, ink_saver)
    problems = parallel.build(project, [], project.handout_paths(handouts), languages, settings, reporter(),
                              jobs, shard, rebuild)
    if problems:
        raise UserError(problems)


@cli.command("diff")
@click.argument("sources", nargs=-1, required=True)
@click.option("--from", "from_revision", metavar="REV", default=None, help="With one sheet: the earlier git revision.")
@click.option("--to", "to_revision", metavar="REV", default=None,
              help="With one sheet: the later git revision (default: the file as it is now).")
@click.pass_obj
def diff_command(project: Project, sources: tuple[str, ...], from_revision: str | None, to_revision: str | None) -> None:
    """What changed between two editions, in the sheet's words: `qrs diff OLD.yaml NEW.yaml`,
    or `qrs diff SHEET --from REV [--to REV]`."""
    if len(sources) == 2 and not (from_revision or to_revision):
        changes = pipeline.compare(Path(sources[0]), Path(sources[1]))
    elif len(sources) == 1 and from_revision:
        path = project.sheet_paths(sources)[0]
        newer = pipeline.sheet_at_revision(path, to_revision) if to_revision else path
        changes = pipeline.compare(pipeline.sheet_at_revision(path, from_revision), newer)
    else:
        raise click.UsageError("give two source files, or one sheet with --from REV [--to REV]")
    for change in changes:
        click.echo(str(change))  # the diff is this command's output: printed even with --quiet
    reporter().say(f"{len(changes)} change(s)")


@cli.command("changelog")
@click.argument("sheet")
@click.option("--lang", default=None, callback=_language_codes, help="The language to print it in (default: the sheet's).")
@click.option("--format", "form", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.pass_obj
def changelog_command(project: Project, sheet: str, lang: str | None, form: str) -> None:
    """Every correction of every edition, by kind (the printed box lists only those that change play)."""
    from generator.cli import changelog
    from generator.renderer import words

    source = pipeline.translated(project, project.sheet_paths((sheet,))[0], lang)
    titles = {kind: words.ui_words(project, source.lang, False)[f"kind_{kind}"] for kind in changelog.KINDS}
    click.echo(changelog.render(source, form, titles), nl=False)  # the command's output: printed even with --quiet


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
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Create or refresh these languages (default: existing ones).")
@click.pass_obj
def i18n_update(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...]) -> None:
    """Refresh catalogues after a source change: new strings added, changed ones marked fuzzy."""
    sheet_paths, handout_paths = project.sources_named(sheets)
    updates = [(pipeline.update_translations, path) for path in sheet_paths]
    updates += [(pipeline.update_handout_translations, path) for path in handout_paths]
    for update, path in updates:
        for catalogue, found in update(project, path, languages):
            reporter().wrote(catalogue, f"{catalogue}: {len(found.translated)} translated, {len(found.stale)} stale, {len(found.missing)} missing")


@cli.command("schema")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write them in (default: schema/ beside the sources folder).")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; a problem if a file is out of date.")
@click.pass_obj
def schema_command(project: Project, out: Path | None, check_only: bool) -> None:
    """Write the JSON Schemas of sheets and handouts, for editors' completion and checks as you type."""
    from generator.schema import json_schema as schema

    folder = out or project.sources.parent / schema.FOLDER
    if check_only:
        schema.check(folder)
    for path in [] if check_only else schema.write(folder):
        reporter().wrote(path)
    reporter().say(f"{shown(folder)}: the schemas are up to date")


@cli.command("new")
@click.argument("sheet_id")
@click.option("--game", required=True, help="The game's name, printed at the top of the sheet.")
@click.option("--lang", required=True, callback=_language_codes, help="The language the source is written in (fr, en…).")
@click.option("--title", default=None, help="The sheet's title (default: 'Feuille de référence' in French…).")
@click.pass_obj
def new(project: Project, sheet_id: str, game: str, lang: str, title: str | None) -> None:
    """Start a sheet: sources/SHEET_ID.yaml with one commented example of each block type."""
    from generator.cli import scaffold

    target = scaffold.create(project, sheet_id, game, lang, title)
    reporter().wrote(target)
    if scaffold.template_words_missing(project, lang):
        reporter().say(f"note: to build it, the templates need their words in '{lang}': "
                       f"run 'qrs i18n update {sheet_id} --lang {lang}' and translate sources/i18n/ui.{lang}.po")


@cli.command("preview")
@click.argument("sheets", nargs=-1, required=True)
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to draw (default: the sheet's own).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of the images (default: build/preview/).")
@click.option("--scale", type=click.FloatRange(0.1, 10), default=2.0, show_default=True,
              help="Pixels per PDF point (1 is 72 dpi).")
@click.option("--rebuild", is_flag=True, help="Build the PDF even when the one in build/ is up to date.")
@click.option("--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks.")
@click.pass_obj
def preview_command(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], out: Path | None,
                    scale: float, rebuild: bool, allow_fallback: bool) -> None:
    """Draw each page of a sheet as a PNG image: build/preview/<sheet>.<lang>-<page>.png."""
    from generator.output import preview

    options = pipeline.BuildOptions(allow_fallback=allow_fallback)
    problems = []
    for path in project.sheet_paths(sheets):
        for lang in languages or (pipeline.check(path).lang,):
            try:
                pdf, built, images = preview.preview(project, path, lang, out, scale, options, rebuild)
            except UserError as error:
                problems.extend(error.problems)
                continue
            if built:
                reporter().wrote(pdf)
            for image in images:
                reporter().wrote(image)
    if problems:
        raise UserError(problems)


@cli.command("watch")
@click.argument("sheets", nargs=-1)
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to build (default: each sheet's own).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port of the live preview on localhost (0: any free port).")
@click.option("--scale", type=click.FloatRange(0.1, 10), default=1.5, show_default=True, help="Pixels per PDF point.")
@click.option("--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks.")
@click.pass_obj
def watch_command(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], port: int, scale: float,
                  allow_fallback: bool) -> None:
    """Rebuild on every save of a source, catalogue or template, with a live preview in the browser."""
    from generator.cli import watch

    report = reporter()
    watcher = watch.Watcher(project, sheets, languages, pipeline.BuildOptions(allow_fallback=allow_fallback), scale,
                            on_wrote=report.wrote, on_problems=report.problems)
    try:
        watcher.run(port=port, announce=report.say)
    except watch.CannotServe as error:
        raise click.BadParameter(str(error), param_hint="--port") from None


def main(argv: list[str] | None = None) -> None:
    report = Reporter()  # set from --quiet/--json by the group, used here for the problems
    try:
        cli.main(args=argv, prog_name="qrs", standalone_mode=False, obj=report)
    except UserError as error:
        report.problems(error.problems)
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
