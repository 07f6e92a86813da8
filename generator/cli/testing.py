"""`qrs test`: the content suite (generator.output.content_checks) on the library, with no test framework."""

from __future__ import annotations

import click

from generator.cli.options import complete_sheets_and_handouts, jobs_option
from generator.errors import UserError
from generator.project import Project
from generator.report import current as reporter


@click.command("test")
@click.argument("names", metavar="[ID]...", nargs=-1, shell_complete=complete_sheets_and_handouts)
@jobs_option("Worker processes for the builds (default: one per core; 1 builds in this process).")
@click.pass_obj
def content_test_command(project: Project, names: tuple[str, ...], jobs: int | None) -> None:
    """Test the library's content (every sheet and handout, or those named): each checks, builds in each complete
    language, fits the pages it declares, and prints every cell and item of its source. Exit 2 with the file (and
    cell) of each failure."""
    from generator.output import content_checks

    outcome = content_checks.run(project, names, reporter(), jobs)  # its build says which languages it leaves out
    if outcome.problems:
        raise UserError(outcome.problems)
    counts = {"sheets": outcome.sheets, "handouts": outcome.handouts, "outputs": outcome.outputs, "problems": 0}
    reporter().result("tested", outcome.line(), counts)
