"""Translations: one gettext catalogue per sheet and language, `sources/i18n/<sheet>.<lang>.po`.

Each prose string of a source is one message: its context is its stable place in the sheet
(section, block and row ids, not positions), its msgid the canonical text, its msgstr the
translation. A translation is *stale* when the canonical text changed since it was made
(its msgid no longer matches, or `qrs i18n update` flagged it fuzzy), *missing* when it is
absent or empty. Language-neutral strings ("4+", "2D6", "-1") are not offered for translation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from babel.messages.catalog import Catalog, Message
from pydantic import BaseModel, ValidationError

from generator.errors import Problem, UserError
from generator.model import glyphs, markup
from generator.model.types import Cell, Handout, Row, Sheet, prose
from generator.model.typography import URL
from generator.model.validate import describe_error, findings
from generator.reading.catalogues import read
from generator.reading.sources import Located

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
    """Words need translating, even one letter ("F" for Strength); dice, numbers and addresses do not."""
    return bool(_HAS_WORDS.search(_DICE.sub("", URL.sub("", text)))) and not _MARKUP_ONLY.match(text.strip())


def context_of(sheet: Sheet, loc: tuple) -> str:
    """A message's stable context: list positions replaced by what the items hold (their id, their roll,
    a row's first cell), so that inserting or moving an item leaves every other context as it was."""
    parts: list[str] = []
    node = sheet
    for key in loc:
        if isinstance(node, dict):
            node = node[key]
            parts.append(key)
        elif isinstance(key, int):
            parts.append(_item_key(node, key))
            node = node[key]
        else:
            node = getattr(node, key)
            parts.append(key)
    return "/".join(parts)


_KEY_LENGTH = 40


def _item_key(items: list, index: int) -> str:
    """An item of a list by what it holds; the second item holding the same is 'key~2'. Cells of a row and
    plain strings (bullets) keep their position: a row's columns are its structure."""
    if not isinstance(items[index], BaseModel) or isinstance(items[index], Cell):
        return str(index + 1)
    key = _own_key(items[index])
    if key is None:
        return str(index + 1)
    same = sum(1 for item in items[:index] if isinstance(item, BaseModel) and _own_key(item) == key)
    return f"{key}~{same + 1}" if same else key


def _own_key(item: BaseModel) -> str | None:
    ident = getattr(item, "id", None) or getattr(item, "roll", None) or getattr(item, "edition", None)
    if ident:
        return str(ident)
    if isinstance(item, Row):
        content = item.cells[0].text
    else:  # a modifier's value, a term, a step's title, a paragraph's text or first term, a change's text
        content = next((value for value in (getattr(item, name, None) for name in _CONTENT_FIELDS) if value), None)
    if isinstance(content, list):
        content = content[0]
    if isinstance(content, BaseModel):
        return _own_key(content)
    words = " ".join(str(content or "").replace("/", "-").split())
    return words[:_KEY_LENGTH] or None


_CONTENT_FIELDS = ("value", "term", "title", "p", "bullets", "numbered", "terms", "text", "name", "subheading")


@dataclass
class Entry:
    """One translatable string of the sheet."""

    loc: tuple
    context: str
    source: str
    line: int
    column: int = 1


def entries(located: Located, sheet: Sheet | Handout, lang: str) -> list[Entry]:
    """The strings a `lang` edition prints, in the order of the source (a catalogue reads like its source)."""
    found = [
        Entry(loc, context_of(sheet, loc), text, *located.position(loc))
        for loc, text in prose(sheet, verbatim=True)
        if needs_translation(text)
        and _printed_in(sheet, loc, lang)
        and text not in getattr(sheet, "untranslatable", ())
    ]
    return sorted(found, key=lambda entry: (entry.line, entry.column))


def _printed_in(sheet: Sheet | Handout, loc: tuple, lang: str) -> bool:
    """A correction scoped to one language (a French spelling fix) is never printed in another."""
    if loc[:1] != ("changelog",) or len(loc) < 4:
        return True
    return sheet.changelog[loc[1]].changes[loc[3]].concerns(lang)


@dataclass
class Status:
    translated: list[Entry] = field(default_factory=list)
    stale: list[tuple[Entry, Message]] = field(default_factory=list)
    missing: list[Entry] = field(default_factory=list)
    messages: dict[str, Message] = field(default_factory=dict)  # each translated entry's message, by its context

    def messages_by_entry(self) -> list[tuple[Entry, Message]]:
        return [(entry, self.messages[entry.context]) for entry in self.translated]


def status(catalogue: Catalog, wanted: list[Entry]) -> Status:
    """Each wanted string's translation, found as `qrs i18n update` would find it (a string moved or re-keyed
    since the last update keeps its translation): translated, stale (fuzzy, or made for another text) or missing."""
    previous = previous_messages(wanted, [message for message in catalogue if message.id and message.context])
    result = Status()
    for entry in wanted:
        message = previous.get(entry.context)
        if message is None or not message.string:
            result.missing.append(entry)
        elif message.fuzzy or message.id != entry.source:
            result.stale.append((entry, message))
        else:
            result.translated.append(entry)
            result.messages[entry.context] = message
    return result


def translate(
    located: Located, sheet: DocumentT, lang: str, catalogue_file: Path, allow_fallback: bool
) -> tuple[DocumentT, int]:
    """The sheet (or handout) in another language, and how many strings fell back to the canonical text.
    Every problem is raised at once: the missing and stale strings, and those of the translated strings."""
    catalogue = read(catalogue_file)
    wanted = entries(located, sheet, lang)
    found = status(catalogue, wanted)
    problems = [] if allow_fallback else _untranslated_problems(located, catalogue_file, lang, found)
    problems += _moved_links(found, lang, catalogue_file)
    data = sheet.model_dump(exclude_defaults=False)
    for entry in found.translated:
        _set(data, entry.loc, found.messages[entry.context].string)
    data["lang"] = lang
    lines = {entry.context: _line(message) for entry, message in [*found.messages_by_entry(), *found.stale]}
    try:
        translated = type(sheet).model_validate(data)
    except ValidationError as error:  # a translation that breaks the shape (too long, empty), or an unknown language
        raise UserError(
            problems
            + [
                Problem(
                    str(catalogue_file),
                    lines.get(_context_or_none(sheet, _in_data(data, e["loc"])), 1),
                    1,
                    f"in the '{lang}' translation: {describe_error(e)}",
                )
                for e in error.errors()
            ]
        ) from None
    if isinstance(translated, Sheet):
        problems += [
            Problem(
                str(catalogue_file), lines.get(context_of(sheet, loc), 1), 1, f"in the '{lang}' translation: {message}"
            )
            for loc, message in findings(translated)
        ]
        problems += _glossary_problems(translated, lang, catalogue_file, lines)
    if problems:
        raise UserError(glyphs.one_per_character(problems))
    fallen_back = [entry for entry, _ in found.stale] + found.missing
    translated.mark_fallback({entry.source for entry in fallen_back}, sheet.lang)
    return translated, len(fallen_back)


def _moved_links(found: Status, lang: str, catalogue_file: Path) -> list[Problem]:
    """A link's text is translated, its address is not: a translation keeps the source's links, in order."""
    problems = []
    for entry, message in found.messages_by_entry():
        kept, given = markup.links(entry.source), markup.links(message.string)
        if kept != given:
            problems.append(
                Problem(
                    str(catalogue_file),
                    _line(message),
                    1,
                    (
                        f"in the '{lang}' translation of {entry.context}: the links lead to {', '.join(given) or 'nothing'}; "
                        f"expected the source's, as typed: {', '.join(kept) or 'none'} (a link's text is translated, its "
                        "address is not)"
                    ),
                )
            )
    return problems


def _line(message: Message) -> int:
    return message.lineno or 1


def _in_data(data, loc: tuple) -> tuple:
    """A pydantic error's path with what is not in the data left out (a union's tag, 'text' or 'function-after[…]'),
    as the source's positions are found: the path of the string the translation put there."""
    found = []
    for key in loc:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            continue
        found.append(key)
    return tuple(found)


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
        Problem(
            str(catalogue_file),
            lines.get(f"keywords/{keyword.id}/term", 1),
            1,
            f"the keyword '{keyword.id}' is '{keyword.original}' in the game's English; the translation says '{keyword.term}'",
        )
        for keyword in translated.keywords
        if keyword.original and keyword.term != keyword.original
    ]


def _untranslated_problems(located: Located, catalogue_file: Path, lang: str, found: Status) -> list[Problem]:
    problems = []
    for entry, message in found.stale:
        problems.append(
            Problem(
                str(catalogue_file),
                _line(message),
                1,
                f"stale '{lang}' translation of {located.path.name}:{entry.line} ({entry.context}): "
                f"the source text changed to {entry.source[:60]!r}",
            )
        )
    update = f"qrs i18n update {catalogue_file.name.rsplit('.', 2)[0]} --lang {lang}"
    folded = (
        f"{{count}} strings have no '{lang}' translation in {catalogue_file.name} (run '{update}', "
        f"translate, or build with --allow-fallback; --verbose lists them)"
    )
    for entry in found.missing:
        problems.append(
            Problem(
                str(located.path),
                entry.line,
                entry.column,
                f"no '{lang}' translation of {entry.context} in {catalogue_file.name} "
                f"(run '{update}', translate, or build with --allow-fallback)",
                folded,
            )
        )
    return problems


def _set(data, loc: tuple, value: str) -> None:
    for key in loc[:-1]:
        data = data[key]
    data[loc[-1]] = value


def previous_messages(wanted: list[Entry], old: list[Message]) -> dict[str, Message]:
    """Each wanted context's message in the old catalogue: at the same context; else, among the messages whose
    context vanished, one with the same text (the string moved: a renamed block, a row's new key); else the only
    one whose context differs in one step (the text keying its item was edited: a row's first cell)."""
    found = {message.context: message for message in old if message.context in {entry.context for entry in wanted}}
    vanished = [message for message in old if message.context not in found]
    for entry in (entry for entry in wanted if entry.context not in found):
        moved = next((message for message in vanished if message.id == entry.source), None)
        if moved is not None:
            found[entry.context] = moved
    unclaimed = [message for message in vanished if message not in found.values()]
    for entry in (entry for entry in wanted if entry.context not in found):
        near = [message for message in unclaimed if _one_step_apart(message.context, entry.context)]
        if len(near) == 1:
            found[entry.context] = near[0]
            unclaimed.remove(near[0])
    return found


def _one_step_apart(context: str, other: str) -> bool:
    steps, other_steps = context.split("/"), other.split("/")
    return len(steps) == len(other_steps) and sum(a != b for a, b in zip(steps, other_steps)) == 1
