"""Estimates of a table's column widths from their texts (generator.composing.table_widths)."""

from __future__ import annotations

import pytest

from generator.composing import table_widths


def test_widths_shared_as_automatic_table_layout_shares_them():
    assert table_widths.shares([10, 10], [20, 40], 90) == pytest.approx([30, 60])  # all on one line: grown alike
    assert table_widths.shares([10, 10], [20, 100], 50) == pytest.approx([13, 37])  # the room left, as each wants more
    assert table_widths.shares([30, 40], [50, 80], 60) == [30, 40]  # not even the least widths: those


def test_a_columns_least_width_is_its_longest_word_and_its_most_its_longest_text_on_one_line():
    least = table_widths.least_width("S", ["Rapid Fire 1", "Heavy"])
    most = table_widths.most_width("S", ["Rapid Fire 1", "Heavy"])
    assert least == pytest.approx(5 * table_widths.CHARACTER_MM + table_widths.PADDING_MM)  # "Rapid", "Heavy"
    assert most == pytest.approx(12 * table_widths.CHARACTER_MM + table_widths.PADDING_MM)  # "Rapid Fire 1"
