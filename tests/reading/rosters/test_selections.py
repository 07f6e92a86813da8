"""A roster's units as BattleScribe means them, checked against the facts another engineer wrote down by hand for
rosters assembled from BSData's catalogues (tests/fixtures/rosters/bsdata/*.expected.json): every unit a player
fields, in order, with its models, points, rank-and-file stat line, profiles and rules; configuration selections
(battle size, detachment, CP) never units; the army's total."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import LIBRARY, ROOT

BSDATA = ROOT / "tests" / "fixtures" / "rosters" / "bsdata"
EXPECTED = sorted(BSDATA.glob("*.expected.json"))
SHEET_OF_GAME = {"Warhammer Fantasy 8th ed": "warhammer", "Shadow War: Armageddon": "shadow-war"}


def roster_file(expected: Path) -> Path:
    stem = expected.name.removesuffix(".expected.json")
    return next(path for path in BSDATA.iterdir() if path.stem == stem and path.suffix in (".ros", ".rosz"))


def read_roster(expected: Path):
    """The roster as the import reads it: matched against the sheet of its game where qrs has one."""
    from generator.composing.roster import read, roster_of
    from generator.composing.roster.names import SheetNames
    from generator.model.validate import load

    facts = json.loads(expected.read_text(encoding="utf-8"))
    root, _ = read(roster_file(expected))
    sheet = SHEET_OF_GAME.get(facts["game_system_name"])
    names = SheetNames(load(LIBRARY / f"{sheet}.yaml")[1]) if sheet else None
    return facts, roster_of(root, names)


def printed_name(unit: dict) -> str:
    return f"{unit['custom_name']} ({unit['name']})" if unit.get("custom_name") else unit["name"]


def test_every_assembled_roster_has_its_facts():
    assert len(EXPECTED) >= 7
    for expected in EXPECTED:
        assert roster_file(expected).is_file()


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda path: path.name.removesuffix(".expected.json"))
def test_the_units_are_those_a_player_fields_with_their_models_and_points(expected):
    facts, roster = read_roster(expected)
    assert [unit.name for unit in roster.units] == [printed_name(unit) for unit in facts["units"]]
    assert [unit.count for unit in roster.units] == [unit["models"] for unit in facts["units"]]
    assert [unit.points for unit in roster.units] == [unit["points"] for unit in facts["units"]]
    assert roster.points == facts["army_points"]
    assert roster.game == facts["game_system_name"]


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda path: path.name.removesuffix(".expected.json"))
def test_the_stat_line_is_the_rank_and_file_models_never_a_weapons(expected):
    facts, roster = read_roster(expected)
    for unit, wanted in zip(roster.units, facts["units"]):
        line = wanted["stat_line"]
        assert (unit.stat.type, unit.stat.name, dict(unit.stat.values)) == (
            line["type"],
            line["name"],
            line["values"],
        ), unit.name


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda path: path.name.removesuffix(".expected.json"))
def test_every_profile_and_rule_of_a_unit_is_kept(expected):
    facts, roster = read_roster(expected)
    army_rules = {rule.name for rule in roster.army_rules}
    for unit, wanted in zip(roster.units, facts["units"]):
        every = [unit.stat, *unit.profiles, *(line.profile for line in unit.models)]
        kept = {(profile.type, profile.name, tuple(profile.values)) for profile in every}
        for kind, profiles in wanted["profiles"].items():
            for profile in profiles:
                values = tuple((name, value.strip()) for name, value in profile["values"].items())  # spaces aside
                assert (kind, profile["name"], values) in kept, (unit.name, profile["name"])
        rules = {rule.name for rule in unit.rules} | army_rules
        assert set(wanted["rules"]) <= rules, unit.name
    assert set(facts.get("army_rules", [])) <= army_rules


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda path: path.name.removesuffix(".expected.json"))
def test_configuration_selections_are_never_units(expected):
    facts, roster = read_roster(expected)
    names = {unit.name for unit in roster.units}
    chosen = {choice.name for choice in roster.choices}
    for selection in facts.get("non_unit_selections", []):
        assert selection not in names
        assert selection in roster.left_out or selection.lstrip("- ") in chosen, selection


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda path: path.name.removesuffix(".expected.json"))
def test_the_armys_choices_are_read_with_what_was_chosen(expected):
    facts, roster = read_roster(expected)
    assert {choice.name: choice.value for choice in roster.choices} == facts["army_choices"]


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda path: path.name.removesuffix(".expected.json"))
def test_a_unit_whose_models_differ_lists_each_line_under_its_name_with_its_count(expected):
    facts, roster = read_roster(expected)
    for unit, wanted in zip(roster.units, facts["units"]):
        lines = [{"count": line.count, "name": line.profile.name} for line in unit.models]
        assert lines == wanted.get("model_lines", []), unit.name
        if lines:  # the lines account for every model of the unit, none twice
            assert sum(line["count"] for line in lines) == wanted["models"], unit.name


def test_a_save_is_read_from_the_rosters_own_characteristic():
    facts, roster = read_roster(BSDATA / "wh40k-10e-battlescribe.expected.json")
    assert [unit.save for unit in roster.units] == [unit["save"] for unit in facts["units"]]


def test_a_middle_earth_heros_tracker_of_might_will_and_fate_is_no_model_of_the_warband():
    """MESBG's "Trackers" profile (Might OOO, Will O, Fate O, Wounds OO: boxes to tick) shares its hero's name and
    characteristics' names, but is no second model: the hero's own line keeps his keywords and heroic actions."""
    from generator.composing.roster import read, roster_of
    from generator.reading.rosters.selections import model_types

    assert model_types({"Trackers": ["Might", "Will", "Fate", "Wounds"], "Hero": ["Movement", "Fight", "Might"]}) == {
        "Hero"
    }
    root, _ = read(BSDATA / "mesbg-rohan.ros")
    gamling = next(unit for unit in roster_of(root).units if unit.name.startswith("Gamling"))
    assert [(line.count, line.profile.type) for line in gamling.models if line.profile.name == gamling.stat.name] == [
        (1, "Hero")
    ]
    assert [profile.values for profile in gamling.profiles if profile.type == "Trackers"] == [
        [("Might", "OOO"), ("Will", "O"), ("Fate", "O"), ("Wounds", "OO")]
    ]


def test_a_unit_holding_nothing_of_its_own_but_units_gives_its_place_to_them_and_is_said_left_out():
    """Apocalypse's "Leman Russ Battle Tank Squadron" holds its tank, a unit, and nothing else: not a row of dashes."""
    from generator.composing.roster import read, roster_of

    root, _ = read(BSDATA / "apocalypse-astra-militarum.ros")
    roster = roster_of(root, None)
    names = [unit.name for unit in roster.units]
    assert "Leman Russ Battle Tank Squadron" not in names and "Leman Russ Battle Tank" in names
    assert roster.left_out == ["Leman Russ Battle Tank Squadron"]
    tank = roster.units[names.index("Leman Russ Battle Tank")]
    assert (tank.points, tank.stat.name) == (10.0, "Leman Russ Battle Tank")
