"""What the command line tells its user: outputs written, problems found, and the rest.

Three modes, chosen by the global options: normal (a line a message), `--quiet` (problems only), and
`--json` (one JSON object a line on stdout for each output written and each problem, nothing else):

    {"event": "wrote", "path": "/abs/build/wab2.fr.pdf", "layout": {"scale": 1.0, "pages": [[{"used": 0.97, …}]]}}
    {"event": "problem", "file": "/abs/sources/wab2.yaml", "line": 12, "column": 5, "message": "…"}

Exit codes do not depend on the mode.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import click

from generator.errors import Problem

META_KEY = "qrs.report"


@dataclass
class Reporter:
    quiet: bool = False
    json: bool = False
    verbose: bool = False

    def wrote(self, path: Path, text: str | None = None, layout: dict | None = None, untranslated: int = 0) -> None:
        """An output was written; `text` replaces the usual 'wrote PATH' line; `layout` is its layout's report:
        the type scale when it is not 1, what a reader would notice (holes, unused pages), with --verbose
        every column's use; `untranslated`, the strings printed in the canonical language (--allow-fallback)."""
        from generator.renderer.layout import columns_line, layout_warnings  # pure: neither the model nor WeasyPrint

        warnings = layout_warnings(layout) if layout else []
        if self.json:
            extra = {"layout": {**layout, "warnings": warnings}} if layout else {}
            extra |= {"untranslated": untranslated} if untranslated else {}
            self._event({"event": "wrote", "path": str(Path(path).resolve()), **extra})
            return
        if self.quiet:
            return
        scale = f" (type at {layout['scale']:.1%})" if layout and layout["scale"] != 1 else ""
        fallback = f" ({untranslated} string(s) untranslated, printed in the source's language)" if untranslated else ""
        click.echo(text or f"wrote {shown(path)}{scale}{fallback}")
        for warning in warnings:
            click.echo(f"  {shown(path)}: {warning}", err=True)
        if layout and self.verbose:
            click.echo(f"  {columns_line(layout)}")

    def say(self, text: str) -> None:
        """A message that is neither an output nor a problem: silent with --quiet and --json."""
        if not (self.quiet or self.json):
            click.echo(text)

    def warn(self, text: str) -> None:
        """Something qrs set right by itself (nothing lost, nothing to fix): on stderr, silent with --quiet."""
        if not self.quiet:
            click.echo(f"warning: {text}", err=True)

    def problems(self, problems: list[Problem], summary: bool = True) -> None:
        for problem in problems:
            if self.json:
                self._event({"event": "problem", "file": problem.path, "line": problem.line,
                             "column": problem.column, "message": problem.message})
            else:
                click.echo(str(problem), err=True)
        if summary and not self.json:
            click.echo(f"{len(problems)} problem(s) found", err=True)

    @staticmethod
    def _event(event: dict) -> None:
        click.echo(json.dumps(event, ensure_ascii=False))


def shown(path: Path) -> Path:
    """A path as the user reads it: relative to the current folder when inside it."""
    path = Path(path)
    cwd = Path.cwd()
    return path.relative_to(cwd) if path.is_absolute() and path.is_relative_to(cwd) else path


def current() -> Reporter:
    """The reporter of the running command (set up by the `qrs` group from --quiet/--json)."""
    context = click.get_current_context(silent=True)
    if context is None:
        return Reporter()
    return context.meta.setdefault(META_KEY, Reporter())
