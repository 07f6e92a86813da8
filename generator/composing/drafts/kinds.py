"""What a cell reads as: a roll ("1-2", "7-12", "11~15", "10+", "16, 21"), a die ("2D6"), a signed modifier
("+1", "-2u", "- 1"), a whole number (a matrix key). Each test takes the cell's markup and looks at its plain text."""

from __future__ import annotations

import re

from generator.model import rules
from generator.model.types import DiceResult, roll_findings
from generator.reading.documents.document import ROLL_PART as _ROLL_PART
from generator.reading.documents.document import is_roll, plain  # noqa: F401 (is_roll: a cell's kind, asked here)

DIE = re.compile(r"(?<![A-Za-z0-9])(\d{0,2})[Dd](\d{1,3})(?![A-Za-z0-9])")
_INTEGER = re.compile(r"^[-−–]?\d{1,3}$")
_VALUE_AND_UNIT = re.compile(r"^([+\-−±]?\s?(?:\d+(?:[.,]\d+)?[½¼]?|[½¼])|[x×]\d+)\s?([^\d\s].{0,5})?$")
_LEADING_ROLL = re.compile(rf"^\s*({_ROLL_PART}(?:\s*,\s*{_ROLL_PART})*)\s+(\S.*)$", re.S)
_LEADING_MODIFIER = re.compile(r"^\s*([+\-−±]\s?\d+(?:[.,]\d+)?[½¼]?[a-zA-Z\"]{0,2})\s+(\S.*)$", re.S)
_OR_LESS = r"\s+ou\s+(?:[-–]|moins)"  # "2 ou -", "2 ou moins"
_OPEN_BELOW = re.compile(_OR_LESS + "$")
_FRENCH_ROLL = (
    (re.compile(r"\b[Dd]e\s+(?=\d)"), ""),  # "de 2 à 6"
    (re.compile(r"(?<=\d)\s+à\s+(?=\d)"), "-"),
    (re.compile(r"\s+(?:ou|et)\s+(?:\+|plus)"), "+"),
    (re.compile(_OR_LESS), ""),
)
COMMON_DICE = ("D6", "2D6", "D3", "D66", "3D6", "D8", "D10", "D12", "D20", "2D3", "D4", "D100")


def roll_text(cell: str) -> str:
    """A roll as the model writes it: "3 - 4" is "3-4", "11~15" stays (the model reads ~ as a dash); the French
    "de 2 à 6" is "2-6", "12 ou +" is "12+", "2 ou -" is "2" (the model's rolls have no open lower end: from_lowest)."""
    text = plain(cell).replace("–", "-")
    for french, written in _FRENCH_ROLL:
        text = french.sub(written, text)
    return re.sub(r"\s*-\s*", "-", re.sub(r"\s*\+", "+", text))


def opens_below(cell: str) -> bool:
    """A roll of its number or less: "2 ou -", "2 ou moins" (what a modifier takes under the die's lowest result)."""
    return bool(_OPEN_BELOW.search(plain(cell)))


def from_lowest(roll: str, die: str) -> str:
    """The roll "2" of "2 ou moins" from the die's lowest result: 1-2 of a D6, 2 of a 2D6."""
    lowest = rules.die_results(die)[0]
    return f"{lowest}-{roll}" if roll.isdigit() and int(roll) > lowest else roll


def is_integer(cell: str) -> bool:
    return bool(_INTEGER.match(plain(cell)))


def die_named(text: str) -> str | None:
    """The die a header names: "Résultat (2D6)" → 2D6, "D6" → D6."""
    match = DIE.search(plain(text))
    if not match:
        return None
    count, sides = match.groups()
    return f"{'' if count in ('', '1') else count}D{sides}"


def modifier_value(cell: str) -> str:
    """A modifier as typed, its detached sign joined: "- 1" → "-1", "+ 2u" → "+2u"."""
    return re.sub(r"^([+\-−±])\s+", r"\1", plain(cell).strip())


def modifier_unit(cells: list[str]) -> str | None | bool:
    """The unit every value carries (u, ps, \"), None when none does; False when these are not all modifiers. Values
    with words after their number ("+2 & Quick Kill") are modifiers beside at least one bare value ("+1")."""
    values = [modifier_value(cell) for cell in cells]
    unit = _shared_unit(values)
    if unit is not False and all(rules.is_modifier(value, unit) for value in values):
        return unit
    parts = [rules.split_modifier(value) for value in values]
    if all(parts) and any(not qualifier for _, qualifier in parts):
        return None
    return False


def _shared_unit(values: list[str]) -> str | None | bool:
    units = set()
    for value in values:
        match = _VALUE_AND_UNIT.match(value)
        if not match:
            return False
        units.add((match.group(2) or "").strip())
    units.discard("")
    return False if len(units) > 1 else units.pop() if units else None


def leading_roll(text: str) -> tuple[str, str] | None:
    """A line that opens with a roll: "3-4 Le sorcier…" → ("3-4", "Le sorcier…")."""
    match = _LEADING_ROLL.match(plain(text))
    if not match:
        return None
    return roll_text(match.group(1)), strip_prefix(text, match.group(1))


def leading_modifier(text: str) -> tuple[str, str] | None:
    """A line that opens with a signed value: "+1 Tir sur une grande cible" → ("+1", "Tir sur…")."""
    match = _LEADING_MODIFIER.match(plain(text))
    if not match:
        return None
    return modifier_value(match.group(1)), strip_prefix(text, match.group(1))


def strip_prefix(markup: str, prefix: str) -> str:
    """The markup after its opening plain `prefix` (which holds no markup characters)."""
    stripped = markup.lstrip()
    if stripped.startswith(prefix):
        return stripped[len(prefix) :].strip()
    return plain(markup)[len(prefix) :].strip()  # the prefix crossed a mark: the rest as plain text


def coverage(die: str | None, range_: str | None, rolls: list[str]) -> list[str]:
    """What the rolls lack or double for this die (or lookup range): the model's own check's words."""
    results = [DiceResult(roll=roll) for roll in rolls]
    try:
        possible = rules.die_results(die) if die else rules.range_results(range_, rolls)
    except (ValueError, AttributeError):
        return ["unreadable"]
    if len(possible) > 1000:
        return ["too many results"]
    return [message for _, message in roll_findings(possible, results, die or f"the range {range_}")]


def percentile(rolls: list[str]) -> list[str] | None:
    """Rolls of percentile dice as rulebooks key them, "01-05" … "96-00" or "00" alone, the 00 being 100: the rolls
    with 100 for it ("96-100", "100"); None unless the rolls name 00 and every other number is under 100 and written
    with two digits (a "00" among one-digit keys is no percentile roll)."""
    numbers = [number for roll in rolls for number in re.findall(r"\d+", roll)]
    if "00" not in numbers or any(len(number) != 2 for number in numbers):
        return None
    return [re.sub(r"(?<!\d)00(?!\d)", "100", roll) for roll in rolls]


def roll_bounds(rolls: list[str]) -> tuple[int, int, bool]:
    """The lowest and highest number the rolls name, and whether the last is open (10+)."""
    numbers = [int(number) for roll in rolls for number in re.findall(r"\d+", roll)]
    return min(numbers), max(numbers), rolls[-1].replace(" ", "").endswith("+")


def infer_die(rolls: list[str], named: str | None) -> tuple[str | None, str | None, str, bool]:
    """(die, range, why, confident): the die the header names if the rolls cover it exactly, else the common die
    they cover exactly, else a lookup over the numbers they name; (None, None, why, False) when nothing fits."""
    if named and not coverage(named, None, rolls):
        return named, None, f"the header names {named} and the rolls cover it exactly once", True
    tried = f"; {named} would not fit: {coverage(named, None, rolls)[0]}" if named else ""
    for die in COMMON_DICE:
        if not coverage(die, None, rolls):
            return die, None, f"the rolls cover {die} exactly once{tried}", not named
    low, high, open_ended = roll_bounds(rolls)
    lookup = f"{low}+" if open_ended else f"{low}-{high}"
    if high - low < 1000 and not coverage(None, lookup, rolls):
        return None, lookup, f"no die fits; the rolls cover {lookup} exactly once, as a lookup{tried}", False
    problems = coverage(named, None, rolls) if named else coverage(None, lookup, rolls)
    return None, None, f"the rolls do not cover a die: {problems[0] if problems else 'unreadable'}", False
