"""Measurements kept between builds: a block is laid out to be measured only when its key is new.

The key of a measurement is a digest of everything that decides it: the block's HTML (its measuring
chunk), the stylesheet and the page's own styles (column width, type scale, language), qrs's version and
its renderer's source files, the versions of WeasyPrint, its text libraries and the font. One file a sheet and
language in build/.cache/; a file that is not JSON, not this format, or an entry of the wrong shape is
ignored (and rewritten), never trusted. A key is the block's, not the sheet's: what a sheet's own file lacks is
looked for in the folder's other files (a handout drawing blocks from its sheet, a sheet copied or given a new
id measures only what no sheet measured before).
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib import metadata
from pathlib import Path

from generator import __version__, files
from generator.errors import UserError
from generator.project import PACKAGE_ROOT
from generator.rendering.measure import Measured

FORMAT = 4  # 2: sub-headings' repeated heights (Measured.repeats); 3: how far it overflows, wide
# (Measured.overflow, wide); 4: where tall rows may be cut (Measured.cuts)
KEPT = 3  # entries kept per file: this many times those the last build used (other papers, scales)
KEPT_AT_LEAST = 1000  # entries kept per file in any case (about 250 kB): builds of several versions of one sheet
KEPT_DECISIONS = 64  # scale decisions kept per file (papers, options, versions)
MAX_BYTES = 64 * 1024 * 1024
LIBRARIES = ("weasyprint", "pydyf", "fonttools", "pyphen", "font-source-sans-pro")


@cache
def _versions() -> str:
    found = []
    for name in LIBRARIES:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=?")
    return f"qrs={__version__}+{_own_source()};" + ";".join(found)


def _own_source(root: Path = PACKAGE_ROOT) -> str:
    """A digest of the renderer's modules, which lay the chunks out and read their heights: a tree being worked on
    keeps one version number across many changes, and a change to how blocks are measured must not reuse the
    heights measured before it. The rest of the generator reaches a measurement only through the chunk's HTML and
    the styles, which the key holds: a change to the command line keeps the heights."""
    from generator.digests import Digests  # as the manifest hashes the generator for each output

    digest = hashlib.sha256()
    Digests().folder(digest, "generator/rendering", root / "rendering", "*.py")
    return digest.hexdigest()[:16]


def folder(build: Path) -> Path:
    """build/.cache, or the folder QRS_CACHE_DIR names: one cache for several build folders (CI runners, a
    test session); entries are keyed by all that decides them, so sharing them is safe."""
    shared = os.environ.get("QRS_CACHE_DIR")
    return Path(shared).resolve() if shared else build / ".cache"  # the user's folder, wherever its links lead


def key(*parts: str) -> str:
    digest = hashlib.sha256(_versions().encode())
    for part in parts:
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()


MAX_ENTRIES = 20_000  # a file holding more was not written by qrs (it keeps a few thousand at most)
MAX_SCALE = 2.0


class Cache:
    """The heights and scale decisions kept for one sheet and language. What is read is input, never trusted: a
    file reached through a link, linked from elsewhere, or holding anything but the shape and ranges qrs writes is
    ignored whole (on any doubt, the blocks are measured again)."""

    def __init__(self, path: Path, read: bool = True):
        self.path = path
        self.reads_kept = read  # False: measure everything again (emptied), reading no file of the folder
        self.others: list[tuple[dict[str, Measured], dict[str, float]]] | None = None  # _others, at the first miss
        self.known: dict[str, Measured] = {}
        self.used: dict[str, Measured] = {}
        self.decisions: dict[str, float] = {}  # the type scale a sheet's layout chose, by the key of all it decides
        self.learned = False  # a new measurement or decision: the file is worth writing again
        self.read = False  # a height or decision of the file was used: a layout that fails is made again without
        if read:
            self.known, self.decisions = _load(path)

    def emptied(self) -> "Cache":
        """A cache for the same file that knows nothing of it: everything is measured again, and saved."""
        return Cache(self.path, read=False)

    def get(self, name: str) -> Measured | None:
        found = self.used.get(name)
        if found is None:
            found = self.known.get(name)
            if found is None and self.reads_kept:
                found = next((known[name] for known, _ in self._others() if name in known), None)
                self.learned = self.learned or found is not None  # kept in this file too: read first next time
            self.read = self.read or found is not None
        if found is not None:
            self.used[name] = found
        return found

    def _others(self) -> list[tuple[dict[str, Measured], dict[str, float]]]:
        """The entries and decisions of the folder's other files, read at the first key this file lacks."""
        if self.others is None:
            self.others = _others(self.path)
        return self.others

    def put(self, name: str, measured: Measured) -> None:
        self.used[name] = measured
        self.learned = True

    def decision(self, name: str, allowed: tuple[float, ...]) -> float | None:
        """The scale decided before for the same inputs, if it is one of those allowed now."""
        scale = self.decisions.get(name)
        if scale is None and self.reads_kept:  # the same blocks, frame and styles decided under another sheet's name
            scale = next((decided[name] for _, decided in self._others() if name in decided), None)
        if scale in allowed:
            self.read = True
            return scale
        return None

    def decide(self, name: str, scale: float) -> None:
        self.learned = self.learned or self.decisions.get(name) != scale
        self.decisions.pop(name, None)
        self.decisions[name] = scale  # the newest last

    def save(self) -> None:
        """Write what this build used first, then what the file holds now (another process sharing the folder
        may have saved since this one read it: a test session's workers, CI runners), then the older entries
        this one read, as many as KEPT and KEPT_AT_LEAST allow; under a lock, so that no save loses another's.
        A build that learned nothing writes nothing: the file holds all it used already."""
        from generator import write

        if not self.learned:
            return
        try:
            with write.locked(write.lock_path(self.path.parent, self.path.name)):
                now = Cache(self.path)
                entries = {
                    **self.used,
                    **{name: value for name, value in (now.known | self.known).items() if name not in self.used},
                }
                kept = list(entries.items())[: len(self.used) + max((KEPT - 1) * len(self.used), KEPT_AT_LEAST)]
                # in order, the oldest first (an edit changes the key) and this build's last: the oldest go first
                decisions = {
                    **{name: scale for name, scale in now.decisions.items() if name not in self.decisions},
                    **self.decisions,
                }
                content = {
                    "format": FORMAT,
                    "entries": {name: value.to_json() for name, value in kept},
                    "decisions": dict(list(decisions.items())[-KEPT_DECISIONS:]),
                }
                write.atomically(self.path, json.dumps(content).encode())
        except OSError:
            pass  # a cache that cannot be written only costs the next build its measuring


def _load(path: Path) -> tuple[dict[str, Measured], dict[str, float]]:
    """The entries and decisions of a cache file, or nothing at all when there is any doubt about it."""
    if not _confined(path):
        return {}, {}
    try:  # a regular file of a sane size only: a FIFO or a device named so is no cache
        data = json.loads(files.read_regular(path, MAX_BYTES, "a heights cache").decode("utf-8"))
    except (OSError, ValueError, UserError, RecursionError):  # RecursionError: JSON nested thousands deep
        return {}, {}
    if not (
        isinstance(data, dict)
        and set(data) <= {"format", "entries", "decisions"}
        and data.get("format") == FORMAT
        and isinstance(data.get("entries"), dict)
        and isinstance(data.get("decisions", {}), dict)
        and len(data["entries"]) + len(data.get("decisions", {})) <= MAX_ENTRIES
    ):
        return {}, {}
    known = {}
    for name, entry in data["entries"].items():
        measured = Measured.from_json(entry)
        if measured is None or not _is_key(name):
            return {}, {}
        known[name] = measured
    decisions = data.get("decisions", {})
    if not all(_is_key(name) and type(scale) is float and 0 < scale <= MAX_SCALE for name, scale in decisions.items()):
        return {}, {}
    return known, dict(decisions)


# The other files of a cache folder as last read by this process, by path: (their size and modification time,
# their entries and decisions). A worker building sheet after sheet reads each once, and again when it changed.
_read_before: dict[Path, tuple[tuple[int, int], tuple[dict[str, Measured], dict[str, float]]]] = {}


def _others(path: Path) -> list[tuple[dict[str, Measured], dict[str, float]]]:
    """The entries and decisions of every other cache file in `path`'s folder (_load: any in doubt left out)."""
    found = []
    try:
        names = sorted(path.parent.glob("*.json"))
    except OSError:
        return {}
    for other in names:
        try:
            status = other.lstat()
        except OSError:
            continue
        stamp = (status.st_size, status.st_mtime_ns)
        if other == path:
            continue
        if other not in _read_before or _read_before[other][0] != stamp:
            _read_before[other] = (stamp, _load(other))
        if any(_read_before[other][1]):
            found.append(_read_before[other][1])
    return found


def _is_key(name) -> bool:
    return isinstance(name, str) and len(name) == 64 and all(char in "0123456789abcdef" for char in name)


def _confined(path: Path) -> bool:
    """The file itself, in its own folder: not a symbolic link, not a hard link to a file elsewhere (qrs writes
    the file anew each time: it has one name), and its folder not a link out of the build folder."""
    try:
        if path.is_symlink() or files.link_out(path.parent) is not None:
            return False
        status = os.lstat(path)
    except OSError:
        return False
    return status.st_nlink == 1
