"""A card's type fitted to its room from measured heights, without WeasyPrint: the scales tried, the next one to
measure, the one chosen, and how a card too full at the smallest type is dealt out over several cards.

A card's content is pieces (its blocks) under a head (its title strip); heights are in millimetres as WeasyPrint
measured them at a scale of the design's type (1.0: the sheets' 7.6 pt body). Heights grow with the scale, so the
largest scale of the ladder whose height fits is found by measuring a few, each chosen by interpolating between the
heights already known.
"""

from __future__ import annotations

from dataclasses import dataclass

BODY_POINTS = 7.6  # the design's body size at scale 1.0 (generator.rendering.templating.TYPE_SIZES)
SMALLEST_POINTS = 6.0  # the smallest body a card prints
SMALLEST_SCALE = SMALLEST_POINTS / BODY_POINTS
STEP = 0.96  # one scale of the ladder to the next: about a third of a point at the design's size
MOST_PARTS = 4  # cards a unit may take before it is refused


def ladder(largest: float = 1.0) -> list[float]:
    """The scales tried, from `largest` down to SMALLEST_SCALE, each STEP of the one before (the last exactly the
    smallest)."""
    scales, scale = [], largest
    while scale > SMALLEST_SCALE + 1e-6:
        scales.append(round(scale, 4))
        scale *= STEP
    return scales + [round(SMALLEST_SCALE, 4)]


def largest_scale(card_width_mm: float) -> float:
    """The type a card starts from: a quarter larger than the sheets' on a poker card (63 mm wide), to be read at
    arm's length on the table; larger on a wider card, to twice the sheets'."""
    return round(min(2.0, 1.25 * max(1.0, card_width_mm / 63.0)), 4)


@dataclass(frozen=True)
class Fitting:
    """Where the search for a card's scale stands: `chosen` once known (None: not even the smallest fits), else
    `measure`, the scale to measure next."""

    chosen: float | None = None
    measure: float | None = None
    done: bool = False


def next_step(heights: dict[float, float], room: float, scales: list[float]) -> Fitting:
    """Given the card's heights measured so far (by scale), the next scale to measure, or the scale chosen: the largest
    of `scales` whose height is at most `room`."""
    fitting = [scale for scale, height in heights.items() if height <= room]
    failing = [scale for scale, height in heights.items() if height > room]
    best = max(fitting, default=None)
    worst = min(failing, default=None)
    untried = [
        scale
        for scale in scales
        if (best is None or scale > best) and (worst is None or scale < worst) and scale not in heights
    ]
    if not untried:
        return Fitting(chosen=best, done=True)
    guess = _interpolated(heights, room)
    below = [scale for scale in untried if guess is None or scale <= guess]
    return Fitting(measure=max(below) if below else min(untried))


def _interpolated(heights: dict[float, float], room: float) -> float | None:
    """The scale at which the height would be `room`, from the two measurements that bracket it (or the two nearest),
    assuming height grows in proportion to scale between them."""
    if not heights:
        return None
    if len(heights) == 1:
        scale, height = next(iter(heights.items()))
        return scale * room / height if height else None
    known = sorted(heights.items())
    under = [pair for pair in known if pair[1] <= room]
    over = [pair for pair in known if pair[1] > room]
    (low, low_height), (high, high_height) = (under[-1] if under else known[0]), (over[0] if over else known[-1])
    if high_height == low_height:
        return high
    return low + (room - low_height) * (high - low) / (high_height - low_height)


class TooTall(ValueError):
    """Content that no number of cards holds: a piece taller than a card alone (`piece`), or more than `most` cards."""

    def __init__(self, piece: int | None, needed: int | None = None):
        super().__init__(piece, needed)
        self.piece, self.needed = piece, needed


def dealt(pieces: list[float], head: float, room: float, most: int | None = MOST_PARTS) -> list[list[int]]:
    """The pieces (their heights at the smallest scale, in order) dealt out over as few cards as hold them, each card
    under its own head, keeping their order: lists of the pieces' indices. TooTall when a piece alone overflows a
    card, or when more than `most` cards would be needed (None: no limit)."""
    cards: list[list[int]] = [[]]
    used = head
    for index, height in enumerate(pieces):
        if head + height > room:
            raise TooTall(index)
        if cards[-1] and used + height > room:
            cards.append([])
            used = head
        cards[-1].append(index)
        used += height
    if most is not None and len(cards) > most:
        raise TooTall(None, len(cards))
    return cards
