import shutil
from pathlib import Path

import pytest
import yaml

from generator.errors import UserError
from generator.reading import sources as load
from generator.reading.sources import MAX_LIST_ITEMS, MAX_SOURCE_BYTES, MAX_SOURCE_ITEMS, load_file
from tests.conftest import LIBRARY, ROOT, Ran, run_qrs


def load_text(tmp_path: Path, text: str | bytes):
    path = tmp_path / "sheet.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return load_file(path)


def problems_of(tmp_path: Path, text: str | bytes) -> list[str]:
    with pytest.raises(UserError) as caught:
        load_text(tmp_path, text)
    return [f"{p.line}:{p.column}: {p.message}" for p in caught.value.problems]


def test_scalars_keep_the_typed_string(tmp_path):
    data = load_text(tmp_path, "a: 7\nb: 2026-11-21\nc: 1.10\nd: '+1'\ne: N\nf: true\ng:\n").data
    assert data == {"a": "7", "b": "2026-11-21", "c": "1.10", "d": "+1", "e": "N", "f": True, "g": None}


def test_quoted_ambiguous_words_are_text(tmp_path):
    assert load_text(tmp_path, 'cell: "No"\ntime: "1:30"\n').data == {"cell": "No", "time": "1:30"}


def test_duplicate_key_is_named_with_its_place(tmp_path):
    assert problems_of(tmp_path, "a: 1\nb: 2\na: 3\n") == ["3:1: duplicate key 'a': it is already set in this mapping"]


@pytest.mark.parametrize("word", ["no", "On", "YES", "off", "False"])
def test_implicit_booleans_are_refused(tmp_path, word):
    [problem] = problems_of(tmp_path, f"cell: {word}\n")
    assert problem.startswith("1:7:") and "ambiguous" in problem and f'"{word}"' in problem


@pytest.mark.parametrize("value, kind", [("1:30", "base 60"), ("0777", "octal")])
def test_sexagesimals_and_octals_are_refused(tmp_path, value, kind):
    [problem] = problems_of(tmp_path, f"x: {value}\n")
    assert kind in problem


def test_all_problems_of_a_file_are_reported_together(tmp_path):
    assert len(problems_of(tmp_path, "a: no\nb: off\na: 1\n")) == 3


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a: &x 1\nb: *x\n", "1:4: anchors (&x) are not allowed"),
        ("a: [1, 2\n", "invalid YAML"),
        ("a:\n\t- 1\n", "tab"),
        (b"\xef\xbb\xbfa: 1\n", "1:1: the file starts with a byte-order mark"),
        (b"a: caf\xe9\n", "1:7: byte 0xe9 is not UTF-8"),
        ("", "1:1: the file is empty"),
    ],
)
def test_unreadable_files_are_refused_with_a_place(tmp_path, text, expected):
    [problem] = problems_of(tmp_path, text)
    assert expected in problem


def test_position_follows_a_path_into_the_file(tmp_path):
    located = load_text(tmp_path, "sections:\n  - id: a\n    blocks:\n      - x: 1\n        y: 2\n")
    assert located.position(("sections", 0, "blocks", 0, "y")) == (5, 12)
    assert located.position(("sections", 0, "blocks", 0, "table", "missing")) == (4, 9)


# --- sizes: refused while composing, before the model validates anything -----------------------------------

SHEET_HEAD = """sheet: {id}
game: Test
title: Test
lang: fr
edition: "1.0"
date: 2026-11-21
sections:
  - id: s
    title: S
    blocks:
"""
TABLE_HEAD = "      - id: t{n}\n        type: table\n        columns: [{{title: A}}, {{title: B}}]\n        rows:\n"


def check(tmp_path: Path, *args: str) -> Ran:
    return run_qrs("--sources", str(tmp_path / "sources"), "check", *args)


def write_source(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / "sources" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_source_just_under_the_size_limit_with_62000_rows_is_refused_at_the_501st(tmp_path):
    rows = "".join(f"          - [Ligne {n:05d}, val]\n" for n in range(62_000))
    path = write_source(tmp_path, "big.yaml", SHEET_HEAD.format(id="big") + TABLE_HEAD.format(n=0) + rows)
    assert MAX_SOURCE_BYTES - 200_000 < path.stat().st_size <= MAX_SOURCE_BYTES
    result = check(tmp_path, "big")
    first_row = len(SHEET_HEAD.splitlines()) + len(TABLE_HEAD.splitlines()) + 1
    assert result.returncode == 2 and result.stderr.splitlines()[0] == (
        f"{path.relative_to(tmp_path)}:{first_row + MAX_LIST_ITEMS}:13: this list has more than {MAX_LIST_ITEMS} items: "
        f"a list of a source holds at most {MAX_LIST_ITEMS} (rows, steps, units…)"
    ), result.stderr


def test_62000_rows_in_tables_of_500_are_refused_by_their_count(tmp_path):
    tables = "".join(
        TABLE_HEAD.format(n=n) + "".join(f"          - [L{row:03d}, v]\n" for row in range(500)) for n in range(124)
    )
    path = write_source(tmp_path, "spread.yaml", SHEET_HEAD.format(id="spread") + tables)
    result = check(tmp_path, "spread")
    assert result.returncode == 2 and result.stderr.startswith(f"{path.relative_to(tmp_path)}:"), result.stderr
    assert (
        f"the file has more than {MAX_SOURCE_ITEMS} list items (rows, steps, units…) in all: "
        f"a source holds at most {MAX_SOURCE_ITEMS}"
    ) in result.stderr.splitlines()[0]


def test_a_handout_of_10000_units_is_refused_at_the_501st(tmp_path):
    shutil.copy(LIBRARY / "warhammer.yaml", write_source(tmp_path, "warhammer.yaml", "").parent)
    head = (LIBRARY / "handouts" / "warhammer-dwarfs.yaml").read_text(encoding="utf-8").split("\nunits:\n")[0]
    unit = '  - id: u{n}\n    name: Unité {n}\n    profile: {{M: "3", WS: "6"}}\n    equipment: Arme de base\n'
    units = "".join(unit.format(n=n) for n in range(10_000))
    path = write_source(tmp_path, "handouts/warhammer-dwarfs.yaml", f"{head}\nunits:\n{units}")
    result = check(tmp_path, "warhammer-dwarfs")
    assert result.returncode == 2, result.stderr
    first_unit = len(head.splitlines()) + 3
    assert result.stderr.splitlines()[0] == (
        f"{path.relative_to(tmp_path)}:{first_unit + 4 * MAX_LIST_ITEMS}:5: this list has more than {MAX_LIST_ITEMS} items: "
        f"a list of a source holds at most {MAX_LIST_ITEMS} (rows, steps, units…)"
    ), result.stderr


def test_the_loader_limits_agree_with_the_model():
    from generator.model import types as model

    assert MAX_LIST_ITEMS == model.MAX_ROWS


def _nodes(node):
    """Every node of a composed tree, as what the loader reads of it: kind, tag, value, quoted or not, marks."""
    text = node.value if isinstance(node.value, str) else None
    yield (
        type(node).__name__,
        node.tag,
        text,
        bool(getattr(node, "style", None)),
        node.start_mark.line,
        node.start_mark.column,
        node.end_mark.line,
        node.end_mark.column,
    )
    for child in node.value if isinstance(node.value, list) else ():
        for part in child if isinstance(child, tuple) else (child,):
            yield from _nodes(part)


@pytest.mark.skipif(load._FastComposer is None, reason="this PyYAML is built without LibYAML")
@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "tests").rglob("*.yaml")),  # the fixture library's too
    ids=lambda path: path.relative_to(ROOT).as_posix(),
)
def test_libyaml_composes_what_pyyaml_composes(path):
    """The fast composer's nodes are PyYAML's, to the column of every mark, and a file it refuses is composed
    again by PyYAML (whose wording the hints match)."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    if load._UNPRINTABLE.search(text):
        pytest.skip("refused before composing (load.refuse_unprintable)")
    refused = {}
    trees = {}
    for name, composer in (("libyaml", load._FastComposer), ("pyyaml", load._StrictComposer)):
        loader = composer(text)
        try:
            root = loader.get_single_node()
            trees[name] = None if root is None else list(_nodes(root))
        except (load._Refused, yaml.YAMLError) as error:
            refused[name] = type(error).__name__
        finally:
            loader.dispose()
    assert trees.get("libyaml") == trees.get("pyyaml")
    if "pyyaml" in refused:
        assert "libyaml" in refused, "LibYAML accepts what PyYAML refuses"
