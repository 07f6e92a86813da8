"""What the commands share: their options, the checks of their values, and shell completion of ids."""

from __future__ import annotations

import re
from pathlib import Path

import click

from generator import files
from generator import lazy
from generator.output import parallel

# The exit codes (README, "Exit codes"): what went wrong decides, never the output mode.
EXIT_INTERNAL_ERROR = 1  # a bug in qrs
EXIT_USER_ERROR = 2  # a problem in the sources (file:line:column), or no sources at all
EXIT_USAGE = 64  # the command line itself: an unknown option, a bad value (sysexits' EX_USAGE)
EXIT_NO_INPUT = 66  # a file named on the command line is not there (EX_NOINPUT)
EXIT_UNAVAILABLE = 69  # a program qrs needs is not installed (EX_UNAVAILABLE)
EXIT_ENVIRONMENT = 74  # the machine refused: disk full, permission denied, a folder in the way (EX_IOERR)
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT

# Imported when first used: a build with nothing to do needs neither the pipeline nor the model (nor WeasyPrint).
i18n, pipeline = lazy.module("generator.composing.translate"), lazy.module("generator.pipeline")
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
    command = click.option("--rebuild", is_flag=True,
                           help="Build every output, even those build/.qrs-manifest.json says are up to date.")(command)
    command = click.option("--shard", metavar="K/N", default=None, callback=checked_shard,
                           help="Build only the K-th of N parts of the outputs (a deterministic split, for CI runners).")(command)
    return click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, envvar="QRS_JOBS", show_envvar=True,
                        help="Worker processes (default: one per core; 1 builds in this process).")(command)


def format_option(command):
    """--format: PDFs, web pages (build/html/), or both (--format pdf --format html)."""
    return click.option("--format", "formats", type=click.Choice(["pdf", "html"]), multiple=True, default=("pdf",),
                        show_default=True, help="What to write: pdf, html (build/html/<sheet>.<lang>.html and "
                                                "an index.html); give it twice for both.")(command)


def print_options(command):
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


def card_size(context: click.Context, parameter: click.Parameter, value: str | None):
    """--cards poker|tarot|a6|WxH: a card size the renderer prints."""
    from generator.rendering.card_sheets import card_size as sized

    if value is None:
        return None
    try:
        return sized(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def card_options(command):
    """--cards and --backs: the units (or a section's blocks) as cards, imposed for print (generator.output.cards)."""
    for option in reversed([
        click.option("--cards", "cards", default=None, callback=card_size, metavar="SIZE",
                     help="Print as cards instead (a unit, or a section's block, a card), nine poker cards to an A4 "
                          "page with crop marks: poker (63x88 mm), tarot (70x120), a6 (105x148) or WxH in mm."),
        click.option("--backs", type=click.Choice(["long-edge", "short-edge"]), default=None,
                     help="With --cards: a back page after each page of cards, for a duplex print flipped on that "
                          "edge."),
    ]):
        command = option(command)
    return command


def checked_cards(settings: dict, cards, backs: str | None, formats: tuple[str, ...]) -> None:
    """What --cards does not go with."""
    if backs and not cards:
        raise click.UsageError("--backs goes with --cards: the backs of the cards")
    if cards and (settings.get("impose") or settings.get("pdf_variant")):
        raise click.UsageError("--cards does not go with --impose or --pdf-variant: cards are imposed on the paper "
                               "their own way")
    if cards and not set(formats) <= {"pdf", "html"}:
        raise click.UsageError("--cards prints a PDF (pdf) and a web page (html)")


def print_settings(paper: str | None, allow_fallback: bool, crop_marks: bool, ink_saver: bool,
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


def checked_handout_id(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """--id names a file in sources/handouts/: lower-case letters, digits and hyphens, never a path."""
    if value is not None and not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,59}", value):
        raise click.BadParameter(f"'{value}' is not a handout id: lower-case letters, digits and hyphens (english-army)")
    if value is not None and files.device_problem(value):
        raise click.BadParameter(files.device_problem(value))
    return value
