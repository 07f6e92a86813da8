"""Earlier editions of a source, read from git: a sheet at a revision, or at the edition it declared.

A sheet at a revision is materialised into a folder of its own (the source and its catalogues as
they were), so the ordinary pipeline loads, checks and builds it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from generator.output import write
from generator.errors import UserError

_REVISION = re.compile(r"^[\w./~^@{}-]{1,100}$")


def _git(folder: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise UserError.at(folder, 1, 1, "git is needed to read earlier editions, and it is not installed") from None
    if done.returncode != 0:
        raise UserError.at(folder, 1, 1, f"git {' '.join(args[:2])}: {done.stderr.strip() or 'failed'}")
    return done.stdout


def _relative(path: Path) -> tuple[Path, str]:
    """The repository's root and the path inside it, as git names it."""
    root = Path(_git(path.parent, "rev-parse", "--show-toplevel").strip())
    return root, path.resolve().relative_to(root.resolve()).as_posix()


def checked_revision(revision: str, where: Path) -> str:
    if not _REVISION.match(revision) or revision.startswith("-"):
        raise UserError.at(where, 1, 1, f"'{revision}' is not a git revision (a commit, tag or branch)")
    return revision


def text_at(path: Path, revision: str) -> str:
    """The file as it was at a revision; an error naming the revision if it did not exist then."""
    root, inside = _relative(path)
    return _git(root, "show", f"{checked_revision(revision, path)}:{inside}")


def materialise(sources: Path, sheet_id: str, revision: str, folder: Path) -> Path:
    """Write a sheet and its catalogues as they were at a revision into `folder`; the sheet's path there."""
    source = sources / f"{sheet_id}.yaml"
    target = folder / source.name
    write.text(target, text_at(source, revision))
    root, inside = _relative(source)  # sources/i18n/ need not exist now, nor have existed then
    catalogues = (Path(inside).parent / "i18n").as_posix()
    listed = _git(root, "ls-tree", "--name-only", f"{checked_revision(revision, source)}", f"{catalogues}/")
    for name in listed.split():
        if Path(name).name.startswith(f"{sheet_id}.") and name.endswith(".po"):
            write.text(folder / "i18n" / Path(name).name, _git(root, "show", f"{revision}:{name}"))
    return target


def revision_of_edition(path: Path, edition: str, required: bool = True) -> str | None:
    """The newest commit at which the source declared this edition; when `required` is false, None where
    there is none (or no git repository, or no git)."""
    try:
        try:
            root, inside = _relative(path)
        except UserError:
            raise UserError.at(path, 1, 1, "earlier editions are read from git, and this source is not in a git "
                                           "repository: an edition can be compared once it is committed") from None
        declared = re.compile(rf"^edition:\s*[\"']?{re.escape(edition)}[\"']?\s*$", re.M)
        for commit in _git(root, "log", "--format=%H", "--", inside).split():
            if declared.search(_git(root, "show", f"{commit}:{inside}")):
                return commit
    except UserError:
        if required:
            raise
        return None
    if required:
        raise UserError.at(path, 1, 1, f"no commit of {inside} declares edition {edition}: "
                                       "an edition can be compared once it is committed")
    return None
