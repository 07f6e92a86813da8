"""The whole pipeline on one screen: load → validate → compose → render → write, for any target and format.

A target (generator.output.targets: a sheet or a handout) is loaded and validated by the model, composed into the
sheet a language prints (translated, at an edition, a handout's parts of its sheet), rendered by a format
(generator.output.formats: the PDF, the web page) and written atomically. `check` and `load`
(generator.model.validate) and `load_handout` (generator.composing.handout) are named here for the callers."""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator import write
from generator.composing import diff
from generator.composing import editions as history
from generator.composing import translate as i18n
from generator.composing.handout import load_handout  # noqa: F401 - named for the callers
from generator.errors import UserError
from generator.model.types import Sheet
from generator.model.validate import check, load  # noqa: F401 - named for the callers
from generator.options import BuildOptions
from generator.output import formats
from generator.output.targets import HandoutTarget, SheetTarget, Target  # noqa: F401 - named for the callers
from generator.project import SHEET_ID, Project


@dataclass(frozen=True)
class Written:
    """What a build wrote: the file, the layout's report (a PDF's), and how many strings it printed untranslated."""

    path: Path
    layout: dict | None = None
    untranslated: int = 0


def build(
    project: Project,
    target: Target,
    lang: str,
    form: str = "pdf",
    options: BuildOptions = BuildOptions(),
    output: Path | None = None,
) -> Written:
    """Build one target in one language in one format; the previous file stays until the new one is complete."""
    writer = formats.writer(form)
    prepared = target.compose(project, lang, options)
    rendered = writer.render(project, prepared, options)
    output = output or writer.path(
        project, target, lang, formats.joined(writer.variant(options), _edition_variant(options, prepared.since))
    )
    write.atomically(output, rendered.data)
    return Written(output, rendered.layout, prepared.untranslated)


def _edition_variant(options: BuildOptions, since: str | None) -> str | None:
    """What the edition compared with adds to a name: errata-2.0, since-2.0."""
    return f"errata-{since}" if options.errata_only else f"since-{since}" if since else None


def compare(old: Path | Sheet, new: Path | Sheet) -> list[diff.Change]:
    """The semantic differences between two sources (or sheets)."""
    return diff.compare(*(check(side) if isinstance(side, Path) else side for side in (old, new)))


def build_at_revision(
    project: Project, sheet_id: str, revision: str, lang: str | None, options: BuildOptions = BuildOptions()
) -> list[Written]:
    """A sheet as it was at a git revision or tag, in build/<sheet>@<revision>.<lang>.pdf."""
    if not SHEET_ID.match(sheet_id):
        raise UserError.at(
            project.sources,
            1,
            1,
            f"{sheet_id!r} is not a sheet id: SHEET@REVISION takes the file "
            "name of a sheet in the sources folder, without .yaml (wab2@v2.0)",
        )
    with tempfile.TemporaryDirectory(prefix="qrs-") as folder:
        sources = Path(folder) / history.folder_name(sheet_id, revision)
        earlier = history.materialise(project.sources, sheet_id, revision, sources)
        past = Project(sources=sources, build=Path(folder) / "build", templates=project.templates)
        pdf = formats.writer("pdf")
        named = SheetTarget(Path(f"{sheet_id}@{_in_a_name(revision)}.yaml"))  # names the outputs, never read
        with history.named_at_revision(sources, project.sources, revision):
            return [
                build(past, SheetTarget(earlier), language, "pdf", options, pdf.path(project, named, language))
                for language in ([lang] if lang else i18n.languages(sources, check(earlier)))
            ]


def _in_a_name(revision: str) -> str:
    """A revision as part of a file name: a character other than a letter, digit, dot or dash becomes a dash."""
    return re.sub(r"[^\w.-]", "-", revision)
