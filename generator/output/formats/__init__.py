"""The output formats: one module each, listed here by name, as pandoc lists its writers.

A format's module owns where its files go (`path`), what the build options add to their names (`variant`), its
own options (`OPTIONS`, the command line's, made into one typed value by `own_options`) and its rendering
(`render`: a prepared target → the bytes written, and what the layout told). Importing one imports neither the
model nor WeasyPrint: the build manifest asks formats for paths before anything is rendered. A new format is one
module and one line below (docs/contributing.md, "Add an output format").

A format may also stand in for another (`INSTEAD_OF`: the cards print the PDF as cards when their option is given,
`chosen`), and be asked for by a handout itself (`declared`: a handout's `cards:` adds its deck to its outputs,
`beside`)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REGISTRY = {
    "pdf": "generator.output.formats.pdf",
    "html": "generator.output.formats.html",
    "cards": "generator.output.formats.cards",
    "cards-html": "generator.output.formats.cards_page",
}


@dataclass(frozen=True)
class Rendered:
    """What a format made of a target in one language: the file's bytes, and the layout's report (a PDF's)."""

    data: bytes
    layout: dict | None = None


def names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def writer(name: str) -> ModuleType:
    """The module of the format named `name` (one of `names()`)."""
    return importlib.import_module(REGISTRY[name])


def file_path(project, folder: str, target, lang: str, variant: str | None, suffix: str) -> Path:
    """build/<folder>/<target's folder>/<id>.<variant>.<lang>.<suffix>: the shape every format's files take."""
    return project.build / folder / target.folder / ".".join(filter(None, [target.ident, variant, lang, suffix]))


def joined(*parts: str | None) -> str | None:
    """Name parts joined with dots, the empty ones left out; None when none is left."""
    return ".".join(part for part in parts if part) or None


def chosen(forms: tuple[str, ...], params: dict) -> tuple[str, ...]:
    """The formats written: those named, each replaced by a format standing in for it whose own options were given
    (`--cards SIZE --format html`: the cards' web page)."""
    instead = {}
    for name in names():
        module = writer(name)
        if getattr(module, "INSTEAD_OF", None) and module.own_options(params) is not None:
            instead[module.INSTEAD_OF] = name
    return tuple(dict.fromkeys(instead.get(form, form) for form in forms))


def declared(located, handout) -> dict[str, str]:
    """The formats a handout asks for itself, each with what it names (a deck's size), by the format's name."""
    asked = ((name, getattr(writer(name), "declared", None)) for name in names())
    found = {name: ask(located, handout) for name, ask in asked if ask is not None}
    return {name: value for name, value in found.items() if value is not None}


def beside(form: str, asked: dict[str, str]) -> list[tuple[str, object]]:
    """(format, its own options) of each format a handout asks for (`declared`) that stands in for `form`: its deck
    beside its PDF, its deck's page beside its web page."""
    return [
        (name, writer(name).from_declared(value))
        for name, value in asked.items()
        if getattr(writer(name), "INSTEAD_OF", None) == form
    ]


def refusals(forms: tuple[str, ...], targets: list, options) -> list[str]:
    """What the chosen formats cannot make of these targets with these options (usage errors)."""
    found = (getattr(writer(form), "refused", None) for form in forms)
    return [why for why in (check(targets, options) for check in found if check is not None) if why]
