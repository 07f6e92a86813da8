"""Earlier editions of a source as git keeps them: a revision checked, a file's text at a revision, the commit
that declared an edition, and a sheet with its catalogues and pictures written out as they were (materialised),
each read bounded as the sources are. generator.composing.editions makes sheets of them."""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

from generator import files, write
from generator.errors import UserError
from generator.files import MAX_CATALOGUE_BYTES, MAX_SOURCE_BYTES

_REVISION = re.compile(r"^[\w./~^@{}-]{1,100}\Z")


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
    checked_revision(revision, path)
    try:
        _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    except UserError:
        raise UserError.at(
            path,
            1,
            1,
            f"there is no revision '{revision}' in this repository: name a commit, a branch "
            f"or a tag (tag an edition when it is published: git tag v2.2)",
        ) from None
    return _blob(root, f"{revision}:{inside}", path, MAX_SOURCE_BYTES, "a source")


def _blob(root: Path, spec: str, where: Path, limit: int, what: str) -> str:
    """`git show REVISION:PATH`, its size checked first: a 400 MB blob is refused before it is read."""
    try:
        size = int(_git(root, "cat-file", "-s", spec))
    except (UserError, ValueError):
        size = 0  # not an object: `git show` says what is wrong with the revision or the path
    if size > limit:
        raise UserError.at(
            where, 1, 1, f"at {spec.partition(':')[0]}, the file is {size} bytes; {what} may be at most {limit} bytes"
        )
    return _git(root, "show", spec)


def folder_name(sheet_id: str, revision: str) -> str:
    """The name of a temporary folder for a sheet at a revision: never made of the revision itself, which may hold
    '..' and '/' (a revision such as @^{/../../..} selects a commit by its message)."""
    return f"{sheet_id}@{hashlib.sha256(revision.encode()).hexdigest()[:12]}"


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
            write.text(
                folder / "i18n" / Path(name).name,
                _blob(
                    root, f"{revision}:{name}", sources / "i18n" / Path(name).name, MAX_CATALOGUE_BYTES, "a catalogue"
                ),
            )
    _materialise_figures(root, Path(inside).parent, revision, target, folder)
    return target


def _materialise_figures(root: Path, sources: Path, revision: str, target: Path, folder: Path) -> None:
    """The pictures the sheet's figures named, as they were at the revision (those it had), beside it in `folder`."""
    for name in files.named_figures(target.read_text(encoding="utf-8")):
        spec = f"{revision}:{(sources / name).as_posix()}"
        try:
            if int(_git(root, "cat-file", "-s", spec)) > files.MAX_FIGURE_BYTES:
                continue  # refused by its size when the sheet is checked: it is missing there
        except (UserError, ValueError):
            continue  # not in the revision: the sheet's check says so
        done = subprocess.run(["git", "-C", str(root), "cat-file", "blob", spec], capture_output=True, check=False)
        if done.returncode == 0:
            write.atomically(folder / name, done.stdout)


def revision_of_edition(path: Path, edition: str, required: bool = True) -> str | None:
    """The newest commit at which the source declared this edition; when `required` is false, None where
    there is none (or no git repository, or no git)."""
    try:
        try:
            root, inside = _relative(path)
        except UserError:
            raise UserError.at(
                path,
                1,
                1,
                "earlier editions are read from git, and this source is not in a git "
                "repository: an edition can be compared once it is committed",
            ) from None
        declared = re.compile(rf"^edition:\s*[\"']?{re.escape(edition)}[\"']?\s*$", re.M)
        for commit in _git(root, "log", "--format=%H", "--", inside).split():
            if declared.search(_git(root, "show", f"{commit}:{inside}")):
                return commit
    except UserError:
        if required:
            raise
        return None
    if required:
        raise UserError.at(
            path,
            1,
            1,
            f"no commit of {inside} declares edition {edition}: an edition can be compared once it is committed",
        )
    return None
