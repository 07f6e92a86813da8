"""A sheet's metadata (issue #32): edition and date are optional, a changelog needs both, credits are described
where authors look; handouts cope with a sheet that has neither."""

from __future__ import annotations

import datetime

import pytest

from generator.composing import handout as handouts
from generator.composing import words
from generator.composing.handout_profiles import compose_alone
from generator.errors import UserError
from generator.output import pipeline
from generator.output.json_schema import sheet_schema
from generator.project import Project
from tests.conftest import FIXTURES, LIBRARY, source_head

BLOCKS = (
    "sections:\n  - id: tour\n    title: Tour\n    blocks:\n      - {id: steps, type: sequence, steps: [{title: Un}]}\n"
)
CHANGELOG = 'changelog:\n  - {edition: "1.0", date: 2026-11-21, changes: [{kind: layout, text: Première.}]}\n'


def head(*left_out: str) -> str:
    """source_head's lines without the fields named."""
    return "".join(line + "\n" for line in source_head("bare").splitlines() if line.split(":")[0] not in left_out)


def check(tmp_path, text: str):
    path = tmp_path / "bare.yaml"
    path.write_text(text, encoding="utf-8")
    return pipeline.check(path)


@pytest.mark.parametrize("left_out", [("edition",), ("date",), ("edition", "date")])
def test_a_sheet_without_edition_or_date_is_valid(tmp_path, left_out):
    sheet = check(tmp_path, head(*left_out) + BLOCKS)
    assert all(getattr(sheet, field) is None for field in left_out)


@pytest.mark.parametrize(
    "left_out, named",
    [(("edition",), "no edition:"), (("date",), "no date:"), (("edition", "date"), "no edition and no date:")],
)
def test_a_changelog_needs_the_sheets_edition_and_date(tmp_path, left_out, named):
    with pytest.raises(UserError) as caught:
        check(tmp_path, head(*left_out) + CHANGELOG + BLOCKS)
    [problem] = caught.value.problems
    changelog_line = (head(*left_out) + CHANGELOG).splitlines().index(CHANGELOG.splitlines()[1]) + 1
    assert (problem.line, problem.column) == (changelog_line, 3)  # at the changelog's first entry
    assert f"a changelog lists editions, and the sheet has {named}" in problem.message
    assert "None" not in problem.message


def test_the_timestamp_is_the_date_or_a_fixed_day(tmp_path):
    assert check(tmp_path, head() + BLOCKS).timestamp == datetime.datetime(2026, 11, 21, tzinfo=datetime.timezone.utc)
    assert check(tmp_path, head("date") + BLOCKS).timestamp == datetime.datetime(
        1970, 1, 1, tzinfo=datetime.timezone.utc
    )


def test_the_json_schema_describes_edition_date_and_credits_and_requires_none_of_them():
    sheet = sheet_schema()
    assert not {"edition", "date", "credits"} & set(sheet["required"])
    described = {field: sheet["properties"][field]["description"] for field in ("edition", "date", "credits")}
    assert "optional" in described["edition"] and "changelog" in described["edition"]
    assert "optional" in described["date"] and "changelog" in described["date"]
    assert "header" in described["credits"]


def test_a_handout_drawn_on_an_undated_sheet_takes_its_own_date():
    project = Project.at(LIBRARY)
    _, handout, _, sheet = pipeline.load_handout(project, LIBRARY / "handouts" / "wab2-english-hundred-years-war.yaml")
    english = dict(words.UI_WORDS)
    dated = handouts.compose(handout, sheet, english)
    assert (dated.edition, dated.date, dated.credits) == (sheet.edition, sheet.date, sheet.credits)
    undated = handouts.compose(handout, sheet.model_copy(update={"edition": None, "date": None}), english)
    assert (undated.edition, undated.date, undated.credits) == (None, handout.date, sheet.credits)


def test_a_handout_without_a_sheet_invents_no_edition():
    project = Project.at(LIBRARY)
    _, handout, _, _ = pipeline.load_handout(project, LIBRARY / "handouts" / "warhammer-dwarfs.yaml")
    alone = compose_alone(handout.model_copy(update={"sheet": None}), dict(words.UI_WORDS))
    assert (alone.edition, alone.date) == (None, handout.date)


def test_the_undated_fixture_has_credits_and_neither_edition_nor_date():
    sheet = pipeline.check(FIXTURES / "undated-card.yaml")
    assert sheet.credits and sheet.edition is None and sheet.date is None
