"""A roster's units as BattleScribe means them, before anything is matched against a sheet.

A unit is a top-level selection of a force that carries or holds a model-like profile (whatever its type: many
catalogues write units and vehicles as upgrades), or that is typed unit or model; a selection typed unit nested in
another that holds a model-like profile of its own is a unit too (an Empire detachment). Models are counted from
`number` through the selections a unit holds. The stat line is the rank-and-file model's profile of a model-like
profile type: the one that stands for the most models, the unit's own before a mount's or a champion's."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from generator.reading.rosters.names import folded, plain
from generator.reading.rosters.files import NAMESPACE, children

UNIT_TYPES = ("unit", "model")
MAX_POINTS = 1_000_000  # what the handout's points field holds
POINTS_NAMES = ("pts", "points", "point s", "point", "pt", "pts.")  # folded: pts, Points, Point(s) (New Recruit)
POWER_NAMES = ("pl", "power", "power level")
NOT_POINTS = ("cp", "command points", "warriors")  # costs that are not the army's points (MESBG counts warriors)
COMMAND = re.compile(r"^(champion|musician|standard bearer|standard)\b")  # WHFB: one of the rank and file, promoted
# a profile type named so is never a model's stat line (a weapon's Strength is not the model's)
NOT_A_MODEL = re.compile(r"weapon|abilit|wargear|spell|psychic|power|prayer|rule|armou?r|item|damage|wound track|"
                         r"transport|keyword|equipment|upgrade|talisman|standard|magic|ranged|melee|attack|invocation|"
                         r"trait|relic|enhancement|stratagem|tactic|mission|objective|ploy|lore|shield|explosion",
                         re.IGNORECASE)
# the characteristics of the games' stat lines, folded: what makes a profile type model-like without a sheet
STAT_NAMES = {"m", "move", "movement", "ws", "bs", "s", "t", "w", "i", "a", "ld", "sv", "save", "oc", "apl", "ga",
              "df", "wounds", "bravery", "f", "d", "toughness", "strength", "attacks", "leadership", "initiative",
              "armoursave", "armour save", "ward save", "wardsave", "mr", "cl", "wp", "int", "control", "fight",
              "shoot", "courage", "might", "will", "fate", "hw", "hit", "wound", "ag", "bt", "sp", "inv"}
WARGEAR = re.compile(r" (?:w|with) ")  # what a member's name says it carries: "… w heavy weapon" once folded
SAVE_NAMES = {"sv", "save", "armoursave", "armour save", "armor save", "as"}


@dataclass
class Profile:
    type: str  # the roster's typeName: Unit, Model, Weapon, Abilities…
    name: str
    values: list[tuple[str, str]]  # (characteristic, value), as the roster writes them
    carrier: str = ""  # the model that carries it (of several, the unit): two weapons of one name told apart


@dataclass
class Rule:
    name: str
    text: str


@dataclass
class ModelLine:
    """One stat line of a unit and how many of its models it stands for (None where the roster does not say)."""

    count: int | None
    profile: Profile


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
    cost_name = _cost_name(root)
    for force in root.iter(f"{NAMESPACE}force"):
        army_rules += _rules(force)
        for selection in children(force, "selection"):
            groups = _groups(selection, stat_types)
            if groups:  # a warband: its hero and each of its groups of warriors are units
                for group in groups:
                    units += _units_of(group, stat_types, cost_name)
            elif selection.get("type") in UNIT_TYPES or _holds_stat(selection, stat_types):
                units += _units_of(selection, stat_types, cost_name)
            elif (choice := _choice(selection, cost_name)) is not None:
                choices.append(choice)
                army_rules += choice.rules
            else:  # it costs points, or holds nothing to print
                holders = [selection, *_within(selection)]
                held = [rule for holder in holders for rule in _rules(holder)]
                if any(_profiles(holder) for holder in holders):  # carries profiles, with no stat line: fielded
                    units.append(_entry(selection, [], stat_types, cost_name))
                elif held:
                    army_rules += held
                else:
                    left_out.append(_name(selection))
    return Roster(game=(root.get("gameSystemName") or "").strip(), name=(root.get("name") or "").strip(),
                  points=_cost(root, cost_name), cost_name=cost_name, cost_label=_cost_label(root, cost_name), units=units,
                  army_rules=_unique_rules(army_rules), left_out=left_out, choices=choices)


def _choice(selection: Element, cost_name: str | None) -> ArmyChoice | None:
    """A configuration selection (no unit, no stat line, no points of its own) as the army's choice: what was
    chosen in it, and its rules and profiles (a detachment's abilities) as rules. None for one that costs points
    (an upgrade fielded on its own) or that holds nothing at all (no child, rule or profile: nothing to print)."""
    held = _within(selection)
    if any(_cost(element, cost_name) for element in [selection, *held]):
        return None
    rules = [rule for holder in [selection, *held] for rule in _rules(holder)]
    rules += [Rule(profile.name, " ".join(value for _, value in profile.values if value))
              for holder in [selection, *held] for profile in _profiles(holder)]
    value = ", ".join(_unique(f"{_number(child)} × {_name(child)}" if _number(child) > 1 else _name(child)
                              for child in _children_of(selection))) or _other_costs(selection, cost_name)
    if not value and not rules:
        return None
    # BSData's WHFB names it "- Army Size", the dash sorting it first in BattleScribe's list: not part of the name
    return ArmyChoice(_name(selection).lstrip("-\u2013\u2022 ") or _name(selection), value, _unique_rules(rules))


def _groups(selection: Element, stat_types: set[str]) -> list[Element]:
    """The groups of a warband (MESBG): a top-level upgrade with no stat line of its own holding stat lines of several
    profile types (a Hero, Warriors), each the topmost of its branch. None for anything else."""
    if selection.get("type") != "upgrade" or _own_stat(selection, stat_types):
        return []
    holders = _topmost([child for child in _within(selection) if _own_stat(child, stat_types)])
    kinds = {profile.type for holder in holders for profile in _profiles(holder) if profile.type in stat_types}
    return holders if len(kinds) > 1 else []


def _units_of(selection: Element, stat_types: set[str], cost_name: str | None) -> list[RosterEntry]:
    """The unit, then the units nested in it (typed unit, holding a model-like profile of their own)."""
    nested = _topmost([child for child in _within(selection)
                       if child.get("type") == "unit" and _holds_stat(child, stat_types)])
    found = [_entry(selection, nested, stat_types, cost_name)]
    for child in nested:
        found += _units_of(child, stat_types, cost_name)
    return found


def _topmost(found: list[Element]) -> list[Element]:
    """Those of the selections that no other of them holds."""
    inside = {id(element) for other in found for element in other.iter(f"{NAMESPACE}selection") if element is not other}
    return [child for child in found if id(child) not in inside]


def _within(selection: Element, leaving: list[Element] = ()) -> list[Element]:
    """The selections a selection holds, however deep (Element.iter: no recursion), but those of `leaving`."""
    skipped = {id(element) for unit in leaving for element in unit.iter(f"{NAMESPACE}selection")}
    return [child for child in selection.iter(f"{NAMESPACE}selection")
            if child is not selection and id(child) not in skipped]


def _holds_stat(selection: Element, stat_types: set[str]) -> bool:
    return any(profile.get("typeName", "").strip() in stat_types for profile in selection.iter(f"{NAMESPACE}profile"))


def _own_stat(selection: Element, stat_types: set[str]) -> bool:
    return any(profile.type in stat_types for profile in _profiles(selection))


def _entry(selection: Element, nested: list[Element], stat_types: set[str], cost_name: str | None) -> RosterEntry:
    held = _within(selection, nested)
    carriers = _carriers(selection, held, stat_types)
    count = _count(selection, held, stat_types)
    stat = _stat_line(selection, held, stat_types)
    models = _model_lines(selection, held, stat_types)
    profiles, seen = [], {_key(line.profile): None for line in models} | ({_key(stat): None} if stat else {})
    for holder in [selection, *held]:
        for profile in _profiles(holder):
            if _key(profile) not in seen:
                seen[_key(profile)] = profile
                profile.carrier = carriers[id(holder)]
                profiles.append(profile)
            elif (kept := seen[_key(profile)]) is not None and kept.carrier != carriers[id(holder)]:
                kept.carrier = carriers[id(selection)]  # carried by several of its models: the unit's
    costs = [points for points in (_cost(element, cost_name) for element in [selection, *held]) if points is not None]
    kit = [child for child in held if child.get("type") not in UNIT_TYPES and not _own_stat(child, stat_types)]
    gear = [_name(child) for child in kit]
    return RosterEntry(
        name=_name(selection), count=count, points=sum(costs) if costs else None, stat=stat, profiles=profiles,
        gear=_unique(gear), tabled=_unique(_name(child) for child in kit if _profiles(child)),
        rules=_unique_rules(rule for holder in [selection, *held] for rule in _rules(holder)),
        models=models)


def _carriers(selection: Element, held: list[Element], stat_types: set[str]) -> dict[int, str]:
    """The name of what carries each selection's profiles: the nearest model that holds it (itself, a selection
    typed model or with a stat line of its own: the Silent King's Menhirs, a squad's Sergeant), else the unit."""
    def called(element: Element) -> str:  # a Kill Team operative by the name its player gave it
        return (element.get("customName") or "").strip() or _entry_name(element)

    found = {id(selection): called(selection)}
    for parent in [selection, *held]:  # in document order: a parent before what it holds
        for child in _children_of(parent):
            model = child.get("type") == "model" or _own_stat(child, stat_types)
            found[id(child)] = called(child) if model else found.get(id(parent), called(selection))
    return found


def _key(profile: Profile) -> tuple:
    return profile.type, profile.name, tuple(profile.values)


def _model_lines(selection: Element, held: list[Element], stat_types: set[str]) -> list[ModelLine]:
    """Each distinct stat line of the unit with the models it stands for, when it has more than one (a squad's
    Sergeant and its Marines, a war machine and its crew, a character and his bodyguard): a line on a member counts
    that member's number; a line on the unit itself, the members that stand for it (_named_as), else the unit's
    own number when it is the unit's only line. Identical lines (type, name and values) add up; same-named
    different ones stay apart: a player reads each model's own values."""
    lines: dict[tuple, ModelLine] = {}

    def add(profile: Profile, count: int | None) -> None:
        line = lines.setdefault(_key(profile), ModelLine(None, profile))
        if count is not None:
            line.count = min((line.count or 0) + count, 100_000)

    own = [profile for profile in _profiles(selection) if profile.type in stat_types]
    members = [child for child in held if child.get("type") in ("model", "upgrade") and not _own_stat(child, stat_types)]
    for profile in own:
        counted = [member for member in members if _named_as(member, own) is profile]
        add(profile, sum(map(_number, counted)) if counted else _number(selection) if len(own) == 1 else None)
    promoted = []
    for holder in held:
        for profile in (profile for profile in _profiles(holder) if profile.type in stat_types):
            add(profile, _number(holder))
            if COMMAND.match(plain(_entry_name(holder))):
                promoted.append((_key(profile), _number(holder)))
    _promote(lines, promoted)
    return list(lines.values()) if len(lines) > 1 else []


def _promote(lines: dict[tuple, ModelLine], promoted: list[tuple[tuple, int]]) -> None:
    """WHFB's champions are each one of the rank and file, promoted: the Veteran of 20 Dwarf Warriors leaves 19."""
    ranks = [line for key, line in lines.items() if key not in dict(promoted) and line.count]
    if ranks and promoted:
        largest = max(ranks, key=lambda line: line.count)
        largest.count = max(largest.count - sum(number for _, number in promoted), 1)


def _named_as(member: Element, profiles: list[Profile]) -> Profile | None:
    """The profile a member without one of its own stands for: the one named as it, else the longest whose name
    begins its name (a word boundary after it), else the one whose name ends in the most of the same words, its
    wargear aside (9th edition's Devastator Marine w/Heavy Weapon is its Space Marine, the Devastator Marine
    Sergeant its Space Marine Sergeant)."""
    name = plain(_entry_name(member))
    found = [profile for profile in profiles
             if plain(profile.name) and (name == plain(profile.name) or name.startswith(plain(profile.name) + " "))]
    if found:
        return max(found, key=lambda profile: (name == plain(profile.name), len(plain(profile.name))))
    if member.get("type") != "model":
        return None  # an upgrade (a weapon, a grenade) stands for a line only by its name
    words = WARGEAR.split(name)[0].split()
    shared = {id(profile): _shared_ending(words, plain(profile.name).split()) for profile in profiles}
    best = max(shared.values(), default=0)
    matching = [profile for profile in profiles if shared[id(profile)] == best]
    return matching[0] if best and len(matching) == 1 else None


def _shared_ending(words: list[str], others: list[str]) -> int:
    count = 0
    while count < min(len(words), len(others)) and words[-1 - count] == others[-1 - count]:
        count += 1
    return count


def _stat_line(selection: Element, held: list[Element], stat_types: set[str]) -> Profile | None:
    """The rank-and-file model's profile: the unit's own (of its members', the one named as its largest group of
    models: a squad's Space Marine, not its Sergeant), else the one of the member named as the unit, else that of
    the largest group, the first of equals."""
    own = [profile for profile in _profiles(selection) if profile.type in stat_types]
    if own:
        models = sorted((child for child in held if child.get("type") == "model"), key=_number, reverse=True)
        for model in models:
            named = _named_as(model, own)
            if named is not None:
                return named
        return own[0]
    holders = [(holder, profile) for holder in held for profile in _profiles(holder) if profile.type in stat_types]
    if not holders:
        return None
    for holder, profile in holders:
        if plain(_entry_name(holder)) == plain(_entry_name(selection)):
            return profile
    return max(holders, key=lambda pair: _number(pair[0]))[1]


def _count(selection: Element, held: list[Element], stat_types: set[str]) -> int:
    """Its models: those typed model it holds (with the members written as upgrades named as one of them: a Space
    Marine w/Special Weapon), else those that carry a stat line besides its own (squad members and a war machine's
    crew written as upgrades; a WHFB champion is one of the rank and file), else its own number."""
    models = _topmost([child for child in held if child.get("type") == "model"])
    if models:
        names = {plain(_entry_name(model)) for model in models}
        members = [child for child in held if child.get("type") == "upgrade" and child in _children_of(selection)
                   and any(plain(_entry_name(child)).startswith(name + " ") for name in names)]
        return min(sum(map(_number, models + members)), 100_000)
    members = _topmost([child for child in held if _own_stat(child, stat_types)])
    if members:
        ranks = [member for member in members if not COMMAND.match(plain(_entry_name(member)))] or members
        own = _number(selection) if _own_stat(selection, stat_types) else 0
        return min(own + sum(map(_number, ranks)), 100_000)
    return _number(selection)


def _children_of(selection: Element) -> list[Element]:
    return children(selection, "selection")


def _entry_name(selection: Element) -> str:
    return (selection.get("name") or "").strip()


def _name(selection: Element) -> str:
    name = (selection.get("name") or "").strip()
    custom = (selection.get("customName") or "").strip()
    return f"{custom} ({name})" if custom and folded(custom) != folded(name) else name or custom


def _number(selection: Element) -> int:
    try:
        return min(max(int(selection.get("number", "1")), 1), 100_000)
    except ValueError:
        return 1


def _profiles(holder: Element) -> list[Profile]:
    found = []
    for profile in children(holder, "profile"):
        values = [(item.get("name", "").strip(), (item.text or "").strip()) for item in children(profile, "characteristic")]
        found.append(Profile(profile.get("typeName", "").strip(), (profile.get("name") or "").strip(), values))
    return found


def _rules(holder: Element) -> list[Rule]:
    found = []
    for rule in children(holder, "rule"):
        description = rule.find(f"{NAMESPACE}description")
        text = _lines((description.text or "") if description is not None else "")
        found.append(Rule((rule.get("name") or "").strip(), "" if text in (".", "-") else text))
    return found


def _lines(text: str) -> str:
    """A rule's text with its lines kept (a 40k rule's paragraphs and "- " or "■ " lists), their spacing made one."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.split())


def _other_costs(selection: Element, cost_name: str | None) -> str:
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


def _cost_name(root: Element) -> str | None:
    """The cost the army is counted in, folded: pts, points or Point(s) (New Recruit); else PL; else the first the
    roster totals that is no command points (Kill Team's EP)."""
    names = [folded(cost.get("name", "")) for cost in root.iter(f"{NAMESPACE}cost")]
    totals = [folded(cost.get("name", "")) for cost in children(root, "cost")]
    for wanted in (POINTS_NAMES, POWER_NAMES):
        found = [name for name in wanted if name in names]
        if found:
            return found[0]
    return next((name for name in totals if name and name not in NOT_POINTS), None)


def _cost_label(root: Element, cost_name: str | None) -> str | None:
    """The army's cost as the roster names it (PL, EP), to print beside its numbers; None for points, which the
    handout prints in its own language's word."""
    if cost_name is None or cost_name in POINTS_NAMES:
        return None
    return next((cost.get("name", "").strip() or None for cost in root.iter(f"{NAMESPACE}cost")
                 if folded(cost.get("name", "")) == cost_name), None)


def _cost(element: Element, cost_name: str | None) -> float | None:
    """The element's own cost of that name (BattleScribe writes each selection's own, already times its number)."""
    for cost in children(element, "cost"):
        if cost_name is not None and folded(cost.get("name", "")) == cost_name:
            try:
                value = float(cost.get("value", ""))
            except ValueError:
                return None
            return value if math.isfinite(value) and 0 <= value < MAX_POINTS else None
    return None


def _unique(names) -> list[str]:
    return list(dict.fromkeys(name for name in names if name))


def _unique_rules(rules) -> list[Rule]:
    found: dict[str, Rule] = {}
    for rule in rules:
        if rule.name and (rule.name not in found or not found[rule.name].text):
            found[rule.name] = rule
    return list(found.values())


def common_type(entries: list[RosterEntry]) -> str | None:
    """The stat lines' most common profile type (Unit in 40k, Model in WHFB)."""
    counted = Counter(entry.stat.type for entry in entries if entry.stat)
    return counted.most_common(1)[0][0] if counted else None
