"""`qrs import FILE`: parses its arguments and reports; the work is done in generator.composing.drafts."""

from __future__ import annotations

from pathlib import Path

import click

from generator.errors import UserError
from generator.project import Project
from generator.report import current as reporter
from generator.report import shown
from generator.cli.options import language_codes


@click.command("import")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--id", "sheet_id", default=None, help="The new sheet's id (default: made from the file's name).")
@click.option("--game", default=None, help="The game's name (default: the document's title).")
@click.option("--lang", default=None, callback=language_codes, help="The language it is written in (default: guessed).")
@click.option("--dry-run", is_flag=True, help="Print the draft's YAML (and the report on stderr); write nothing.")
@click.option("--json", "as_json", is_flag=True, help="The report as one JSON object (as qrs --json import).")
@click.pass_obj
def import_command(project: Project, file: Path, sheet_id: str | None, game: str | None, lang: str | None,
                   dry_run: bool, as_json: bool) -> None:
    """Draft sources/<id>.yaml from an existing sheet (.md, .txt, .html, .docx, .pdf), with a report of each guess."""
    from generator.composing import drafts as importer

    report = reporter()
    report.json = report.json or as_json
    content, made, written = importer.import_sheet(project, file, sheet_id, game, lang, dry_run)
    if report.json:
        report.record("import", "", {**made.as_dict(), "written": str(written) if written else None,
                                     **({"yaml": content} if dry_run else {})})
    else:
        if dry_run:
            click.echo(content, nl=False)
        if not report.quiet or made.problems:
            click.echo("\n".join(made.lines()), err=dry_run)
    if made.problems:
        raise UserError([importer.draft_problem(made, problem) for problem in made.problems])
    if written:
        report.result("wrote", f"wrote {shown(written)}", {"path": str(written)})
