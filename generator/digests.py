"""SHA-256 digests of the project's files, each file read once per run (through the confined reader): what the
manifest and the heights cache key their entries by."""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator import files
from generator.errors import UserError

ABSENT = "-"  # the digest of an input file that does not exist (a catalogue not written yet)
# A file over the limit of its kind is not read to be hashed: it is ABSENT, and the build refuses it by its size.
LIMITS = {
    ".po": files.MAX_CATALOGUE_BYTES,
    ".yaml": files.MAX_SOURCE_BYTES,
    **dict.fromkeys(files.FIGURE_SUFFIXES, files.MAX_FIGURE_BYTES),
}
MAX_OTHER_BYTES = 256 * 1024 * 1024  # a PDF written, a template, a font: a file planted larger is not read whole


class Digests:
    """SHA-256 of files, each read once per run."""

    def __init__(self):
        self.known: dict[Path, str] = {}

    def file(self, path: Path) -> str:
        if path not in self.known:
            try:
                self.known[path] = hashlib.sha256(
                    files.read_regular(path, LIMITS.get(path.suffix, MAX_OTHER_BYTES))
                ).hexdigest()
            except (FileNotFoundError, NotADirectoryError, UserError):  # not a file: the build says so
                self.known[path] = ABSENT
        return self.known[path]

    def folder(self, digest, label: str, root: Path, pattern: str = "*") -> None:
        """Every file under root (names and bytes) into `digest`, in a fixed order."""
        files = sorted(path for path in root.rglob(pattern) if path.is_file() and "__pycache__" not in path.parts)
        for path in files:
            digest.update(f"{label}/{path.relative_to(root).as_posix()}\0{self.file(path)}\n".encode())
