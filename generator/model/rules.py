"""Game logic the checks rely on: dice results, modifier values, and the classic lookup rules."""

from __future__ import annotations

import itertools
import re

_DIE = re.compile(r"^(\d*)D(\d+)$")
_ROLL = re.compile(r"^(?P<low>\d+)(?:(?P<plus>\+)|-(?P<high>\d+))?$")
_MODIFIER = r"^(?:[+\-−±]\d+(?:[.,]\d+)?[½¼]?|[+\-−±]?[½¼]|0|[x×]\d+|[x×][½¼]){unit}$"


def die_results(die: str) -> list[int]:
    """Every result a die expression can show: D6 → 1..6, 2D6 → 2..12, D66 → 11..66."""
    count, sides = _DIE.match(die).groups()
    if sides == "66" and not count:
        return [10 * tens + units for tens, units in itertools.product(range(1, 7), repeat=2)]
    count = int(count or 1)
    return list(range(count, count * int(sides) + 1))


def roll_results(roll: str, possible: list[int]) -> list[int]:
    """The results a row's roll covers: "7", "3-4", "10+", or several of them, "16, 21" or "11-15, 62";
    refuses what the die (or the lookup's range) cannot show."""
    covered: list[int] = []
    for part in roll.split(","):
        covered.extend(result for result in _part_results(part, roll, possible) if result not in covered)
    return covered


def _part_results(part: str, roll: str, possible: list[int]) -> list[int]:
    match = _ROLL.match(part.replace("–", "-").replace("~", "-").replace(" ", ""))
    if not match:
        raise ValueError(
            f"'{roll}' is not a roll: expected a result (7), a range (3-4), a minimum (10+), "
            "or several separated by commas (16, 21)"
        )
    low = int(match["low"])
    high = max(possible) if match["plus"] else int(match["high"] or low)
    if high < low:
        raise ValueError(f"'{roll}' runs backwards: write the lower result first")
    if low not in possible or high not in possible:
        raise ValueError(f"'{roll}' includes results the die cannot roll (it rolls {describe(possible)})")
    return [r for r in possible if low <= r <= high]


def range_results(declared: str, rolls: list[str]) -> list[int]:
    """The numbers a lookup covers: "1-40", or "1+" up to the highest number its rows name."""
    match = _ROLL.match(declared.replace("–", "-").replace(" ", ""))
    low = int(match["low"])
    if match["plus"]:
        named = [int(number) for roll in rolls for number in re.findall(r"\d+", roll)]
        return list(range(low, max([low, *named]) + 1))
    return list(range(low, int(match["high"] or low) + 1))


def reads_as_d66(rolls: list[str]) -> bool:
    """Every number of every roll is a D66 result (11-66, digits 1-6): the table is probably a D66 one."""
    numbers = [number for roll in rolls for number in re.findall(r"\d+", roll)]
    return bool(numbers) and all(len(number) == 2 and set(number) <= set("123456") for number in numbers)


def describe(results: list[int]) -> str:
    """Compact list of results: [2, 3, 4, 9] → '2-4, 9'."""
    runs: list[list[int]] = []
    for result in results:
        if runs and result == runs[-1][-1] + 1:
            runs[-1].append(result)
        else:
            runs.append([result])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def is_modifier(value: str, unit: str | None = None) -> bool:
    pattern = _MODIFIER.format(unit=f"(?:\\s?{re.escape(unit)})?" if unit else "")
    return re.match(pattern, value.strip()) is not None


def split_modifier(value: str, unit: str | None = None) -> tuple[str, str] | None:
    """A modifier's number and the words after it: "+2 & Quick Kill" → ("+2", "& Quick Kill"), "-1" → ("-1", "");
    None when it does not start with a modifier."""
    number, _, qualifier = value.strip().partition(" ")
    if unit and qualifier and is_modifier(f"{number} {qualifier.split(' ')[0]}", unit):  # "+1 u & more"
        unit_word, _, qualifier = qualifier.partition(" ")
        number = f"{number} {unit_word}"
    if not is_modifier(number, unit):
        return None
    return number, qualifier.strip()


def normalise_score(value: str) -> str:
    """'4+' and '4' are the same score; '−1' and '-1' the same number."""
    return value.strip().rstrip("+").replace("−", "-")


def matrix_value(rule: str, row: int, column: int) -> int | None:
    """The value a rule gives at (row, column); None where success is impossible."""
    return _RULES[rule](row, column)


def _to_wound(strength: int, toughness: int) -> int | None:
    """Strength against Toughness: 4+ when equal, one better or worse per point, 6+ up to T = S + 3."""
    difference = toughness - strength
    if difference >= 4:
        return None
    return min(6, max(2, 4 + difference))


def _to_hit_ws(attacker: int, defender: int) -> int:
    """Warhammer: 3+ against lower WS, 4+ up to twice the attacker's WS, 5+ beyond."""
    if attacker > defender:
        return 3
    return 4 if defender <= 2 * attacker else 5


def _to_hit_ws_wab(attacker: int, defender: int) -> int:
    """Warhammer Ancient Battles: 3+ against lower WS, 4+ up to +1, 5+ up to +3, 6+ beyond."""
    difference = defender - attacker
    if difference < 0:
        return 3
    return 4 if difference <= 1 else 5 if difference <= 3 else 6


def _bs_to_hit(_row: int, skill: int) -> int:
    """Ballistic Skill → D6 score needed: 7 − BS (scores above 6 use the 7+ table)."""
    return 7 - skill


_RULES = {
    "to-wound": _to_wound,
    "to-hit-ws": _to_hit_ws,
    "to-hit-ws-wab": _to_hit_ws_wab,
    "bs-to-hit": _bs_to_hit,
}
