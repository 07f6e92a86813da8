"""Table rows cut between their lines (generator.rendering.cuts): a cell's markup cut after a count of printing
characters, tags closed and opened again; a measured block's rows told to the packer as their parts."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from generator.rendering import cuts
from generator.rendering.measure import Cuts, Measured


def test_plain_text_is_cut_after_its_nth_printing_character_and_the_rest_starts_at_a_word():
    head, tail = cuts.cut_markup("one two three four", 6)
    assert (head, tail) == ("one two", "three four")


def test_a_tag_open_at_the_cut_is_closed_before_it_and_opened_again_after_it():
    head, tail = cuts.cut_markup('a <strong class="kw">bold <em>word here</em></strong> end', 9)
    assert head == 'a <strong class="kw">bold <em>word</em></strong>'
    assert tail == '<strong class="kw"><em>here</em></strong> end'
    assert isinstance(head, Markup) and isinstance(tail, Markup)


def test_an_entity_is_one_character_and_a_line_break_no_tag_to_close():
    head, tail = cuts.cut_markup("x &amp; y<br>z w", 3)
    assert (head, tail) == ("x &amp; y", "<br>z w")


@pytest.mark.parametrize("chars", [0, 12, 99])
def test_markup_shorter_than_the_cut_is_not_cut(chars):
    found = cuts.cut_markup("eleven chars", chars)
    assert found is None or found[1] == ""


def test_a_row_taller_than_tall_is_told_as_its_parts_and_the_others_as_they_are():
    measured = Measured(height=112.0, units=(10.0, 100.0), head=2.0, tail=0.0,
                        cuts=(Cuts(unit=1, cell=1, top=0.5, bottom=0.6, lines=((30.0, 120), (60.0, 260))),))
    rows = cuts.rows(measured, tall=50.0)
    assert rows.units == ((0, None), (1, None), (1, cuts.Cut(1, 120)), (1, cuts.Cut(1, 260)))
    assert rows.heights == (10.0, 30.0, 30.0, 40.0) and sum(rows.heights) == sum(measured.units)
    assert rows.pads == ((0.0, 0.0), (0.0, 0.0), (0.5, 0.6), (0.5, 0.6))
    assert rows.at(3) == (1, cuts.Cut(1, 260)) and rows.at(None) == (None, None) and rows.unit_of_row(1) == 1
    assert cuts.rows(measured, tall=100.0).units == ((0, None), (1, None))  # no taller than tall: whole


def test_a_line_is_counted_in_its_source_s_characters_its_own_hyphen_and_a_term_s_colon_passed_over():
    from generator.rendering.measure import _consumed

    source = "Leader:".replace(":", "") + "Thebearerre-rollsonefailedroll"  # the term, then its text, as the DOM holds
    position, inside = _consumed(source, 0, "LEADER:Thebear-")  # in capitals, a colon after it, hyphenated
    assert (position, inside) == (len("LeaderThebear"), True)
    position, inside = _consumed(source, position, "erre-")  # a hyphen of the source: the word ends here
    assert (position, inside) == (len("LeaderThebearerre-"), False)
    assert _consumed(source, position, "rollsonefailedroll") == (len(source), False)
