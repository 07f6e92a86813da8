"""`qrs watch`: rebuild on save, and a live preview of the last good build on http://localhost:PORT/.

Three pieces, each testable alone:
- `to_rebuild`: which sheets and handouts a set of changed files concerns (a template concerns them all; a
  sheet's source or catalogue, every watched handout, since a handout draws on its sheet);
- `Watcher.rebuild`: builds those sheets and handouts (through the manifest, as `qrs build` does), draws their pages
  (generator.output.preview), and reports problems as the usual file:line:column lines; a failed build leaves the
  last good pages in place;
- `serve` (generator.cli.preview_server): the live page, which reloads when the pages change.
"""

from __future__ import annotations

import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from generator import files
from generator.cli.preview_server import DEFAULT_PORT, State, serve
from generator.errors import Problem, UserError
from generator.options import BuildOptions
from generator.output import preview
from generator.output.targets import HandoutTarget, Target, named
from generator.project import Project
from generator.report import shown

DEFAULT_SCALE = 1.5
KEPT_PAGES = 24  # layouts kept between rebuilds: about 4 MB each


class CannotServe(Exception):
    """The preview server could not start (the port is taken, say)."""


def to_rebuild(changed: Iterable[Path], project: Project, watched: list[Path]) -> list[Path]:
    """The watched sources that changed files concern: a source itself, a catalogue of it
    (sources/i18n/<sheet>.<lang>.po, sources/handouts/i18n/<handout>.<lang>.po), or any template (all of them);
    a watched handout is concerned by any sheet's source or catalogue too. Other files concern none."""
    templates = project.templates.resolve()
    sources = project.sources.resolve()
    handouts = [path for path in watched if path.parent.resolve() == sources / "handouts"]
    chosen: set[Path] = set()
    for path in changed:
        path = Path(path).resolve()
        if path.is_relative_to(templates):
            return list(watched)
        for folder in (sources, sources / "handouts"):
            by_id = {source.stem: source for source in watched if source.parent.resolve() == folder}
            if path.parent == folder and path.suffix == ".yaml" and path.stem in by_id:
                chosen.add(by_id[path.stem])
            elif path.parent == folder / "i18n" and path.suffix == ".po" and path.name.split(".")[0] in by_id:
                chosen.add(by_id[path.name.split(".")[0]])
        if path.parent in (sources, sources / "i18n") and path.suffix in (".yaml", ".po"):
            chosen.update(handouts)
        if path.suffix.lower() in files.FIGURE_SUFFIXES and path.is_relative_to(sources):  # a figure's picture
            name = path.relative_to(sources).as_posix()
            chosen.update(source for source in watched if source in handouts or name in files.figures_named_in(source))
    return [path for path in watched if path in chosen]


def edited_languages(changed: Iterable[Path], source: Path) -> tuple[str, ...]:
    """The languages whose catalogue of this source is among the changed files (sources/i18n/wab2.en.po: en): a
    translator's save shows the language being translated, besides those watched."""
    catalogues = source.parent / "i18n"
    found = []
    for path in changed:
        name = Path(path).name.split(".")
        if (
            Path(path).parent.resolve() == catalogues.resolve()
            and len(name) == 3
            and name[0] == source.stem
            and name[2] == "po"
        ):
            found.append(name[1])
    return tuple(dict.fromkeys(found))


@dataclass
class Watcher:
    project: Project
    sheets: tuple[str, ...] = ()  # the sheets (or handouts) watched; none given (and no handout): every sheet
    languages: tuple[str, ...] = ()  # the languages built; none given: every one each sheet has (watched_languages)
    options: BuildOptions = field(default_factory=BuildOptions)
    scale: float = DEFAULT_SCALE
    state: State = field(default_factory=State)
    on_wrote: Callable[[Path], None] = lambda path: None
    on_problems: Callable[[list[Problem]], None] = lambda problems: None
    handouts: tuple[str, ...] = ()  # the handouts watched (by id or path)
    on_note: Callable[[str], None] = lambda text: None  # a language left out, said once
    _said: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        from generator.rendering import render, speedups

        render.keep_pages(KEPT_PAGES)  # an edit lays out again only the pages whose HTML it changed
        speedups.interactive()  # the garbage of a build collected as it goes, not at the start of the next edit

    @property
    def folder(self) -> Path:
        return preview.folder(self.project)

    def watched(self) -> list[Target]:
        """The targets named (sheets and handouts, by id or path), else every sheet (new ones included)."""
        found = named(self.project, self.sheets, handouts=False) if self.sheets or not self.handouts else []
        found += [HandoutTarget(path) for path in self.project.handout_paths(self.handouts)] if self.handouts else []
        return list(dict.fromkeys(found))

    def rebuild(self, targets: Iterable[Target], changed: Iterable[Path] = ()) -> list[Problem]:
        """Build each source in its languages (and in those of its `changed` catalogues) and draw its pages; report
        and return the problems."""
        problems: list[Problem] = []
        pages: dict[str, list[str]] = {}
        pdfs: dict[str, Path] = {}
        targets, changed = list(targets), list(changed)
        self.state.start([target.ident for target in targets])
        for target in targets:
            source = target.source
            try:
                edited = edited_languages(changed, source)
                # the translation being edited first: its page is the one the translator looks at
                languages = tuple(dict.fromkeys([*edited, *(self.languages or self.watched_languages(target))]))
            except UserError as error:
                problems.extend(error.problems)
                continue
            for lang in languages:
                try:  # recorded in the manifest
                    pdf, built = preview.pdf(self.project, target, lang, self.options)
                except UserError as error:
                    problems.extend(error.problems)
                    continue
                except Exception as error:  # noqa: BLE001 - a template being edited: report it, keep watching
                    problems.append(_unexpected(error, source))
                    continue
                if built:
                    self.on_wrote(pdf)
                drawn = preview.pages(pdf, self.folder, f"{source.stem}.{lang}", self.scale)
                pages[f"{source.stem}.{lang}"] = [path.name for path in drawn]
                pdfs[f"{source.stem}.{lang}"] = pdf
        problems = sorted(set(problems))
        if problems:
            self.on_problems(problems)
        self.state.update(pages, [str(problem) for problem in problems], pdfs)
        return problems

    def watched_languages(self, target: Target) -> tuple[str, ...]:
        """Every language a sheet has (its own, then each catalogue's) or a handout lists; a sheet's language in
        progress is left out and said, once (unless --allow-fallback, which prints it with the canonical text)."""
        if isinstance(target, HandoutTarget):
            return target.languages(self.project)
        from generator.composing import languages as translations
        from generator.composing import translate as i18n
        from generator.model.validate import load

        located, sheet = load(target.source)
        pending = {} if self.options.allow_fallback else translations.in_progress(self.project, located, sheet)
        for lang, count in pending.items():
            note = (
                f"{shown(i18n.catalogue_path(self.project.sources, sheet.sheet, lang))}: '{lang}' is in progress "
                f"({count} string(s) to translate), not watched; 'qrs watch {sheet.sheet} --lang {lang} "
                "--allow-fallback' shows it with the canonical text where missing"
            )
            if note not in self._said:
                self._said.add(note)
                self.on_note(note)
        return tuple(lang for lang in i18n.languages(self.project.sources, sheet) if lang not in pending)

    def changed(self, paths: Iterable[Path]) -> list[Problem]:
        """Rebuild what changed files concern (nothing when they concern no watched sheet)."""
        try:
            watched = self.watched()
        except UserError as error:  # a watched sheet was removed or renamed
            self.on_problems(error.problems)
            self.state.update({}, [str(problem) for problem in error.problems])
            return error.problems
        paths = list(paths)
        by_source = {target.source: target for target in watched}
        targets = [by_source[source] for source in to_rebuild(paths, self.project, list(by_source))]
        return self.rebuild(targets, paths) if targets else []

    def run(
        self,
        port: int = DEFAULT_PORT,
        host: str = "127.0.0.1",
        announce: Callable[[str], None] = print,
        stop: threading.Event | None = None,
        open_browser: bool = False,
    ) -> None:
        """Build everything once, then serve the preview and rebuild on every save until interrupted."""
        import watchfiles

        first = self.watched()  # an unknown sheet name stops here, before anything starts
        try:
            server = serve(self.folder, self.state, host, port)
        except OSError as error:
            raise CannotServe(f"cannot serve on {host}:{port}: {error.strerror or error}") from None
        address = f"http://{'localhost' if _is_loopback(host) else host}:{server.server_address[1]}/"
        announce(f"live preview: {address} (Ctrl-C to stop)")
        if open_browser:
            import webbrowser

            if not webbrowser.open(address):  # False: no browser found to open it (a server, a container)
                announce(f"no web browser found to open it: open {address} in one yourself")
        try:
            self.rebuild(first)
            roots = [path for path in (self.project.sources, self.project.templates) if path.exists()]
            # Ctrl-C goes on to the command, which says so and exits 130 (watchfiles would log and return)
            for changes in watchfiles.watch(*roots, stop_event=stop, raise_interrupt=True):
                self.changed(Path(path) for _, path in changes)
        finally:
            server.shutdown()
            server.server_close()


def _is_loopback(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1")


def _unexpected(error: Exception, source: Path) -> Problem:
    """An error that is not a source problem, placed at the template line it came from when there is one."""
    where = [
        (frame.filename, frame.lineno)
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename.endswith(".j2")
    ]
    line = getattr(error, "lineno", None)
    name = getattr(error, "filename", None)
    if name and line:  # a template syntax error names its file and line
        return Problem(str(name), line, 1, f"{type(error).__name__}: {error}")
    if where:
        return Problem(where[-1][0], where[-1][1] or 1, 1, f"{type(error).__name__}: {error}")
    return Problem(str(source), 1, 1, f"internal error while building: {type(error).__name__}: {error}")
