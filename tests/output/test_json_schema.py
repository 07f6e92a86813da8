"""The editors' JSON Schemas: committed and up to date, and they accept every good source as an editor reads it."""

from __future__ import annotations

import copy
import json
import re

import jsonschema
import pytest
import yaml
from yaml.nodes import MappingNode, SequenceNode

from generator.output import json_schema as schema
from tests.conftest import FIXTURES, LIBRARY, ROOT, run_qrs

FOLDER = ROOT / schema.FOLDER
HANDOUTS = LIBRARY / "handouts"
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


def as_an_editor_reads(text: str):
    """YAML 1.2 core schema, as YAML language servers read a file: `2.1` is a number, `2026-11-21` a string."""

    def value(node):
        if isinstance(node, MappingNode):
            return {key.value: value(item) for key, item in node.value}
        if isinstance(node, SequenceNode):
            return [value(item) for item in node.value]
        plain = node.value
        if node.style is not None:
            return plain
        if plain in ("", "~", "null", "Null", "NULL"):
            return None
        if plain in ("true", "True", "TRUE", "false", "False", "FALSE"):
            return plain.lower() == "true"
        if _INT.match(plain):
            return int(plain)
        if _FLOAT.match(plain):
            return float(plain)
        return plain

    return value(yaml.compose(text))


def validator_of(name: str) -> jsonschema.Draft202012Validator:
    generated = json.loads(schema.text(name))
    jsonschema.Draft202012Validator.check_schema(generated)
    return jsonschema.Draft202012Validator(generated)


@pytest.fixture(scope="module")
def validator():
    return validator_of("sheet.schema.json")


@pytest.mark.parametrize("name", sorted(schema.MODELS))
def test_committed_schemas_are_up_to_date(name):
    committed = FOLDER / name
    assert committed.exists(), f"schema/{name} is missing: run 'qrs schema' (or 'make schema')"
    assert committed.read_text(encoding="utf-8") == schema.text(name), (
        f"schema/{name} is out of date with generator/model/types.py: run 'qrs schema' (or 'make schema')"
    )


def test_schema_text_is_deterministic_and_ends_with_a_newline():
    first, second = schema.text(), schema.text()
    assert first == second and first.endswith("}\n")
    assert list(json.loads(first)) == sorted(json.loads(first))


def test_sources_name_their_schema_on_their_first_line():
    for path in sorted(LIBRARY.glob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schema/sheet.schema.json", path.name
    for path in sorted(HANDOUTS.glob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schema/handout.schema.json", path.name


GOOD = [("sheet.schema.json", path) for path in sorted(LIBRARY.glob("*.yaml")) + sorted(FIXTURES.glob("*.yaml"))] + [
    ("handout.schema.json", path) for path in sorted(HANDOUTS.glob("*.yaml"))
]


@pytest.mark.parametrize("name, path", GOOD, ids=[path.name for _, path in GOOD])
def test_every_good_source_is_valid_for_an_editor(name, path):
    errors = [
        f"{list(error.absolute_path)}: {error.message[:200]}"
        for error in validator_of(name).iter_errors(as_an_editor_reads(path.read_text(encoding="utf-8")))
    ]
    assert not errors, "\n".join(errors)


def test_an_editor_flags_what_qrs_check_refuses(validator):
    good = as_an_editor_reads((FIXTURES / "every-block.yaml").read_text(encoding="utf-8"))
    assert validator.is_valid(good)
    missing = copy.deepcopy(good)
    del missing["game"]
    misspelt = copy.deepcopy(good)
    misspelt["sections"][0]["blocks"][0]["colour"] = "red"
    unknown_type = copy.deepcopy(good)
    unknown_type["sections"][0]["blocks"][0]["type"] = "chart"
    bad_date = dict(good, date="tomorrow")
    for bad in (missing, misspelt, unknown_type, bad_date):
        assert not validator.is_valid(bad)


def test_the_schema_describes_fields_for_editors():
    generated = schema.sheet_schema()
    assert generated["$schema"] == schema.DIALECT
    assert generated["description"].startswith("A quick-reference sheet")
    dice = generated["$defs"]["DiceBlock"]
    assert "die expression" in dice["description"]
    assert dice["properties"]["roll_title"]["description"]


def test_qrs_schema_check_fails_on_an_outdated_file(tmp_path):
    target = tmp_path / "sheet.schema.json"
    target.write_text("{}\n", encoding="utf-8")
    run = lambda *args: run_qrs("schema", "--out", str(tmp_path), *args)
    stale = run("--check")
    assert (
        stale.returncode == 2
        and "sheet.schema.json:1:1: out of date" in stale.stderr
        and "run 'qrs schema'" in stale.stderr
    )
    assert run().returncode == 0 and target.read_text(encoding="utf-8") == schema.text()
    assert (tmp_path / "handout.schema.json").read_text(encoding="utf-8") == schema.text("handout.schema.json")
    assert run("--check").returncode == 0


def _schemas(node, path=""):
    """(path, schema) for every schema object anywhere in a schema's tree."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _schemas(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _schemas(value, f"{path}[{index}]")


def _properties(node):
    """(path, property schema) for every property declared anywhere in a schema."""
    for path, found in _schemas(node):
        for field, property_schema in found.get("properties", {}).items():
            yield f"{path}.{field}", property_schema


@pytest.mark.parametrize("name", sorted(schema.MODELS))
def test_every_field_has_a_description(name):
    """Described in the model (Field(description=…)) or in generator/model/descriptions.py."""
    undescribed = [
        path
        for path, found in _properties(json.loads(schema.text(name)))
        if "description" not in found and "/allOf" not in path
    ]  # allOf: the dispatch on `type`
    assert undescribed == []


def _unbounded(found: dict) -> bool:
    """A string without a longest length, or a number without a greatest value."""
    if found.get("type") == "string":
        return not {"maxLength", "enum", "const"} & found.keys()
    return (
        found.get("type") in ("integer", "number")
        and not {"maximum", "exclusiveMaximum", "enum", "const"} & found.keys()
    )


@pytest.mark.parametrize("name", sorted(schema.MODELS))
def test_every_text_and_number_of_a_source_has_a_bound(name):
    """docs/safety.md: every field of a source has a bound (its lists are bounded by the loader: test_sources.py)."""
    assert [path for path, found in _schemas(json.loads(schema.text(name))) if _unbounded(found)] == []


def test_each_schema_has_its_own_id_and_examples():
    ids = {name: json.loads(schema.text(name))["$id"] for name in schema.MODELS}
    assert ids == {name: name for name in schema.MODELS}
    dice = schema.sheet_schema()["$defs"]["DiceBlock"]["properties"]["die"]
    assert dice["examples"] == ["D6", "2D6", "D66"]


@pytest.mark.parametrize("typo", ["a field's name", "a block type"])
def test_one_typo_in_a_block_is_one_error(validator, typo):
    """Generic validators pick a block's schema by its `type`, as qrs check does: one typo, one error."""
    source = as_an_editor_reads((LIBRARY / "wab2.yaml").read_text(encoding="utf-8"))
    block = next(
        block
        for section in source["sections"]
        for block in section["blocks"]
        if block["type"] == "table" and "title" in block
    )
    if typo == "a field's name":
        block["titel"] = block.pop("title")  # with a plain oneOf: 30 errors, one or more a block type
    else:
        block["type"] = "tabel"
    errors = list(_leaves(validator.iter_errors(source)))
    assert len(errors) == 1, "\n".join(error.message[:200] for error in errors)


def _leaves(errors):
    """Every error a validator reports, those inside a oneOf's or anyOf's context included (what an editor lists)."""
    for error in errors:
        if error.context:
            yield from _leaves(error.context)
        else:
            yield error
