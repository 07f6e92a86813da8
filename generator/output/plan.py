"""The plan of a build: which outputs the targets ask for (each target in each of its languages, in each format),
named as the build options name them, and the languages left out (in progress, or not available).

Planning reads no YAML through the model where it can help it (a sheet's `lang:` line, a handout's plan kept in the
manifest) and imports neither pydantic nor WeasyPrint: a build with nothing to do stays cheap."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from generator import __version__, files
from generator.digests import Digests
from generator.errors import Problem, UserError
from generator.options import BuildOptions
from generator.output import formats
from generator.output.manifest import LANGUAGE_CODE, Manifest, source_name
from generator.output.targets import HandoutTarget, Target
from generator.project import PACKAGE_ROOT, Project
from generator.report import shown

# A sheet's canonical language, read from its top-level `lang:` line (the strict loader allows nothing fancier);
# when it cannot be read so, the sheet is loaded through the model.
_LANG = re.compile(r"""^lang:[ ]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#"']+))[ ]*(?:#.*)?$""", re.M)


@dataclass(frozen=True)
class Output:
    """One file to build: a target in one language, in one format (one of generator.output.formats)."""

    target: Target
    lang: str
    sheet: str | None = None  # a handout's sheet id
    variant: str | None = None  # what the options add to its name (its format's `variant`)
    form: str = "pdf"
    own_paper: bool = False  # --paper names the paper its source declares: built as the plain file (options_of)
    declared: tuple = ()  # (format, its own options) its source asks for (a handout's cards: size), unless given

    @property
    def kind(self) -> str:
        return self.target.kind

    @property
    def name(self) -> str:
        return self.target.ident

    @property
    def source(self) -> Path:
        return self.target.source

    def path(self, project: Project) -> Path:
        return formats.writer(self.form).path(project, self.target, self.lang, self.variant)

    def key(self, project: Project) -> str:
        """The output's name in the manifest: its path relative to the build folder."""
        return self.path(project).relative_to(project.build).as_posix()

    def inputs(self, project: Project) -> list[Path]:
        """The source files it is made from (besides the templates, fonts and generator every output shares)."""
        return self.target.inputs(project, self.lang, self.sheet)

    def options_of(self, options: BuildOptions) -> BuildOptions:
        """Its build options: `--paper` left out where it is the paper its source declares, so that `--paper A4` on
        an A4 sheet builds (or finds up to date) the plain PDF, not a copy of it under another name."""
        if self.declared:  # the options given win over the source's: --cards poker over a handout's cards: tarot
            options = replace(options, own=tuple({**dict(self.declared), **dict(options.own)}.items()))
        return replace(options, paper=None) if self.own_paper else options


def named(outputs: list[Output], options: BuildOptions) -> list[Output]:
    """The outputs with the names the build options give them (each format's `variant`), each from its own options
    (Output.options_of): `qrs build --all --paper letter` names the letter sheets' PDFs plainly and the A4
    sheets' build/<sheet>.letter.<lang>.pdf."""
    papers: dict[Path, str | None] = {}
    found = []
    for output in outputs:
        if options.paper and output.source not in papers:
            papers[output.source] = declared_paper(output.source)
        marked = replace(output, own_paper=bool(options.paper) and papers[output.source] == options.paper)
        found.append(replace(marked, variant=formats.writer(output.form).variant(marked.options_of(options))))
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


@dataclass
class Plan:
    outputs: list[Output]
    problems: list[Problem]
    plans: dict[str, dict]  # handout plans read now, to record
    left_out: list[str] = field(default_factory=list)  # what was not planned, and why (languages in progress…)


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
    from generator.model.validate import check  # the model says what is wrong, with file:line:column

    return check(path).lang


def sheet_languages(project: Project, sheet_id: str, canonical: str) -> list[str]:
    """The canonical language first, then every language with a catalogue (as composing.translate.languages)."""
    found = sorted(path.suffixes[-2].lstrip(".") for path in (project.sources / "i18n").glob(f"{sheet_id}.*.po"))
    return [canonical] + [lang for lang in found if lang != canonical]


def handout_plan(project: Project, path: Path, manifest: Manifest, digests: Digests) -> tuple[dict, bool]:
    """(plan, read now): the handout's sheet and languages, from the manifest while its source is unchanged."""
    known = manifest.plans.get(source_name(project, path))
    if known and known.get("source") == digests.file(path) and "declared" in known:
        return known, False
    from generator.composing.handout import load_handout

    located, handout = load_handout(project, path)[:2]
    return {
        "source": digests.file(path),
        "sheet": handout.sheet or "",
        "languages": list(handout.outputs),
        "declared": formats.declared(located, handout),
    }, True


def plan(
    project: Project,
    targets: list[Target],
    languages: tuple[str, ...],
    manifest: Manifest,
    digests: Digests,
    forms: tuple[str, ...] = ("pdf",),
    whole: bool = False,
    everything: bool = False,
) -> Plan:
    """Every output the targets ask for, in the order they are reported: sheets, then handouts, each language
    in each format. Without languages named (nor `whole`: the canonical text where a translation is missing), a
    sheet's languages in progress are left out and said; with languages named for every sheet (`everything`), a
    sheet or a handout without that language is left out and said."""
    found = Plan([], [], {})
    for target in sorted(targets, key=lambda target: target.kind != "sheet"):
        try:
            if isinstance(target, HandoutTarget):
                wanted, known = _handout_languages(
                    project, target.source, languages, manifest, digests, everything, found
                )
                sheet, asked = known["sheet"], known["declared"]
            else:
                wanted, sheet, asked = (
                    _sheet_languages(project, target.source, languages, digests, whole, everything, found.left_out),
                    None,
                    {},
                )
        except UserError as error:
            found.problems.extend(error.problems)
            continue
        found.outputs.extend(output for lang in wanted for output in _outputs(target, lang, sheet, forms, asked))
    return found


def _outputs(
    target: Target, lang: str, sheet: str | None, forms: tuple[str, ...], asked: dict[str, str]
) -> list[Output]:
    """The target's outputs in one language: one a format, each with the options its source declares for it, and
    beside each the formats its source asks for (`asked`: a handout's deck beside its PDF and its web page)."""
    outputs = []
    for form in forms:
        own = ((form, formats.writer(form).from_declared(asked[form])),) if form in asked else ()
        outputs.append(Output(target, lang, sheet, form=form, declared=own))
        outputs += [
            Output(target, lang, sheet, form=name, declared=((name, value),))
            for name, value in formats.beside(form, asked)
            if name not in forms
        ]
    return outputs


def _sheet_languages(
    project: Project,
    path: Path,
    languages: tuple[str, ...],
    digests: Digests,
    whole: bool,
    everything: bool,
    left_out: list[str],
) -> list[str]:
    wanted = list(languages) or sheet_languages(project, path.stem, sheet_language(path))
    if not languages and not whole:
        return _complete(project, path, wanted, digests, left_out)
    return _available(project, path, wanted, left_out) if everything else wanted


def _handout_languages(
    project: Project,
    path: Path,
    languages: tuple[str, ...],
    manifest: Manifest,
    digests: Digests,
    everything: bool,
    found: Plan,
) -> tuple[list[str], dict]:
    """(the languages to build, its plan: its sheet's id, the formats it asks for), the plan read from its source
    kept in `found.plans`."""
    known, new = handout_plan(project, path, manifest, digests)
    if new:
        found.plans[source_name(project, path)] = known
    wanted = list(languages or known["languages"])
    if everything and languages:
        wanted = _handout_available(project, path, known, wanted, found.left_out)
    return wanted, known


def _handout_available(project: Project, path: Path, known: dict, wanted: list[str], left_out: list[str]) -> list[str]:
    """The languages of `wanted` a handout can be made in: its own, and its sheet's (written or translated in); the
    others are said in `left_out`, as a sheet's are (_available)."""
    sheet = project.sources / f"{known['sheet']}.yaml" if known["sheet"] else None
    own = set(known["languages"])
    if sheet is not None and sheet.is_file():
        own |= set(sheet_languages(project, sheet.stem, sheet_language(sheet)))
    for lang in (lang for lang in wanted if lang not in own):
        left_out.append(
            f"{path.stem}: its sheet {sheet.stem} has no '{lang}' catalogue "
            f"({shown(_catalogue(project, sheet.stem, lang))}), left out; 'qrs i18n update {sheet.stem} "
            f"--lang {lang}' starts one"
            if sheet is not None
            else f"{path.stem}: not made in '{lang}' (its languages: {', '.join(known['languages'])}), left out"
        )
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
    left_out.extend(
        f"{path.stem}: no '{lang}' catalogue ({shown(_catalogue(project, path.stem, lang))}), left out; "
        f"'qrs i18n update {path.stem} --lang {lang}' starts one"
        for lang in missing
    )
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
    key = hashlib.sha256(
        "\0".join(
            [
                __version__,
                *map(digests.file, deciding),
                digests.file(path),
                *(f"{c.name}={digests.file(c)}" for c in catalogues),
            ]
        ).encode()
    ).hexdigest()
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
    if isinstance(data, dict) and all(
        isinstance(lang, str)
        and LANGUAGE_CODE.match(lang)
        and isinstance(count, int)
        and not isinstance(count, bool)
        and count > 0
        for lang, count in data.items()
    ):
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
