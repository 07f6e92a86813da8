import pytest

from generator.schema import rules


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
