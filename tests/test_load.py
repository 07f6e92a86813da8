from pathlib import Path

import pytest

from generator.errors import UserError
from generator.load import load_file


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
