"""`qrs doctor`: what is installed that qrs uses, what each optional program enables, and the library's state.

It must answer in a fraction of a second (`make` ends with its summary line): nothing here imports WeasyPrint
(generator.output.installation reads versions from metadata and the libraries themselves) and, once a build has
run, nothing loads a sheet (generator.output.library_state reads the build's manifest and caches)."""

from __future__ import annotations

import sys

import click

from generator import __version__
from generator.cli.options import EXIT_UNAVAILABLE
from generator.options import BuildOptions
from generator.output import installation, library_state
from generator.project import Project
from generator.report import current as reporter
from generator.report import shown

MAKE_FORMATS = ("pdf", "html")  # what `make` builds (qrs build --all --format pdf --format html)
SHOWN_STALE = 5  # stale outputs named; the rest counted


def make_settings() -> BuildOptions:
    """The options `qrs build --all` builds with when given no option: those its manifest entries are keyed by."""
    return BuildOptions()


def summary_line(found: list[installation.Finding], library: library_state.LibraryState) -> str:
    versions = {finding.name: finding.found for finding in found}
    missing = [finding.name for finding in found if finding.found is None]
    parts = [
        f"qrs {__version__}",
        f"Python {sys.version.split()[0]}",
        f"WeasyPrint {versions['WeasyPrint'] or 'missing'}",
        f"Pango {versions['Pango'] or 'missing'}",
        f"missing: {', '.join(missing)}" if missing else "nothing missing",
        library.line(),
    ]
    return "qrs doctor: " + "; ".join(parts)


def library_lines(project: Project, library: library_state.LibraryState) -> list[str]:
    if library.missing:
        return [f"library: {library.missing} ('qrs init DIR' starts one)"]
    lines = [f"library ({shown(project.sources)}/): {library.line()}"]
    if library.stale:
        named = ", ".join(library.stale[:SHOWN_STALE]) + (", …" if len(library.stale) > SHOWN_STALE else "")
        lines.append(f"  stale: {named} ('make' or 'qrs build --all --format pdf --format html' builds them)")
    lines += [f"  left out: {note}" for note in library.left_out]
    lines += [f"  problem: {problem}" for problem in library.problems]
    return lines


@click.command("doctor")
@click.option("--summary", is_flag=True, help="Print only the one-line summary (what `make` ends with).")
@click.pass_obj
def doctor_command(project: Project, summary: bool) -> None:
    """Say what is installed that qrs uses (Python, WeasyPrint, Pango, HarfBuzz, fonts, optional programs and
    what each enables) and the library's state: outputs stale for `make`, languages in progress. Exit 69 when
    something a build needs is missing."""
    found = installation.findings(project.templates)
    library = library_state.state(project, make_settings(), MAKE_FORMATS)
    line = summary_line(found, library)
    report = reporter()
    if report.json:
        report.result(
            "doctor",
            line,
            {"installed": [vars(finding) for finding in found], "library": vars(library), "summary": line},
        )
    elif not summary:
        for heading, required in (("needed to build", True), ("optional", False)):
            report.say(f"{heading}:")
            for finding in found:
                if finding.required == required:
                    report.say(f"  {finding.line()}")
        for text in library_lines(project, library):
            report.say(text)
    if not report.json:
        report.say(line)
    if installation.missing_required(found):
        sys.exit(EXIT_UNAVAILABLE)
