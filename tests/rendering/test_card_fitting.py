"""A card's type fitted from measured heights, and a full card dealt over several (generator.rendering.card_fitting),
without WeasyPrint: heights given as functions of the scale stand for what WeasyPrint measures."""

from __future__ import annotations

import pytest

from generator.rendering.card_fitting import SMALLEST_SCALE, TooTall, dealt, ladder, largest_scale, next_step


def _search(height, room: float, scales: list[float]) -> tuple[float | None, int]:
    """The scale the search chooses for a card whose content is `height(scale)` tall, and how many it measured."""
    known = {}
    while True:
        step = next_step(known, room, scales)
        if step.done:
            return step.chosen, len(known)
        assert step.measure not in known
        known[step.measure] = height(step.measure)


def test_the_ladder_runs_from_the_largest_type_down_to_6_points():
    scales = ladder(1.25)
    assert scales[0] == 1.25 and scales[-1] == round(6 / 7.6, 4)
    assert all(later < earlier for earlier, later in zip(scales, scales[1:]))
    assert largest_scale(63) == 1.25 and largest_scale(105) > largest_scale(70) > 1.25


@pytest.mark.parametrize("room", [40.0, 60.0, 75.0, 83.0, 120.0])
@pytest.mark.parametrize(
    "grows",
    [
        lambda scale: 70 * scale,
        lambda scale: 30 + 40 * scale**1.6,
        lambda scale: 10 + 80 * scale - (5 if scale < 1 else 0),
    ],
)
def test_the_largest_scale_of_the_ladder_that_fits_is_chosen_in_a_few_measurements(room, grows):
    scales = ladder(1.25)
    chosen, measured = _search(grows, room, scales)
    fitting = [scale for scale in scales if grows(scale) <= room]
    assert chosen == (max(fitting) if fitting else None)
    assert measured <= 6


def test_a_card_too_full_at_6_points_has_no_scale():
    chosen, _ = _search(lambda scale: 200 * scale, 83.0, ladder(1.25))
    assert chosen is None


def test_pieces_are_dealt_in_order_over_as_few_cards_as_hold_them():
    assert dealt([30, 30, 30, 10], head=5, room=70) == [[0, 1], [2, 3]]
    assert dealt([60], head=5, room=70) == [[0]]
    assert dealt([20] * 10, head=5, room=70, most=None) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]


def test_a_piece_taller_than_a_card_and_a_fifth_card_are_refused():
    with pytest.raises(TooTall) as refused:
        dealt([30, 80, 10], head=5, room=70)
    assert refused.value.piece == 1
    with pytest.raises(TooTall) as refused:
        dealt([60] * 5, head=5, room=70)
    assert refused.value.piece is None and refused.value.needed == 5
    assert SMALLEST_SCALE == pytest.approx(6 / 7.6)
