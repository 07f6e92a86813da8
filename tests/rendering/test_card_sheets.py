"""Cards imposed on paper (generator.rendering.card_sheets), without WeasyPrint: the sizes, how many a page holds,
where each sits, its crop marks outside every card, and its back behind it for each duplex flip."""

from __future__ import annotations

import pytest

from generator.rendering.card_sheets import BLEED_MM, card_size, grid, sheets


def _cards(layout, count):
    """The trimmed rectangles (left, top, right, bottom) of the first `count` places, grown by the bleed."""
    grow = layout.bleed
    return [
        (x - grow, y - grow, x + layout.card.width + grow, y + layout.card.height + grow)
        for x, y in map(layout.slot, range(count))
    ]


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("poker", (63, 88)),
        ("tarot", (70, 120)),
        ("a6", (105, 148)),
        ("60x90", (60, 90)),
        ("POKER", (63, 88)),
        ("57.5x89", (57.5, 89)),
    ],
)
def test_a_size_is_named_or_given_in_millimetres(name, size):
    card = card_size(name)
    assert (card.width, card.height) == size


@pytest.mark.parametrize("name", ["bridge", "63x", "10x10", "63x880", "x88", "63 x 88"])
def test_a_size_qrs_cannot_print_is_refused_saying_what_is_accepted(name):
    with pytest.raises(ValueError, match="poker|between"):
        card_size(name)


@pytest.mark.parametrize(
    ("size", "paper", "bleed", "count", "landscape"),
    [
        ("poker", "A4", False, 9, False),
        ("poker", "letter", False, 8, True),
        ("tarot", "A4", False, 4, False),
        ("a6", "A4", False, 2, True),
        ("poker", "A4", True, 6, True),
    ],
)
def test_as_many_cards_as_fit_with_their_marks(size, paper, bleed, count, landscape):
    layout = grid(card_size(size), paper, bleed)
    assert layout.per_page == count
    assert (layout.page_width > layout.page_height) == landscape


@pytest.mark.parametrize(("paper", "bleed"), [("A4", False), ("letter", False), ("A4", True)])
def test_cards_lie_on_the_page_apart_centred_and_a_marks_room_from_its_edge(paper, bleed):
    layout = grid(card_size("poker"), paper, bleed)
    cards = _cards(layout, layout.per_page)
    for left, top, right, bottom in cards:
        assert left >= 5 and top >= 5 and right <= layout.page_width - 5 and bottom <= layout.page_height - 5
    for index, one in enumerate(cards):
        for other in cards[index + 1 :]:
            assert one[2] <= other[0] or other[2] <= one[0] or one[3] <= other[1] or other[3] <= one[1]
    assert layout.left == pytest.approx(layout.page_width - (cards[-1][2] - layout.bleed))  # centred
    assert layout.slot(1)[0] - layout.slot(0)[0] == pytest.approx(63 + layout.gutter)
    assert layout.gutter == pytest.approx(4 + (2 * BLEED_MM if bleed else 0))


@pytest.mark.parametrize(("bleed", "count"), [(False, 9), (False, 5), (True, 6)])
def test_crop_marks_sit_at_every_corner_on_the_edges_lines_outside_every_card(bleed, count):
    layout = grid(card_size("poker"), "A4", bleed)
    marks = layout.marks(count)
    cards = _cards(layout, count)
    for left, top, right, bottom in cards:
        corners = [
            (x, y)
            for x in (left + layout.bleed, right - layout.bleed)
            for y in (top + layout.bleed, bottom - layout.bleed)
        ]
        for x, y in corners:  # a horizontal and a vertical mark on each of the corner's lines
            assert any(
                mark.y1 == mark.y2 == y and min(abs(mark.x1 - x), abs(mark.x2 - x)) <= layout.bleed + 0.5
                for mark in marks
            )
            assert any(
                mark.x1 == mark.x2 == x and min(abs(mark.y1 - y), abs(mark.y2 - y)) <= layout.bleed + 0.5
                for mark in marks
            )
    for mark in marks:
        assert mark.x1 <= mark.x2 and mark.y1 <= mark.y2 and (mark.x2 - mark.x1) + (mark.y2 - mark.y1) > 0.5
        for left, top, right, bottom in cards:  # no point of a mark within a card or its bleed
            for t in (0.0, 0.5, 1.0):
                x, y = mark.x1 + t * (mark.x2 - mark.x1), mark.y1 + t * (mark.y2 - mark.y1)
                assert not (left < x < right and top < y < bottom), (mark, (left, top, right, bottom))
        assert 0 <= min(mark.x1, mark.y1) and mark.x2 <= layout.page_width and mark.y2 <= layout.page_height


def test_on_a_long_edge_flip_the_first_columns_card_is_backed_in_the_last():
    layout = grid(card_size("poker"), "A4")  # portrait: its long edge is its height
    for index in range(9):
        row, column = divmod(index, 3)
        assert layout.back_slot(index, "long-edge") == layout.slot(row * 3 + 2 - column)
        assert layout.back_slot(index, "short-edge") == layout.slot((2 - row) * 3 + column)


def test_on_landscape_paper_the_long_edge_flip_mirrors_the_rows():
    layout = grid(card_size("poker"), "letter")  # landscape, 4 × 2
    assert layout.columns == 4 and layout.rows == 2
    assert layout.back_slot(0, "long-edge") == layout.slot(4)
    assert layout.back_slot(0, "short-edge") == layout.slot(3)


def test_a_back_lies_behind_its_front_once_the_sheet_is_turned():
    """Turned about its vertical axis, a point at x on the back lies at width - x on the front (long edge, portrait)."""
    layout = grid(card_size("poker"), "A4")
    for index in range(9):
        front_x, front_y = layout.slot(index)
        back_x, back_y = layout.back_slot(index, "long-edge")
        assert layout.page_width - (back_x + 63) == pytest.approx(front_x) and back_y == front_y


def test_cards_are_dealt_page_by_page():
    assert [list(places) for places in sheets(20, 9)] == [list(range(9)), list(range(9, 18)), [18, 19]]
