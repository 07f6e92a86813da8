"""How an output is built: one typed value, made once by the command line and passed as it is to the pipeline,
the build manifest and the worker processes (it pickles, and its fields are its manifest key)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BuildOptions:
    paper: str | None = None  # overrides the sheet's paper size: "A4" or "letter"
    allow_fallback: bool = False  # print canonical text where a translation is missing or stale
    gloss: bool = False  # show each keyword's English original beside its first mention
    changes_since: str | None = None  # mark with a bar what changed since this edition
    errata_only: bool = False  # print only what changed (since changes_since, or the previous edition)
    crop_marks: bool = False  # crop marks and 3 mm of bleed, for a print shop
    ink_saver: bool = False  # no solid fills, light rules
    impose: str | None = None  # "2up" or "booklet": half-size pages, two on each side of the paper
    pdf_variant: str | None = None  # a standard the PDF declares and follows: "pdf/ua-1" or "pdf/a-3b"
    # a format's own options (the value its module's `own_options` made), by the format's name: ("cards", …)
    own: tuple[tuple[str, Any], ...] = ()

    def of(self, form: str, default: Any = None) -> Any:
        """The options the format named `form` declares for itself, or `default` where none were given."""
        return dict(self.own).get(form, default)
