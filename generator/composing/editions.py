"""Earlier editions of a source: a sheet at a revision, or at the edition it declared.

A sheet at a revision is materialised into a folder of its own (generator.reading.history: the source and its
catalogues as they were), so the ordinary pipeline loads, checks and builds it.
"""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from generator.composing import translate as i18n
from generator.errors import UserError
from generator.model.types import Sheet
from generator.model.validate import load
from generator.reading.history import folder_name, materialise, revision_of_edition
from generator.reading.sources import Located


def require_edition(located: Located, sheet: Sheet, command: str) -> None:
    """Commands on a sheet's editions need one: a sheet may leave its edition out, and these then say so."""
    if sheet.edition is None:
        raise UserError(
            [
                located.problem(
                    (),
                    f"{command} works on the sheet's editions, and it has none: give it an "
                    "edition, a date and a changelog (docs/editions.md)",
                )
            ]
        )


def previous_edition(located: Located, sheet: Sheet) -> str:
    require_edition(located, sheet, "--errata-only")
    if len(sheet.changelog) < 2:
        raise UserError(
            [
                located.problem(
                    ("changelog",), "no earlier edition in the changelog to compare with: give one with --changes-since"
                )
            ]
        )
    return sheet.changelog[1].edition


def check_edition(located: Located, sheet: Sheet, since: str) -> None:
    """`since` must be an edition of the changelog: an earlier one, or this one (nothing has changed since: the
    sheet prints without marks, as the README's commands pasted before any edit show)."""
    require_edition(located, sheet, "--changes-since")
    known = [edition.edition for edition in sheet.changelog]
    if since not in known:
        raise UserError(
            [
                located.problem(
                    ("changelog",),
                    f"edition {since} is not an edition of the changelog (it lists {', '.join(known) or 'none'})",
                )
            ]
        )


def sheet_at_edition(path: Path, edition: str, lang: str | None = None, required: bool = True) -> Sheet | None:
    """The sheet as last committed with this edition number, in `lang` (its own by default);
    None when the edition was never committed and `required` is false."""
    revision = revision_of_edition(path, edition, required)
    return sheet_at_revision(path, revision, lang) if revision else None


def sheet_at_revision(path: Path, revision: str, lang: str | None = None) -> Sheet:
    """The sheet at a git revision; in another language, translated by its catalogue of then (the canonical
    text where that catalogue lacked a translation: an old edition is not checked again)."""
    with tempfile.TemporaryDirectory(prefix="qrs-") as folder:
        earlier_sources = Path(folder) / folder_name(path.stem, revision)
        earlier = materialise(path.parent, path.stem, revision, earlier_sources)
        with named_at_revision(earlier_sources, path.parent, revision):
            located, sheet = load(earlier)
            if lang and lang != sheet.lang:
                catalogue = i18n.catalogue_path(earlier_sources, sheet.sheet, lang)
                sheet, _ = i18n.translate(located, sheet, lang, catalogue, allow_fallback=True)
            return sheet


@contextmanager
def named_at_revision(materialised: Path, sources: Path, revision: str):
    """Problems found in a sheet materialised in a temporary folder name the file as the author knows it,
    sources/wab2.yaml@v2.0 (the temporary folder is gone when they are read)."""
    try:
        yield
    except UserError as error:
        raise UserError(
            [
                replace(problem, path=_at_revision(problem.path, materialised, sources, revision))
                for problem in error.problems
            ]
        ) from None


def _at_revision(path: str, materialised: Path, sources: Path, revision: str) -> str:
    if not Path(path).is_relative_to(materialised):
        return path  # a template or the sources folder: a real path
    return f"{sources / Path(path).relative_to(materialised)}@{revision}"
