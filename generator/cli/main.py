"""The `qrs` command: parses arguments and reports; the work is done in generator.pipeline."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import traceback
from pathlib import Path

import click

from generator import lazy

from generator.output import parallel
from generator.errors import Interrupted, UnknownName, UserError, WorkerDied
from generator.project import Project
from generator.report import META_KEY, Reporter, shown
from generator.report import current as reporter

# Imported when first used: a build with nothing to do needs neither the pipeline nor the model (nor WeasyPrint).
i18n, pipeline = lazy.module("generator.source.i18n"), lazy.module("generator.pipeline")
history, translations = lazy.module("generator.source.history"), lazy.module("generator.source.translations")

# The exit codes (README, "Exit codes"): what went wrong decides, never the output mode.
EXIT_INTERNAL_ERROR = 1  # a bug in qrs
EXIT_USER_ERROR = 2  # a problem in the sources (file:line:column), or no sources at all
EXIT_USAGE = 64  # the command line itself: an unknown option, a bad value (sysexits' EX_USAGE)
EXIT_UNAVAILABLE = 69  # a program qrs needs is not installed (EX_UNAVAILABLE)
EXIT_ENVIRONMENT = 74  # the machine refused: disk full, permission denied, a folder in the way (EX_IOERR)
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


def _language_codes(context: click.Context, parameter: click.Parameter, value):
    """--lang takes language codes the renderer knows (fr, en, en-GB): never a path, never 'zz'."""
    if not value:
        return value
    from generator.schema.model import known_language  # the model imports pydantic: only when a language is given

    codes = [_canonical_language(code) for code in ((value,) if isinstance(value, str) else value)]
    for code in codes:
        if not re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", code) or not known_language(code):
            raise click.BadParameter(f"{code!r} is not a known language code (fr, en, de, en-GB…)")
    return codes[0] if isinstance(value, str) else tuple(codes)


def _canonical_language(code: str) -> str:
    """EN, En, en_gb, EN-gb: the code as sources and catalogues write it (en, en-GB)."""
    language, _, region = code.replace("_", "-").partition("-")
    return language.lower() + (f"-{region.upper()}" if region else "")


def _ids(context: click.Context, folders: tuple[str, ...], incomplete: str) -> list[str]:
    """Shell completion: the ids of the sources in these folders of --sources (read as typed: no callback runs)."""
    sources = Path(context.find_root().params.get("sources") or "sources")
    return sorted(path.stem for folder in folders for path in (sources / folder).glob(f"{incomplete}*.yaml"))


def complete_sheets(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[str]:
    return _ids(context, (".",), incomplete)


def complete_handouts(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[str]:
    return _ids(context, ("handouts",), incomplete)


def complete_sheets_and_handouts(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[str]:
    return _ids(context, (".", "handouts"), incomplete)


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
    return click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, envvar="QRS_JOBS", show_envvar=True,
                        help="Worker processes (default: one per core; 1 builds in this process).")(command)


def _format_option(command):
    """--format: PDFs, web pages (build/html/), or both (--format pdf --format html)."""
    return click.option("--format", "formats", type=click.Choice(["pdf", "html"]), multiple=True, default=("pdf",),
                        show_default=True, help="What to write: pdf, html (build/html/<sheet>.<lang>.html and "
                                                "an index.html); give it twice for both.")(command)


def _print_options(command):
    """--paper, --allow-fallback, --marks, --ink-saver: how sheets and handouts alike are printed."""
    for option in reversed([
        click.option("--paper", type=click.Choice(["A4", "letter"], case_sensitive=False), default=None,
                     help="Override the paper size the sources declare."),
        click.option("--allow-fallback", is_flag=True,
                     help="Print the canonical text where a translation is missing or stale (the footer says so)."),
        click.option("--marks", "crop_marks", is_flag=True, help="Crop marks and 3 mm of bleed, for a print shop."),
        click.option("--ink-saver", is_flag=True, help="No solid fills, light rules."),
        click.option("--impose", type=click.Choice(["2up", "booklet"]), default=None,
                     help="Half-size pages, two side by side on the paper: in order (2up), or ordered to fold "
                          "into a booklet (print both sides, flipping on the short edge)."),
        click.option("--pdf-variant", type=click.Choice(["pdf/ua-1", "pdf/a-3b"]), default=None,
                     help="A standard the PDF declares and follows: pdf/ua-1 (accessible), pdf/a-3b (archival)."),
    ]):
        command = option(command)
    return command


def _print_settings(paper: str | None, allow_fallback: bool, crop_marks: bool, ink_saver: bool,
                    impose: str | None, pdf_variant: str | None) -> dict:
    """pipeline.BuildOptions' printing fields (every field a command sets is part of each output's manifest key)."""
    if impose and crop_marks:
        raise click.UsageError("--marks and --impose do not go together: crop marks belong to one page a sheet")
    if impose and pdf_variant:
        raise click.UsageError("--pdf-variant and --impose do not go together: the imposed PDF is made anew, "
                               "without the structure the standards ask for")
    return dict(paper={"a4": "A4", "letter": "letter"}[paper.lower()] if paper else None,
                allow_fallback=allow_fallback, crop_marks=crop_marks, ink_saver=ink_saver, impose=impose,
                pdf_variant=pdf_variant)


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
            moved += args[index:index + 2]
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
    if context.invoked_subcommand is None:  # bare `qrs`: the help, and success, as git and pip do
        click.echo(context.get_help())


@cli.command("list")
@click.pass_obj
def list_sheets(project: Project) -> None:
    """List the sheets: id, game, title, edition, languages (the canonical one first)."""
    report = reporter()
    if not report.json:
        click.echo("\t".join(("id", "game", "title", "edition", "languages")))
    for path in project.sheet_paths():
        sheet = pipeline.check(path)
        languages = [sheet.lang, *(lang for lang in i18n.languages(project.sources, sheet) if lang != sheet.lang)]
        fields = {"sheet": sheet.sheet, "game": sheet.game, "title": sheet.title, "edition": sheet.edition,
                  "lang": sheet.lang, "languages": languages, "path": str(path)}
        report.record("sheet", "\t".join([sheet.sheet, sheet.game, sheet.title, sheet.edition, " ".join(languages)]),
                      fields)


@cli.command()
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets_and_handouts)
@click.option("--lang", "languages", multiple=True, callback=_language_codes,
              help="Check only these languages' catalogues (default: every catalogue).")
@click.option("--allow-fallback", is_flag=True,
              help="Missing and stale translations are not problems (the translated strings are still checked).")
@click.pass_obj
def check(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], allow_fallback: bool) -> None:
    """Validate sheets and handouts (all, or those named) and their translations, without rendering them."""
    problems = []
    sheet_paths, handout_paths = project.sources_named(sheets)
    checks = [(translations.check_with_translations, path) for path in sheet_paths]
    checks += [(translations.check_handout, path) for path in handout_paths]
    for run, path in checks:
        try:
            run(project, path, languages, allow_fallback)
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)
    counts = {"sheets": len(sheet_paths), "handouts": len(handout_paths), "problems": 0}
    reporter().result("checked", "{sheets} sheet(s) and {handouts} handout(s) checked, no problem found".format(**counts),
                      counts)


@cli.command()
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets)
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to build (default: every language the sheet has a catalogue for, and its own).")
@_print_options
@click.option("--gloss", type=click.Choice(["en"]), default=None,
              help="Show each game term's English original beside its first mention.")
@click.option("--changes-since", metavar="EDITION", default=None,
              help="Mark with a bar in the margin what changed since this edition (read from git).")
@click.option("--errata-only", is_flag=True,
              help="Print only what changed since --changes-since (default: the previous edition).")
@click.option("--all", "everything", is_flag=True, help="Every sheet and every handout (what `make` builds).")
@_format_option
@_speed_options
@click.pass_obj
def build(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...], paper: str | None,
          allow_fallback: bool, crop_marks: bool, ink_saver: bool, impose: str | None, pdf_variant: str | None,
          gloss: str | None,
          changes_since: str | None,
          errata_only: bool, everything: bool = False, formats: tuple[str, ...] = ("pdf",), jobs: int | None = None,
          shard: tuple[int, int] | None = None, rebuild: bool = False) -> None:
    """Render sheets to PDF in build/, in every language they have (or those given).

    SHEET@REVISION builds a sheet as it was at a git revision or tag: build/SHEET@REVISION.LANG.pdf.
    Only the outputs whose inputs changed since they were built are built (build/.qrs-manifest.json)."""
    if everything and sheets:
        raise click.UsageError("--all builds every sheet and handout: name no SHEET with it")
    settings = dict(_print_settings(paper, allow_fallback, crop_marks, ink_saver, impose, pdf_variant),
                    gloss=gloss is not None,
                    changes_since=changes_since, errata_only=errata_only)
    if "html" in formats and any("@" in sheet for sheet in sheets):
        raise click.UsageError("SHEET@REVISION builds the PDF of an earlier edition only: give no --format html with it")
    problems = []
    past = [sheet.partition("@")[::2] for sheet in sheets if "@" in sheet]
    tally = parallel.Tally(0)
    for name, revision in past:
        options = pipeline.BuildOptions(**settings)
        for lang in languages or [None]:
            try:
                for output in pipeline.build_at_revision(project, name, revision, lang, options):
                    reporter().wrote(output)
                    tally.built += 1
            except UserError as error:
                problems.extend(error.problems)
                tally.failed += 1
    tally.total = tally.built + tally.failed
    current = tuple(sheet for sheet in sheets if "@" not in sheet)
    if past and not current:  # SHEET@REVISION builds alone: their own summary line (they use no manifest)
        reporter().summary(tally.line(), tally.counts())
    if current or not sheets:
        problems += parallel.build(project, project.sheet_paths(current), project.handout_paths() if everything else [],
                                   languages, settings, reporter(), jobs, shard, rebuild,
                                   incremental=not (changes_since or errata_only), formats=formats)
    if problems:
        raise UserError(problems)


def _handout_id(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """--id names a file in sources/handouts/: lower-case letters, digits and hyphens, never a path."""
    if value is not None and not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,59}", value):
        raise click.BadParameter(f"'{value}' is not a handout id: lower-case letters, digits and hyphens (english-army)")
    return value


class _BuildUnlessNamed(click.Group):
    """`qrs handout [HANDOUT...]` builds handouts; `qrs handout import ROSTER` runs the subcommand it names."""

    def parse_args(self, context: click.Context, args: list[str]) -> list[str]:
        if not args or args[0] not in self.commands and args[0] not in context.help_option_names:
            args = ["build", *args]
        return super().parse_args(context, args)

    def collect_usage_pieces(self, context: click.Context) -> list[str]:
        return ["[OPTIONS] [HANDOUTS]...", "|", "import", "ROSTER", "[--sheet", "SHEET]"]

    def format_options(self, context: click.Context, formatter: click.HelpFormatter) -> None:
        """The help lists the options of building, then the subcommands."""
        build = self.commands["build"]
        build.format_options(click.Context(build, info_name=context.info_name, parent=context.parent), formatter)
        self.format_commands(context, formatter)


@cli.group("handout", cls=_BuildUnlessNamed)
def handout_group() -> None:
    """Per-army handouts: build them (qrs handout [HANDOUT...]), or import one from a roster."""


@handout_group.command("import")
@click.argument("roster_path", metavar="ROSTER", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--sheet", default=None, shell_complete=complete_sheets,
              help="The sheet the handout draws on (default: the one whose game the roster names, else none).")
@click.option("--force", is_flag=True, help="Draw on --sheet even if the roster is of another game.")
@click.option("--id", "handout_id", default=None, callback=_handout_id,
              help="The handout's id (default: the roster's file name).")
@click.option("--strict", is_flag=True, help="Fail (exit code 2, nothing written) if anything of the roster "
                                             "matches nothing of the sheet.")
@click.pass_obj
def handout_import(project: Project, roster_path: Path, sheet: str | None, force: bool, handout_id: str | None,
                   strict: bool) -> None:
    """Write sources/handouts/<id>.yaml from a BattleScribe or New Recruit roster (.ros or .rosz)."""
    from generator.source import roster

    written, made, label = roster.import_roster(project, roster_path, sheet, handout_id, strict, force)
    if made.unmatched and reporter().json:
        for item in made.unmatched:
            reporter().record("unmatched", str(item), {"roster": label, **dataclasses.asdict(item)})
    elif made.unmatched or made.left_out or not made.handout.get("sheet"):
        click.echo(made.report(label), err=True)
    reporter().result("wrote", f"wrote {written}", {"path": str(written)})


@handout_group.command("build")
@click.argument("handouts", nargs=-1, shell_complete=complete_handouts)
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to build (default: those the handout lists).")
@_print_options
@_format_option
@_speed_options
@click.pass_obj
def handout(project: Project, handouts: tuple[str, ...], languages: tuple[str, ...], paper: str | None,
            allow_fallback: bool, crop_marks: bool, ink_saver: bool, impose: str | None = None,
            pdf_variant: str | None = None,
            formats: tuple[str, ...] = ("pdf",),
            jobs: int | None = None, shard: tuple[int, int] | None = None, rebuild: bool = False) -> None:
    """Render per-army handouts (sources/handouts/*.yaml, or the files given) to build/handouts/."""
    settings = _print_settings(paper, allow_fallback, crop_marks, ink_saver, impose, pdf_variant)
    problems = parallel.build(project, [], project.handout_paths(handouts, required=True), languages, settings,
                              reporter(), jobs, shard, rebuild, formats=formats)
    if problems:
        raise UserError(problems)


@cli.command("diff")
@click.argument("sources", nargs=-1, required=True, shell_complete=complete_sheets)
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
        newer = history.sheet_at_revision(path, to_revision) if to_revision else path
        changes = pipeline.compare(history.sheet_at_revision(path, from_revision), newer)
    else:
        raise click.UsageError("give two source files, or one sheet with --from REV [--to REV]")
    for change in changes:  # the diff is this command's output: printed even with --quiet
        reporter().record("change", str(change), {"kind": change.kind, "where": change.where, "old": change.old,
                                                  "new": change.new})
    reporter().result("compared", f"{len(changes)} change(s)", {"changes": len(changes)})


@cli.command("changelog")
@click.argument("sheet", shell_complete=complete_sheets)
@click.option("--lang", default=None, callback=_language_codes, help="The language to print it in (default: the sheet's).")
@click.option("--format", "form", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.pass_obj
def changelog_command(project: Project, sheet: str, lang: str | None, form: str) -> None:
    """Every correction of every edition, by kind (the printed box lists only those that change play)."""
    from generator.cli import changelog
    from generator.source import words

    source = translations.translated(project, project.sheet_paths((sheet,))[0], lang)
    titles = {kind: words.ui_words(project, source.lang, False)[f"kind_{kind}"] for kind in changelog.KINDS}
    if reporter().json:  # one event, as every command's --json output
        reporter().record("changelog", "", json.loads(changelog.render(source, "json", titles)))
    else:
        click.echo(changelog.render(source, form, titles), nl=False)  # the command's output: printed even with --quiet


@cli.group("i18n")
def i18n_group() -> None:
    """Translation catalogues: sources/i18n/<sheet>.<lang>.po."""


@i18n_group.command("status")
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets)
@click.pass_obj
def i18n_status(project: Project, sheets: tuple[str, ...]) -> None:
    """How many strings are translated, stale and missing, per sheet, handout and language, and of the templates'
    words (ui) in each of those languages."""
    from generator.source import words

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
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Create or refresh these languages (default: existing ones).")
@click.pass_obj
def i18n_update(project: Project, sheets: tuple[str, ...], languages: tuple[str, ...]) -> None:
    """Refresh catalogues after a source change: new strings added, changed ones marked fuzzy."""
    sheet_paths, handout_paths = project.sources_named(sheets)
    updates = [(translations.update_translations, path) for path in sheet_paths]
    updates += [(translations.update_handout_translations, path) for path in handout_paths]
    for update, path in updates:
        for catalogue, found in update(project, path, languages):
            reporter().wrote(catalogue, f"{shown(catalogue)}: {len(found.translated)} translated, {len(found.stale)} stale, "
                                        f"{len(found.missing)} missing")


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
    reporter().result("schemas", f"{shown(folder)}: the schemas are up to date", {"folder": str(folder.resolve())})


@cli.command("new")
@click.argument("sheet_id")
@click.option("--game", required=True, help="The game's name, printed at the top of the sheet.")
@click.option("--lang", required=True, callback=_language_codes, help="The language the source is written in (fr, en…).")
@click.option("--title", default=None, help="The sheet's title (default: 'Feuille de référence' in French…).")
@click.pass_obj
def new(project: Project, sheet_id: str, game: str, lang: str, title: str | None) -> None:
    """Start a sheet: sources/SHEET_ID.yaml with one commented example of each block type."""
    from generator.cli import scaffold

    for path in scaffold.create(project, sheet_id, game, lang, title):
        reporter().wrote(path)
    if scaffold.template_words_missing(project, lang):
        reporter().say(f"note: to build it, the templates need their words in '{lang}': "
                       f"run 'qrs i18n update {sheet_id} --lang {lang}' and translate sources/i18n/ui.{lang}.po")


@cli.command("preview")
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets)
@click.option("--handout", "handouts", multiple=True, shell_complete=complete_handouts,
              help="A handout to draw (its id or file), as many times as needed.")
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to draw (default: the sheet's own).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of the images (default: build/preview/).")
@click.option("--scale", type=click.FloatRange(0.1, 10), default=2.0, show_default=True,
              help="Pixels per PDF point (1 is 72 dpi).")
@click.option("--rebuild", is_flag=True, help="Build the PDF even when the one in build/ is up to date.")
@click.option("--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks.")
@click.pass_obj
def preview_command(project: Project, sheets: tuple[str, ...], handouts: tuple[str, ...], languages: tuple[str, ...],
                    out: Path | None, scale: float, rebuild: bool, allow_fallback: bool) -> None:
    """Draw each page of a sheet (or handout) as a PNG image: build/preview/<sheet>.<lang>-<page>.png."""
    from generator.output import preview

    if not (sheets or handouts):
        raise click.UsageError("name a sheet, or a handout with --handout ID")
    options = pipeline.BuildOptions(allow_fallback=allow_fallback)
    problems = []
    sources = [(path, False) for path in (project.sheet_paths(sheets) if sheets else [])]
    sources += [(path, True) for path in (project.handout_paths(handouts) if handouts else [])]
    for path, handout in sources:
        for lang in languages or preview.languages(project, path, handout):
            try:
                pdf, built, images = preview.preview(project, path, lang, out, scale, options, rebuild, handout)
            except UserError as error:
                problems.extend(error.problems)
                continue
            if built:
                reporter().wrote(pdf)
            for image in images:
                reporter().wrote(image)
    if problems:
        raise UserError(problems)


@cli.command("export")
@click.argument("names", nargs=-1, required=True)
@click.option("--format", "form", type=click.Choice(["png", "svg"]), default="png", show_default=True,
              help="PNG (a picture, drawn at --dpi) or SVG (a vector drawing; needs pdftocairo).")
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True, help="PNG resolution.")
@click.option("--pages", default=None, metavar="1,2", help="Only these pages (default: every page).")
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) (default: every one it has).")
@click.option("--rebuild", is_flag=True, help="Build the PDF even when the one in build/ is up to date.")
@click.option("--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks.")
@click.pass_obj
def export_command(project: Project, names: tuple[str, ...], form: str, dpi: int, pages: str | None,
                   languages: tuple[str, ...], rebuild: bool, allow_fallback: bool) -> None:
    """Draw sheets' and handouts' pages as images: build/export/<sheet>.<lang>-<page>.png|svg."""
    from generator.output import export

    try:
        problems = export.export_named(project, names, languages, form, dpi, export.parse_pages(pages), rebuild,
                                       pipeline.BuildOptions(allow_fallback=allow_fallback), reporter())
    except export.MissingTool as error:
        unavailable = click.ClickException(str(error))
        unavailable.exit_code = EXIT_UNAVAILABLE
        raise unavailable from None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--pages") from None
    if problems:
        raise UserError(problems)


@cli.command("watch")
@click.argument("sheets", nargs=-1, shell_complete=complete_sheets)
@click.option("--lang", "languages", multiple=True, callback=_language_codes, help="Language(s) to build (default: each sheet's own).")
@click.option("--handout", "handouts", multiple=True, shell_complete=complete_handouts,
              help="A handout to watch (its id or file), as many times as needed.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port of the live preview (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to serve on: 0.0.0.0 to see the preview from another device of the network.")
@click.option("--open", "open_browser", is_flag=True, help="Open the preview in the web browser.")
@click.option("--scale", type=click.FloatRange(0.1, 10), default=1.5, show_default=True, help="Pixels per PDF point.")
@click.option("--allow-fallback", is_flag=True, help="As for build: print the canonical text where a translation lacks.")
@click.pass_obj
def watch_command(project: Project, sheets: tuple[str, ...], handouts: tuple[str, ...], languages: tuple[str, ...],
                  port: int, host: str, open_browser: bool, scale: float, allow_fallback: bool) -> None:
    """Rebuild on every save of a source, catalogue or template, with a live preview in the browser."""
    from generator.cli import watch

    report = reporter()
    watcher = watch.Watcher(project, sheets, languages, pipeline.BuildOptions(allow_fallback=allow_fallback), scale,
                            on_wrote=report.wrote, on_problems=report.problems, handouts=handouts)
    try:
        watcher.run(port=port, host=host, announce=report.say, open_browser=open_browser)
    except KeyboardInterrupt:
        raise Interrupted("interrupted: the watch stopped; the last good outputs are in place") from None
    except watch.CannotServe as error:
        raise click.BadParameter(f"{error}: give another port, or --port 0 for any free one", param_hint="--port") from None


from generator.cli.importing import import_command  # noqa: E402 - `qrs import`, defined beside

cli.add_command(import_command)


def main(argv: list[str] | None = None) -> None:
    report = Reporter()  # set from --quiet/--json by the group, used here for the problems
    try:
        cli.main(args=argv, prog_name="qrs", standalone_mode=False, obj=report)
    except UserError as error:
        report.problems(error.problems)
        sys.exit(EXIT_USER_ERROR)
    except (Interrupted, click.exceptions.Abort, KeyboardInterrupt) as error:
        report.fault("interrupted", str(error) if isinstance(error, Interrupted) else "interrupted", {})
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as error:
        error.show()
        sys.exit(EXIT_USAGE if isinstance(error, click.UsageError) else error.exit_code)
    except UnknownName as error:
        report.fault("usage", f"error: {error}", {"reason": str(error)})
        sys.exit(EXIT_USAGE)
    except WorkerDied as error:
        report.fault("environment", f"error: {error}", {"reason": str(error)})
        sys.exit(EXIT_ENVIRONMENT)
    except OSError as error:  # not a bug, not the sources: the machine said no
        report.fault("environment", f"error: {error.filename or 'a file'}: {error.strerror or error} (the disk, a "
                     "permission or a folder in the way; no output was left half-written)",
                     {"path": error.filename, "reason": error.strerror or str(error)})
        sys.exit(EXIT_ENVIRONMENT)
    except Exception as error:  # noqa: BLE001 - a bug: short report, distinct exit code
        frame = traceback.extract_tb(error.__traceback__)[-1]
        click.echo(f"internal error: {type(error).__name__}: {error} (at {Path(frame.filename).name}:{frame.lineno})", err=True)
        click.echo("This is a bug in qrs, not in your sources; please report it with the command you ran.", err=True)
        sys.exit(EXIT_INTERNAL_ERROR)
