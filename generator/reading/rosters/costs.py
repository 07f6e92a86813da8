"""A roster's costs: the one the army is counted in (points, else power, else what the roster totals), as the roster
names it, and each selection's own."""

from __future__ import annotations

import math
from xml.etree.ElementTree import Element

from generator.reading.rosters.files import NAMESPACE, children
from generator.reading.rosters.names import folded

MAX_POINTS = 1_000_000  # what the handout's points field holds
POINTS_NAMES = ("pts", "points", "point s", "point", "pt", "pts.")  # folded: pts, Points, Point(s) (New Recruit)
POWER_NAMES = ("pl", "power", "power level")
NOT_POINTS = ("cp", "command points", "warriors")  # costs that are not the army's points (MESBG counts warriors)


def other_costs(selection: Element, cost_name: str | None) -> str:
    """What a selection gives besides points, as the roster names it: 40k 8th's Battle-forged CP "+3 CP"."""
    shown = []
    for cost in children(selection, "cost"):
        try:
            value = float(cost.get("value", ""))
        except ValueError:
            continue
        if folded(cost.get("name", "")) != cost_name and math.isfinite(value) and value and abs(value) < MAX_POINTS:
            shown.append(f"{value:+g} {cost.get('name', '').strip()}".strip())
    return ", ".join(shown)


def army_cost_name(root: Element) -> str | None:
    """The cost the army is counted in, folded: pts, points or Point(s) (New Recruit); else PL; else the first the
    roster totals that is no command points (Kill Team's EP)."""
    names = [folded(cost.get("name", "")) for cost in root.iter(f"{NAMESPACE}cost")]
    totals = [folded(cost.get("name", "")) for cost in children(root, "cost")]
    for wanted in (POINTS_NAMES, POWER_NAMES):
        found = [name for name in wanted if name in names]
        if found:
            return found[0]
    return next((name for name in totals if name and name not in NOT_POINTS), None)


def cost_label(root: Element, cost_name: str | None) -> str | None:
    """The army's cost as the roster names it (PL, EP), to print beside its numbers; None for points, which the
    handout prints in its own language's word."""
    if cost_name is None or cost_name in POINTS_NAMES:
        return None
    return next(
        (
            cost.get("name", "").strip() or None
            for cost in root.iter(f"{NAMESPACE}cost")
            if folded(cost.get("name", "")) == cost_name
        ),
        None,
    )


def cost_of(element: Element, cost_name: str | None) -> float | None:
    """The element's own cost of that name (BattleScribe writes each selection's own, already times its number)."""
    for cost in children(element, "cost"):
        if cost_name is not None and folded(cost.get("name", "")) == cost_name:
            try:
                value = float(cost.get("value", ""))
            except ValueError:
                return None
            return value if math.isfinite(value) and 0 <= value < MAX_POINTS else None
    return None
