"""Where things are: sources, templates, outputs. One object, passed down, no globals."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from generator import files
from generator.errors import MissingInput, UnknownName, UserError

PACKAGE_ROOT = Path(__file__).resolve().parent
SHEET_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}\Z")  # as model.Id: a file name in sources/, never a path


def _templates() -> Path:
    """The installed templates (package data of generator.templates, see pyproject.toml), else the repository's."""
    from importlib import resources

    try:
        found = resources.files("generator.templates").joinpath("sheet.html.j2")
    except ModuleNotFoundError:  # running from a checkout: templates/ is beside generator/, not inside it
        found = None
    if isinstance(found, Path) and found.is_file():
        return found.parent
    return PACKAGE_ROOT.parent / "templates"


TEMPLATES = _templates()


@dataclass(frozen=True)
class Project:
    sources: Path
    build: Path
    templates: Path = TEMPLATES

    @classmethod
    def at(cls, sources: Path, build: Path | None = None) -> "Project":
        sources = sources.resolve()
        return cls(sources=sources, build=(build or sources.parent / "build").resolve())

    @classmethod
    def chosen(cls, sources: Path, build: Path | None, sources_given: bool) -> "Project":
        """The project of the command line: `at`, where the folders it did not name (the default sources/, the
        build/ beside the sources) are not links out of the library's folder, the one that holds them."""
        if not sources_given:
            _refuse_link_out(sources, "the sources folder", "--sources")
        if build is None:
            _refuse_link_out(sources.parent / "build", "the build folder", "--build-dir")
        return cls.at(sources, build)

    def sheet_paths(self, names: tuple[str, ...] = ()) -> list[Path]:
        """The source of each named sheet (by id or by file path), or of every sheet; an unknown name is an error,
        and so is a sources folder that is missing or holds no sheet (a CI job must not pass having built nothing)."""
        if not self.sources.is_dir():
            raise MissingInput.at(
                self.sources, 0, 0, "no such folder: give the folder of the sheet sources with --sources"
            )
        available = {path.stem: path for path in sorted(self.sources.glob("*.yaml"))}
        if not available:
            raise UserError.at(
                self.sources,
                0,
                0,
                "no sheet source (*.yaml) in this folder: give the folder of the sheet sources with --sources",
            )
        _refuse_missing_files(names)
        names = tuple(self.id_of(name) for name in names)
        if not names:
            return list(available.values())
        unknown = [name for name in names if name not in available]
        if unknown:
            raise UnknownName(_unknown("sheet", unknown, list(available), [path.stem for path in self.handout_paths()]))
        return [available[name] for name in names]

    @property
    def handouts(self) -> Path:
        return self.sources / "handouts"

    def handout_paths(self, names: tuple[str, ...] = (), required: bool = False) -> list[Path]:
        """Handout files: those named (paths or ids), or every one under sources/handouts/ (`required`: at least one)."""
        if not names:
            found = sorted(self.handouts.glob("*.yaml"))
            if required and not found:
                raise UserError.at(self.handouts, 0, 0, "no handout source (*.yaml) in this folder")
            return found
        names = tuple(self.id_of(name) for name in names)  # a handout named by path and by id is one output
        paths = [Path(name) if name.endswith(".yaml") else self.handouts / f"{name}.yaml" for name in names]
        missing = [path for path in paths if not path.is_file()]
        unknown_ids = [
            name for name in names if not name.endswith(".yaml") and self.handouts / f"{name}.yaml" in missing
        ]
        if unknown_ids:
            known = [path.stem for path in sorted(self.handouts.glob("*.yaml"))]
            raise UnknownName(_unknown("handout", unknown_ids, known))
        if missing:
            raise MissingInput.of(missing[0], "a handout (.yaml)")
        return paths

    def id_of(self, name: str) -> str:
        """A sheet's or handout's id from what the user typed: the id itself, or the path of its source file."""
        if not name.endswith(".yaml"):
            return name
        path = Path(name).resolve()
        return path.stem if path.parent in (self.sources, self.handouts.resolve()) else name

    def sources_named(self, names: tuple[str, ...] = ()) -> tuple[list[Path], list[Path]]:
        """(sheets, handouts) named by id or file path, or all of both; an unknown name is an error."""
        if not names:
            return self.sheet_paths(), self.handout_paths()
        _refuse_missing_files(names)
        names = tuple(self.id_of(name) for name in names)
        handout_ids = {path.stem for path in self.handout_paths()}
        sheets = tuple(name for name in names if name not in handout_ids)
        handouts = tuple(name for name in names if name in handout_ids)
        return (self.sheet_paths(sheets) if sheets else []), (self.handout_paths(handouts) if handouts else [])

    def ui_catalogues(self, lang: str) -> list[Path]:
        """Where the templates' words in a language may be, first found first: beside the sources
        (sources/i18n/ui.<lang>.po: a new language without touching an installed qrs), then in the templates."""
        return [self.sources / "i18n" / f"ui.{lang}.po", self.templates / "i18n" / f"{lang}.po"]


def _unknown(kind: str, names: list[str], known: list[str], also: list[str] = ()) -> str:
    """'no sheet named warhamer: did you mean warhammer?', else the names there are. `also`: other ids the user
    may have meant (a handout's, named where a sheet is expected)."""
    import difflib

    said = []
    for name in names:
        if name in also:  # a handout's id where only a sheet's is taken (qrs i18n, qrs diff…)
            said.append(
                f"{name} is a handout, not a {kind}: qrs build, preview, watch, check, export and handout "
                "take it as it is"
            )
            continue
        nearest = difflib.get_close_matches(name, [*known, *also], n=1, cutoff=0.6)
        said.append(
            f"no {kind} named {name}: "
            + (f"did you mean {nearest[0]}?" if nearest else f"the {kind}s are {', '.join(known) or 'none'}")
        )
    return "; ".join(said)


def _refuse_missing_files(names: tuple[str, ...]) -> None:
    """A source named by its path (a name ending in .yaml) that is not there: a missing input (exit 66), as a
    missing roster or document is; an id the sources do not have stays a slip of the command line (64)."""
    missing = [name for name in names if name.endswith(".yaml") and not Path(name).is_file()]
    if missing:
        raise MissingInput.of(missing[0], "a sheet or handout source (.yaml)")


def _refuse_link_out(folder: Path, what: str, option: str) -> None:
    """A default folder that is a symbolic link leading out of the folder that holds it: a cloned repository could
    so make qrs write its outputs, or read its sheets, anywhere. A link the user names on the command line is theirs."""
    if files.leads_out(folder):
        target = folder.resolve()
        raise UserError.at(
            folder,
            1,
            1,
            f"{what} is a symbolic link to {target}, outside the library's folder (the "
            "one that holds it): qrs follows no such link it was not given "
            f"(name the folder with {option} {target} to use it)",
        )
