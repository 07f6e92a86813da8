"""`qrs import FILE`: parses its arguments and reports; the work is done in generator.composing.drafts. The draft
is laid out here, through the normal build (a later stage than the importer's), and a table too wide for its
column is cut narrower until the draft builds."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import click

from generator.cli.options import language_codes
from generator.errors import UserError
from generator.project import Project
from generator.report import current as reporter
from generator.report import shown


@click.command("import")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--id", "sheet_id", default=None, help="The new sheet's id (default: made from the file's name).")
@click.option("--game", default=None, help="The game's name (default: the document's title).")
@click.option("--lang", default=None, callback=language_codes, help="The language it is written in (default: guessed).")
@click.option("--dry-run", is_flag=True, help="Print the draft's YAML (and the report on stderr); write nothing.")
@click.option("--json", "as_json", is_flag=True, help="The report as one JSON object (as qrs --json import).")
@click.pass_obj
def import_command(
    project: Project, file: Path, sheet_id: str | None, game: str | None, lang: str | None, dry_run: bool, as_json: bool
) -> None:
    """Draft sources/<id>.yaml from an existing sheet (.md, .txt, .html, .docx, .pdf), with a report of each guess."""
    from generator.composing import drafts as importer

    report = reporter()
    report.json = report.json or as_json
    content, made, written = importer.import_sheet(project, file, sheet_id, game, lang, dry_run, fits=_fits())
    if report.json:
        report.record(
            "import",
            "",
            {**made.as_dict(), "written": str(written) if written else None, **({"yaml": content} if dry_run else {})},
        )
    else:
        if dry_run:
            click.echo(content, nl=False)
        if not report.quiet or made.problems:
            click.echo("\n".join(made.lines(problems=False)), err=dry_run)  # the problems: once, below
    for warning in [] if report.json else made.warnings:  # with --json: in the report's "warnings"
        report.warn(warning)
    if made.problems:
        raise UserError([importer.draft_problem(made, problem) for problem in made.problems])
    if written:
        report.result("wrote", f"wrote {shown(written)}", {"path": str(written)})


NARROWER = (12, 8, 6, 4, 3, 2)  # the most columns a table keeps, tried in turn while it is too wide to print
_TOO_WIDE = re.compile(r"block '(?P<block>[^']+)' is [\d.]+ mm wider than its column")
WIDE = 5  # columns: a draft whose tables are all narrower is not laid out (a build takes seconds; such a table
# fitted its column in every draft of the round-trip tests)


def _fits():
    """The layout's verdict on a draft, for `import_sheet`: the tables to cut narrower (by their origin), the
    blocks it cannot place noted in the report."""
    tried: dict[str, int] = {}

    def fits(content: str, report) -> dict[str, int]:
        if not re.search(r'type: "matrix"|^ *columns:\n(?: *- title: .*\n){%d}' % WIDE, content, re.M):
            return {}
        origins = {guess.block: (guess.origin, guess.type) for guess in report.guesses}
        narrower = {}
        for problem in _layout_problems(content):
            found = _TOO_WIDE.search(problem.message)
            origin, kind = origins.get(found.group("block"), ("", "")) if found else ("", "")
            at = NARROWER.index(tried.get(origin, NARROWER[0]))
            if kind == "table" and at + 1 < len(NARROWER):
                narrower[origin] = tried[origin] = NARROWER[at + 1]
            else:
                report.untyped.append(report_note(origin or "the layout", problem.message))
        return narrower

    return fits


def report_note(origin: str, message: str):
    from generator.composing.drafts.report import Note

    return Note(origin, message, "the draft does not print as it is: edit it by hand")


def _layout_problems(content: str) -> list:
    """The problems the build finds in the draft, laid out in a folder of its own (the project is not touched)."""
    from generator.output import pipeline

    with tempfile.TemporaryDirectory(prefix="qrs-import-") as folder:
        sources = Path(folder) / "sources"
        sources.mkdir()
        path = sources / (re.search(r'^sheet: "([a-z0-9-]+)"$', content, re.M).group(1) + ".yaml")
        path.write_text(content, encoding="utf-8")
        try:
            located, sheet = pipeline.load(path)
            pipeline.build(
                Project.at(sources, None), pipeline.SheetTarget(path), sheet.lang, output=Path(folder) / "draft.pdf"
            )
        except UserError as error:
            return error.problems
    return []
