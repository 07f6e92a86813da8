"""A pydantic error in the words of a sheet author: what was expected, what was written, what was meant."""

from __future__ import annotations

import difflib
import re
from functools import cache
from typing import get_args

from pydantic import BaseModel

from generator.model.blocks.block import SUBHEADING_TAG
from generator.model.types import Handout, Sheet

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
        return f'{str(value).lower()} (write "{str(value).lower()}" in quotes for the word)'
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
        known = _field_names()
        if field in known:  # a field of another mapping: most often one indented under the wrong parent
            return f"unknown field '{field}' here: it belongs to another mapping (is it indented as it should be?)"
        near = difflib.get_close_matches(str(field), known, n=1, cutoff=0.75)
        return f"unknown field '{field}'" + (f": did you mean '{near[0]}'?" if near else "")
    if kind == "missing":
        return f"missing required field '{field}'"
    if kind == "union_tag_invalid":
        expected = error["ctx"]["expected_tags"]
        tag = given.get("type") if isinstance(given, dict) else error["ctx"]["tag"]
        if not isinstance(tag, str):
            return f"the block's 'type' should be one of {expected}, not {_kind(tag)}"
        near = difflib.get_close_matches(tag, [name.strip("' ") for name in expected.split(",")], n=1)
        return (
            f"unknown block type '{_shown(tag)}': "
            + (f"did you mean '{near[0]}'? " if near else "")
            + f"expected one of {expected}"
        )
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
            return (
                f"'{_shown(given)}' is not the name of a column set: 'columns' takes a list of columns, or a set's id"
            )
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
        bound = {
            "greater_than_equal": "at least",
            "greater_than": "more than",
            "less_than_equal": "at most",
            "less_than": "less than",
        }[kind]
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
        written = (
            _kind(given)
            if isinstance(given, (list, dict))
            else f"'{_shown(str(given).lower() if isinstance(given, bool) else given)}'"
        )
        return f"{written} is not allowed for '{field}': expected {error['ctx']['expected']}"
    message = error["msg"].removeprefix("Value error, ")
    return f"{field}: {message}"
