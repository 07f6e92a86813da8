"""The parts of a roster's selections a handout reads, as plain data: a profile, a rule, a stat line with its
models; and the walks through a selection's XML they are read by (what it holds, its name, its number)."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from generator.reading.rosters.files import NAMESPACE, children
from generator.reading.rosters.names import folded


@dataclass
class Profile:
    type: str  # the roster's typeName: Unit, Model, Weapon, Abilities…
    name: str
    values: list[tuple[str, str]]  # (characteristic, value), as the roster writes them
    carrier: str = ""  # the model that carries it (of several, the unit): two weapons of one name told apart
    carried_by: list[Carrier] = field(default_factory=list)  # the models that carry it; none: every model of the unit


@dataclass(frozen=True)
class Carrier:
    """Models of a unit that carry a profile: their name and how many of them do (2 × Devastator Marine w/Heavy
    Weapon)."""

    name: str
    count: int


@dataclass
class Rule:
    name: str
    text: str


@dataclass
class ModelLine:
    """One stat line of a unit and how many of its models it stands for (None where the roster does not say)."""

    count: int | None
    profile: Profile


def topmost(found: list[Element]) -> list[Element]:
    """Those of the selections that no other of them holds."""
    inside = {id(element) for other in found for element in other.iter(f"{NAMESPACE}selection") if element is not other}
    return [child for child in found if id(child) not in inside]


def within(selection: Element, leaving: list[Element] = ()) -> list[Element]:
    """The selections a selection holds, however deep (Element.iter: no recursion), but those of `leaving`."""
    skipped = {id(element) for unit in leaving for element in unit.iter(f"{NAMESPACE}selection")}
    return [
        child
        for child in selection.iter(f"{NAMESPACE}selection")
        if child is not selection and id(child) not in skipped
    ]


def holds_stat(selection: Element, stat_types: set[str]) -> bool:
    return any(profile.get("typeName", "").strip() in stat_types for profile in selection.iter(f"{NAMESPACE}profile"))


def stat_holders(selection: Element, stat_types: set[str]) -> set[int]:
    """The ids of the selections in `selection` (itself too) that hold a stat profile however deep: holds_stat for
    each of them at once, in one walk up from each such profile, each selection marked once (holds_stat asked of
    every selection a deep roster nests walks its subtree again and again: 20,000 levels took 14 s)."""
    parent = {id(child): node for node in selection.iter() for child in node}
    holders: set[int] = set()
    for profile in selection.iter(f"{NAMESPACE}profile"):
        if profile.get("typeName", "").strip() not in stat_types:
            continue
        node = parent.get(id(profile))
        while node is not None and id(node) not in holders:
            if node.tag == f"{NAMESPACE}selection":
                holders.add(id(node))
            node = parent.get(id(node))
    return holders


def own_stat(selection: Element, stat_types: set[str]) -> bool:
    return any(profile.type in stat_types for profile in profiles_of(selection))


def profile_key(profile: Profile) -> tuple:
    return profile.type, profile.name, tuple(profile.values)


def children_of(selection: Element) -> list[Element]:
    return children(selection, "selection")


def entry_name(selection: Element) -> str:
    return (selection.get("name") or "").strip()


def shown_name(selection: Element) -> str:
    name = (selection.get("name") or "").strip()
    custom = (selection.get("customName") or "").strip()
    return f"{custom} ({name})" if custom and folded(custom) != folded(name) else name or custom


def number_of(selection: Element) -> int:
    try:
        return min(max(int(selection.get("number", "1")), 1), 100_000)
    except ValueError:
        return 1


def profiles_of(holder: Element) -> list[Profile]:
    found = []
    for profile in children(holder, "profile"):
        values = [
            (item.get("name", "").strip(), (item.text or "").strip()) for item in children(profile, "characteristic")
        ]
        found.append(Profile(profile.get("typeName", "").strip(), (profile.get("name") or "").strip(), values))
    return found


def rules_of(holder: Element) -> list[Rule]:
    found = []
    for rule in children(holder, "rule"):
        description = rule.find(f"{NAMESPACE}description")
        text = _lines((description.text or "") if description is not None else "")
        found.append(Rule((rule.get("name") or "").strip(), "" if text in (".", "-") else text))
    return found


def _lines(text: str) -> str:
    """A rule's text with its lines kept (a 40k rule's paragraphs and "- " or "■ " lists), their spacing made one."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.split())


def unique(names) -> list[str]:
    return list(dict.fromkeys(name for name in names if name))


def unique_rules(rules) -> list[Rule]:
    found: dict[str, Rule] = {}
    for rule in rules:
        if rule.name and (rule.name not in found or not found[rule.name].text):
            found[rule.name] = rule
    return list(found.values())
