"""Stage 2, validate: plain data → a typed Sheet, then the checks a rules editor relies on.

Shape errors come from the model (pydantic); game-logic checks come from each block's own
`check()`; cross-references (keywords, footnotes, ids) and markup are checked here, for all
blocks alike. Every problem of a file is reported at once, with file:line:column.
"""

from __future__ import annotations

from collections import Counter

from pydantic import ValidationError

from generator import markup
from generator.errors import UserError
from generator.load import Located
from generator.model import Keyword, Sheet, prose


def validate(located: Located) -> Sheet:
    try:
        sheet = Sheet.model_validate(located.data)
    except ValidationError as error:
        raise UserError([located.problem(e["loc"], _describe(e)) for e in error.errors()]) from None
    problems = [located.problem(loc, message) for loc, message in findings(sheet)]
    if sheet.sheet != located.path.stem:
        problems.append(located.problem(("sheet",), f"the sheet id '{sheet.sheet}' must match the file name '{located.path.stem}'"))
    if problems:
        raise UserError(problems)
    return sheet


def findings(sheet: Sheet):
    """Every problem of a well-shaped sheet, as (path, message)."""
    yield from _duplicate_ids(sheet)
    yield from _markup(sheet)
    for s, section in enumerate(sheet.sections):
        for b, block in enumerate(section.blocks):
            here = ("sections", s, "blocks", b)
            if hasattr(block, "check"):
                for loc, message in block.check():
                    yield here + loc, message
            yield from _footnotes(block, here)
            if block.type == "glossary":
                for k, key in enumerate(block.keywords or []):
                    if key not in {kw.id for kw in sheet.keywords}:
                        yield here + ("keywords", k), f"unknown keyword '{key}'"
    yield from _keyword_cycles(sheet)


def keyword_index(sheet: Sheet) -> dict[str, Keyword]:
    """Keywords by id and by term (case-insensitive): {savage} and {Savage} both resolve."""
    index: dict[str, Keyword] = {}
    for keyword in sheet.keywords:
        index[keyword.term.casefold()] = keyword
        index[keyword.id] = keyword
    return index


def _duplicate_ids(sheet: Sheet):
    groups = {
        "section": [(("sections", s), section.id) for s, section in enumerate(sheet.sections)],
        "block": [
            (("sections", s, "blocks", b), block.id)
            for s, section in enumerate(sheet.sections)
            for b, block in enumerate(section.blocks)
        ],
        "keyword": [(("keywords", k), keyword.id) for k, keyword in enumerate(sheet.keywords)],
    }
    for kind, entries in groups.items():
        seen: set[str] = set()
        for loc, ident in entries:
            if ident in seen:
                yield loc + ("id",), f"duplicate {kind} id '{ident}': ids must be unique in a sheet"
            seen.add(ident)


def _markup(sheet: Sheet):
    keywords = keyword_index(sheet)
    for loc, text in prose(sheet):
        offset = markup.html_tag_at(text)
        if offset is not None:
            yield loc, f"raw HTML is not allowed (at '{text[offset:offset + 12]}'): use **bold**, *italic*, {{keyword}}"
            continue
        for token in markup.walk(markup.parse(text)):
            if isinstance(token, markup.KeywordRef) and token.key.casefold() not in keywords:
                yield loc, f"unknown keyword {{{token.key}}}: define it under keywords, or write \\{{ for a literal brace"


def _footnotes(block, here: tuple):
    defined = Counter(note.id for note in block.notes)
    for n, note in enumerate(block.notes):
        if defined[note.id] > 1:
            yield here + ("notes", n, "id"), f"duplicate footnote '{note.id}'"
    referenced: set[str] = set()
    for loc, text in prose(block):
        if loc[0] == "notes":
            continue
        for token in markup.walk(markup.parse(text)):
            if isinstance(token, markup.FootnoteRef):
                referenced.add(token.key)
                if token.key not in defined:
                    yield here + loc, f"unknown footnote [^{token.key}]: add it to this block's notes"
    for n, note in enumerate(block.notes):
        if note.id not in referenced:
            yield here + ("notes", n), f"footnote '{note.id}' is never referenced: mark it in a cell with [^{note.id}]"


def _keyword_cycles(sheet: Sheet):
    """A keyword whose definition leads back to itself cannot be followed to an end."""
    index = keyword_index(sheet)
    mentions = {
        keyword.id: {
            index[token.key.casefold()].id
            for token in markup.walk(markup.parse(keyword.text or ""))
            if isinstance(token, markup.KeywordRef) and token.key.casefold() in index
        }
        for keyword in sheet.keywords
    }
    for k, keyword in enumerate(sheet.keywords):
        path = _path_back(keyword.id, mentions)
        if path:
            yield ("keywords", k, "text"), "circular keyword references: " + " → ".join(path)


def _path_back(start: str, mentions: dict[str, set[str]]) -> list[str] | None:
    stack = [(start, [start])]
    visited: set[str] = set()
    while stack:
        current, path = stack.pop()
        for target in sorted(mentions.get(current, ())):
            if target == start:
                return path + [start]
            if target not in visited:
                visited.add(target)
                stack.append((target, path + [target]))
    return None


def _describe(error: dict) -> str:
    """A pydantic error in the words of a sheet author."""
    kind, loc = error["type"], error["loc"]
    field = next((part for part in reversed(loc) if isinstance(part, str)), "value")
    given = error.get("input")
    if kind == "extra_forbidden":
        return f"unknown field '{field}'"
    if kind == "missing":
        return f"missing required field '{field}'"
    if kind == "union_tag_invalid":
        expected = error["ctx"]["expected_tags"]
        return f"unknown block type '{error['ctx']['tag']}': expected one of {expected}"
    if kind == "union_tag_not_found":
        return "missing field 'type': every block needs a type"
    if kind == "string_pattern_mismatch":
        if field in ("id", "sheet", "keywords"):
            return f"'{given}' is not a valid id: use lowercase letters, digits and hyphens"
        return f"'{given}' does not have the expected form for '{field}' ({error['ctx']['pattern']})"
    if kind == "string_type" and given is None:
        return f"'{field}' is empty: write a value (\"\" for an empty text)"
    if kind in ("list_type", "model_type", "dict_type", "model_attributes_type"):
        expected = "a list" if kind == "list_type" else "a mapping of fields"
        return f"'{field}' should be {expected}, not {type(given).__name__ if given is not None else 'empty'}"
    if kind == "string_too_long":
        return f"'{field}' is too long: at most {error['ctx']['max_length']} characters"
    if kind == "too_long":
        return f"'{field}' has too many items: at most {error['ctx']['max_length']}"
    if kind == "too_short":
        return f"'{field}' needs at least {error['ctx']['min_length']} item(s)"
    if kind == "literal_error":
        return f"'{given}' is not allowed for '{field}': expected {error['ctx']['expected']}"
    message = error["msg"].removeprefix("Value error, ")
    return f"{field}: {message}"
