"""`qrs new`'s example of a block type the scaffold templates do not show, derived from the type's model: its own
fields (those of model.blocks.block.BlockBase are shown by every other example), the required ones with a value of
their type, the others as comments, each with its description. A new block type is in every new sheet without a
word written in templates/scaffold/."""

from __future__ import annotations

import json
from typing import get_args

from generator.model.blocks.block import BlockBase

TITLES = {"fr": "Autres blocs", "en": "More blocks"}
PLACEHOLDER = {"fr": "Texte d'exemple", "en": "Example text"}
INDENT = " " * 6  # a block of a section's `blocks:` list, as in the templates
COMMENT_AT = 38  # the column the templates' comments start at


def section(types: list[type[BlockBase]], lang: str) -> str:
    """A section holding one example of each of `types`, in the scaffold's language (its comments are the model's:
    English); empty for none."""
    if not types:
        return ""
    blocks = "\n".join(example(block_type, lang) for block_type in types)
    return f"\n  - id: more-blocks\n    title: {TITLES[lang]}\n    blocks:\n{blocks}"


def example(block_type: type[BlockBase], lang: str) -> str:
    schema = block_type.model_json_schema()
    definitions = schema.get("$defs", {})
    name = type_name(block_type)
    lines = [f"{INDENT}- id: {name}-example", _commented(f"{INDENT}  type: {name}", block_type.__doc__ or "")]
    own = [field for field in block_type.model_fields if field not in BlockBase.model_fields and field != "type"]
    for field in own:
        described = block_type.model_fields[field].description or ""
        key = block_type.model_fields[field].alias or field
        if field in schema.get("required", []):
            value = _value(schema["properties"][key], definitions, lang)
            lines.append(_commented(f"{INDENT}  {key}: {json.dumps(value, ensure_ascii=False)}", described))
        else:
            lines.append(_commented(f"{INDENT}  # {key}: …", described))
    return "\n".join(lines) + "\n"


def type_name(block_type: type[BlockBase]) -> str:
    """What a source writes as the block's `type`."""
    return get_args(block_type.model_fields["type"].annotation)[0]


def _commented(line: str, description: str) -> str:
    words = " ".join(description.split())
    return f"{line.ljust(COMMENT_AT - 1)} # {words}" if words else line


def _value(schema: dict, definitions: dict, lang: str):
    """A value the schema accepts: the first choice of a union or enumeration, a word for text, the least number,
    a list of as many items as it needs at least."""
    if "$ref" in schema:
        return _value(definitions[schema["$ref"].rpartition("/")[2]], definitions, lang)
    for choices in ("anyOf", "oneOf", "allOf"):
        if choices in schema:
            chosen = next(option for option in schema[choices] if option.get("type") != "null")
            return _value(chosen, definitions, lang)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "array":
        return [_value(schema.get("items", {}), definitions, lang)] * max(1, schema.get("minItems", 1))
    if kind == "object":
        return {key: _value(schema["properties"][key], definitions, lang) for key in schema.get("required", [])}
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    if "pattern" in schema:
        return "example"  # an id's pattern: lowercase letters, digits and hyphens
    return PLACEHOLDER[lang]
