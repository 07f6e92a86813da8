"""The model's checks: plain data → a typed Sheet, then the checks a rules editor relies on.

Shape errors come from the model (pydantic); game-logic checks come from each block's own
`check()`; cross-references (keywords, footnotes, ids) and markup are checked here, for all
blocks alike. Every problem of a file is reported at once, with file:line:column.
"""

from __future__ import annotations

import copy
import difflib

import re
from pathlib import Path
from collections import Counter
from functools import cache
from typing import TypeVar, get_args

from pydantic import BaseModel, ValidationError

from generator import files
from generator.model import glyphs

from generator.model import markup, rules
from generator.model.blocks import figure
from generator.model.blocks.block import SUBHEADING_TAG
from generator.errors import UserError
from generator.reading.sources import Located, load_file
from generator.model.types import PLAYERS_KINDS, Handout, Keyword, Model, Sheet, edition_key, prose

ModelT = TypeVar("ModelT", bound=Model)

RESERVED_SHEET_ID = "ui"  # sources/i18n/ui.<lang>.po are the templates' words (Project.ui_catalogues)
MAX_DIE_RESULTS = 1000  # the results a dice table's die may show (10D100 shows 991, D66 36)


def check(path: Path) -> Sheet:
    """Load and validate one source; raise UserError naming every problem."""
    return validate(load_file(path))


def load(path: Path) -> tuple[Located, Sheet]:
    """A validated sheet, with the located data that maps it back to its file."""
    located = load_file(path)
    return located, validate(located)


def validate(located: Located) -> Sheet:
    try:
        sheet = parse(located, Sheet)
    except UserError as error:  # the file's other problems too, where the model can read past its shape's
        raise UserError([*error.problems, *_beyond_unknown_fields(located)]) from None
    problems = _sheet_problems(located, sheet)
    if problems:
        raise UserError(problems)
    return sheet


def _sheet_problems(located: Located, sheet: Sheet) -> list:
    """What is wrong with a well-shaped sheet: the game's rules, its references, its id."""
    problems = [located.problem(loc, message) for loc, message in findings(sheet)]
    problems += [located.problem(loc, message) for loc, message in figure.file_findings(sheet, located.path.parent)]
    if sheet.sheet != located.path.stem:
        problems.append(located.problem(("sheet",), f"the sheet id '{sheet.sheet}' must match the file name '{located.path.stem}'"))
    if files.device_problem(sheet.sheet):
        problems.append(located.problem(("sheet",), files.device_problem(sheet.sheet)))
    if sheet.sheet == RESERVED_SHEET_ID:
        problems.append(located.problem(("sheet",), f"the sheet id '{RESERVED_SHEET_ID}' is reserved: sources/i18n/"
                                                    f"{RESERVED_SHEET_ID}.<lang>.po holds the templates' words"))
    return glyphs.one_per_character(problems)


def _beyond_unknown_fields(located: Located) -> list:
    """The problems of a sheet whose only shape problems are unknown fields, found in it without those fields: one
    run says every problem of the file (a misspelt field and a dice gap alike), not one a run. Any other shape
    problem leaves the model nothing sure to check: none then."""
    try:
        Sheet.model_validate(located.data)
        return []
    except ValidationError as error:
        errors = error.errors()
    if any(found["type"] != "extra_forbidden" for found in errors):
        return []
    data = copy.deepcopy(located.data)
    for found in errors:
        container = data
        for key in found["loc"][:-1]:  # a union's tag (a block's type) is in the path, not in the data
            if isinstance(container, dict) and key in container or isinstance(container, list) and isinstance(key, int):
                container = container[key]
        if isinstance(container, dict):
            container.pop(found["loc"][-1], None)
    try:
        return _sheet_problems(located, Sheet.model_validate(data))
    except ValidationError:
        return []


def parse(located: Located, model: type[ModelT]) -> ModelT:
    """Plain data → a typed model; every shape problem named with its file:line:column."""
    try:
        return model.model_validate(located.data)
    except ValidationError as error:
        errors = error.errors()
        traps = {tuple(e["loc"][:-1]): key for e in errors
                 if (key := _brace_trap(e)) and _written_at(located, e["loc"][:-1]).startswith(f"{{{key}}}")}
        problems = [located.problem(loc, f"{{{key}}} was read as a mapping: a text that is a {{keyword}} must be put "
                                         f"in quotes (\"{{{key}}}\")") for loc, key in traps.items()]
        problems += [located.problem(e["loc"], describe_error(e)) for e in errors if tuple(e["loc"][:-1]) not in traps]
        raise UserError(problems) from None


def _written_at(located: Located, loc: tuple) -> str:
    """The source's text from where the value at `loc` starts to the end of its line."""
    where = located.problem(loc, "")
    try:
        line = located.path.read_text(encoding="utf-8").splitlines()[where.line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return ""
    return line[where.column - 1:]


def _brace_trap(error: dict) -> str | None:
    """The keyword of a {Swarm} written unquoted where a text or a mapping goes: YAML reads {Swarm: null}, and the
    model reports a missing field and an unknown one, with no word of the braces."""
    value = error.get("input")
    if error["type"] == "missing" and isinstance(value, dict) and len(value) == 1:
        (key, inner), = value.items()
        if inner is None and isinstance(key, str):
            return key
    return None


def findings(sheet: Sheet):
    """Every problem of a well-shaped sheet, as (path, message)."""
    yield from _metadata(sheet)
    yield from _duplicate_ids(sheet)
    yield from _markup(sheet)
    shared = {note.id for note in sheet.notes}
    yield from _sheet_notes(sheet)
    for here, block in sheet.placed_blocks():
        unrollable = _unrollable(block) if block.type == "dice" else None
        if unrollable:  # the block's own check would enumerate what the die rolls
            field, message = unrollable
            yield here + (field,), message
        elif hasattr(block, "check"):
            for loc, message in block.check():
                yield here + loc, message
        if block.type == "table" and isinstance(block.columns, str) and block.columns not in sheet.column_sets:
            sets = ", ".join(sheet.column_sets) or "none: declare them under column_sets"
            yield here + ("columns",), f"no column set '{block.columns}' (the sheet's: {sets})"
        yield from _characteristics_named(block, here, [c.id for c in sheet.characteristics])
        yield from _footnotes(block, here, shared)
        if block.type == "glossary":
            for k, key in enumerate(block.keywords or []):
                if key not in {kw.id for kw in sheet.keywords}:
                    known = ", ".join(kw.id for kw in sheet.keywords) or "none"
                    yield here + ("keywords", k), f"unknown keyword '{key}': expected the id of one of the sheet's keywords ({known})"
    yield from _groups(sheet)
    yield from _keyword_cycles(sheet)
    yield from _changelog(sheet)
    yield from glyphs.glyph_findings(sheet, sheet.lang, keyword_index(sheet))  # what the build would refuse
    block_ids = {block.id for block in sheet.blocks()}
    for k, keyword in enumerate(sheet.keywords):
        if keyword.see is not None and keyword.see not in block_ids:
            yield ("keywords", k, "see"), f"unknown block '{keyword.see}': 'see' names the block that defines the keyword"


def _metadata(sheet: Sheet):
    """What the renderer takes as given: one-line names."""
    for name in ("game", "title", "subtitle"):  # the game's name is printed inside the page footer's style
        if "\n" in (getattr(sheet, name) or ""):
            yield (name,), f"'{name}' must be one line: it is printed in the header or footer"
    for k, keyword in enumerate(sheet.keywords):
        if "\n" in keyword.term:
            yield ("keywords", k, "term"), "a keyword's term must be one line"
        offset = markup.html_tag_at(keyword.original or "")  # printed beside the term with --gloss, as text is
        if offset is not None:
            yield (("keywords", k, "original"),
                   f"raw HTML is not allowed (at '{keyword.original[offset:offset + 12]}'): the English term is plain text")


def _unrollable(block) -> tuple[str, str] | None:
    """Why a dice table's die or range cannot key it (no result, or too many to list): (field, message), or None."""
    if block.range:
        covered = len(rules.range_results(block.range, [row.roll for row in block.rows]))
        if covered > MAX_DIE_RESULTS:
            return "range", f"the range {block.range} holds {covered} numbers: a lookup covers at most {MAX_DIE_RESULTS}"
        return None
    why = _unrollable_die(block.die)
    return ("die", why) if why else None


def _unrollable_die(die: str) -> str | None:
    count, sides = re.fullmatch(r"(\d*)D(\d+)", die).groups()
    if len(count) > 6 or len(sides) > 6:
        return f"'{die[:20]}' rolls more than {MAX_DIE_RESULTS} different results: a dice table covers at most {MAX_DIE_RESULTS}"
    dice, faces = int(count or 1), int(sides)
    if dice < 1 or faces < 2:
        return f"'{die}' cannot be rolled: expected at least one die of at least 2 faces, such as D6, 2D6 or D66"
    results = 36 if die == "D66" else dice * (faces - 1) + 1
    if results > MAX_DIE_RESULTS:
        return f"'{die}' rolls {results} different results: a dice table covers at most {MAX_DIE_RESULTS}"
    return None


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
    yield from markup_findings(sheet, keyword_index(sheet), sheet.result_names())


def markup_findings(model: Model, keywords: dict[str, Keyword], results: dict[str, str]):
    """Raw HTML, links to refused addresses, unknown keyword and result references in the prose of a sheet or
    handout."""
    for loc, text in prose(model):
        offset = markup.html_tag_at(text)
        if offset is not None:
            yield loc, f"raw HTML is not allowed (at '{text[offset:offset + 12]}'): use **bold**, *italic*, {{keyword}}"
            continue
        for token in markup.walk(markup.parse(text)):
            if isinstance(token, markup.Link) and markup.link_problem(token):
                yield loc, markup.link_problem(token)
            if isinstance(token, markup.KeywordRef) and token.key.casefold() not in keywords:
                near = difflib.get_close_matches(token.key.casefold(), sorted(keywords), n=1)
                hint = f"did you mean {{{near[0]}}}? Else define it" if near else "define it"
                yield loc, f"unknown keyword {{{token.key}}}: {hint} under keywords, or write \\{{ for a literal brace"
            if isinstance(token, markup.ResultRef) and token.ref not in results:
                near = difflib.get_close_matches(token.ref, sorted(results), n=1)
                hint = f": did you mean '{near[0]}'?" if near else (
                    f" (named results: {', '.join(sorted(results))})" if results else ": give the dice row an id and a name")
                yield loc, f"no named result '{token.ref}': expected BLOCK/ROW, a dice table's row with an id and a name{hint}"


def _footnotes(block, here: tuple, shared: set[str] = frozenset()):
    """A block's notes and marks: each mark names the block's own note, else one of the sheet's (`shared`)."""
    defined = Counter(note.id for note in block.notes)
    for n, note in enumerate(block.notes):
        if note.id in (earlier.id for earlier in block.notes[:n]):
            yield here + ("notes", n, "id"), f"duplicate footnote '{note.id}': each note of a block needs its own id"
    referenced: set[str] = set()
    for loc, key in block.footnote_refs():
        referenced.add(key)
        if key not in defined and key not in shared:
            yield here + loc, f"unknown footnote [^{key}]: add it to this block's notes (or to the sheet's, shared)"
    for n, note in enumerate(block.notes):
        if note.id not in referenced:
            yield here + ("notes", n), f"footnote '{note.id}' is never referenced: mark it in a cell with [^{note.id}]"


def _sheet_notes(sheet: Sheet):
    """The sheet's shared notes: one id each, each referenced by a block that has no note of its own on that mark."""
    referenced = set().union(*(sheet.shared_refs(block) for block in sheet.blocks()))
    for n, note in enumerate(sheet.notes):
        if note.id in (earlier.id for earlier in sheet.notes[:n]):
            yield ("notes", n, "id"), f"duplicate footnote '{note.id}': each of the sheet's notes needs its own id"
        elif note.id not in referenced:
            yield ("notes", n), (f"the sheet's footnote '{note.id}' is never referenced: mark it in a block with "
                                 f"[^{note.id}] (a block's own note '{note.id}' wins over it)")


def _changelog(sheet: Sheet):
    """The changelog goes newest first, and its first entry is the sheet's own edition and date."""
    if not sheet.changelog:
        return
    missing = [field for field in ("edition", "date") if getattr(sheet, field) is None]
    if missing:
        yield ("changelog",), (f"a changelog lists editions, and the sheet has no {' and no '.join(missing)}: give "
                               f"the sheet its {' and '.join(missing)} (those of the changelog's first entry), or "
                               "leave the changelog out")
        return
    current = sheet.changelog[0]
    if (current.edition, current.date) != (sheet.edition, sheet.date):
        yield ("changelog", 0, "edition"), (f"the changelog starts with edition {current.edition} of {current.date}; "
                                            f"the sheet is edition {sheet.edition} of {sheet.date}")
    for index, (newer, older) in enumerate(zip(sheet.changelog, sheet.changelog[1:]), start=1):
        if edition_key(older.edition) >= edition_key(newer.edition) or older.date > newer.date:
            yield ("changelog", index, "edition"), (f"the changelog goes newest first: edition {older.edition} "
                                                    f"({older.date}) comes after {newer.edition} ({newer.date})")
    yield from _changed_blocks(sheet)


def _changed_blocks(sheet: Sheet):
    """A change names the blocks (or block/row) it touches: each must exist."""
    known = {block.id for block in sheet.blocks()} | set(sheet.row_refs())
    for e, edition in enumerate(sheet.changelog):
        for c, change in enumerate(edition.changes):
            if change.kind in PLAYERS_KINDS and not change.blocks:
                yield ("changelog", e, "changes", c), (f"a {change.kind} change names the blocks (or block/row) it "
                                                       "touches, so that --changes-since marks them: add blocks: [...]")
            for b, ref in enumerate(change.blocks):
                if ref not in known:
                    near = difflib.get_close_matches(ref, sorted(known), n=1)
                    hint = f": did you mean '{near[0]}'?" if near else ""
                    yield ("changelog", e, "changes", c, "blocks", b), f"no block or block/row '{ref}' in this sheet{hint}"


def _characteristics_named(block, here: tuple, profile: list[str]):
    """A characteristic a block names (a matrix's keys, a table column's values, the one armour's move penalties
    reduce) is one the sheet declares."""
    named = [(("row_characteristic",), getattr(block, "row_characteristic", None)),
             (("column_characteristic",), getattr(block, "column_characteristic", None))]
    if block.type == "table" and isinstance(block.columns, list):
        named += [(("columns", c, "characteristic"), column.characteristic) for c, column in enumerate(block.columns)]
    if block.type == "saves" and block.move_penalties:
        named.append((("move_penalties", "characteristic"), block.move_penalties.characteristic))
    declared = f"the sheet's profile is {' '.join(profile)}" if profile else "the sheet declares no characteristics"
    for loc, name in named:
        if name is not None and name not in profile:
            yield here + loc, f"unknown characteristic '{name}': {declared}"


def _groups(sheet: Sheet):
    """A block names a group of its section; a group's blocks follow one another; every group has blocks."""
    for s, section in enumerate(sheet.sections):
        known = [group.id for group in section.groups]
        ended: set[str] = set()
        previous = None
        for b, block in enumerate(section.blocks):
            here = ("sections", s, "blocks", b, "group")
            if block.group is not None and block.group not in known:
                yield here, f"no group '{block.group}' in section '{section.id}' (its groups: {', '.join(known) or 'none'})"
            elif block.group is not None and block.group in ended:
                yield here, f"the blocks of group '{block.group}' must follow one another: move this block up to them"
            if previous is not None and previous != block.group:
                ended.add(previous)
            previous = block.group
        used = {block.group for block in section.blocks}
        for g, group in enumerate(section.groups):
            if group.id not in used:
                yield ("sections", s, "groups", g), f"group '{group.id}' holds no block: give blocks 'group: {group.id}'"


def _keyword_cycles(sheet: Sheet):
    """A keyword whose definition leads back to itself cannot be followed to an end."""
    index = keyword_index(sheet)
    mentions = {keyword.id: mentioned_keywords([keyword.text or ""], index) for keyword in sheet.keywords}
    for k, keyword in enumerate(sheet.keywords):
        path = _path_back(keyword.id, mentions)
        if path:
            yield ("keywords", k, "text"), "circular keyword references: " + " → ".join(path)


def mentioned_keywords(texts: list[str], index: dict[str, Keyword]) -> set[str]:
    """The ids of the keywords these texts reference ({savage}, {Savage|savages})."""
    return {
        index[token.key.casefold()].id
        for text in texts
        for token in markup.walk(markup.parse(text))
        if isinstance(token, markup.KeywordRef) and token.key.casefold() in index
    }


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


# What a field with a pattern expects, in an author's words.
_FORMS = {
    "date": "a date YYYY-MM-DD, such as 2026-11-21",
    "edition": "digits and dots, such as 2.1",
    "die": "a die such as D6, 2D6 or D66",
    "lang": "a language code such as fr, en or en-GB",
    "languages": "a language code such as fr, en or en-GB",
    "accent": "a colour written #rrggbb, such as #1f4e79",
    "save": "a D6 score such as 5+",
    "bonus": "a bonus such as +1",
}


def _kind(value) -> str:
    """What the author wrote, in YAML's words."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"{str(value).lower()} (write \"{str(value).lower()}\" in quotes for the word)"
    if isinstance(value, str):
        return f"the text '{_shown(value)}'"
    return {list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)


def _shown(value) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:40] + "…"


@cache
def _field_names() -> list[str]:
    """Every field name (and alias) of the sheet and handout models: what an unknown field may be a slip for."""
    names, todo, seen = set(), [Sheet, Handout], set()
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, info in model.model_fields.items():
            names.update(filter(None, (name, info.alias)))
            todo += [kind for kind in _classes_in(info.annotation) if issubclass(kind, BaseModel)]
    return sorted(names)


def _classes_in(annotation) -> list[type]:
    found = [annotation] if isinstance(annotation, type) else []
    return found + [kind for arg in get_args(annotation) for kind in _classes_in(arg)]


def describe_error(error: dict) -> str:
    """A pydantic error in the words of a sheet author."""
    kind, loc = error["type"], error["loc"]
    field = next((part for part in reversed(loc) if isinstance(part, str)), "value")
    given = error.get("input")
    ctx = error.get("ctx", {})
    if not loc and kind == "value_error":  # a rule of the whole file (include or exclude, not both)
        return error["msg"].removeprefix("Value error, ")
    if not loc:
        return f"the file should be a mapping of fields (sheet: …, game: …), not {_kind(given)}"
    if kind == "extra_forbidden" and loc[-2:-1] == (SUBHEADING_TAG,):
        return f"a sub-heading row holds only its 'subheading': '{field}' belongs in a row of its own"
    if kind == "extra_forbidden":
        if re.search(r"\s|[.!?;]$", str(field)):  # words, not a field name: the rest of a text cut at a comma
            return f"unknown field '{field}': if this is the end of a text, put the whole text in quotes (a comma ends a value inside {{…}})"
        near = difflib.get_close_matches(str(field), _field_names(), n=1, cutoff=0.75)
        return f"unknown field '{field}'" + (f": did you mean '{near[0]}'?" if near else "")
    if kind == "missing":
        return f"missing required field '{field}'"
    if kind == "union_tag_invalid":
        expected = error["ctx"]["expected_tags"]
        tag = given.get("type") if isinstance(given, dict) else error["ctx"]["tag"]
        if not isinstance(tag, str):
            return f"the block's 'type' should be one of {expected}, not {_kind(tag)}"
        near = difflib.get_close_matches(tag, [name.strip("' ") for name in expected.split(",")], n=1)
        return f"unknown block type '{_shown(tag)}': " + (f"did you mean '{near[0]}'? " if near else "") + \
            f"expected one of {expected}"
    if kind == "union_tag_not_found":
        return "missing field 'type': every block needs a type"
    if kind == "string_pattern_mismatch" and "notes" in loc:
        return f"'{_shown(given)}' is not a valid footnote id: 1 to 4 characters, without spaces or ]"
    if kind == "string_pattern_mismatch" and "characteristics" in loc:
        return f"'{_shown(given)}' is not a valid characteristic id: a letter, then up to 11 letters or digits (WS, BS)"
    if kind == "string_pattern_mismatch" and field in _FORMS:
        return f"'{_shown(given)}' does not have the expected form for '{field}': expected {_FORMS[field]}"
    if kind == "string_pattern_mismatch":
        if field == "column_set":
            return f"'{_shown(given)}' is not the name of a column set: 'columns' takes a list of columns, or a set's id"
        if field in ("id", "sheet", "keywords", "handout", "armour", "weapons", "include", "exclude", "troop"):
            return f"'{_shown(given)}' is not a valid id: use lowercase letters, digits and hyphens"
        return f"'{_shown(given)}' does not have the expected form for '{field}' ({error['ctx']['pattern']})"
    if kind == "string_type" and given is None:
        return f"'{field}' is empty: write a value (\"\" for an empty text)"
    if kind == "string_type" and isinstance(given, dict) and len(given) == 1 and next(iter(given.values())) is None:
        return f"'{field}' should be a text, not a mapping: a text that is a {{keyword}} must be put in quotes (\"{{{next(iter(given))}}}\")"
    if kind == "string_type":
        return f"'{field}' should be a text, not {_kind(given)}"
    if kind == "string_too_short":
        return f"'{field}' is empty: write at least {ctx['min_length']} character(s)"
    if kind in ("model_type", "model_attributes_type") and field == "cells":
        return f"a cell should be a text, or a mapping such as {{text: …, span: 2}}; not {_kind(given)}"
    if kind in ("model_type", "model_attributes_type") and field == "rows" and "table" in loc:
        return f"a row should be a list of cells, or a mapping such as {{id: …, cells: […]}}; not {_kind(given)}"
    if kind in ("list_type", "model_type", "dict_type", "model_attributes_type"):
        expected = "a list" if kind == "list_type" else "a mapping of fields"
        return f"'{field}' should be {expected}, not {_kind(given)}"
    if kind in ("int_parsing", "int_type", "int_from_float", "int_parsing_size"):
        return f"'{field}' should be a whole number, not {_kind(given)}"
    if kind in ("bool_parsing", "bool_type"):
        return f"'{field}' should be true or false, not {_kind(given)}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": "at least", "greater_than": "more than",
                 "less_than_equal": "at most", "less_than": "less than"}[kind]
        return f"'{field}' must be {bound} {next(iter(ctx.values()))}, not {_shown(given)}"
    if kind == "string_too_long":
        return f"'{field}' is too long: at most {error['ctx']['max_length']} characters"
    if kind == "too_long":
        return f"'{field}' has too many items: at most {error['ctx']['max_length']}"
    if kind == "too_short":
        return f"'{field}' needs at least {error['ctx']['min_length']} item(s)"
    if kind == "literal_error":
        if given is None:
            return f"'{field}' is empty: expected {error['ctx']['expected']}"
        written = _kind(given) if isinstance(given, (list, dict)) else f"'{_shown(str(given).lower() if isinstance(given, bool) else given)}'"
        return f"{written} is not allowed for '{field}': expected {error['ctx']['expected']}"
    message = error["msg"].removeprefix("Value error, ")
    return f"{field}: {message}"
