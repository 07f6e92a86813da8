"""Tables a column holds: a roster's profile type with more characteristics than a column of the page has room
for (Shadow War's nine weapon columns) keeps the leading ones and gathers the others in its last column, each
named ("Save Mod.: -1; Ammo Roll: 4+"). The widths are estimates, in millimetres, of what the packer measures."""

from __future__ import annotations

import re

COLUMN_MM = 80.0  # a column of an A4 landscape page in three, less its gutters
CHARACTER_MM = 1.45  # a character of the tables' type, bold headers included
PADDING_MM = 2.4  # a cell's padding, both sides
GATHERED_MM = 24.0  # the least the gathering column needs


def _word(text: str) -> float:
    """The width of the longest run a line cannot break (a word, a number with its unit)."""
    return max((len(word) for word in re.split(r"[\s/-]+", text)), default=0) * CHARACTER_MM


def _width(title: str, values: list[str]) -> float:
    return max([_word(title), *map(_word, values)]) + PADDING_MM


def fit(types: list[dict], units: list[dict]) -> None:
    """Each profile type's table made to fit a column, its rows with it (in place)."""
    for kind in types:
        rows = [profile for unit in units for profile in unit.get("profiles", []) if profile["type"] == kind["id"]]
        names = kind["characteristics"]
        widths = [_width(kind["name"], [row["name"] for row in rows])]
        widths += [_width(name, [row["values"][index] for row in rows]) for index, name in enumerate(names)]
        if sum(widths) <= COLUMN_MM or len(names) < 2:
            continue
        kept = len(names) - 1
        while kept > 0 and sum(widths[: kept + 1]) + GATHERED_MM > COLUMN_MM:
            kept -= 1
        gathered = names[kept:]
        if len(gathered) < 2:  # its last column alone, a rule's text: it wraps as it is, under its own heading
            continue
        kind["characteristics"] = names[:kept] + [" / ".join(gathered)]
        for row in rows:
            rest = [f"{name}: {value}" for name, value in zip(gathered, row["values"][kept:]) if value not in ("", "-")]
            row["values"] = row["values"][:kept] + ["; ".join(rest) or "-"]
