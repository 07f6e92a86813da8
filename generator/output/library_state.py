"""The library's state as `make` would find it, without building anything: the outputs `qrs build --all` plans,
which of them are stale, and the languages it leaves out because their catalogues are in progress.

It is the build's own plan (generator.output.plan, generator.output.manifest): the same digests decide what is
stale, and the languages in progress are read from the cache the build keeps of them (build/.cache/progress/), so
that once a build has run nothing here loads a sheet, and nothing imports WeasyPrint or the model."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.digests import Digests
from generator.errors import UserError
from generator.options import BuildOptions
from generator.output import manifest as manifests
from generator.output import plan as plans
from generator.output.targets import named
from generator.project import Project


@dataclass
class LibraryState:
    sheets: int = 0
    handouts: int = 0
    outputs: int = 0
    stale: list[str] = field(default_factory=list)  # the outputs' keys, as `qrs build` names them
    left_out: list[str] = field(default_factory=list)  # what the build would say it leaves out, and why
    problems: list[str] = field(default_factory=list)  # sources the plan could not read: `qrs check` says why
    missing: str | None = None  # why there is no library here

    def line(self) -> str:
        """The one-line summary of the library."""
        if self.missing:
            return self.missing
        parts = [
            f"{self.sheets} sheet(s), {self.handouts} handout(s)",
            f"{self.outputs - len(self.stale)} of {self.outputs} output(s) up to date",
        ]
        if self.left_out:
            parts.append(f"{len(self.left_out)} language(s) in progress or left out")
        if self.problems:
            parts.append(f"{len(self.problems)} problem(s): run qrs check")
        return ", ".join(parts)


def state(project: Project, options: BuildOptions, forms: tuple[str, ...]) -> LibraryState:
    """What `qrs build --all` with these options and formats would build, and leave out, now."""
    try:
        targets = named(project)
    except UserError as error:
        return LibraryState(missing=f"no library here: {error.problems[0].message}")
    handouts = [target for target in targets if target.kind == "handout"]
    sheets = [target for target in targets if target.kind == "sheet"]
    digests = Digests()
    manifest = manifests.Manifest.of(project)
    planned = plans.plan(project, targets, (), manifest, digests, forms)
    outputs = list({output.key(project): output for output in plans.named(planned.outputs, options)}.values())
    inputs = manifests.inputs_digests(project, outputs, options, manifests.shared_digest(project, digests), digests)
    stale = [
        output.key(project)
        for output in outputs
        if not manifest.fresh(output.key(project), inputs[output.key(project)], output.path(project), digests)
    ]
    return LibraryState(
        sheets=len(sheets),
        handouts=len(handouts),
        outputs=len(outputs),
        stale=stale,
        left_out=list(planned.left_out),
        problems=[f"{problem.path}: {problem.message}" for problem in planned.problems],
    )
