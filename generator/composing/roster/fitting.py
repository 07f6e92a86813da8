"""Tables a column holds: a roster's profile type with more characteristics than a column of the page has room
for keeps them all where the page's width holds it (Shadow War's nine weapon columns: the table then spans the
page, generator.rendering.bands); wider than the page, it keeps the leading ones and gathers the others in its last
column, each named ("Save Mod.: -1; Ammo Roll: 4+"). The widths are estimates, in millimetres, of what
WeasyPrint's automatic table layout gives each column (`shares`): its least width (its longest word) and, where
the column has room to spare, a share of it in proportion to what its longest text would take on one line."""

from __future__ import annotations

import re

CHARACTER_MM = 1.45  # a character of the tables' type, bold headers included
PADDING_MM = 2.4  # a cell's padding, both sides
GATHERED_MM = 24.0  # the least the gathering column needs


def _word(text: str) -> float:
    """The width of the longest run a line cannot break (a word, a number with its unit)."""
    return max((len(word) for word in re.split(r"[\s/-]+", text)), default=0) * CHARACTER_MM


def _least(title: str, values: list[str]) -> float:
    return max([_word(title), *map(_word, values)]) + PADDING_MM


def _most(title: str, values: list[str]) -> float:
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


def fit(types: list[dict], units: list[dict], column_mm: float, page_mm: float | None = None) -> None:
    """Each profile type's table made to fit a column `column_mm` wide, its rows with it (in place); one the page's
    width (`page_mm`) holds keeps every column: it spans the page."""
    for kind in types:
        rows = [profile for unit in units for profile in unit.get("profiles", []) if profile["type"] == kind["id"]]
        names = kind["characteristics"]
        columns = [(kind["name"], [row["name"] for row in rows])]
        columns += [(name, [row["values"][index] for row in rows]) for index, name in enumerate(names)]
        least = [_least(*column) for column in columns]
        if sum(least) <= column_mm or len(names) < 2 or page_mm is not None and sum(least) <= page_mm:
            continue
        kept = _kept(columns, least, rows, names, column_mm)
        gathered = names[kept:]
        if len(gathered) < 2:  # its last column alone, a rule's text: it wraps as it is, under its own heading
            continue
        kind["characteristics"] = names[:kept] + [" / ".join(gathered)]
        for row in rows:
            row["values"] = row["values"][:kept] + [_gathered(gathered, row["values"][kept:])]


def _kept(columns, least: list[float], rows: list[dict], names: list[str], column_mm: float) -> int:
    """The most leading characteristics kept as columns such that the gathering column, laid out beside them, is
    given GATHERED_MM at least."""
    for kept in range(len(names) - 1, 0, -1):
        texts = [_gathered(names[kept:], row["values"][kept:]) for row in rows]
        title = " / ".join(names[kept:])
        low, high = least[: kept + 1] + [_least(title, texts)], [_most(*column) for column in columns[: kept + 1]]
        widths = shares(low, high + [_most(title, texts)], column_mm)
        if sum(low) <= column_mm and widths[-1] >= GATHERED_MM:
            return kept
    return 0


def _gathered(names: list[str], values: list[str]) -> str:
    return "; ".join(f"{name}: {value}" for name, value in zip(names, values) if value not in ("", "-")) or "-"
