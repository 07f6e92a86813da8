"""The `qrs` command: parses arguments and reports; the work is done in generator.output.pipeline."""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

import click

from generator.cli.options import (
    EXIT_ENVIRONMENT,
    EXIT_INTERNAL_ERROR,
    EXIT_INTERRUPTED,
    EXIT_NO_INPUT,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    EXIT_USER_ERROR,
    build_options,
    chosen_formats,
    complete_sheets_and_handouts,
    format_option,
    i18n,
    language_codes,
    own_options,
    pipeline,
    print_options,
    refuse_what_formats_cannot,
    speed_options,
)
from generator.errors import (
    Interrupted,
    MissingInput,
    UnknownName,
    UserError,
    WorkerDied,
    environment_missing,
    printable,
)
from generator.output import parallel
from generator.output.targets import named
from generator.project import Project
from generator.rendering import speedups
from generator.report import META_KEY, Reporter
from generator.report import current as reporter

GLOBAL_FLAGS = {"--quiet", "-q", "--verbose", "-v", "--json"}
GLOBAL_WITH_VALUE = {"--sources", "--build-dir"}


def global_options_first(args: list[str]) -> list[str]:
    """The global options moved before the command, wherever they were typed: `qrs build --verbose` as mkdocs and
    sphinx-build users type it means `qrs --verbose build`. After `--`, nothing is moved."""
    moved, rest, index = [], [], 0
    while index < len(args):
        word = args[index]
        if word == "--":
            rest += args[index:]
            break
        name = word.split("=", 1)[0]
        if word in GLOBAL_FLAGS or (name in GLOBAL_WITH_VALUE and "=" in word):
            moved.append(word)
        elif word in GLOBAL_WITH_VALUE and index + 1 < len(args):
            moved += args[index : index + 2]
            index += 1
        else:
            rest.append(word)
        index += 1
    return moved + rest


class _Qrs(click.Group):
    def parse_args(self, context: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(context, global_options_first(args))

    def invoke(self, context: click.Context):
        try:
            return super().invoke(context)
        except BrokenPipeError:  # `qrs list | head -1`: the reader has what it wanted, which is no error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
            raise click.exceptions.Exit(0) from None


@click.group(cls=_Qrs, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="qrs", prog_name="qrs", message="%(prog)s %(version)s")
@click.option(
    "--sources",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("sources"),
    show_default=True,
    help="Folder of sheet sources.",
)
@click.option(
    "--build-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: build/ beside the sources).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@click.option("--verbose", "-v", is_flag=True, help="Also print how full each column of each page is.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='One JSON object a line for each output written and each problem ({"event": "wrote"|"problem", …}).',
)
@click.pass_context
def cli(
    context: click.Context,
    sources: Path,
    build_dir: Path | None,
    quiet: bool = False,
    as_json: bool = False,
    verbose: bool = False,
) -> None:
    """qrs: printable quick-reference sheets for tabletop wargames."""
    chosen = context.obj if isinstance(context.obj, Reporter) else Reporter()  # main() passes its own
    chosen.quiet, chosen.json, chosen.verbose = quiet, as_json, verbose
    context.meta[META_KEY] = chosen
    given = context.get_parameter_source("sources") not in (None, click.core.ParameterSource.DEFAULT)
    chosen.library = sources.absolute().parent  # the paths it prints are relative to it, a refused link's too
    context.obj = Project.chosen(sources, build_dir, sources_given=given)
    chosen.library = context.obj.sources.parent  # where the sources are (a --sources link followed)
    if context.invoked_subcommand is None:  # bare `qrs`: the help, and success, as git and pip do
        click.echo(context.get_help())


@cli.command("list")
@click.pass_obj
def list_sheets(project: Project) -> None:
    """List the sheets, then the handouts: id, game, title, edition, languages (the canonical one first)."""
    report = reporter()
    if not report.json:
        click.echo("\t".join(("id", "game", "title", "edition", "languages")))
    for path in project.sheet_paths():
        sheet = pipeline.check(path)
        languages = [sheet.lang, *(lang for lang in i18n.languages(project.sources, sheet) if lang != sheet.lang)]
        fields = {
            "sheet": sheet.sheet,
            "game": sheet.game,
            "title": sheet.title,
            "edition": sheet.edition,
            "lang": sheet.lang,
            "languages": languages,
            "path": str(path),
        }
        report.record(
            "sheet",
            "\t".join([sheet.sheet, sheet.game, sheet.title or "", sheet.edition or "", " ".join(languages)]),
            fields,
        )
    for path in project.handout_paths():
        handout = pipeline.load_handout(project, path)[1]
        game = handout.game or f"handout of {handout.sheet}"
        fields = {
            "handout": handout.handout,
            "sheet": handout.sheet,
            "game": game,
            "title": handout.army,
            "lang": handout.lang,
            "languages": list(handout.outputs),
            "path": str(path),
        }
        report.record(
            "handout", "\t".join([handout.handout, game, handout.army, "", " ".join(handout.outputs)]), fields
        )


@cli.command()
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets_and_handouts)
@click.option(
    "--lang",
    "languages",
    multiple=True,
    callback=language_codes,
    help="Check only these languages' catalogues (default: every catalogue).",
)
@click.option(
    "--allow-fallback",
    is_flag=True,
    help="Missing and stale translations are not problems (the translated strings are still checked).",
)
@click.pass_obj
def check(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], allow_fallback: bool) -> None:
    """Validate sheets and handouts (all, or those named) and their translations, without rendering them."""
    problems = []
    targets = named(project, sheets)
    for target in targets:
        try:
            for note in target.check(project, languages, allow_fallback):
                reporter().result("left-out", note, {"why": note})
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)
    handouts = sum(target.kind == "handout" for target in targets)
    counts = {"sheets": len(targets) - handouts, "handouts": handouts, "problems": 0}
    reporter().result(
        "checked", "{sheets} sheet(s) and {handouts} handout(s) checked, no problem found".format(**counts), counts
    )


@cli.command()
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets_and_handouts)
@click.option(
    "--lang",
    "languages",
    multiple=True,
    callback=language_codes,
    help="Language(s) to build (default: every language the sheet has a catalogue for, and its own).",
)
@print_options
@click.option(
    "--gloss",
    type=click.Choice(["en"]),
    default=None,
    help="Show each game term's English original beside its first mention.",
)
@click.option(
    "--changes-since",
    metavar="EDITION",
    default=None,
    help="Mark with a bar in the margin what changed since this edition (read from git).",
)
@click.option(
    "--errata-only", is_flag=True, help="Print only what changed since --changes-since (default: the previous edition)."
)
@click.option("--all", "everything", is_flag=True, help="Every sheet and every handout (what `make` builds).")
@format_option
@speed_options
@click.pass_obj
def build(
    project: Project,
    sheets: tuple[str, ...],
    languages: tuple[str, ...],
    paper: str | None,
    allow_fallback: bool,
    crop_marks: bool,
    ink_saver: bool,
    impose: str | None,
    pdf_variant: str | None,
    gloss: str | None,
    changes_since: str | None,
    errata_only: bool,
    everything: bool = False,
    formats: tuple[str, ...] = ("pdf",),
    jobs: int | None = None,
    shard: tuple[int, int] | None = None,
    rebuild: bool = False,
    **format_options,
) -> None:
    """Render sheets and handouts (their ids or files) in build/, in every language they have (or those given).

    SHEET@REVISION builds a sheet as it was at a git revision or tag: build/SHEET@REVISION.LANG.pdf.
    Only the outputs whose inputs changed since they were built are built (build/.qrs-manifest.json)."""
    if everything and sheets:
        raise click.UsageError("--all builds every sheet and handout: name no SHEET with it")
    forms = chosen_formats(formats, format_options)
    options = build_options(
        paper,
        allow_fallback,
        crop_marks,
        ink_saver,
        impose,
        pdf_variant,
        gloss=gloss is not None,
        changes_since=changes_since,
        errata_only=errata_only,
        own=own_options(forms, format_options),
    )
    if forms != ("pdf",) and any("@" in sheet for sheet in sheets):
        raise click.UsageError(
            "SHEET@REVISION builds the PDF of an earlier edition only: give no other --format with it"
        )
    past = [sheet.partition("@")[::2] for sheet in sheets if "@" in sheet]
    current = tuple(sheet for sheet in sheets if "@" not in sheet)
    problems = _build_past(project, past, languages, options, summary=not current)
    if current or not sheets:  # without names, the sheets (and with --all the handouts)
        targets = named(project, current, handouts=everything)
        refuse_what_formats_cannot(forms, targets, options)
        problems += parallel.build(
            project,
            targets,
            languages,
            options,
            reporter(),
            jobs,
            shard,
            rebuild,
            incremental=not (changes_since or errata_only),
            forms=forms,
            everything=everything,
        ).problems
    if problems:
        raise UserError(problems)


def _build_past(
    project: Project, past: list[tuple[str, str]], languages: tuple[str, ...], options, summary: bool
) -> list:
    """SHEET@REVISION: each built as it was (without the manifest), told as any build tells its PDFs; their own
    summary line when they are built alone."""
    problems, tally = [], parallel.Tally(0)
    for name, revision in past:
        for lang in languages or [None]:
            try:
                for written in pipeline.build_at_revision(project, name, revision, lang, options):
                    reporter().wrote(written.path, layout=written.layout, untranslated=written.untranslated)
                    tally.built += 1
            except UserError as error:
                problems.extend(error.problems)
                tally.failed += 1
    tally.total = tally.built + tally.failed
    if past and summary:
        reporter().summary(tally.line(), tally.counts())
    return problems


from generator.cli import authoring, doctor, editions, handouts, importing, starter, testing, translating  # noqa: E402 - they use the group's options

for command in (
    handouts.handout_group,
    editions.diff_command,
    editions.changelog_command,
    translating.i18n_group,
    authoring.schema_command,
    authoring.new,
    authoring.preview_command,
    authoring.export_command,
    authoring.watch_command,
    importing.import_command,
    testing.content_test_command,
    doctor.doctor_command,
    starter.init_command,
):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """The qrs command: `argv`, or the process's own arguments (the command's process, which then ends at once:
    speedups.end_now)."""
    if argv is not None:
        try:
            _main(argv)
        finally:
            speedups.resume()  # the caller goes on: its collector as it was
        return
    try:
        _main(None)
    except SystemExit as exit:
        speedups.end_now(exit.code)
        raise
    speedups.end_now(0)


def _main(argv: list[str] | None) -> None:
    report = Reporter()  # set from --quiet/--json by the group, used here for the problems
    speedups.enable()  # the command's own process; the build's workers enable them too
    try:
        cli.main(args=argv, prog_name="qrs", standalone_mode=False, obj=report)
    except MissingInput as error:
        report.problems(error.problems)
        sys.exit(EXIT_NO_INPUT)
    except UserError as error:
        report.problems(error.problems)
        sys.exit(EXIT_USER_ERROR)
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] == "generator":
            raise  # a module of qrs itself: a bug, reported below
        report.fault("environment", environment_missing(error.name), {"module": error.name})
        sys.exit(EXIT_UNAVAILABLE)
    except (Interrupted, click.exceptions.Abort, KeyboardInterrupt) as error:
        report.fault("interrupted", str(error) if isinstance(error, Interrupted) else "interrupted", {})
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as error:
        error.message = printable(error.message)  # an id or a file name as typed: its controls escaped
        error.show()
        sys.exit(EXIT_USAGE if isinstance(error, click.UsageError) else error.exit_code)
    except UnknownName as error:
        report.fault("usage", f"error: {error}", {"reason": str(error)})
        sys.exit(EXIT_USAGE)
    except WorkerDied as error:
        report.fault("environment", f"error: {error}", {"reason": str(error)})
        sys.exit(EXIT_ENVIRONMENT)
    except OSError as error:  # not a bug, not the sources: the machine said no
        report.fault(
            "environment",
            f"error: {error.filename or 'a file'}: {error.strerror or error} (the disk, a "
            "permission or a folder in the way; no output was left half-written)",
            {"path": error.filename, "reason": error.strerror or str(error)},
        )
        sys.exit(EXIT_ENVIRONMENT)
    except Exception as error:  # noqa: BLE001 - a bug: short report, distinct exit code
        frame = traceback.extract_tb(error.__traceback__)[-1]
        click.echo(
            printable(
                f"internal error: {type(error).__name__}: {error} (at {Path(frame.filename).name}:{frame.lineno})"
            ),
            err=True,
        )
        click.echo("This is a bug in qrs, not in your sources; please report it with the command you ran.", err=True)
        sys.exit(EXIT_INTERNAL_ERROR)
