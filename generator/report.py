"""What the command line tells its user: outputs written, problems found, and the rest.

Three modes, chosen by the global options: normal (a line a message), `--quiet` (problems only), and
`--json` (one JSON object a line on stdout for each output written and each problem, nothing else):

    {"event": "wrote", "path": "/abs/build/wab2.fr.pdf", "kind": "sheet", "sheet": "wab2", "lang": "fr",
     "variant": null, "pages": 2, "bytes": 81234, "seconds": 3.1, "layout": {"scale": 1.0, "pages": [[{"used": 0.97, …}]]}}
    {"event": "problem", "file": "/abs/sources/wab2.yaml", "line": 12, "column": 5, "message": "…"}
    {"event": "up_to_date", "path": "/abs/build/wab2.en.pdf", "kind": "sheet", "sheet": "wab2", "lang": "en",
     "variant": null, "layout": {…as when it was written}}
    {"event": "summary", "outputs": 16, "built": 3, "up_to_date": 13, "failed": 0, "seconds": 41.2}

Every command speaks so with --json: `list` one "sheet" event a sheet, `check` a "checked" event when clean,
`diff` one "change" event a change, `i18n status` one "translation" event a sheet and language, `changelog`
one "changelog" event; problems end with a "failed" event; Ctrl-C gives an "interrupted" event, a refusal of
the machine (disk full, permission) an "environment" event.

On a terminal, a build also shows a progress line on stderr (outputs done / total, the one awaited, the time
so far), rewritten in place and erased before anything else is printed; in a pipe there is none.
Exit codes do not depend on the mode.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import click

from generator.errors import Problem, printable

META_KEY = "qrs.report"
FOLDED_FROM = 5  # more like problems than this in one file are said in one line (see Reporter._folded)


@dataclass
class Reporter:
    quiet: bool = False
    json: bool = False
    verbose: bool = False
    live: bool | None = None  # a progress line on stderr; None: when stderr is a terminal
    library: Path | None = None  # the folder holding sources/: the paths printed are relative to it (shown)
    _progress_shown: str = ""  # the progress line on the terminal now, erased before anything else is printed

    def wrote(
        self,
        path: Path,
        text: str | None = None,
        layout: dict | None = None,
        about: dict | None = None,
        untranslated: int = 0,
    ) -> None:
        """An output was written; `text` replaces the usual 'wrote PATH' line; `layout` is its layout's report:
        the type scale when it is not 1, what a reader would notice (holes, unused pages), with --verbose
        every column's use and the time it took; `about` is what --json tells of it (sheet, lang, pages…);
        `untranslated`, the strings printed in the canonical language (--allow-fallback)."""
        warnings = layout["warnings"] if layout else []  # the renderer's: what a reader would notice
        if self.json:
            extra = {"layout": layout} if layout else {}
            extra |= {"untranslated": untranslated} if untranslated else {}
            self._event({"event": "wrote", "path": str(Path(path).resolve()), **(about or {}), **extra})
            return
        if self.quiet:
            return
        self._erase_progress()
        scale = f" (type at {layout['scale']:.1%})" if layout and layout["scale"] != 1 else ""
        timing = f" in {about['seconds']:.1f} s" if self.verbose and about else ""
        fallback = f" ({untranslated} string(s) untranslated, printed in the source's language)" if untranslated else ""
        click.echo(self._words(text or f"wrote {shown(path, self.library)}{scale}{timing}{fallback}"))
        for warning in warnings:
            click.echo(self._words(f"  {shown(path, self.library)}: {warning}"), err=True)
        if layout and self.verbose:
            click.echo(f"  {columns_line(layout)}")

    def up_to_date(
        self, path: Path, columns: str | None, layout: dict | None = None, about: dict | None = None
    ) -> None:
        """An output found up to date: said with --verbose, with how full its columns were when it was written
        (kept in the build manifest), as a build of it would have said; with --json, an "up_to_date" event with
        what its "wrote" event told of its layout (warnings included), so that a script reads every output's."""
        if self.json:
            extra = {"layout": layout} if layout else {}
            self._event({"event": "up_to_date", "path": str(Path(path).resolve()), **(about or {}), **extra})
            return
        if self.verbose and not self.quiet:
            self._erase_progress()
            click.echo(printable(f"up to date {shown(path, self.library)}"))
            if columns:
                click.echo(printable(f"  {columns}"))

    def say(self, text: str) -> None:
        """A message that is neither an output nor a problem: silent with --quiet and --json."""
        if not (self.quiet or self.json):
            self._erase_progress()
            click.echo(self._words(text))

    def record(self, event: str, text: str, fields: dict) -> None:
        """One record of a command's own output (a sheet listed, a change found): `text` on a line, even with
        --quiet, or with --json one event carrying `fields`."""
        if self.json:
            self._event({"event": event, **fields})
        else:
            click.echo(self._words(text))

    def result(self, event: str, text: str, fields: dict) -> None:
        """A command's outcome: `text` on a line, or with --json one event carrying `fields`; silent with --quiet."""
        if self.json:
            self._event({"event": event, **fields})
        else:
            self.say(text)

    def summary(self, text: str, counts: dict) -> None:
        """A build's last line: how many outputs, built, up to date, failed, in how long."""
        self.result("summary", text, counts)

    def progress(self, finished: int, total: int, awaited: str, seconds: float) -> None:
        """Rewrite the progress line of a build in place (on a terminal only)."""
        if self.quiet or self.json or not (sys.stderr.isatty() if self.live is None else self.live):
            return
        line = f"\r\033[K[{finished}/{total} done] building {awaited} · {seconds:.0f} s"
        if line != self._progress_shown:  # redrawn only when it changes
            click.echo(line, nl=False, err=True, color=True)  # color: click would strip the escapes
        self._progress_shown = line

    def _erase_progress(self) -> None:
        if self._progress_shown:
            click.echo("\r\033[K", nl=False, err=True, color=True)
            self._progress_shown = ""

    def warn(self, text: str) -> None:
        """Something qrs set right by itself (nothing lost, nothing to fix): on stderr, silent with --quiet."""
        if not self.quiet:
            self._erase_progress()
            click.echo(
                f"{self._styled('warning', fg='yellow', bold=True)}: {self._words(text)}", err=True, color=self.colour
            )

    @property
    def colour(self) -> bool:
        """Colours on a terminal, as compilers colour their messages; none in a pipe or under NO_COLOR."""
        return not os.environ.get("NO_COLOR") and (sys.stderr.isatty() if self.live is None else self.live)

    def _styled(self, text: str, **style) -> str:
        return click.style(text, **style) if self.colour else text

    def _problem_line(self, problem: Problem, folded: str | None = None) -> str:
        """file:line:column in bold, then what was expected; `folded`, a group's line, is about the whole file."""
        path = shown(problem.path, self.library)
        where = f"{path}:{problem.line}:{problem.column}" if problem.line and not folded else str(path)
        return f"{self._styled(printable(where), bold=True)}: {self._words(folded or problem.message)}"

    def problems(self, problems: list[Problem], summary: bool = True) -> None:
        self._erase_progress()
        folded = self._folded(problems)
        for problem in problems:
            if self.json:
                self._event(
                    {
                        "event": "problem",
                        "file": problem.path,
                        "line": problem.line,
                        "column": problem.column,
                        "message": problem.message,
                    }
                )
            elif (problem.path, problem.folded) not in folded:
                click.echo(self._problem_line(problem), err=True, color=self.colour)
            elif folded[problem.path, problem.folded] is not None:  # the group's one line, where its first stood
                count = folded[problem.path, problem.folded]
                click.echo(self._problem_line(problem, problem.folded.format(count=count)), err=True, color=self.colour)
                folded[problem.path, problem.folded] = None
        if summary and self.json:
            self._event({"event": "failed", "problems": len(problems)})
        elif summary:
            click.echo(
                self._styled(f"{len(problems)} problem(s) found", fg="red", bold=True), err=True, color=self.colour
            )

    def _folded(self, problems: list[Problem]) -> dict[tuple[str, str], int | None]:
        """The groups of like problems shown as one line each (their count), unless --verbose lists them all: a
        new language's 299 missing strings are one line, not 299."""
        if self.verbose:
            return {}
        counts = Counter((problem.path, problem.folded) for problem in problems if problem.folded)
        return {group: count for group, count in counts.items() if count > FOLDED_FROM}

    def fault(self, event: str, text: str, fields: dict) -> None:
        """What stopped a command that is neither a problem in the sources nor a bug (Ctrl-C, a full disk):
        on stderr, or with --json one event on stdout."""
        self._erase_progress()
        if self.json:
            self._event({"event": event, "message": text, **fields})
        else:
            words = self._words(text)
            word, colon, rest = words.partition(": ")
            styled = f"{self._styled(word, fg='red', bold=True)}{colon}{rest}" if word == "error" and colon else words
            click.echo(styled, err=True, color=self.colour)

    def _words(self, text: str) -> str:
        """What a line says, as the terminal shows it: paths inside the library relative to it, controls escaped."""
        return printable(relative_words(text, self.library))

    @staticmethod
    def _event(event: dict) -> None:
        click.echo(json.dumps(event, ensure_ascii=False))


def shown(path: Path | str, library: Path | None = None) -> Path:
    """A path as the user reads it, the same in every line a command prints: relative to the library (the folder
    holding sources/; `library`, else the running command's) when inside it, else to the current folder when
    inside that, else whole. With --json, paths are absolute."""
    given, path = Path(path), Path(path).absolute()  # a path given relative (lib/sources/x.yaml): from here
    for base in (library or current().library, Path.cwd()):
        if base is not None and path.is_relative_to(base) and path != base:
            return path.relative_to(base)
    return given


def relative_words(text: str, library: Path | None) -> str:
    """`text` with every path inside the library written relative to it, as `shown` writes a problem's file: a
    message that names a file in its words (a figure's folder, a link's place, a file the disk refused) reads as the
    file:line:column before it does, wherever the message was made (a build's worker does not know the library)."""
    if library is None:
        return text
    inside = re.compile(r"(?<![\w./-])" + re.escape(str(library).rstrip(os.sep) + os.sep))
    return inside.sub("", text)


def current() -> Reporter:
    """The reporter of the running command (set up by the `qrs` group from --quiet/--json)."""
    context = click.get_current_context(silent=True)
    if context is None:
        return Reporter()
    return context.meta.setdefault(META_KEY, Reporter())


def columns_line(report: dict) -> str:
    """One line a sheet: every column's use, page by page, and the type scale (--verbose)."""
    pages = " | ".join(" ".join(f"{column['used']:.0%}" for column in page) for page in report["pages"])
    continued = sorted({name for page in report["pages"] for column in page for name in column["continued"]})
    return f"columns used {pages}; type at {report['scale']:.1%}" + (
        f"; continued: {', '.join(continued)}" if continued else ""
    )
