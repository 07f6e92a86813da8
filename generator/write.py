"""Atomic writes: every file qrs writes goes through here. An output appears whole or not at all, and
never lands outside its folder through a symbolic link (a cloned repository may hold one)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from generator import files
from generator.errors import UserError

_owner: int | None = None  # in a build's worker process: the pid of the command it works for


def _umask() -> int:
    """The process's umask, read without changing it where the system allows (os.umask sets it to read it)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:  # not Linux
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()  # as open() would create it: 0644 under the usual 022, so build/ can be published


_writing: Path | None = None  # the temporary file being written now, removed if the process is told to stop


def abandon() -> None:
    """Remove the temporary file being written, if any (a worker told to stop leaves no partial file)."""
    if _writing is not None:
        _writing.unlink(missing_ok=True)


def only_while_alive(parent: int) -> None:
    """In a worker process: write nothing once the process `parent` is gone (a killed build writes no more)."""
    global _owner
    _owner = parent


def atomically(path: Path, content: bytes, overwrite: bool = True) -> None:
    """Write to a temporary file beside the target, then rename: readers never see half a file.

    With `overwrite=False` the file is only created: an existing one (even a dangling link) is never replaced,
    and FileExistsError says so. A link to a file outside the target's folder is refused (UserError)."""
    global _writing
    target = destination(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:  # a read-only folder: named as the user knows it, not as the temporary file
        error.filename, error.filename2 = str(target), None
        raise
    _writing = Path(temporary)
    try:
        os.chmod(temporary, FILE_MODE)  # mkstemp makes it 0600: readable by its owner only
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        if _owner is not None and os.getppid() != _owner:  # orphaned: the build was killed
            Path(temporary).unlink(missing_ok=True)
            os._exit(1)
        if overwrite:
            os.replace(temporary, target)  # replaces a link put there meanwhile; never writes through it
        else:
            os.link(temporary, target)  # fails if anything, even a dangling link, has that name
            os.unlink(temporary)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):  # named as the user knows it: not the temporary file, which is gone
            error.filename, error.filename2 = str(target), None
        raise
    finally:
        _writing = None


def text(path: Path, content: str, overwrite: bool = True) -> None:
    """A UTF-8 text file, as `atomically` writes it."""
    atomically(path, content.encode("utf-8"), overwrite)


def destination(path: Path) -> Path:
    """The file to write: `path`, or the file its link names when that is inside the same folder.
    Raises UserError for a link out of the folder, or for a folder on the way that is a link out of its own folder
    (called first by those that read the file before writing it)."""
    files.refuse_folder_link(path.parent, "writes")
    if not path.is_symlink():
        return path
    folder = path.parent.resolve()
    target = path.resolve()
    if not target.is_relative_to(folder):
        raise UserError.at(
            path,
            1,
            1,
            f"this is a symbolic link to {os.readlink(path)}, outside {path.parent}: "
            "qrs writes nothing through it; replace the link with a plain file",
        )
    return target


def lock_path(cache: Path, name: str) -> Path:
    """The lock file of `name` in the cache folder `cache` (build/.cache/locks/NAME.lock): out of the outputs'
    sight. It stays after use: removing a file another run may be waiting to lock would let two runs hold
    "the" lock at once (one on the removed file, one on a new one)."""
    return cache / "locks" / f"{name}.lock"


class locked:
    """An exclusive lock on a file (two qrs runs may finish at the same time); its folder is made if need be, a link
    there, or a folder on the way that links out of its own folder, is refused."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        files.refuse_folder_link(self.path.parent, "writes")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:  # O_NOFOLLOW: opening would otherwise create the link's target wherever it points
            self.handle = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError:
            if self.path.is_symlink():
                raise UserError.at(
                    self.path, 1, 1, "this is a symbolic link: qrs writes nothing through it; remove it"
                ) from None
            raise
        try:
            import fcntl

            fcntl.flock(self.handle, fcntl.LOCK_EX)
        except ImportError:  # not POSIX: the atomic rename still keeps the file whole
            pass
        return self

    def __exit__(self, *exc):
        os.close(self.handle)  # closing releases the lock
