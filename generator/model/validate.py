"""The model's checks: plain data → a typed Sheet, then the checks a rules editor relies on.

Shape errors come from the model (pydantic), told in an author's words (`messages`); game-logic checks come from each
block's own `check()`; cross-references (keywords, footnotes, ids) and markup are checked for all blocks alike
(`checks`). Every problem of a file is reported at once, with file:line:column.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from generator import files
from generator.errors import UserError
from generator.model import glyphs
from generator.model.blocks import figure
from generator.model.checks import MAX_DIE_RESULTS, findings, keyword_index, markup_findings, mentioned_keywords
from generator.model.messages import describe_error
from generator.model.types import Model, Sheet
from generator.reading.sources import Located, load_file

# What the callers import from here: the checks and the messages are told apart by job, not by caller.
__all__ = [
    "MAX_DIE_RESULTS",
    "check",
    "describe_error",
    "findings",
    "keyword_index",
    "load",
    "markup_findings",
    "mentioned_keywords",
    "parse",
    "validate",
]

ModelT = TypeVar("ModelT", bound=Model)

RESERVED_SHEET_ID = "ui"  # sources/i18n/ui.<lang>.po are the templates' words (Project.ui_catalogues)


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
        problems.append(
            located.problem(("sheet",), f"the sheet id '{sheet.sheet}' must match the file name '{located.path.stem}'")
        )
    if files.device_problem(sheet.sheet):
        problems.append(located.problem(("sheet",), files.device_problem(sheet.sheet)))
    if sheet.sheet == RESERVED_SHEET_ID:
        problems.append(
            located.problem(
                ("sheet",),
                f"the sheet id '{RESERVED_SHEET_ID}' is reserved: sources/i18n/"
                f"{RESERVED_SHEET_ID}.<lang>.po holds the templates' words",
            )
        )
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
        traps = {
            tuple(e["loc"][:-1]): key
            for e in errors
            if (key := _brace_trap(e)) and _written_at(located, e["loc"][:-1]).startswith(f"{{{key}}}")
        }
        problems = [
            located.problem(
                loc,
                f'{{{key}}} was read as a mapping: a text that is a {{keyword}} must be put in quotes ("{{{key}}}")',
            )
            for loc, key in traps.items()
        ]
        problems += [located.problem(e["loc"], describe_error(e)) for e in errors if tuple(e["loc"][:-1]) not in traps]
        raise UserError(problems) from None


def _written_at(located: Located, loc: tuple) -> str:
    """The source's text from where the value at `loc` starts to the end of its line."""
    where = located.problem(loc, "")
    try:
        line = located.path.read_text(encoding="utf-8").splitlines()[where.line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return ""
    return line[where.column - 1 :]


def _brace_trap(error: dict) -> str | None:
    """The keyword of a {Swarm} written unquoted where a text or a mapping goes: YAML reads {Swarm: null}, and the
    model reports a missing field and an unknown one, with no word of the braces."""
    value = error.get("input")
    if error["type"] == "missing" and isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if inner is None and isinstance(key, str):
            return key
    return None
