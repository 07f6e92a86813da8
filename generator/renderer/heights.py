"""Measurements kept between builds: a block is laid out to be measured only when its key is new.

The key of a measurement is a digest of everything that decides it: the block's HTML (its measuring
chunk), the stylesheet and the page's own styles (column width, type scale, language), qrs's version and
its renderer's source files, the versions of WeasyPrint, its text libraries and the font. One file a sheet and
language in build/.cache/; a file that is not JSON, not this format, or an entry of the wrong shape is
ignored (and rewritten), never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib import metadata
from pathlib import Path

from generator import __version__
from generator.project import PACKAGE_ROOT

from generator import files
from generator.errors import UserError
from generator.renderer.measure import Measured

FORMAT = 1
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
    Digests().folder(digest, "generator/renderer", root / "renderer", "*.py")
    return digest.hexdigest()[:16]


def folder(build: Path) -> Path:
    """build/.cache, or the folder QRS_CACHE_DIR names: one cache for several build folders (CI runners, a
    test session); entries are keyed by all that decides them, so sharing them is safe."""
    shared = os.environ.get("QRS_CACHE_DIR")
    return Path(shared) if shared else build / ".cache"


def key(*parts: str) -> str:
    digest = hashlib.sha256(_versions().encode())
    for part in parts:
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()


class Cache:
    def __init__(self, path: Path):
        self.path = path
        self.known: dict[str, Measured] = {}
        self.used: dict[str, Measured] = {}
        self.decisions: dict[str, float] = {}  # the type scale a sheet's layout chose, by the key of all it measured
        self.learned = False  # a new measurement or decision: the file is worth writing again
        try:  # a regular file of a sane size only: a FIFO or a device named so is no cache
            data = json.loads(files.read_regular(path, MAX_BYTES, "a heights cache").decode("utf-8"))
        except (OSError, ValueError, UserError):
            return
        if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("entries"), dict):
            for name, entry in data["entries"].items():
                measured = Measured.from_json(entry)
                if measured is not None:
                    self.known[name] = measured
            decisions = data.get("decisions")
            if isinstance(decisions, dict):
                self.decisions = {name: scale for name, scale in decisions.items()
                                  if isinstance(scale, float) and 0 < scale <= 1}

    def get(self, name: str) -> Measured | None:
        found = self.used.get(name) or self.known.get(name)
        if found is not None:
            self.used[name] = found
        return found

    def put(self, name: str, measured: Measured) -> None:
        self.used[name] = measured
        self.learned = True

    def decision(self, name: str, allowed: tuple[float, ...]) -> float | None:
        """The scale decided before for the same measurements, if it is one of those allowed now."""
        scale = self.decisions.get(name)
        return scale if scale in allowed else None

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
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with write.locked(self.path.with_name(self.path.name + ".lock")):
                now = Cache(self.path)
                entries = {**self.used, **{name: value for name, value in (now.known | self.known).items()
                                           if name not in self.used}}
                kept = list(entries.items())[: len(self.used) + max((KEPT - 1) * len(self.used), KEPT_AT_LEAST)]
                # in order, the oldest first (an edit changes the key) and this build's last: the oldest go first
                decisions = {**{name: scale for name, scale in now.decisions.items() if name not in self.decisions},
                             **self.decisions}
                content = {"format": FORMAT, "entries": {name: value.to_json() for name, value in kept},
                           "decisions": dict(list(decisions.items())[-KEPT_DECISIONS:])}
                write.atomically(self.path, json.dumps(content).encode())
        except OSError:
            pass  # a cache that cannot be written only costs the next build its measuring
