"""The content suite (`qrs test`): whatever a library holds, every sheet and handout checks, builds in each of its
complete languages, fits the pages it declares, and prints every cell and item of its source.

It is qrs code, not a test framework's: `qrs test` runs it on the user's library, and the project's own tests call
it for the library the project ships. Each failure is a Problem naming the file (and, where it can, the cell).
The outputs are built as `qrs build --all` builds them, into the same build folder and through its manifest, so
that what a build left fresh is read, not built again."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.digests import Digests
from generator.errors import Problem, UserError
from generator.options import BuildOptions
from generator.output import completeness, parallel
from generator.output import plan as plans
from generator.output.manifest import Manifest
from generator.output.plan import Output
from generator.output.targets import HandoutTarget, Target, named
from generator.project import Project
from generator.rendering import speedups
from generator.report import Reporter, shown

# what `qrs build --all` builds with: the same manifest entries, so that neither builds the other's outputs again
SETTINGS = BuildOptions()
# every PDF's fonts: the sheet's, and the symbol and monospace faces sheet.css declares as "QRS …" (templates/symbols/);
# another one is the renderer's fallback, from the system, for a character they all lack
FONT_FAMILIES = ("Source-Sans", "QRS-")


@dataclass
class Outcome:
    """What the suite found: its problems, and what it looked at."""

    problems: list[Problem] = field(default_factory=list)
    sheets: int = 0
    handouts: int = 0
    outputs: int = 0
    left_out: list[str] = field(default_factory=list)  # languages in progress, as the build says them

    def line(self) -> str:
        verdict = f"{len(self.problems)} problem(s)" if self.problems else "no problem found"
        return f"{self.sheets} sheet(s) and {self.handouts} handout(s) tested, {self.outputs} output(s) read: {verdict}"


def run(
    project: Project, names: tuple[str, ...] = (), report: Reporter | None = None, jobs: int | None = None
) -> Outcome:
    """The suite over the sheets and handouts named (by id or path), or every one the library holds."""
    report = report or Reporter(quiet=True)
    targets = named(project, names)
    handouts = [target for target in targets if isinstance(target, HandoutTarget)]
    outcome = Outcome(sheets=len(targets) - len(handouts), handouts=len(handouts))
    failed = _checked(project, targets, outcome)
    targets = [
        target
        for target in targets
        if target.source not in failed
        and (not isinstance(target, HandoutTarget) or _sheet_of(project, target.source) not in failed)
    ]
    if not targets:
        return outcome
    planned = plans.plan(project, targets, (), Manifest.of(project), Digests())
    outcome.left_out += planned.left_out
    built = parallel.build(project, targets, (), SETTINGS, report, jobs).problems
    speedups.resume()  # the outputs' checks read every PDF: their garbage collected as they go
    outcome.problems += built
    failed |= {Path(problem.path) for problem in [*built, *planned.problems]}
    for output in planned.outputs:
        if output.source not in failed and project.sources / f"{output.sheet}.yaml" not in failed:
            outcome.problems += output_problems(project, output)
            outcome.outputs += 1
    return outcome


def _checked(project: Project, targets: list[Target], outcome: Outcome) -> set[Path]:
    """`qrs check` on each target: its problems kept, the files that have some returned (they are not built)."""
    failed = set()
    for target in targets:
        try:
            target.check(project)  # a language in progress is said by the build (planned.left_out)
        except UserError as error:
            outcome.problems += error.problems
            failed.add(target.source)
    return failed


def _sheet_of(project: Project, handout: Path) -> Path | None:
    from generator.reading.sources import load_file

    sheet = load_file(handout).data.get("sheet")
    return project.sources / f"{sheet}.yaml" if isinstance(sheet, str) else None


def output_problems(project: Project, output: Output) -> list[Problem]:
    """One built PDF against its source: its pages within those declared, every text printed, one font."""
    from pypdf import PdfReader

    located, sheet = _as_printed(project, output)
    pdf = output.path(project)
    pages = PdfReader(pdf).pages
    problems = []
    declared = sheet.paper.pages  # none declared: as many as the content takes
    if declared and len(pages) > declared:
        problems.append(
            located.problem(
                ("paper", "pages"), f"{shown(pdf)} takes {len(pages)} page(s), more than the {declared} declared"
            )
        )
    text = "".join(page.extract_text() for page in pages)
    problems += [_missing_problem(located, output, pdf, lack) for lack in completeness.missing(text, sheet)]
    fonts = {name for name in _fonts(pages) if not name.startswith(FONT_FAMILIES)}
    if fonts:
        problems.append(
            located.problem(
                (),
                f"{shown(pdf)} prints in {', '.join(sorted(fonts))}, not only the "
                "sheet's font: a character the font lacks",
            )
        )
    return problems


def _as_printed(project: Project, output: Output):
    """The located source to name problems in, and the sheet the output prints (a handout: composed)."""
    from generator.composing import languages as translations
    from generator.model.validate import load

    if output.kind == "handout":
        from generator.composing.handout import load_handout

        return load_handout(project, output.source)[0], output.target.compose(project, output.lang, SETTINGS).sheet
    located, _ = load(output.source)
    return located, translations.translated(project, output.source, output.lang)


def _missing_problem(located, output: Output, pdf: Path, lack: completeness.Missing) -> Problem:
    """A handout's composed blocks have no place in its file: its problem names the block, at the file's top."""
    where = lack.loc if output.kind == "sheet" else ()
    block = f"block {lack.block}: " if lack.block else ""
    return located.problem(
        where, f"{block}{lack.text!r} is not printed in {shown(pdf)} (or not in the order of its block)"
    )


def _fonts(pages) -> set[str]:
    return {
        str(font.get_object()["/BaseFont"]).split("+")[-1]
        for page in pages
        for font in page["/Resources"]["/Font"].values()
    }
