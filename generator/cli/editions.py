"""`qrs diff` and `qrs changelog`: what changed between editions."""

from __future__ import annotations

import json
from pathlib import Path

import click

from generator.cli.options import complete_sheets, history, language_codes, pipeline, translations
from generator.project import Project
from generator.report import current as reporter


@click.command("diff")
@click.argument("sources", nargs=-1, required=True, shell_complete=complete_sheets)
@click.option("--from", "from_revision", metavar="REV", default=None, help="With one sheet: the earlier git revision.")
@click.option(
    "--to",
    "to_revision",
    metavar="REV",
    default=None,
    help="With one sheet: the later git revision (default: the file as it is now).",
)
@click.pass_obj
def diff_command(
    project: Project, sources: tuple[str, ...], from_revision: str | None, to_revision: str | None
) -> None:
    """What changed between two editions, in the sheet's words: `qrs diff OLD.yaml NEW.yaml`,
    or `qrs diff SHEET --from REV [--to REV]`."""
    if len(sources) == 2 and not (from_revision or to_revision):
        changes = pipeline.compare(Path(sources[0]), Path(sources[1]))
        sides = f"{sources[0]} and {sources[1]}"
    elif len(sources) == 1 and from_revision:
        path = project.sheet_paths(sources)[0]
        newer = history.sheet_at_revision(path, to_revision) if to_revision else path
        changes = pipeline.compare(history.sheet_at_revision(path, from_revision), newer)
        sides = f"{path.stem} at {from_revision} and " + (f"at {to_revision}" if to_revision else "as the file is now")
    else:
        raise click.UsageError("give two source files, or one sheet with --from REV [--to REV]")
    for change in changes:  # the diff is this command's output: printed even with --quiet
        reporter().record(
            "change", str(change), {"kind": change.kind, "where": change.where, "old": change.old, "new": change.new}
        )
    same = (
        (
            f": {sides} print the same (a tag just made on a fresh clone is the file as it is: edit the source, or "
            "compare with an earlier revision)"
        )
        if not changes
        else ""
    )
    reporter().result("compared", f"{len(changes)} change(s){same}", {"changes": len(changes)})


@click.command("changelog")
@click.argument("sheet", shell_complete=complete_sheets)
@click.option(
    "--lang", default=None, callback=language_codes, help="The language to print it in (default: the sheet's)."
)
@click.option("--format", "form", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.pass_obj
def changelog_command(project: Project, sheet: str, lang: str | None, form: str) -> None:
    """Every correction of every edition, by kind (the printed box lists only those that change play)."""
    from generator.cli import changelog
    from generator.composing import words
    from generator.model.validate import load

    path = project.sheet_paths((sheet,))[0]
    history.require_edition(*load(path), "qrs changelog")
    source = translations.translated(project, path, lang)
    titles = {kind: words.ui_words(project, source.lang, False)[f"kind_{kind}"] for kind in changelog.KINDS}
    if reporter().json:  # one event, as every command's --json output
        reporter().record("changelog", "", json.loads(changelog.render(source, "json", titles)))
    else:
        click.echo(changelog.render(source, form, titles), nl=False)  # the command's output: printed even with --quiet
