"""Units cut between their lines (generator.rendering.cuts): a cell's markup cut after a count of printing
characters, tags closed and opened again, a list open at the cut going on where it stopped; a measured block's rows
told to the packer as their parts."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
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
    assert (head, tail) == ("x &amp; y", "z w")  # the part after starts at the line the break begins


@pytest.mark.parametrize("chars", [0, 12, 99])
def test_markup_shorter_than_the_cut_is_not_cut(chars):
    found = cuts.cut_markup("eleven chars", chars)
    assert found is None or found[1] == ""


def test_a_row_taller_than_tall_is_told_as_its_parts_and_the_others_as_they_are():
    measured = Measured(
        height=112.0,
        units=(10.0, 100.0),
        head=2.0,
        tail=0.0,
        cuts=(Cuts(unit=1, cell=1, top=0.5, bottom=0.6, lines=((30.0, 120), (60.0, 260))),),
    )
    rows = cuts.rows(measured, tall=50.0)
    assert rows.units == ((0, None), (1, None), (1, cuts.Cut(1, 120)), (1, cuts.Cut(1, 260)))
    assert rows.heights == (10.0, 30.0, 30.0, 40.0) and sum(rows.heights) == sum(measured.units)
    assert rows.pads == ((0.0, 0.0), (0.0, 0.0), (0.5, 0.6), (0.5, 0.6))
    assert rows.at(3) == (1, cuts.Cut(1, 260)) and rows.at(None) == (None, None) and rows.unit_of_row(1) == 1
    assert rows.soft == frozenset()  # taller than tall: cut firmly
    softly = cuts.rows(measured, tall=100.0)  # no taller than tall: cut softly (any row measured with cuts)
    assert softly.units == rows.units and softly.soft == {2, 3}


def test_a_row_cut_softly_is_planned_whole_unless_that_leaves_a_hole():
    """A wargear rule of 60 mm in a column of 191 (under a third, over a sixth): whole, where it fits after the
    column's other blocks or leaves no hole; cut between its lines where starting it in the next column would leave
    one over MAX_HOLE, as many lines as fit staying at the column's foot."""
    from generator.rendering import layout

    lines = (4.0,) * 15
    soft = frozenset(range(2, 16))  # unit 1 starts the row; units 2..15 start inside it
    table = layout.Piece(
        6 + 10 + 60 + 1,
        units=(10.0, *lines),
        head=6,
        tail=1,
        cont_head=4,
        cont_tail=1,
        soft=soft,
        inside=soft,
        min_side=12.0,
        min_side_units=2,
        pads=((0.0, 0.0),) * 16,
    )
    capacity = layout.Capacity(100, 0, 2, safety=0)
    whole = layout.pack([layout.Piece(20), table, layout.Piece(95)], capacity)  # whole after the first block
    assert [[(f.index, f.start, f.stop) for f in column] for column in whole.plan[0]] == [
        [(0, 0, None), (1, 0, None)],
        [(2, 0, None)],
    ]
    holed = layout.pack([layout.Piece(60), table, layout.Piece(50)], capacity)  # whole, it would leave 40 % empty
    first = [(f.index, f.start, f.stop) for f in holed.plan[0][0]]
    assert first[0] == (0, 0, None) and first[1][0] == 1 and first[1][2] in soft  # cut inside the row
    assert holed.pages == 1
    assert holed.softened == 1 and not layout.holes(holed, capacity)


def test_a_line_is_counted_in_its_source_s_characters_its_own_hyphen_and_a_term_s_colon_passed_over():
    from generator.rendering.measure import _consumed

    source = "Leader:".replace(":", "") + "Thebearerre-rollsonefailedroll"  # the term, then its text, as the DOM holds
    position, inside = _consumed(source, 0, "LEADER:Thebear-")  # in capitals, a colon after it, hyphenated
    assert (position, inside) == (len("LeaderThebear"), True)
    position, inside = _consumed(source, position, "erre-")  # a hyphen of the source: the word ends here
    assert (position, inside) == (len("LeaderThebearerre-"), False)
    assert _consumed(source, position, "rollsonefailedroll") == (len(source), False)


def test_a_list_open_at_the_cut_goes_on_unnumbered_and_counts_on_from_its_item():
    step = (
        '<strong class="step-title">Combat</strong><ol class="steps" start="3"><li>Strike first</li>'
        '<li><span class="step-text">Wound the target</span></li><li>Push back</li></ol>'
    )
    head, tail = cuts.cut_markup(step, len("CombatStrikefirstWound"))
    assert head == (
        '<strong class="step-title">Combat</strong><ol class="steps" start="3"><li>Strike first</li>'
        '<li><span class="step-text">Wound</span></li></ol>'
    )
    # the item cut in two is the list's fourth: it goes on without its number, the next is the fifth
    assert tail == (
        '<ol class="steps" start="4"><li class="cut"><span class="step-text">the target</span></li>'
        "<li>Push back</li></ol>"
    )


def test_a_bullet_cut_in_two_goes_on_without_its_bullet():
    head, tail = cuts.cut_markup('<ul class="step-items"><li class="x">one two</li></ul>', 3)
    assert (head, tail) == (
        '<ul class="step-items"><li class="x">one</li></ul>',
        '<ul class="step-items"><li class="x cut">two</li></ul>',
    )


def test_a_cut_at_the_end_of_an_item_leaves_no_empty_item_and_the_next_keeps_its_number():
    head, tail = cuts.cut_markup("Turn<ol><li><em>Move</em></li><li>Shoot</li></ol>", len("TurnMove"))
    assert head == "Turn<ol><li><em>Move</em></li></ol>"
    assert tail == '<ol start="2"><li>Shoot</li></ol>'


# --- any cut of nested lists: every character once, in its item, each item's number or bullet printed once ------

WORD = st.text(alphabet="abcdefgh", min_size=1, max_size=6)


def _markup(node) -> str:
    kind, content = node
    if kind == "text":
        return content
    if kind in ("ol", "ul"):
        start = f' start="{content[0]}"' if kind == "ol" and content[0] else ""
        return (
            f"<{kind}{start}>"
            + "".join(f"<li>{''.join(map(_markup, item))}</li>" for item in content[1])
            + f"</{kind}>"
        )
    return f"<{kind}>" + "".join(map(_markup, content)) + f"</{kind}>"


NODES = st.recursive(
    st.tuples(st.just("text"), st.lists(WORD, min_size=1, max_size=4).map(" ".join)),
    lambda children: st.one_of(
        st.tuples(st.sampled_from(["span", "strong", "em"]), st.lists(children, min_size=1, max_size=3)),
        st.tuples(
            st.just("ol"),
            st.tuples(
                st.sampled_from([None, 1, 4]),
                st.lists(st.lists(children, min_size=1, max_size=3), min_size=1, max_size=3),
            ),
        ),
        st.tuples(
            st.just("ul"),
            st.tuples(st.none(), st.lists(st.lists(children, min_size=1, max_size=3), min_size=1, max_size=3)),
        ),
    ),
    max_leaves=12,
)


class _Reader(HTMLParser):
    """Each printing character of markup with the items it is in (a numbered list's item by its number, as CSS counts
    it), and the items that print their number or bullet (not marked continued); the tags must balance."""

    def __init__(self):
        super().__init__()
        self.open: list[list] = []  # [tag, count of its items so far, its number (an item)]
        self.characters: list[tuple[str, tuple]] = []
        self.markers: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        number = None
        if tag == "li":
            parent = self.open[-1]
            parent[1] += 1
            number = parent[1] if parent[0] == "ol" else None  # a bullet is a bullet: it prints no number
        self.open.append([tag, int(attrs.get("start", 1)) - 1 if tag == "ol" else 0, number])
        if tag == "li" and "cut" not in (attrs.get("class") or "").split():
            self.markers.append(self.path())

    def handle_endtag(self, tag):
        assert self.open and self.open[-1][0] == tag, (tag, self.open)
        self.open.pop()

    def handle_data(self, data):
        self.characters += [(character, self.path()) for character in data if not character.isspace()]

    def path(self) -> tuple:
        return tuple((tag, number) for tag, _, number in self.open if tag == "li")


def _read(*parts: str) -> _Reader:
    reader = _Reader()
    for part in parts:
        reader.feed(part)
        assert reader.open == [], part  # every part closes what it opens
    return reader


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(NODES, min_size=1, max_size=3), st.integers(1, 200))
def test_any_cut_of_nested_lists_prints_every_character_once_in_its_item_and_every_marker_once(nodes, chars):
    markup = "".join(map(_markup, nodes))
    whole = _read(markup)
    assume(chars < len(whole.characters))
    head, tail = cuts.cut_markup(markup, chars)
    parts = _read(head, tail)
    assert parts.characters == whole.characters
    assert parts.markers == whole.markers


def test_a_cut_at_a_line_the_text_breaks_itself_starts_the_part_after_at_the_next_line_not_a_blank_one():
    """A rule's text cut right before a line it breaks (`<br>`, a "**Fortify Takeover**" sub-title): the part after
    starts with that line, as measured, not with an empty one (the column printed a line taller than planned)."""
    before, after = cuts.cut_markup("re-roll Advance rolls.<br><strong>Fortify Takeover</strong><br>• Each", 20)
    assert before == "re-roll Advance rolls." and after == "<strong>Fortify Takeover</strong><br>• Each"
    before, after = cuts.cut_markup("<em>one two<br/>three</em>", 6)
    assert before == "<em>one two</em>" and after == "<em>three</em>"
