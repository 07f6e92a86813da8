"""A roster's units as BattleScribe means them, before anything is matched against a sheet.

A unit is a top-level selection of a force that carries or holds a model-like profile (whatever its type: many
catalogues write units and vehicles as upgrades), or that is typed unit or model; a selection typed unit nested in
another that holds a model-like profile of its own is a unit too (an Empire detachment), and a unit holding nothing
of its own but such units is left out for them (an Apocalypse squadron around its tanks). Models are counted from
`number` through the selections a unit holds. The stat line is the rank-and-file model's profile of a model-like
profile type: the one that stands for the most models, the unit's own before a mount's or a champion's."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from generator.reading.rosters.carriers import bearers, carriers
from generator.reading.rosters.costs import MAX_POINTS, army_cost_name, cost_label, cost_of, other_costs
from generator.reading.rosters.elements import (
    ModelLine,
    Profile,
    Rule,
    children_of,
    entry_name,
    holds_stat,
    number_of,
    own_stat,
    profile_key,
    profiles_of,
    rules_of,
    shown_name,
    stat_holders,
    topmost,
    unique,
    unique_rules,
    within,
)
from generator.reading.rosters.files import NAMESPACE, children
from generator.reading.rosters.models import model_count, model_lines, stat_line
from generator.reading.rosters.names import folded

__all__ = [
    "MAX_POINTS",
    "ModelLine",
    "Profile",
    "Rule",
    "ArmyChoice",
    "RosterEntry",
    "Roster",
    "SAVE_NAMES",
    "common_type",
    "model_types",
    "profile_types",
    "read_roster",
]

UNIT_TYPES = ("unit", "model")
# a profile type named so is never a model's stat line (a weapon's Strength is not the model's, nor are the boxes
# a MESBG hero's "Trackers" tick off for Might, Will and Fate)
NOT_A_MODEL = re.compile(
    r"weapon|abilit|wargear|spell|psychic|power|prayer|rule|armou?r|item|damage|wound track|"
    r"transport|keyword|equipment|upgrade|talisman|standard|magic|ranged|melee|attack|invocation|"
    r"trait|relic|enhancement|stratagem|tactic|mission|objective|ploy|lore|shield|explosion|tracker",
    re.IGNORECASE,
)


# the characteristics of the games' stat lines, folded: what makes a profile type model-like without a sheet
STAT_NAMES = {
    "m",
    "move",
    "movement",
    "ws",
    "bs",
    "s",
    "t",
    "w",
    "i",
    "a",
    "ld",
    "sv",
    "save",
    "oc",
    "apl",
    "ga",
    "df",
    "wounds",
    "bravery",
    "f",
    "d",
    "toughness",
    "strength",
    "attacks",
    "leadership",
    "initiative",
    "armoursave",
    "armour save",
    "ward save",
    "wardsave",
    "mr",
    "cl",
    "wp",
    "int",
    "control",
    "fight",
    "shoot",
    "courage",
    "might",
    "will",
    "fate",
    "hw",
    "hit",
    "wound",
    "ag",
    "bt",
    "sp",
    "inv",
}
SAVE_NAMES = {"sv", "save", "armoursave", "armour save", "armor save", "as"}


@dataclass
class ArmyChoice:
    """A choice made for the whole army (Battle Size, Detachment, Chapter, Hive Fleet): a top-level selection that
    is no unit, and what was chosen in it (its children's names), with the rules it brings."""

    name: str
    value: str
    rules: list[Rule] = field(default_factory=list)


@dataclass
class RosterEntry:
    """A unit of the roster, as the roster names its parts."""

    name: str  # what prints: its customName with the entry's name beside it, or the entry's name
    count: int
    points: float | None
    stat: Profile | None  # the rank-and-file model's stat line
    profiles: list[Profile] = field(default_factory=list)  # every other profile it carries or holds, in order
    gear: list[str] = field(default_factory=list)  # the names of the upgrades it holds, in order
    tabled: list[str] = field(default_factory=list)  # those of them carrying profiles: their weapons, a wound track
    rules: list[Rule] = field(default_factory=list)
    models: list[ModelLine] = field(default_factory=list)  # each distinct stat line, when there are several

    @property
    def save(self) -> str | None:
        """The save the roster itself gives the stat line (Sv 3+, Save 4+), if any."""
        for name, value in self.stat.values if self.stat else []:
            if folded(name) in SAVE_NAMES and value.strip() not in ("", "-"):
                return value.strip()
        return None


@dataclass
class Roster:
    game: str
    name: str
    points: float | None
    cost_name: str | None  # the name of the cost the points come from (pts, Point(s), PL), folded
    cost_label: str | None  # that name as the roster writes it (PL, EP), None for points: the sheet's word
    units: list[RosterEntry]
    army_rules: list[Rule]  # the forces' own rules, and those of selections that are not units (a detachment's)
    left_out: list[str]  # top-level selections that hold nothing a handout prints
    choices: list[ArmyChoice] = field(default_factory=list)  # the army's own choices (a battle size, a detachment)


def profile_types(root: Element) -> dict[str, list[str]]:
    """Each profile type of the roster with its characteristics' names, in the order first met."""
    found: dict[str, list[str]] = {}
    for profile in root.iter(f"{NAMESPACE}profile"):
        names = [item.get("name", "").strip() for item in children(profile, "characteristic")]
        kept = found.setdefault(profile.get("typeName", "").strip(), [])
        kept.extend(name for name in names if name not in kept)
    return found


def model_types(types: dict[str, list[str]], matches=None) -> set[str]:
    """The profile types that carry a model's characteristics: those whose characteristics the sheet's match
    (`matches` counts them), or, without a sheet, those named like no weapon or ability that carry at least three of
    the games' usual stat names."""
    found = set()
    for name, characteristics in types.items():
        if NOT_A_MODEL.search(name) and matches is None:
            continue
        if matches is not None:
            if matches(characteristics):
                found.add(name)
        elif sum(folded(item) in STAT_NAMES for item in characteristics) >= 3:
            found.add(name)
    return found


def read_roster(root: Element, stat_types: set[str]) -> Roster:
    units, army_rules, left_out, choices = [], [], [], []
    cost_name = army_cost_name(root)
    for force in root.iter(f"{NAMESPACE}force"):
        army_rules += rules_of(force)
        for selection in children(force, "selection"):
            if _is_warband(selection, stat_types):  # one unit: its hero and each group of warriors a line of it
                units.append(_entry(selection, [], stat_types, cost_name))
            elif selection.get("type") in UNIT_TYPES or holds_stat(selection, stat_types):
                found = _units_of(selection, stat_types, cost_name)
                if len(found) > 1 and _holds_nothing(found[0]):  # Apocalypse's Squadron around its tanks
                    left_out.append(found.pop(0).name)
                units += found
            elif (choice := _choice(selection, cost_name)) is not None:
                choices.append(choice)
                army_rules += choice.rules
            else:  # it costs points, or holds nothing to print
                holders = [selection, *within(selection)]
                held = [rule for holder in holders for rule in rules_of(holder)]
                if any(profiles_of(holder) for holder in holders):  # carries profiles, with no stat line: fielded
                    units.append(_entry(selection, [], stat_types, cost_name))
                elif held:
                    army_rules += held
                else:
                    left_out.append(shown_name(selection))
    return Roster(
        game=(root.get("gameSystemName") or "").strip(),
        name=(root.get("name") or "").strip(),
        points=cost_of(root, cost_name),
        cost_name=cost_name,
        cost_label=cost_label(root, cost_name),
        units=units,
        army_rules=unique_rules(army_rules),
        left_out=left_out,
        choices=choices,
    )


def _choice(selection: Element, cost_name: str | None) -> ArmyChoice | None:
    """A configuration selection (no unit, no stat line, no points of its own) as the army's choice: what was
    chosen in it, and its rules and profiles (a detachment's abilities) as rules. None for one that costs points
    (an upgrade fielded on its own) or that holds nothing at all (no child, rule or profile: nothing to print)."""
    held = within(selection)
    if any(cost_of(element, cost_name) for element in [selection, *held]):
        return None
    rules = [rule for holder in [selection, *held] for rule in rules_of(holder)]
    rules += [
        Rule(profile.name, " ".join(value for _, value in profile.values if value))
        for holder in [selection, *held]
        for profile in profiles_of(holder)
    ]
    value = ", ".join(
        unique(
            f"{number_of(child)} × {shown_name(child)}" if number_of(child) > 1 else shown_name(child)
            for child in children_of(selection)
        )
    ) or other_costs(selection, cost_name)
    if not value and not rules:
        return None
    # BSData's WHFB names it "- Army Size", the dash sorting it first in BattleScribe's list: not part of the name
    name = shown_name(selection)
    return ArmyChoice(name.lstrip("-\u2013\u2022 ") or name, value, unique_rules(rules))


def _is_warband(selection: Element, stat_types: set[str]) -> bool:
    """A warband (MESBG): a top-level upgrade with no stat line of its own holding stat lines of several profile types
    (a Hero, Warriors). It prints as one unit, as the game counts it (its models and points), each of its stat lines
    under its own name with its models: 1 Captain, 8 Warriors, 4 Rangers."""
    if selection.get("type") != "upgrade" or own_stat(selection, stat_types):
        return False
    holders = topmost([child for child in within(selection) if own_stat(child, stat_types)])
    return (
        len({profile.type for holder in holders for profile in profiles_of(holder) if profile.type in stat_types}) > 1
    )


def _units_of(selection: Element, stat_types: set[str], cost_name: str | None) -> list[RosterEntry]:
    """The unit, then the units nested in it (typed unit, holding a model-like profile of their own)."""
    holders = stat_holders(selection, stat_types)
    nested = topmost([child for child in within(selection) if child.get("type") == "unit" and id(child) in holders])
    found = [_entry(selection, nested, stat_types, cost_name)]
    for child in nested:
        found += _units_of(child, stat_types, cost_name)
    return found


def _holds_nothing(entry: RosterEntry) -> bool:
    """Whether a unit has nothing of its own to print beside the units it holds: no stat line, profile, rule,
    upgrade or points (an Apocalypse "Leman Russ Battle Tank Squadron", the slot its tanks are taken in), which
    would print as a row of dashes."""
    return not (entry.stat or entry.profiles or entry.rules or entry.gear or entry.points or entry.models)


def _entry(selection: Element, nested: list[Element], stat_types: set[str], cost_name: str | None) -> RosterEntry:
    held = within(selection, nested)
    count = model_count(selection, held, stat_types)
    stat = stat_line(selection, held, stat_types)
    models = model_lines(selection, held, stat_types)
    lines = {profile_key(line.profile) for line in models} | ({profile_key(stat)} if stat else set())
    profiles = _profiles(selection, held, stat_types, lines, count)
    costs = [points for points in (cost_of(element, cost_name) for element in [selection, *held]) if points is not None]
    holders = stat_holders(selection, stat_types)
    kit = [
        child
        for child in held
        if child.get("type") not in UNIT_TYPES and not own_stat(child, stat_types) and id(child) not in holders
    ]  # a warband's "Warband" holds its groups: no equipment
    gear = [shown_name(child) for child in kit]
    return RosterEntry(
        name=shown_name(selection),
        count=count,
        points=sum(costs) if costs else None,
        stat=stat,
        profiles=profiles,
        gear=unique(gear),
        tabled=unique(shown_name(child) for child in kit if profiles_of(child)),
        rules=unique_rules(rule for holder in [selection, *held] for rule in rules_of(holder)),
        models=models,
    )


def _profiles(selection: Element, held: list[Element], stat_types: set[str], lines: set, count: int) -> list[Profile]:
    """The unit's profiles but its stat lines (`lines`), each once, with what carries it: its models with their
    numbers (`carried_by`), and the one name that tells two of one name apart (`carrier`: the model that holds it,
    or the unit when several of its models do)."""
    models = bearers(selection, held, stat_types)

    def carrier(holder: Element) -> str:
        model = models[id(holder)]
        return _called(selection if model is None else model)

    found: dict[tuple, Profile] = {}
    holding: dict[tuple, list[Element | None]] = {}
    for holder in [selection, *held]:
        for profile in profiles_of(holder):
            if (key := profile_key(profile)) in lines:
                continue  # printed with the unit
            if (kept := found.setdefault(key, profile)) is profile:
                profile.carrier = carrier(holder)
            elif kept.carrier != carrier(holder):
                kept.carrier = _called(selection)
            holding.setdefault(key, []).append(models[id(holder)])
    for key, profile in found.items():
        profile.carried_by = carriers(holding[key], count, stat_types)
    return list(found.values())


def _called(element: Element) -> str:  # a Kill Team operative by the name its player gave it
    return (element.get("customName") or "").strip() or entry_name(element)


def common_type(entries: list[RosterEntry]) -> str | None:
    """The stat lines' most common profile type (Unit in 40k, Model in WHFB)."""
    counted = Counter(entry.stat.type for entry in entries if entry.stat)
    return counted.most_common(1)[0][0] if counted else None
