"""`qrs handout`: build handouts, or import one from a BattleScribe roster."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from generator.cli.options import (
    build_options,
    checked_handout_id,
    chosen_formats,
    complete_handouts,
    complete_sheets,
    format_option,
    language_codes,
    own_options,
    print_options,
    refuse_what_formats_cannot,
    speed_options,
)
from generator.errors import UserError
from generator.output import parallel
from generator.output.targets import HandoutTarget
from generator.project import Project
from generator.report import current as reporter
from generator.report import shown


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


@click.group("handout", cls=_BuildUnlessNamed)
def handout_group() -> None:
    """Per-army handouts: build them (qrs handout [HANDOUT...]), or import one from a roster."""


@handout_group.command("import")
@click.argument("roster_path", metavar="ROSTER", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--sheet",
    default=None,
    shell_complete=complete_sheets,
    help="The sheet the handout draws on (default: the one whose game the roster names, else none).",
)
@click.option("--force", is_flag=True, help="Draw on --sheet even if the roster is of another game.")
@click.option(
    "--id",
    "handout_id",
    default=None,
    callback=checked_handout_id,
    help="The handout's id (default: the roster's file name).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Fail (exit code 2, nothing written) if anything of the roster matches nothing of the sheet.",
)
@click.pass_obj
def handout_import(
    project: Project, roster_path: Path, sheet: str | None, force: bool, handout_id: str | None, strict: bool
) -> None:
    """Write sources/handouts/<id>.yaml from a BattleScribe or New Recruit roster (.ros or .rosz)."""
    from generator.composing import roster

    written, made, label = roster.import_roster(project, roster_path, sheet, handout_id, strict, force)
    if (made.unmatched or made.sections_left_out) and reporter().json:
        for item in made.unmatched:
            reporter().record("unmatched", str(item), {"roster": label, **dataclasses.asdict(item)})
        for line in made.sections_left_out:
            reporter().record("section_left_out", line, {"roster": label})
    elif made.unmatched or made.left_out or made.sections_left_out or not made.handout.get("sheet"):
        click.echo(made.report(label), err=True)
    reporter().result("wrote", f"wrote {shown(written)}", {"path": str(written)})


@handout_group.command("build")
@click.argument("handouts", nargs=-1, shell_complete=complete_handouts)
@click.option(
    "--lang",
    "languages",
    multiple=True,
    callback=language_codes,
    help="Language(s) to build (default: those the handout lists).",
)
@print_options
@format_option
@speed_options
@click.pass_obj
def handout(
    project: Project,
    handouts: tuple[str, ...],
    languages: tuple[str, ...],
    paper: str | None,
    allow_fallback: bool,
    crop_marks: bool,
    ink_saver: bool,
    impose: str | None = None,
    pdf_variant: str | None = None,
    formats: tuple[str, ...] = ("pdf",),
    jobs: int | None = None,
    shard: tuple[int, int] | None = None,
    rebuild: bool = False,
    **format_options,
) -> None:
    """Render per-army handouts (sources/handouts/*.yaml, or the files given) to build/handouts/; with --cards, or
    for a handout naming `cards:`, its units as cards (build/handouts/ID.cards-SIZE.LANG.pdf)."""
    forms = chosen_formats(formats, format_options)
    options = build_options(
        paper, allow_fallback, crop_marks, ink_saver, impose, pdf_variant, own=own_options(forms, format_options)
    )
    targets = list(dict.fromkeys(HandoutTarget(path) for path in project.handout_paths(handouts, required=True)))
    refuse_what_formats_cannot(forms, targets, options)
    problems = parallel.build(
        project, targets, languages, options, reporter(), jobs, shard, rebuild, forms=forms
    ).problems
    if problems:
        raise UserError(problems)
