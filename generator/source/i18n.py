"""Translations: one gettext catalogue per sheet and language, `sources/i18n/<sheet>.<lang>.po`.

Each prose string of a source is one message: its context is its stable place in the sheet
(section, block and row ids, not positions), its msgid the canonical text, its msgstr the
translation. A translation is *stale* when the canonical text changed since it was made
(its msgid no longer matches, or `qrs i18n update` flagged it fuzzy), *missing* when it is
absent or empty. Language-neutral strings ("4+", "2D6", "-1") are not offered for translation.
"""

from __future__ import annotations

import datetime
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from generator.source import files

from generator.output import write
from generator.errors import Problem, UserError
from generator.source import load
from generator.source.load import Located
from generator.schema.model import Handout, Sheet, prose
from generator.schema.validate import describe_error, findings
from pydantic import ValidationError

DocumentT = TypeVar("DocumentT", Sheet, Handout)

_HAS_WORDS = re.compile(r"[^\W\d_½¼¾]")
_DICE = re.compile(r"\d*D\d+")
_MARKUP_ONLY = re.compile(r"^\{[^{}]+\}$")  # a bare keyword reference prints the keyword's own term


def catalogue_path(sources: Path, sheet_id: str, lang: str) -> Path:
    return sources / "i18n" / f"{sheet_id}.{lang}.po"


def languages(sources: Path, sheet: Sheet) -> list[str]:
    """The canonical language first, then every language with a catalogue."""
    found = sorted(path.suffixes[-2].lstrip(".") for path in (sources / "i18n").glob(f"{sheet.sheet}.*.po"))
    return [sheet.lang] + [lang for lang in found if lang != sheet.lang]


def translated_languages(sources: Path, sheet: Sheet) -> list[str]:
    """The languages a sheet has catalogues for, besides its canonical one."""
    return languages(sources, sheet)[1:]


def needs_translation(text: str) -> bool:
    """Words need translating, even one letter ("F" for Strength); dice and numbers do not."""
    return bool(_HAS_WORDS.search(_DICE.sub("", text))) and not _MARKUP_ONLY.match(text.strip())


def context_of(sheet: Sheet, loc: tuple) -> str:
    """A message's stable context: list positions replaced by the ids of what they hold."""
    parts: list[str] = []
    node = sheet
    for key in loc:
        if isinstance(node, dict):
            node = node[key]
            parts.append(key)
        elif isinstance(key, int):
            node = node[key]
            ident = getattr(node, "id", None) or getattr(node, "roll", None) or getattr(node, "edition", None)
            parts.append(str(ident) if ident else str(key + 1))
        else:
            node = getattr(node, key)
            parts.append(key)
    return "/".join(parts)


@dataclass
class Entry:
    """One translatable string of the sheet."""

    loc: tuple
    context: str
    source: str
    line: int
    column: int = 1


def entries(located: Located, sheet: Sheet) -> list[Entry]:
    return [
        Entry(loc, context_of(sheet, loc), text, *located.position(loc))
        for loc, text in prose(sheet)
        if needs_translation(text)
    ]


@dataclass
class Status:
    translated: list[Entry] = field(default_factory=list)
    stale: list[tuple[Entry, Message]] = field(default_factory=list)
    missing: list[Entry] = field(default_factory=list)


def read(path: Path) -> Catalog:
    try:
        raw = files.read_regular(path, files.MAX_CATALOGUE_BYTES, "a catalogue", confined=True)
        load.refuse_unprintable(path, load.decode(path, raw))  # the sources' rule, at the catalogue's line
        return read_po(io.BytesIO(raw), abort_invalid=True)
    except UserError:
        raise
    except FileNotFoundError:
        raise UserError.at(path, 1, 1, "no such catalogue: run 'qrs i18n update' to create it") from None
    except Exception as error:  # Babel's PoFileError and decoding errors carry their own words
        line = (getattr(error, "lineno", 0) or 0) + 1  # Babel counts lines from 0
        raise UserError.at(path, line, 1, f"unreadable catalogue: {error}") from None


def status(catalogue: Catalog, wanted: list[Entry]) -> Status:
    by_context = {message.context: message for message in catalogue if message.id and message.context}
    result = Status()
    for entry in wanted:
        message = by_context.get(entry.context)
        if message is None or not message.string:
            result.missing.append(entry)
        elif message.fuzzy or message.id != entry.source:
            result.stale.append((entry, message))
        else:
            result.translated.append(entry)
    return result


def translate(located: Located, sheet: DocumentT, lang: str, catalogue_file: Path, allow_fallback: bool) -> tuple[DocumentT, int]:
    """The sheet (or handout) in another language, and how many strings fell back to the canonical text."""
    catalogue = read(catalogue_file)
    wanted = entries(located, sheet)
    found = status(catalogue, wanted)
    if (found.stale or found.missing) and not allow_fallback:
        raise UserError(_untranslated_problems(located, catalogue_file, lang, found))
    data = sheet.model_dump(exclude_defaults=False)
    by_context = {message.context: message.string for message in catalogue if message.context}
    for entry in found.translated:
        _set(data, entry.loc, by_context[entry.context])
    data["lang"] = lang
    lines = {message.context: _line(message) for message in catalogue if message.context}
    try:
        translated = type(sheet).model_validate(data)
    except ValidationError as error:  # a translation that breaks the shape (too long, empty), or an unknown language
        raise UserError([Problem(str(catalogue_file), lines.get(_context_or_none(sheet, e["loc"]), 1), 1,
                                 f"in the '{lang}' translation: {describe_error(e)}") for e in error.errors()]) from None
    if not isinstance(translated, Sheet):
        return translated, len(found.stale) + len(found.missing)
    problems = [
        Problem(str(catalogue_file), lines.get(context_of(translated, loc), 1), 1, f"in the '{lang}' translation: {message}")
        for loc, message in findings(translated)
    ]
    problems += _glossary_problems(translated, lang, catalogue_file, lines)
    if problems:
        raise UserError(problems)
    return translated, len(found.stale) + len(found.missing)


def _line(message: Message) -> int:
    return message.lineno or 1


def _context_or_none(document, loc: tuple) -> str | None:
    try:
        return context_of(document, loc)
    except (AttributeError, IndexError, KeyError, TypeError):  # a path through a union tag, or past the data
        return None


def _glossary_problems(translated: Sheet, lang: str, catalogue_file: Path, lines: dict[str, int]) -> list[Problem]:
    """The games are English originals: an English edition names each keyword by its original term."""
    if lang != "en":
        return []
    return [
        Problem(str(catalogue_file), lines.get(f"keywords/{keyword.id}/term", 1), 1,
                f"the keyword '{keyword.id}' is '{keyword.original}' in the game's English; the translation says '{keyword.term}'")
        for keyword in translated.keywords
        if keyword.original and keyword.term != keyword.original
    ]


def _untranslated_problems(located: Located, catalogue_file: Path, lang: str, found: Status) -> list[Problem]:
    problems = []
    for entry, message in found.stale:
        problems.append(Problem(str(catalogue_file), _line(message), 1,
                                f"stale '{lang}' translation of {located.path.name}:{entry.line} ({entry.context}): "
                                f"the source text changed to {entry.source[:60]!r}"))
    for entry in found.missing:
        problems.append(Problem(str(located.path), entry.line, entry.column,
                                f"no '{lang}' translation of {entry.context} in {catalogue_file.name} "
                                f"(run 'qrs i18n update', translate, or build with --allow-fallback)"))
    return problems


def _set(data, loc: tuple, value: str) -> None:
    for key in loc[:-1]:
        data = data[key]
    data[loc[-1]] = value


def update(located: Located, sheet: Sheet | Handout, lang: str, catalogue_file: Path) -> Status:
    """Create or refresh a catalogue from the source: new strings added, changed ones flagged fuzzy
    with their previous text kept, vanished ones dropped. Existing translations are kept."""
    write.destination(catalogue_file)  # a link out of sources/ is refused before it is read, not only written
    old = read(catalogue_file) if catalogue_file.exists() else Catalog(locale=lang)
    old_by_context = {message.context: message for message in old if message.id and message.context}
    day = datetime.datetime.fromisoformat(sheet.date).replace(tzinfo=datetime.timezone.utc)
    kind, ident = ("handout", sheet.handout) if isinstance(sheet, Handout) else ("sheet", sheet.sheet)
    fresh = Catalog(locale=lang, project=f"qrs {ident}", version=getattr(sheet, "edition", sheet.date),
                    creation_date=day, revision_date=day, fuzzy=False, msgid_bugs_address="",
                    header_comment=f"# Translation of the qrs {kind} '{ident}' from '{sheet.lang}' to '{lang}'.\n"
                                   "# Context: the string's place in the source. Refresh with: qrs i18n update")
    wanted = entries(located, sheet)
    for entry in wanted:
        previous = old_by_context.get(entry.context)
        string, flags, previous_id = "", set(), ()
        if previous is not None and previous.string:
            string = previous.string
            if previous.id != entry.source:
                flags, previous_id = {"fuzzy"}, (previous.id,)
            elif previous.fuzzy:
                flags, previous_id = {"fuzzy"}, tuple(previous.previous_id)
        fresh.add(entry.source, string, locations=[(located.path.name, entry.line)], flags=flags,
                  context=entry.context, previous_id=previous_id or ())
    buffer = io.BytesIO()
    write_po(buffer, fresh, width=100, include_previous=True, sort_output=False, omit_header=False)
    write.atomically(catalogue_file, buffer.getvalue())
    return status(fresh, wanted)
