"""The JSON Schemas of the sources, for editors: `schema/sheet.schema.json` (from `generator.model.types.Sheet`)
and `schema/handout.schema.json` (from `generator.model.types.Handout`).

Sources name theirs on their first line (`# yaml-language-server: $schema=../schema/sheet.schema.json`), so an
editor with a YAML language server completes field names, shows each field's description and flags a
misspelt field or a missing one as you type. `qrs check` stays the judge: the schema describes the shape,
not the game rules (dice coverage, matrix values, keyword references).

The files are generated, never edited: `qrs schema` (or `make schema`) writes them, and a test fails when a
committed file differs from what the model gives.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from generator import write as writer
from generator.errors import Problem, UserError
from generator.model import descriptions
from generator.model.types import Handout, Sheet

FOLDER = Path("schema")  # beside sources/, as the sources' first lines say
MODELS: dict[str, type[BaseModel]] = {"sheet.schema.json": Sheet, "handout.schema.json": Handout}
SCHEMA_FILE = FOLDER / "sheet.schema.json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"

# Shorthands the model accepts (its "before" validators) that pydantic's schema does not show:
# a cell written as a plain string, a row written as a plain list of cells.
SHORTHANDS = {
    "Cell": {"type": "string", "maxLength": 4000, "description": "A cell's text."},
    "Row": {
        "type": "array",
        "items": {"$ref": "#/$defs/Cell"},
        "minItems": 1,
        "maxItems": 12,
        "description": "The row's cells, one a column (a cell spans columns as {text: …, span: 2}).",
    },
}

# The strict loader keeps every plain scalar as the exact text typed (`edition: 2.1` is "2.1", `roll: 2` is "2"),
# but an editor reads YAML 1.2, where such a scalar is a number: a text field accepts numbers too.
TEXT_ALSO_ACCEPTS = ["number"]


def sheet_schema() -> dict:
    return model_schema(Sheet, "sheet.schema.json")


def model_schema(model: type[BaseModel], name: str) -> dict:
    """A model's schema as a dict: pydantic's, with the shorthands and plain-number texts an author may type."""
    schema = model.model_json_schema(mode="validation")
    definitions = schema.get("$defs", {})
    _describe(model.__name__, schema)
    for definition, properties in definitions.items():
        _describe(definition, properties)
    for shorthand_of, shorthand in SHORTHANDS.items():
        if shorthand_of in definitions:
            written_out = definitions[shorthand_of]
            definitions[shorthand_of] = {
                "title": written_out.get("title", shorthand_of),
                "description": written_out.get("description", ""),
                "anyOf": [
                    copy.deepcopy(shorthand),
                    {key: value for key, value in written_out.items() if key not in ("title", "description")},
                ],
            }
    _accept_plain_numbers(schema)
    _dispatch_on_type(schema)
    return {"$schema": DIALECT, "$id": name, **schema}


def _describe(definition: str, node: dict) -> None:
    """Give each property of a definition its description and examples (generator.model.descriptions)."""
    for field, property_schema in node.get("properties", {}).items():
        if "description" not in property_schema and descriptions.describe(definition, field):
            property_schema["description"] = descriptions.describe(definition, field)
        if f"{definition}.{field}" in descriptions.EXAMPLES:
            property_schema["examples"] = descriptions.EXAMPLES[f"{definition}.{field}"]


def _accept_plain_numbers(node) -> None:
    if isinstance(node, dict):
        if node.get("type") == "string" and "enum" not in node and "const" not in node and "format" not in node:
            node["type"] = ["string", *TEXT_ALSO_ACCEPTS]
        for value in node.values():
            _accept_plain_numbers(value)
    elif isinstance(node, list):
        for value in node:
            _accept_plain_numbers(value)


def _dispatch_on_type(node) -> None:
    """Replace pydantic's `oneOf` + `discriminator` (which generic validators ignore: a typo in one field of a
    table then fails against every block type) by `if type is X then X's schema`, so that a validator checks a
    block only against the schema its `type` names, and reports one error for one typo."""
    if isinstance(node, dict):
        if "discriminator" in node and "oneOf" in node:
            discriminator = node.pop("discriminator")
            key, mapping = discriminator["propertyName"], discriminator["mapping"]
            node.pop("oneOf")
            node.update(
                {
                    "type": "object",
                    "required": [key],
                    "properties": {key: {"enum": sorted(mapping), "description": descriptions.COMMON[key]}},
                    "allOf": [
                        {"if": {"properties": {key: {"const": value}}, "required": [key]}, "then": {"$ref": reference}}
                        for value, reference in sorted(mapping.items())
                    ],
                }
            )
        for value in node.values():
            _dispatch_on_type(value)
    elif isinstance(node, list):
        for value in node:
            _dispatch_on_type(value)


@cache  # the models do not change in a process: `qrs new`, `init` and `schema` write the same text
def text(name: str = "sheet.schema.json") -> str:
    """A schema file's exact text: sorted keys, two-space indent, UTF-8 characters as typed, a final newline."""
    return json.dumps(model_schema(MODELS[name], name), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def outdated(folder: Path) -> list[Path]:
    """The schema files of `folder` that are missing or differ from what the models give."""
    return [
        folder / name
        for name in MODELS
        if not (folder / name).exists() or (folder / name).read_text(encoding="utf-8") != text(name)
    ]


def check(folder: Path) -> None:
    """Raise a problem for each schema file that is missing or out of date."""
    stale = outdated(folder)
    if stale:
        raise UserError(
            [Problem(str(path), 1, 1, "out of date with generator/model/types.py: run 'qrs schema'") for path in stale]
        )


def write(folder: Path) -> list[Path]:
    """Write every schema file that changed into `folder`; the files (re)written."""
    written = []
    for path in outdated(folder):
        writer.text(path, text(path.name))
        written.append(path)
    return written
