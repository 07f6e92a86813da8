"""Tables a column holds: a roster's profile type with more characteristics than a column of the page has room
for keeps them all where the page's width holds it (Shadow War's nine weapon columns: the table then spans the
page, generator.rendering.bands); wider than the page, it keeps the leading ones and gathers the others in its last
column, each named ("Save Mod.: -1; Ammo Roll: 4+"). The widths are estimates (generator.composing.table_widths)."""

from __future__ import annotations

from generator.composing.table_widths import least_width, most_width, shares

GATHERED_MM = 24.0  # the least the gathering column needs


def fit(types: list[dict], units: list[dict], column_mm: float, page_mm: float | None = None) -> None:
    """Each profile type's table made to fit a column `column_mm` wide, its rows with it (in place); one the page's
    width (`page_mm`) holds keeps every column: it spans the page."""
    for kind in types:
        rows = [profile for unit in units for profile in unit.get("profiles", []) if profile["type"] == kind["id"]]
        names = kind["characteristics"]
        columns = [(kind["name"], [row["name"] for row in rows])]
        columns += [(name, [row["values"][index] for row in rows]) for index, name in enumerate(names)]
        least = [least_width(*column) for column in columns]
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
        low, high = (
            least[: kept + 1] + [least_width(title, texts)],
            [most_width(*column) for column in columns[: kept + 1]],
        )
        widths = shares(low, high + [most_width(title, texts)], column_mm)
        if sum(low) <= column_mm and widths[-1] >= GATHERED_MM:
            return kept
    return 0


def _gathered(names: list[str], values: list[str]) -> str:
    return "; ".join(f"{name}: {value}" for name, value in zip(names, values) if value not in ("", "-")) or "-"
