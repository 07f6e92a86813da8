"""What the commands share: their options, the checks of their values, and shell completion of ids."""

from __future__ import annotations

import re
from pathlib import Path

import click

from generator import files, lazy
from generator.options import BuildOptions
from generator.output import formats, parallel

# The exit codes (README, "Exit codes"): what went wrong decides, never the output mode.
EXIT_INTERNAL_ERROR = 1  # a bug in qrs
EXIT_USER_ERROR = 2  # a problem in the sources (file:line:column), or no sources at all
EXIT_USAGE = 64  # the command line itself: an unknown option, a bad value (sysexits' EX_USAGE)
EXIT_NO_INPUT = 66  # a file named on the command line is not there (EX_NOINPUT)
EXIT_UNAVAILABLE = 69  # a program qrs needs is not installed (EX_UNAVAILABLE)
EXIT_ENVIRONMENT = 74  # the machine refused: disk full, permission denied, a folder in the way (EX_IOERR)
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT

# Imported when first used: a build with nothing to do needs neither the pipeline nor the model (nor WeasyPrint).
i18n, pipeline = lazy.module("generator.composing.translate"), lazy.module("generator.output.pipeline")
history, translations = lazy.module("generator.composing.editions"), lazy.module("generator.composing.languages")


def language_codes(context: click.Context, parameter: click.Parameter, value):
    """--lang takes language codes the renderer knows (fr, en, en-GB): never a path, never 'zz'."""
    if not value:
        return value
    from generator.model.types import known_language  # the model imports pydantic: only when a language is given

    codes = [canonical_language(code) for code in ((value,) if isinstance(value, str) else value)]
    for code in codes:
        if not re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", code) or not known_language(code):
            raise click.BadParameter(f"{code!r} is not a known language code (fr, en, de, en-GB…)")
    return codes[0] if isinstance(value, str) else tuple(codes)


def canonical_language(code: str) -> str:
    """EN, En, en_gb, EN-gb: the code as sources and catalogues write it (en, en-GB)."""
    language, _, region = code.replace("_", "-").partition("-")
    return language.lower() + (f"-{region.upper()}" if region else "")


def ids(context: click.Context, folders: tuple[str, ...], incomplete: str) -> list[str]:
    """Shell completion: the ids of the sources in these folders of --sources (read as typed: no callback runs)."""
    sources = Path(context.find_root().params.get("sources") or "sources")
    return sorted(path.stem for folder in folders for path in (sources / folder).glob(f"{incomplete}*.yaml"))


def complete_sheets(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[str]:
    return ids(context, (".",), incomplete)


def complete_handouts(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[str]:
    return ids(context, ("handouts",), incomplete)


def complete_sheets_and_handouts(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[str]:
    return ids(context, (".", "handouts"), incomplete)


def checked_shard(context: click.Context, parameter: click.Parameter, value):
    try:
        return parallel.parse_shard(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def speed_options(command):
    """--jobs, --shard, --rebuild: options of the commands that build many outputs (generator.output.parallel)."""
    command = click.option(
        "--rebuild", is_flag=True, help="Build every output, even those build/.qrs-manifest.json says are up to date."
    )(command)
    command = click.option(
        "--shard",
        metavar="K/N",
        default=None,
        callback=checked_shard,
        help="Build only the K-th of N parts of the outputs (a deterministic split, for CI runners).",
    )(command)
    return jobs_option(
        "Worker processes (default: one per core; 1 builds in this process; one output alone shares its measuring "
        "among them)."
    )(command)


def jobs_option(help_text: str):
    """--jobs N (or QRS_JOBS): the worker processes of a command that builds."""
    return click.option(
        "--jobs", "-j", type=click.IntRange(min=1), default=None, envvar="QRS_JOBS", show_envvar=True, help=help_text
    )


def checked_formats(context: click.Context, parameter: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """--format pdf,html or --format pdf --format html: the formats named, each once, in the order given."""
    chosen = [name.strip().lower() for given in value for name in given.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in formats.names()]
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r} is not an output format: {', '.join(formats.names())}")
    return tuple(dict.fromkeys(chosen)) or ("pdf",)


def format_option(command):
    """--format: the formats of the registry (generator.output.formats), by name, and each one's own options."""
    for form in reversed(formats.names()):
        for option in reversed(formats.writer(form).OPTIONS):
            command = option(command)
    listed = "; ".join(f"{form}: {formats.writer(form).HELP}" for form in formats.names())
    return click.option(
        "--format",
        "formats",
        multiple=True,
        default=("pdf",),
        callback=checked_formats,
        metavar="FORMAT[,FORMAT]",
        show_default=True,
        help=f"What to write ({listed}); several, as --format pdf,html or the option given again.",
    )(command)


def own_options(forms: tuple[str, ...], params: dict) -> tuple:
    """The chosen formats' own options, each one typed value made by its module from the command line's."""
    made = ((form, formats.writer(form).own_options(params)) for form in forms)
    return tuple((form, value) for form, value in made if value is not None)


def chosen_formats(forms: tuple[str, ...], params: dict) -> tuple[str, ...]:
    """The formats written: --format's, each replaced by one whose own option stands in for it (--cards SIZE)."""
    return formats.chosen(forms, params)


def refuse_what_formats_cannot(forms: tuple[str, ...], targets: list, options: BuildOptions) -> None:
    """A usage error when a chosen format cannot make these targets with these options (cards of a sheet without
    --section…), before anything is built."""
    for why in formats.refusals(forms, targets, options):
        raise click.UsageError(why)


def print_options(command):
    """--paper, --allow-fallback, --marks, --ink-saver: how sheets and handouts alike are printed."""
    for option in reversed(
        [
            click.option(
                "--paper",
                type=click.Choice(["A4", "letter"], case_sensitive=False),
                default=None,
                help="Override the paper size the sources declare.",
            ),
            click.option(
                "--allow-fallback",
                is_flag=True,
                help="Print the canonical text where a translation is missing or stale (the footer says so).",
            ),
            click.option("--marks", "crop_marks", is_flag=True, help="Crop marks and 3 mm of bleed, for a print shop."),
            click.option("--ink-saver", is_flag=True, help="No solid fills, light rules."),
            click.option(
                "--impose",
                type=click.Choice(["2up", "booklet"]),
                default=None,
                help="Half-size pages, two side by side on the paper: in order (2up), or ordered to fold "
                "into a booklet (print both sides, flipping on the short edge).",
            ),
            click.option(
                "--pdf-variant",
                type=click.Choice(["pdf/ua-1", "pdf/a-3b"]),
                default=None,
                help="A standard the PDF declares and follows: pdf/ua-1 (accessible), pdf/a-3b (archival).",
            ),
        ]
    ):
        command = option(command)
    return command


def build_options(
    paper: str | None,
    allow_fallback: bool,
    crop_marks: bool,
    ink_saver: bool,
    impose: str | None,
    pdf_variant: str | None,
    **more,
) -> BuildOptions:
    """The build options of the print options given (and `more` of BuildOptions' fields): every field is part of
    each output's manifest key."""
    if impose and crop_marks:
        raise click.UsageError("--marks and --impose do not go together: crop marks belong to one page a sheet")
    if impose and pdf_variant:
        raise click.UsageError(
            "--pdf-variant and --impose do not go together: the imposed PDF is made anew, "
            "without the structure the standards ask for"
        )
    return BuildOptions(
        paper={"a4": "A4", "letter": "letter"}[paper.lower()] if paper else None,
        allow_fallback=allow_fallback,
        crop_marks=crop_marks,
        ink_saver=ink_saver,
        impose=impose,
        pdf_variant=pdf_variant,
        **more,
    )


def checked_handout_id(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """--id names a file in sources/handouts/: lower-case letters, digits and hyphens, never a path."""
    if value is not None and not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,59}", value):
        raise click.BadParameter(
            f"'{value}' is not a handout id: lower-case letters, digits and hyphens (english-army)"
        )
    if value is not None and files.device_problem(value):
        raise click.BadParameter(files.device_problem(value))
    return value
