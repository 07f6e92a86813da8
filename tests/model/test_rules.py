import pytest

from generator.model import rules


def test_die_results():
    assert rules.die_results("D3") == [1, 2, 3]
    assert rules.die_results("2D6") == list(range(2, 13))
    assert len(rules.die_results("D66")) == 36 and rules.die_results("D66")[-1] == 66


@pytest.mark.parametrize("roll, covered", [("7", [7]), ("3-4", [3, 4]), ("10+", [10, 11, 12])])
def test_roll_results(roll, covered):
    assert rules.roll_results(roll, rules.die_results("2D6")) == covered


@pytest.mark.parametrize("roll", ["1", "13", "5-4", "seven", "2-13"])
def test_rolls_the_die_cannot_show_are_refused(roll):
    with pytest.raises(ValueError):
        rules.roll_results(roll, rules.die_results("2D6"))


@pytest.mark.parametrize("value", ["+1", "-2", "−3", "½", "-¼", "+1u", "x2", "0"])
def test_modifier_values(value):
    assert rules.is_modifier(value, "u")


@pytest.mark.parametrize("value", ["1", "+", "plus un", "+1ps", "--1"])
def test_not_modifier_values(value):
    assert not rules.is_modifier(value, "u")


def test_to_wound_rule_matches_the_printed_table():
    first_row = [rules.matrix_value("to-wound", 1, t) for t in range(1, 11)]
    assert first_row == [4, 5, 6, 6, None, None, None, None, None, None]
    assert [rules.matrix_value("to-wound", 10, t) for t in range(1, 11)] == [2] * 8 + [3, 4]


def test_to_hit_rules_differ_between_warhammer_and_wab():
    assert [rules.matrix_value("to-hit-ws", 1, d) for d in range(1, 11)] == [4, 4, 5, 5, 5, 5, 5, 5, 5, 5]
    assert [rules.matrix_value("to-hit-ws-wab", 1, d) for d in range(1, 11)] == [4, 4, 5, 5, 6, 6, 6, 6, 6, 6]


def test_bs_rule():
    assert [rules.matrix_value("bs-to-hit", 0, bs) for bs in range(1, 11)] == [6, 5, 4, 3, 2, 1, 0, -1, -2, -3]


@pytest.mark.parametrize(
    "roll, covered",
    [
        ("16, 21", [16, 21]),
        ("11-15, 62", [11, 12, 13, 14, 15, 62]),
        ("11~15", [11, 12, 13, 14, 15]),
        ("62, 63", [62, 63]),
    ],
)
def test_a_roll_may_list_separate_results_and_ranges(roll, covered):
    assert rules.roll_results(roll, rules.die_results("D66")) == covered


def test_a_lookup_covers_its_declared_range_or_up_to_its_highest_row():
    assert rules.range_results("1-40", []) == list(range(1, 41))
    assert rules.range_results("1+", ["1-5", "6-11", "36+"]) == list(range(1, 37))


@pytest.mark.parametrize("rolls, d66", [(["11-16", "21-66"], True), (["2", "3-6", "7+"], False), (["11", "17"], False)])
def test_rolls_that_read_as_d66(rolls, d66):
    assert rules.reads_as_d66(rolls) is d66


@pytest.mark.parametrize(
    "value, unit, parts",
    [
        ("+2 & Quick Kill", None, ("+2", "& Quick Kill")),
        ("-1 unless {Transfixed}", None, ("-1", "unless {Transfixed}")),
        ("0 & Quick Kill", None, ("0", "& Quick Kill")),
        ("-1", None, ("-1", "")),
        ("+1 u & more", "u", ("+1 u", "& more")),
        ("+1u", "u", ("+1u", "")),
    ],
)
def test_a_modifier_splits_into_its_number_and_what_qualifies_it(value, unit, parts):
    assert rules.split_modifier(value, unit) == parts


@pytest.mark.parametrize("value", ["opponent -1", "+", "2 & Quick Kill", "+2& Quick Kill"])
def test_a_value_that_does_not_start_with_a_modifier_does_not_split(value):
    assert rules.split_modifier(value) is None
