"""The output formats: one module each, listed here by name, as pandoc lists its writers.

A format's module owns where its files go (`path`), what the build options add to their names (`variant`), its
own options (`OPTIONS`, the command line's, made into one typed value by `own_options`) and its rendering
(`render`: a prepared target → the bytes written, and what the layout told). Importing one imports neither the
model nor WeasyPrint: the build manifest asks formats for paths before anything is rendered. A new format is one
module and one line below (docs/contributing.md, "Add an output format")."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REGISTRY = {
    "pdf": "generator.output.formats.pdf",
    "html": "generator.output.formats.html",
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
