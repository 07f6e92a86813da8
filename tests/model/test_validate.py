"""One small bad source per kind of problem; each names its expected file:line:column and message."""

import re
from pathlib import Path

import pytest

from generator.errors import UserError, printable
from generator.output import pipeline
from tests.conftest import ROOT, block_types

BAD_INPUTS = ROOT / "tests" / "bad_inputs"
FIXTURES = ROOT / "tests" / "fixtures"


def expectations(path: Path) -> list[tuple[int, int, str]]:
    found = re.findall(r"^# expect: (\d+):(\d+): (.+)$", path.read_text(encoding="utf-8", errors="replace"), re.M)
    return [(int(line), int(column), message) for line, column, message in found]


@pytest.mark.parametrize("path", sorted(BAD_INPUTS.glob("*.yaml")), ids=lambda p: p.stem)
def test_bad_input_names_each_problem_where_it_is(path):
    expected = expectations(path)
    assert expected, f"{path.name} declares no '# expect:' line"
    with pytest.raises(UserError) as caught:
        pipeline.check(path)
    reported = [(p.line, p.column, printable(p.message)) for p in caught.value.problems]  # as the terminal shows it
    assert all(p.path == str(path) for p in caught.value.problems)
    for line, column, message in expected:
        assert any((line, column) == (l, c) and message in m for l, c, m in reported), (
            f"expected {line}:{column}: {message!r}, got {reported}"
        )
    assert len(reported) == len(expected), f"unexpected extra problems: {reported}"


def test_the_reference_fixture_is_valid():
    sheet = pipeline.check(FIXTURES / "every-block.yaml")
    figures = pipeline.check(FIXTURES / "figure" / "gauges.yaml")  # figures, with their pictures' folder
    assert {block.type for block in [*sheet.blocks(), *figures.blocks()]} == set(block_types())
