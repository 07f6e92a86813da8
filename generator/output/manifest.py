"""Incremental builds: a content-hash manifest in build/ says which outputs are up to date.

An output is a sheet or a handout in one language, as a PDF (build/<sheet>.<lang>.pdf,
build/handouts/<id>.<lang>.pdf) or a web page (build/html/<sheet>.<lang>.html, build/html/handouts/<id>.<lang>.html).
Its *inputs digest* hashes the bytes of everything it is made from:

- its source and its catalogue in that language; for a handout, also its sheet's source and the sheet's
  catalogue in that language;
- what every output shares: the generator's version and its own source files, the templates folder, the
  font files, and the names of the installed distributions (a library upgrade rebuilds everything);
- the build options (paper, fallback, gloss…).

`build/.qrs-manifest.json` records, for each output written, its inputs digest and the digest of the PDF written.
An output is up to date when both still match: same inputs, and the PDF on disk is the one qrs wrote (a deleted or
edited PDF is rebuilt). The manifest is updated atomically, under a lock, and only for outputs that were built
without a problem: a failed build marks nothing fresh (the previous good PDF stays, with its own entry).

Deciding what is stale reads no YAML through the model and imports neither pydantic nor WeasyPrint: a build with
nothing to do costs about as much as starting Python and hashing the inputs.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from generator import __version__, files
from generator.digests import Digests
from generator.errors import UserError
from generator.options import BuildOptions
from generator.project import PACKAGE_ROOT, SHEET_ID, Project
from generator.report import shown

NAME = ".qrs-manifest.json"
MAX_BYTES = 64 * 1024 * 1024  # about 300,000 outputs
FORMAT = 2  # 2: the build options' digest computed, no longer remembered
LANGUAGE_CODE = re.compile(r"^[a-z]{2}(-[A-Z]{2})?\Z")  # as model.LanguageCode


def _package_folder(name: str) -> Path | None:
    """Where an installed package is, without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).resolve().parent


def fonts_folder() -> Path | None:
    """The font package's files (as generator.rendering.render.FONTS names them), found without importing WeasyPrint."""
    found = _package_folder("font_source_sans_pro")
    return found / "files" if found else None


def distributions() -> list[str]:
    """The installed distributions and their versions (the *.dist-info names beside WeasyPrint)."""
    found = _package_folder("weasyprint")
    if found is None:
        return []
    return sorted(entry.name for entry in os.scandir(found.parent) if entry.name.endswith(".dist-info"))


def shared_digest(project: Project, digests: Digests) -> str:
    """What every output is made from besides its own sources: generator, templates, fonts, libraries."""
    digest = hashlib.sha256(f"qrs {__version__}\nmanifest {FORMAT}\n".encode())
    digests.folder(digest, "generator", PACKAGE_ROOT, "*.py")
    digests.folder(digest, "templates", project.templates)
    fonts = fonts_folder()
    if fonts is not None and fonts.is_dir():
        digests.folder(digest, "fonts", fonts)
    digest.update("\n".join(distributions()).encode())
    digest.update(f"\nfont subsetter {font_subsetter()}\n".encode())
    return digest.hexdigest()


def font_subsetter() -> str:
    """Which library cuts the fonts into a PDF: HarfBuzz where libharfbuzz-subset is installed, else fontTools.
    Each gives its own bytes (the pages look the same), so installing it makes every PDF stale. Asked of the
    dynamic linker by the library's name, as WeasyPrint opens it: no program is run."""
    import ctypes

    for name in ("libharfbuzz-subset.so.0", "libharfbuzz-subset.0.dylib", "libharfbuzz-subset-0.dll"):
        try:
            ctypes.CDLL(name)
        except OSError:
            continue
        return "harfbuzz"
    return "fonttools"


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def options_digest(options: BuildOptions) -> str:
    """The digest of every build option, defaults included, so that `qrs build --all` and `qrs handout` (which
    set different ones) agree."""
    return hashlib.sha256(_json(asdict(options)).encode()).hexdigest()


def inputs_digest(project: Project, output, shared: str, options: str, digests: Digests) -> str:
    """What one output is made from: `shared` (shared_digest), `options` (options_digest), its own files."""
    digest = hashlib.sha256(
        f"{shared}\n{options}\n{output.kind}\0{output.name}\0{output.lang}\0{output.form}\n".encode()
    )
    for path in output.inputs(project):
        digest.update(f"{source_name(project, path)}\0{digests.file(path)}\n".encode())
    return digest.hexdigest()


def inputs_digests(
    project: Project, outputs: list, options: BuildOptions, shared: str, digests: Digests
) -> dict[str, str]:
    """Each output's inputs digest (a generator.output.plan.Output's), by its key in the manifest, with its own
    build options (Output.options_of)."""
    return {
        output.key(project): inputs_digest(project, output, shared, options_digest(output.options_of(options)), digests)
        for output in outputs
    }


def source_name(project: Project, path: Path) -> str:
    """A source's name in the manifest: its path in the sources folder (the checkout may move)."""
    return path.relative_to(project.sources).as_posix() if path.is_relative_to(project.sources) else str(path)


@dataclass
class Manifest:
    """build/.qrs-manifest.json: per output, {"inputs": digest, "pdf": digest of the file written (a PDF or a page),
    "seconds": build time, "columns": how full its columns were (a PDF's, for --verbose), "layout": its layout's
    report (a PDF's, for --json)};
    per handout source, the plan read from it ({"source": digest, "sheet": id, "languages": [...]})."""

    path: Path
    outputs: dict[str, dict] = field(default_factory=dict)
    plans: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def of(cls, project: Project) -> "Manifest":
        return cls.read(project.build / NAME)

    dropped: list[str] = field(default_factory=list)  # why entries read from the file were not trusted

    @classmethod
    def read(cls, path: Path) -> "Manifest":
        """The manifest qrs wrote, its entries checked; one that is not (malformed, too deep, too large) is ignored
        with a warning and its outputs are built again. A link out of the build folder, a device or a named pipe
        where it goes is refused by name (reading /dev/zero would never end; qrs writes nothing through a link)."""
        try:
            text = files.read_regular(path, MAX_BYTES, "the build manifest", confined=True).decode("utf-8")
            data = json.loads(text)
        except FileNotFoundError:
            return cls(path)
        except UserError:
            if path.is_symlink() or not path.is_file():
                raise
            return cls(
                path, dropped=[f"{shown(path)}: larger than {MAX_BYTES} bytes: ignored (every output is rebuilt)"]
            )
        except (OSError, ValueError, RecursionError) as error:  # RecursionError: JSON nested too deep
            return cls(
                path,
                dropped=[
                    f"{shown(path)}: not a manifest qrs wrote ({type(error).__name__}): ignored "
                    "(every output is rebuilt)"
                ],
            )
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return cls(path)
        found = cls(path)
        for section, flaw in (("outputs", _output_flaw), ("plans", _plan_flaw)):
            setattr(found, section, found._valid(section, data.get(section), flaw))
        return found

    def _valid(self, section: str, entries, flaw: Callable[[object], str | None]) -> dict:
        """The entries of one section that hold what this generator wrote; each other one noted in `dropped`."""
        if not isinstance(entries, dict):
            if entries is not None:
                self.dropped.append(
                    f"{shown(self.path)}: '{section}' is not an object: ignored (its outputs are rebuilt)"
                )
            return {}
        kept = {}
        for key, entry in entries.items():
            why = flaw(entry)
            if why is None:
                kept[key] = entry
            else:
                self.dropped.append(
                    f"{shown(self.path)}: {section} entry '{key}' ignored (its output is rebuilt): {why}"
                )
        return kept

    def fresh(self, key: str, inputs: str, written: Path, digests: Digests) -> bool:
        entry = self.outputs.get(key)
        return bool(entry) and entry.get("inputs") == inputs and digests.file(written) == entry.get("pdf")

    def columns(self, key: str) -> str | None:
        """How full each column of the output was when it was written (report.columns_line), if it was told."""
        return (self.outputs.get(key) or {}).get("columns")

    def layout(self, key: str) -> dict | None:
        """The layout's report of the output when it was written (what its "wrote" event told), if it was told."""
        return (self.outputs.get(key) or {}).get("layout")

    def seconds(self, key: str) -> float:
        return float((self.outputs.get(key) or {}).get("seconds") or 0.0)

    def save(self, outputs: dict[str, dict], plans: dict[str, dict]) -> None:
        """Record these entries: merged, under a lock, into the manifest as it is on disk now, written atomically."""
        from generator import write

        with write.locked(write.lock_path(self.path.parent / ".cache", self.path.name)):
            current = Manifest.read(self.path)
            current.outputs.update(outputs)
            current.plans.update(plans)
            data = {
                "format": FORMAT,
                "generator": f"qrs {__version__}",
                "outputs": dict(sorted(current.outputs.items())),
                "plans": dict(sorted(current.plans.items())),
            }
            write.atomically(self.path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())
        self.outputs, self.plans = current.outputs, current.plans


def _output_flaw(entry) -> str | None:
    """What is wrong with an output entry ({"inputs": digest, "pdf": digest, "seconds": time}), or None."""
    if not isinstance(entry, dict):
        return f"expected an object, found {type(entry).__name__}"
    for name in ("inputs", "pdf"):
        if not isinstance(entry.get(name), str):
            return f"'{name}' is not a digest"
    if not isinstance(entry.get("columns", ""), str):
        return "'columns' is not a line of text"
    layout = entry.get("layout", {})
    if not isinstance(layout, dict) or not all(isinstance(text, str) for text in layout.get("warnings", [])):
        return "'layout' is not a layout's report"
    seconds = entry.get("seconds", 0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < float("inf"):
        return f"'seconds' is {seconds!r}, not a number of seconds"
    return None


def _plan_flaw(entry) -> str | None:
    """What is wrong with a handout plan ({"source": digest, "sheet": id, "languages": [code…], "declared":
    {format: size}}), or None.
    The sheet and the languages name files: only an id and language codes are taken."""
    if not isinstance(entry, dict):
        return f"expected an object, found {type(entry).__name__}"
    if not isinstance(entry.get("source"), str):
        return "'source' is not a digest"
    if not isinstance(entry.get("sheet"), str) or (entry["sheet"] and not SHEET_ID.match(entry["sheet"])):
        return "'sheet' is not a sheet id"  # "" is a handout without a sheet
    languages = entry.get("languages")
    if (
        not isinstance(languages, list)
        or not languages
        or not all(isinstance(code, str) and LANGUAGE_CODE.match(code) for code in languages)
    ):
        return "'languages' is not a list of language codes"
    return _declared_flaw(entry.get("declared", {}))


def _declared_flaw(declared) -> str | None:
    """What is wrong with the formats a handout asks for ({format: what it names}), or None: each a format of the
    registry that takes what is named (a deck's size)."""
    from generator.output import formats

    if not isinstance(declared, dict):
        return "'declared' is not an object"
    for name, value in declared.items():
        if name not in formats.names() or not hasattr(formats.writer(name), "from_declared"):
            return f"'declared' names '{name}', not a format a handout asks for"
        try:
            formats.writer(name).from_declared(value if isinstance(value, str) else "")
        except ValueError as error:
            return f"'declared' {name}: {error}"
    return None
