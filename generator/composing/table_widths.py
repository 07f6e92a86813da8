"""Estimates of the widths WeasyPrint's automatic table layout gives a table's columns, in millimetres, from their
texts alone (nothing rendered): each column its least width (its longest word) and, where the table has room to
spare, a share of it in proportion to what its longest text would take on one line (`shares`). The roster's
fitting (generator.composing.roster.fitting) and a handout's profile tables (generator.composing.handout_profiles)
decide from them."""

from __future__ import annotations

import re

CHARACTER_MM = 1.45  # a character of the tables' type, bold headers included
PADDING_MM = 2.4  # a cell's padding, both sides


def _word(text: str) -> float:
    """The width of the longest run a line cannot break (a word, a number with its unit)."""
    return max((len(word) for word in re.split(r"[\s/-]+", text)), default=0) * CHARACTER_MM


def least_width(title: str, values: list[str]) -> float:
    return max([_word(title), *map(_word, values)]) + PADDING_MM


def most_width(title: str, values: list[str]) -> float:
    return max(len(text) for text in [title, *values]) * CHARACTER_MM + PADDING_MM


def shares(least: list[float], most: list[float], room: float) -> list[float]:
    """Each column's width in a table as wide as `room`, laid out as CSS's automatic table layout does: every
    column its least width, and the room left shared in proportion to what each would take more on one line (all
    on one line where they fit, the rest shared in proportion to that)."""
    if sum(most) <= room:
        return [width * room / sum(most) for width in most]
    if sum(least) >= room:
        return list(least)
    spare = (room - sum(least)) / (sum(most) - sum(least))
    return [low + (high - low) * spare for low, high in zip(least, most)]
