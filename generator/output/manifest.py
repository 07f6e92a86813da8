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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from generator import __version__

from generator import files
from generator.digests import Digests
from generator.errors import Problem, UserError
from generator.project import PACKAGE_ROOT, SHEET_ID, Project, page_variant_of, variant_of
from generator.report import shown

NAME = ".qrs-manifest.json"
MAX_BYTES = 64 * 1024 * 1024  # about 300,000 outputs
FORMAT = 1
KEPT_OPTIONS = 32  # option digests remembered (see options_digest)

# A sheet's canonical language, read from its top-level `lang:` line (the strict loader allows nothing fancier);
# when it cannot be read so, the sheet is loaded through the model.
_LANGUAGE_CODE = re.compile(r"^[a-z]{2}(-[A-Z]{2})?\Z")  # as model.LanguageCode
_LANG = re.compile(r"""^lang:[ ]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#"']+))[ ]*(?:#.*)?$""", re.M)


FORMATS = ("pdf", "html")  # what an output is written as: a PDF, or a web page (build/html/)


@dataclass(frozen=True)
class Output:
    """One file to build: a sheet or a handout in one language, as a PDF or a web page."""

    kind: str  # "sheet" or "handout"
    name: str  # the sheet's or the handout's id, which is its file name
    lang: str
    source: Path
    sheet: str | None = None  # a handout's sheet id
    variant: str | None = None  # what the options add to its name (project.variant_of, or page_variant_of for a page)
    form: str = "pdf"  # one of FORMATS
    own_paper: bool = False  # --paper names the paper its source declares: built as the plain PDF (settings_of)

    def path(self, project: Project) -> Path:
        if self.form == "html":
            return (project.html_path(self.name, self.lang, self.variant) if self.kind == "sheet"
                    else project.handout_html_path(self.name, self.lang, self.variant))
        if self.kind == "sheet":
            return project.pdf_path(self.name, self.lang, self.variant)
        return project.handout_pdf_path(self.name, self.lang, self.variant)

    def key(self, project: Project) -> str:
        """The output's name in the manifest: its path relative to the build folder."""
        return self.path(project).relative_to(project.build).as_posix()

    def inputs(self, project: Project) -> list[Path]:
        """The source files it is made from (besides the templates, fonts and generator every output shares)."""
        words = project.ui_catalogues(self.lang)[0]  # the templates' words beside the sources (the others are shared)
        if self.kind == "sheet":
            return [self.source, project.sources / "i18n" / f"{self.name}.{self.lang}.po", words,
                    *_figures(project, self.source)]
        sheet = [project.sources / f"{self.sheet}.yaml", project.sources / "i18n" / f"{self.sheet}.{self.lang}.po"]
        return [self.source, project.handouts / "i18n" / f"{self.name}.{self.lang}.po", *(sheet if self.sheet else []), words,
                *(_figures(project, sheet[0]) if self.sheet else [])]


def settings_of(output: Output, settings: dict) -> dict:
    """The build options of one output: `--paper` left out where it is the paper its source declares, so that
    `--paper A4` on an A4 sheet builds (or finds up to date) the plain PDF, not a copy of it under another name."""
    return {**settings, "paper": None} if output.own_paper else settings


def named(outputs: list[Output], settings: dict) -> list[Output]:
    """The outputs with the names the build options give them (project.variant_of for a PDF, page_variant_of for a
    page), each from its own options (settings_of): `qrs build --all --paper letter` names the letter sheets'
    PDFs plainly and the A4 sheets' build/<sheet>.letter.<lang>.pdf."""
    papers: dict[Path, str | None] = {}
    found = []
    for output in outputs:
        if settings.get("paper") and output.source not in papers:
            papers[output.source] = declared_paper(output.source)
        marked = replace(output, own_paper=bool(settings.get("paper")) and papers[output.source] == settings["paper"])
        chosen = settings_of(marked, settings)
        found.append(replace(marked, variant=variant_of(chosen) if output.form == "pdf" else page_variant_of(chosen)))
    return found


def declared_paper(path: Path) -> str | None:
    """The paper size a sheet's or handout's source declares (A4 where it says none), read as plain data, without
    the model; None where the source cannot be read so (its build says why)."""
    from generator.reading.sources import load_file

    try:
        data = load_file(path).data
    except (OSError, UserError):
        return None
    paper = data.get("paper") if isinstance(data, dict) else None
    if paper is None:
        return "A4"
    return paper.get("size", "A4") if isinstance(paper, dict) else None


def _figures(project: Project, source: Path) -> list[Path]:
    """The pictures a sheet's figures name (read from its text, as `src:` fields: no model is loaded to plan)."""
    return [project.sources / name for name in files.figures_named_in(source)]


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


def options_digest(settings: dict, shared: str, manifest: "Manifest") -> str:
    """The digest of `dataclasses.asdict(pipeline.BuildOptions(**settings))`: every option, defaults included,
    so that `qrs build --all` and `qrs handout` (which give different fields) agree. Remembered in the manifest
    for this generator (whose source defines the defaults): the pipeline is imported only to compute it anew."""
    memo = hashlib.sha256(f"{shared}\n{_json(settings)}".encode()).hexdigest()
    if memo not in manifest.options:
        import dataclasses

        from generator import pipeline

        every = dataclasses.asdict(pipeline.BuildOptions(**settings))
        manifest.options[memo] = hashlib.sha256(_json(every).encode()).hexdigest()
        manifest.new_options[memo] = manifest.options[memo]
    return manifest.options[memo]


def inputs_digest(project: Project, output: Output, shared: str, options: str, digests: Digests) -> str:
    """What one output is made from: `shared` (shared_digest), `options` (options_digest), its own files."""
    digest = hashlib.sha256(f"{shared}\n{options}\n{output.kind}\0{output.name}\0{output.lang}\0{output.form}\n".encode())
    for path in output.inputs(project):
        digest.update(f"{_name(project, path)}\0{digests.file(path)}\n".encode())
    return digest.hexdigest()


def inputs_digests(project: Project, outputs: list[Output], settings: dict, shared: str, manifest: "Manifest",
                   digests: Digests) -> dict[str, str]:
    """Each output's inputs digest, by its key in the manifest, with its own build options (settings_of)."""
    return {output.key(project): inputs_digest(project, output, shared,
                                               options_digest(settings_of(output, settings), shared, manifest), digests)
            for output in outputs}


@dataclass
class Manifest:
    """build/.qrs-manifest.json: per output, {"inputs": digest, "pdf": digest of the file written (a PDF or a page),
    "seconds": build time, "columns": how full its columns were (a PDF's, for --verbose)};
    per handout source, the plan read from it ({"source": digest, "sheet": id, "languages": [...]});
    the digests of the build options met (see options_digest)."""

    path: Path
    outputs: dict[str, dict] = field(default_factory=dict)
    plans: dict[str, dict] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    new_options: dict[str, str] = field(default_factory=dict)  # computed in this run, to record

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
            return cls(path, dropped=[f"{shown(path)}: larger than {MAX_BYTES} bytes: ignored (every output is rebuilt)"])
        except (OSError, ValueError, RecursionError) as error:  # RecursionError: JSON nested too deep
            return cls(path, dropped=[f"{shown(path)}: not a manifest qrs wrote ({type(error).__name__}): ignored "
                                      "(every output is rebuilt)"])
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return cls(path)
        found = cls(path)
        for section, flaw in (("outputs", _output_flaw), ("plans", _plan_flaw), ("options", _option_flaw)):
            setattr(found, section, found._valid(section, data.get(section), flaw))
        return found

    def _valid(self, section: str, entries, flaw: Callable[[object], str | None]) -> dict:
        """The entries of one section that hold what this generator wrote; each other one noted in `dropped`."""
        if not isinstance(entries, dict):
            if entries is not None:
                self.dropped.append(f"{shown(self.path)}: '{section}' is not an object: ignored (its outputs are rebuilt)")
            return {}
        kept = {}
        for key, entry in entries.items():
            why = flaw(entry)
            if why is None:
                kept[key] = entry
            else:
                self.dropped.append(f"{shown(self.path)}: {section} entry '{key}' ignored (its output is rebuilt): {why}")
        return kept

    def fresh(self, key: str, inputs: str, written: Path, digests: Digests) -> bool:
        entry = self.outputs.get(key)
        return bool(entry) and entry.get("inputs") == inputs and digests.file(written) == entry.get("pdf")

    def columns(self, key: str) -> str | None:
        """How full each column of the output was when it was written (report.columns_line), if it was told."""
        return (self.outputs.get(key) or {}).get("columns")

    def seconds(self, key: str) -> float:
        return float((self.outputs.get(key) or {}).get("seconds") or 0.0)

    def save(self, outputs: dict[str, dict], plans: dict[str, dict]) -> None:
        """Record these entries: merged, under a lock, into the manifest as it is on disk now, written atomically."""
        from generator import write

        with write.locked(write.lock_path(self.path.parent / ".cache", self.path.name)):
            current = Manifest.read(self.path)
            current.outputs.update(outputs)
            current.plans.update(plans)
            current.options.update(self.new_options)
            options = dict(list(current.options.items())[-KEPT_OPTIONS:])  # the latest: older generators' go
            data = {"format": FORMAT, "generator": f"qrs {__version__}",
                    "outputs": dict(sorted(current.outputs.items())), "plans": dict(sorted(current.plans.items())),
                    "options": options}
            write.atomically(self.path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())
        self.outputs, self.plans, self.options, self.new_options = current.outputs, current.plans, options, {}


def _output_flaw(entry) -> str | None:
    """What is wrong with an output entry ({"inputs": digest, "pdf": digest, "seconds": time}), or None."""
    if not isinstance(entry, dict):
        return f"expected an object, found {type(entry).__name__}"
    for name in ("inputs", "pdf"):
        if not isinstance(entry.get(name), str):
            return f"'{name}' is not a digest"
    if not isinstance(entry.get("columns", ""), str):
        return "'columns' is not a line of text"
    seconds = entry.get("seconds", 0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < float("inf"):
        return f"'seconds' is {seconds!r}, not a number of seconds"
    return None


def _plan_flaw(entry) -> str | None:
    """What is wrong with a handout plan ({"source": digest, "sheet": id, "languages": [code…]}), or None.
    The sheet and the languages name files: only an id and language codes are taken."""
    if not isinstance(entry, dict):
        return f"expected an object, found {type(entry).__name__}"
    if not isinstance(entry.get("source"), str):
        return "'source' is not a digest"
    if not isinstance(entry.get("sheet"), str) or (entry["sheet"] and not SHEET_ID.match(entry["sheet"])):
        return "'sheet' is not a sheet id"  # "" is a handout without a sheet
    languages = entry.get("languages")
    if not isinstance(languages, list) or not languages or not all(isinstance(code, str) and _LANGUAGE_CODE.match(code)
                                                                   for code in languages):
        return "'languages' is not a list of language codes"
    return None


def _option_flaw(entry) -> str | None:
    return None if isinstance(entry, str) else f"expected a digest, found {type(entry).__name__}"


# --- the plan: which outputs the sources ask for ---------------------------------------------------------


@dataclass
class Plan:
    outputs: list[Output]
    problems: list[Problem]
    plans: dict[str, dict]  # handout plans read now, to record
    left_out: list[str] = field(default_factory=list)  # what was not planned, and why (languages in progress…)


def _name(project: Project, path: Path) -> str:
    """A source's name in the manifest: its path in the sources folder (the checkout may move)."""
    return path.relative_to(project.sources).as_posix() if path.is_relative_to(project.sources) else str(path)


def sheet_language(path: Path) -> str:
    """The sheet's canonical language: its `lang:` line, or (when that cannot be read plainly) the loaded sheet's."""
    try:
        found = _LANG.findall(files.read_regular(path, files.MAX_SOURCE_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, UserError):  # the loader says what is wrong, below
        found = []
    if len(found) == 1:
        value = next(part for part in found[0] if part) if any(found[0]) else ""
        if value:
            return value
    from generator import pipeline  # the model says what is wrong, with file:line:column

    return pipeline.check(path).lang


def sheet_languages(project: Project, sheet_id: str, canonical: str) -> list[str]:
    """The canonical language first, then every language with a catalogue (as generator.composing.translate.languages)."""
    found = sorted(path.suffixes[-2].lstrip(".") for path in (project.sources / "i18n").glob(f"{sheet_id}.*.po"))
    return [canonical] + [lang for lang in found if lang != canonical]


def handout_plan(project: Project, path: Path, manifest: Manifest, digests: Digests) -> tuple[dict, bool]:
    """(plan, read now): the handout's sheet and languages, from the manifest while its source is unchanged."""
    known = manifest.plans.get(_name(project, path))
    if known and known.get("source") == digests.file(path):
        return known, False
    from generator import pipeline

    handout = pipeline.load_handout(project, path)[1]
    return {"source": digests.file(path), "sheet": handout.sheet or "", "languages": list(handout.outputs)}, True


def plan(project: Project, sheets: list[Path], handouts: list[Path], languages: tuple[str, ...],
         manifest: Manifest, digests: Digests, formats: tuple[str, ...] = ("pdf",), whole: bool = False,
         everything: bool = False) -> Plan:
    """Every output the sources ask for, in the order they are reported: sheets, then handouts, each language
    in each format. Without languages named (nor `whole`: the canonical text where a translation is missing), a
    sheet's languages in progress are left out and said; with languages named for every sheet (`everything`), a
    sheet or a handout without that language is left out and said."""
    found = Plan([], [], {})
    for path in sheets:
        try:
            wanted = languages or sheet_languages(project, path.stem, sheet_language(path))
            if not languages and not whole:
                wanted = _complete(project, path, wanted, digests, found.left_out)
            elif everything:
                wanted = _available(project, path, wanted, found.left_out)
        except UserError as error:
            found.problems.extend(error.problems)
            continue
        found.outputs.extend(Output("sheet", path.stem, lang, path, form=form) for lang in wanted for form in formats)
    for path in handouts:
        try:
            known, new = handout_plan(project, path, manifest, digests)
        except UserError as error:
            found.problems.extend(error.problems)
            continue
        if new:
            found.plans[_name(project, path)] = known
        wanted = list(languages or known["languages"])
        if everything and languages:
            wanted = _handout_available(project, path, known, wanted, found.left_out)
        found.outputs.extend(Output("handout", path.stem, lang, path, known["sheet"], form=form)
                             for lang in wanted for form in formats)
    return found


def _handout_available(project: Project, path: Path, known: dict, wanted: list[str], left_out: list[str]) -> list[str]:
    """The languages of `wanted` a handout can be made in: its own, and its sheet's (written or translated in); the
    others are said in `left_out`, as a sheet's are (_available)."""
    sheet = project.sources / f"{known['sheet']}.yaml" if known["sheet"] else None
    own = set(known["languages"])
    if sheet is not None and sheet.is_file():
        own |= set(sheet_languages(project, sheet.stem, sheet_language(sheet)))
    for lang in (lang for lang in wanted if lang not in own):
        left_out.append(f"{path.stem}: its sheet {sheet.stem} has no '{lang}' catalogue "
                        f"({shown(_catalogue(project, sheet.stem, lang))}), left out; 'qrs i18n update {sheet.stem} "
                        f"--lang {lang}' starts one" if sheet is not None else
                        f"{path.stem}: not made in '{lang}' (its languages: {', '.join(known['languages'])}), left out")
    return [lang for lang in wanted if lang in own]


def _complete(project: Project, path: Path, wanted: list[str], digests: Digests, left_out: list[str]) -> list[str]:
    """The languages of `wanted` whose catalogues are complete; those in progress are said in `left_out`."""
    if len(wanted) < 2:
        return wanted  # the canonical language alone: nothing to translate
    pending = _in_progress(project, path, wanted[1:], digests)
    from generator.composing import languages as translations

    left_out.extend(translations.progress_note(project, path.stem, lang, count) for lang, count in pending.items())
    return [lang for lang in wanted if lang not in pending]


def _available(project: Project, path: Path, wanted: list[str], left_out: list[str]) -> list[str]:
    """The languages of `wanted` the sheet is written or translated in; the others are said in `left_out`."""
    own = sheet_languages(project, path.stem, sheet_language(path))
    missing = [lang for lang in wanted if lang not in own]
    left_out.extend(f"{path.stem}: no '{lang}' catalogue ({shown(_catalogue(project, path.stem, lang))}), left out; "
                    f"'qrs i18n update {path.stem} --lang {lang}' starts one" for lang in missing)
    return [lang for lang in wanted if lang in own]


def _catalogue(project: Project, sheet_id: str, lang: str) -> Path:
    """Where a sheet's catalogue is (as generator.composing.translate.catalogue_path, which the plan does not import:
    a build with nothing to do imports no more than it needs)."""
    return project.sources / "i18n" / f"{sheet_id}.{lang}.po"


PROGRESS = "progress"  # build/.cache/progress/<key>.json: a sheet's languages in progress, keyed by its inputs


def _in_progress(project: Project, path: Path, languages: list[str], digests: Digests) -> dict[str, int]:
    """{language: strings to translate} of the sheet's catalogues that lack translations, read from the cache
    while the source and its catalogues are those it was computed from (working it out loads the sheet: 0.2 s)."""
    from generator.rendering import heights  # the cache folder (build/.cache, or QRS_CACHE_DIR)

    catalogues = [_catalogue(project, path.stem, lang) for lang in languages]
    deciding = [PACKAGE_ROOT / "composing" / name for name in ("translate.py", "languages.py")]
    key = hashlib.sha256("\0".join([__version__, *map(digests.file, deciding), digests.file(path),
                                     *(f"{c.name}={digests.file(c)}" for c in catalogues)]).encode()).hexdigest()
    kept = heights.folder(project.build) / PROGRESS / f"{key}.json"
    known = _read_progress(kept)
    if known is None:
        from generator import write
        from generator.composing import languages as translations
        from generator.model.validate import load

        located, sheet = load(path)
        known = translations.in_progress(project, located, sheet)
        try:
            write.text(kept, json.dumps(known, sort_keys=True))
        except (OSError, UserError):
            pass  # a cache that cannot be written is worked out again next time
    return known


def _read_progress(path: Path) -> dict[str, int] | None:
    """A kept {language: count}, or None where there is none or it is not exactly one."""
    try:
        data = json.loads(files.read_regular(path, 64 * 1024, "a cache file", confined=True).decode("utf-8"))
    except (OSError, UserError, ValueError):
        return None
    if isinstance(data, dict) and all(isinstance(lang, str) and _LANGUAGE_CODE.match(lang) and isinstance(count, int)
                                      and not isinstance(count, bool) and count > 0 for lang, count in data.items()):
        return data
    return None


def shard(outputs: list[Output], part: tuple[int, int] | None, key: Callable[[Output], str]) -> list[Output]:
    """The K-th of N parts (K from 1): every N-th output of the list sorted by key, starting at the K-th.
    The parts are disjoint, cover every output, and differ in size by one at most."""
    if part is None:
        return outputs
    k, n = part
    order = sorted(range(len(outputs)), key=lambda index: key(outputs[index]))
    chosen = {index for rank, index in enumerate(order) if rank % n == k - 1}
    return [output for index, output in enumerate(outputs) if index in chosen]
