"""A roster's stat line as its columns head it, on the Middle-earth rosters of tests/fixtures/rosters/bsdata/ (made
from BSData's catalogue) and on names no game abbreviates: no two columns share a heading."""

from __future__ import annotations

import pytest

from generator.composing.roster import read, roster_of
from generator.composing.roster.labels import Column, columns
from tests.reading.rosters.test_selections import BSDATA


def stat_names(roster_file: str) -> tuple[str, list[str]]:
    """The game of a roster and the characteristics of its units' stat lines, in the order met."""
    root, _ = read(BSDATA / roster_file)
    roster = roster_of(root)
    names: list[str] = []
    for entry in roster.units:
        for profile in [entry.stat, *(line.profile for line in entry.models)]:
            names += [name for name, _ in (profile.values if profile else []) if name not in names]
    return roster.game, names


@pytest.mark.parametrize("roster_file", ["mesbg-warband.ros", "mesbg-moria.ros", "mesbg-rohan.ros"])
def test_a_middle_earth_stat_line_is_headed_by_the_games_letters_its_heroes_might_will_fate_one_column(roster_file):
    game, names = stat_names(roster_file)
    numbers = [name for name in names if name not in ("Heroic Actions", "Keywords", "Heroic Tier")]
    headed = columns(numbers, game)
    assert [column.label for column in headed] == ["Mv", "F", "S", "D", "A", "W", "C", "M/W/F"]
    assert headed[-1] == Column("M/W/F", "Might/Will/Fate", ("Might", "Will", "Fate"))


def test_a_heros_might_will_fate_print_joined_and_a_warrior_without_them_prints_none():
    (might_will_fate,) = columns(["Might", "Will", "Fate"], "Middle-Earth Strategy Battle Game")
    assert might_will_fate.value({"Might": "3", "Will": "1", "Fate": "2"}) == "3/1/2"
    assert might_will_fate.value({"Might": "3", "Fate": "2"}) == "3/-/2"
    assert might_will_fate.value({"Wounds": "1"}) == ""


def test_without_the_whole_group_each_prints_as_written_where_the_games_letters_would_repeat():
    """A line with Will and Fate but no Might (no M/W/F): Fight and Fate would both be F, Wounds and Will both W, so
    each of those prints its name; Courage keeps its C."""
    headed = columns(["Fight", "Wounds", "Courage", "Will", "Fate"], "Middle-Earth Strategy Battle Game")
    assert [column.label for column in headed] == ["Fight", "Wounds", "C", "Will", "Fate"]


def test_a_game_whose_letters_repeat_for_two_names_prints_both_names_and_an_unknown_game_its_names_as_written():
    """40k's Save and Armour Save are both Sv; a game qrs does not know prints its names whole."""
    assert [column.label for column in columns(["Save", "Armour Save", "Toughness"], "Warhammer 40,000")] == [
        "Save",
        "Armour Save",
        "T",
    ]
    assert [column.label for column in columns(["Move", "Wounds"], "Frostgrave")] == ["Move", "Wounds"]
