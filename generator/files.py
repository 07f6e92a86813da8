"""Reading what qrs is given: regular files only, and never more bytes than a limit.

A folder, a FIFO (which would block a reader forever) or a device named like a source is refused with the
file's name, before anything is read; so is a file over the limit."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath

from generator.errors import UserError

MAX_SOURCE_BYTES = 2 * 1024 * 1024
MAX_CATALOGUE_BYTES = 3 * MAX_SOURCE_BYTES  # a catalogue holds each string twice, with its context and comments
MAX_FIGURE_BYTES = 1024 * 1024  # a picture a source names (generator.model.blocks.figure)
FIGURE_SUFFIXES = (".svg", ".png")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# The `src:` fields of a source's text, read without the model (the build manifest, earlier editions from git):
# what may name a figure; a name that is none is harmless there (a file that does not exist).
_SRC_FIELD = re.compile(r"""(?:^|[\s{,])src:[ \t]*["']?([^"'\s,}#]+)""", re.M)


def read_regular(path: Path, limit: int | None = None, what: str = "a source", confined: bool = False) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; UserError (file:1:1) for anything else.
    `confined`: a symbolic link that leads out of the file's folder is refused too (a cloned repository may hold
    one to /etc/passwd or ~/.ssh: its text would be printed in a sheet).
    FileNotFoundError is left to the caller, which knows what a missing file means."""
    if confined:
        refuse_folder_link(Path(path).parent, "reads")
        if not Path(path).resolve().is_relative_to(Path(path).parent.resolve()):
            raise UserError.at(
                path,
                1,
                1,
                f"this is a symbolic link to {os.readlink(path)}, outside {Path(path).parent}: "
                f"{what} is read only from its own folder; replace the link with a plain file",
            )
    try:  # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise
    except OSError as error:
        raise UserError.at(path, 1, 1, f"cannot read the file: {error.strerror}") from None
    status = os.fstat(handle)
    refused = _refusal(path, status, limit, what)
    if refused is not None:
        os.close(handle)
        raise refused
    with os.fdopen(handle, "rb") as stream:
        if limit is None:
            content = stream.read()
        else:  # read(n) allocates n bytes first: ask for the file's size, and more only if it grew meanwhile
            content = stream.read(min(limit, status.st_size) + 1)
            if status.st_size < len(content) <= limit:
                content += stream.read(limit + 1 - len(content))
    if limit is not None and len(content) > limit:  # it grew since fstat
        raise _too_large(path, len(content), limit, what)
    return content


def link_out(path: Path) -> Path | None:
    """The first folder or file on the way to `path` that is a symbolic link leading out of the folder it stands in,
    or None. A cloned repository may hold `sources/i18n`, `build/html` or `schema` as a link to anywhere: checking
    the last component alone would read and write through it. (The folders qrs is given are resolved first, so a
    link above them is the user's own choice.)"""
    for part in [*reversed(Path(os.path.abspath(path)).parents), Path(os.path.abspath(path))]:
        if leads_out(part):
            return part
    return None


def leads_out(path: Path) -> bool:
    """Whether `path` itself is a symbolic link leading out of the folder it stands in."""
    return path.is_symlink() and not path.resolve().is_relative_to(path.parent.resolve())


def refuse_folder_link(folder: Path, verb: str) -> None:
    """UserError naming the link when the way to `folder` passes through a link out of its own folder;
    `verb` says what qrs would have done there ("reads", "writes")."""
    link = link_out(folder)
    if link is not None:
        raise UserError.at(
            link,
            0,
            0,
            f"this folder is a symbolic link to {os.readlink(link)}, outside {link.parent}: "
            f"qrs {verb} nothing through it; replace the link with a plain folder",
        )


def _refusal(path: Path, status: os.stat_result, limit: int | None, what: str) -> UserError | None:
    """Why the opened file is not read (before a byte is), or None."""
    if not stat.S_ISREG(status.st_mode):
        return UserError.at(path, 1, 1, f"this is {_kind(status.st_mode)}, not a file: {what} must be a regular file")
    if limit is not None and status.st_size > limit:
        return _too_large(path, status.st_size, limit, what)
    return None


def _too_large(path: Path, size: int, limit: int, what: str) -> UserError:
    return UserError.at(path, 1, 1, f"the file is {size} bytes; {what} may be at most {limit} bytes")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


# Names Windows keeps for devices, whatever the extension: sources/con.yaml could be neither written nor read there.
_DEVICES = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])$", re.I)


def device_problem(ident: str) -> str | None:
    """Why an id that becomes a file's name is refused: it names a device on Windows (con, nul, com1...)."""
    if _DEVICES.match(ident):
        return (
            f"'{ident}' names a device on Windows (as con, prn, aux, nul, com1-9, lpt1-9 do): a file so named "
            "can be neither written nor read there; choose another id"
        )
    return None


def relative_problem(name: str, suffixes: tuple[str, ...] = FIGURE_SUFFIXES) -> str | None:
    """Why `name` is not a plain path inside a folder (a/b.svg) to a file with one of `suffixes`, or None."""
    if _SCHEME.match(name) or name.startswith("//"):
        return "a URL or a drive: expected a path inside the sources folder, such as figures/blast.svg (nothing is fetched)"
    if name.startswith("/") or "\\" in name:
        return "an absolute path or a backslash: expected a path inside the sources folder, with /, such as figures/blast.svg"
    if ".." in PurePosixPath(name).parts:
        return "'..' leads out of the folder: expected a path inside the sources folder, such as figures/blast.svg"
    if PurePosixPath(name).suffix.lower() not in suffixes:
        return f"expected a {' or '.join(suffixes)} file"
    return None


def named_figures(source_text: str) -> list[str]:
    """The plain relative paths (relative_problem) that the `src:` fields of a source's text name."""
    return sorted({name for name in _SRC_FIELD.findall(source_text) if relative_problem(name) is None})


def figures_named_in(source: Path) -> list[str]:
    """The pictures a sheet's file names (named_figures), read without loading the model: none when it cannot be
    read, which its check says."""
    try:
        return named_figures(read_regular(source, MAX_SOURCE_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, UserError):
        return []
