"""`qrs changelog`: every correction of every edition, grouped by kind, as release notes.

The printed box lists only what changes play (generator.model.types.Sheet.boxed_changes); this is the full list,
in the sheet's language: entries scoped to another language are left out, as editions leave them out.
"""

from __future__ import annotations

import json

from generator.model import typography
from generator.model.markup import parse, to_plain
from generator.model.types import Sheet

KINDS = ("rules", "clarification", "layout", "typo")
FORMATS = ("text", "markdown", "json")


def grouped(sheet: Sheet) -> list[dict]:
    """Per edition, newest first: its number, date and changes by kind (kinds without changes left out)."""
    typo = typography.for_language(sheet.lang)
    keyword = {key.id.casefold(): key.term for key in sheet.keywords} | {
        key.term.casefold(): key.term for key in sheet.keywords
    }
    printed = lambda text: to_plain(
        parse(typography.quotes(text, sheet.lang)), typo, lambda key, shown: shown or keyword.get(key.casefold(), key)
    )  # noqa: E731
    found = []
    for edition in sheet.changelog:
        kinds = {
            kind: [
                printed(change.text)
                for change in edition.changes
                if change.kind == kind and change.concerns(sheet.lang)
            ]
            for kind in KINDS
        }
        found.append(
            {
                "edition": edition.edition,
                "date": edition.date,
                "changes": {kind: texts for kind, texts in kinds.items() if texts},
            }
        )
    return found


def render(sheet: Sheet, form: str, titles: dict[str, str]) -> str:
    """The changelog as text, Markdown or JSON; `titles` names each kind in the sheet's language."""
    editions = grouped(sheet)
    if form == "json":
        return json.dumps(
            {"sheet": sheet.sheet, "lang": sheet.lang, "editions": editions}, ensure_ascii=False, indent=2
        )
    heading, item = ("## ", "- ") if form == "markdown" else ("", "  - ")
    lines = []
    for edition in editions:
        lines.append(f"{heading}{sheet.sheet} {edition['edition']} ({edition['date']})")
        for kind, texts in edition["changes"].items():
            lines.append(f"{'### ' if form == 'markdown' else ''}{titles[kind]}")
            lines.extend(f"{item}{text}" for text in texts)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
