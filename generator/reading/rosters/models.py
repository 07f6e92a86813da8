"""A unit's models as a player counts them: how many it fields, the rank-and-file model's stat line, and each
distinct stat line with the models it stands for (a squad's Sergeant, a war machine's crew, a WHFB champion)."""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from generator.reading.rosters.elements import (
    ModelLine,
    Profile,
    children_of,
    entry_name,
    number_of,
    own_stat,
    profile_key,
    profiles_of,
    topmost,
)
from generator.reading.rosters.names import folded, plain

COMMAND = re.compile(r"^(champion|musician|standard bearer|standard)\b")  # WHFB: one of the rank and file, promoted
WARGEAR = re.compile(r" (?:w|with) ")  # what a member's name says it carries: "… w heavy weapon" once folded


def model_lines(selection: Element, held: list[Element], stat_types: set[str]) -> list[ModelLine]:
    """Each distinct stat line of the unit with the models it stands for, when it has more than one (a squad's
    Sergeant and its Marines, a war machine and its crew, a character and his bodyguard) or its one line is named
    otherwise than the unit (5 Swordsmen, each an Empire Swordsman): a line on a member counts
    that member's number; a line on the unit itself, the members that stand for it (_named_as), else the unit's
    own number when it is the unit's only line. Identical lines (type, name and values) add up; same-named
    different ones stay apart: a player reads each model's own values."""
    lines: dict[tuple, ModelLine] = {}

    def add(profile: Profile, count: int | None) -> None:
        line = lines.setdefault(profile_key(profile), ModelLine(None, profile))
        if count is not None:
            line.count = min((line.count or 0) + count, 100_000)

    own = [profile for profile in profiles_of(selection) if profile.type in stat_types]
    members = [child for child in held if child.get("type") in ("model", "upgrade") and not own_stat(child, stat_types)]
    for profile in own:
        counted = [member for member in members if _named_as(member, own) is profile]
        add(profile, sum(map(number_of, counted)) if counted else number_of(selection) if len(own) == 1 else None)
    promoted = []
    for holder in held:
        for profile in (profile for profile in profiles_of(holder) if profile.type in stat_types):
            add(profile, members_of(holder, stat_types))
            if COMMAND.match(plain(entry_name(holder))):
                promoted.append((profile_key(profile), number_of(holder)))
    _promote(lines, promoted)
    if len(lines) == 1 and _names_unit(next(iter(lines.values())).profile, selection):
        return []  # its one line is the unit's own: it prints under the unit's name
    return list(lines.values())


def members_of(holder: Element, stat_types: set[str]) -> int:
    """The models a line on a member stands for: its own number, or, where its models are selections of their own
    without a line (a MESBG group of warriors: 8 Warriors under the Warrior of Minas Tirith), theirs."""
    models = [
        child for child in children_of(holder) if child.get("type") == "model" and not own_stat(child, stat_types)
    ]
    return sum(map(number_of, models)) if models else number_of(holder)


def _names_unit(profile: Profile, selection: Element) -> bool:
    """Whether a stat line is named as its unit, plurals aside, or begins the unit's name (a Kill Team "Trooper
    Veteran w/ lasgun"): a line named otherwise (an Empire detachment of Swordsmen, each an Empire Swordsman) prints
    under its own name."""
    unit, line = plain(entry_name(selection)), plain(profile.name)
    return not line or unit == line or unit.startswith(line + " ") or folded(unit) == folded(profile.name)


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
    name = plain(entry_name(member))
    found = [
        profile
        for profile in profiles
        if plain(profile.name) and (name == plain(profile.name) or name.startswith(plain(profile.name) + " "))
    ]
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


def stat_line(selection: Element, held: list[Element], stat_types: set[str]) -> Profile | None:
    """The rank-and-file model's profile: the unit's own (of its members', the one named as its largest group of
    models: a squad's Space Marine, not its Sergeant), else the one of the member named as the unit, else that of
    the largest group, the first of equals."""
    own = [profile for profile in profiles_of(selection) if profile.type in stat_types]
    if own:
        models = sorted((child for child in held if child.get("type") == "model"), key=number_of, reverse=True)
        for model in models:
            named = _named_as(model, own)
            if named is not None:
                return named
        return own[0]
    holders = [(holder, profile) for holder in held for profile in profiles_of(holder) if profile.type in stat_types]
    if not holders:
        return None
    for holder, profile in holders:
        if plain(entry_name(holder)) == plain(entry_name(selection)):
            return profile
    return max(holders, key=lambda pair: number_of(pair[0]))[1]


def typed_models(selection: Element, held: list[Element]) -> list[Element]:
    """The selections typed model it holds (the topmost), with the members written as upgrades named as one of them
    (8th edition's Space Marine w/Special Weapon beside its Space Marines)."""
    models = topmost([child for child in held if child.get("type") == "model"])
    names = {plain(entry_name(model)) for model in models}
    members = [
        child
        for child in children_of(selection)
        if child.get("type") == "upgrade" and any(plain(entry_name(child)).startswith(name + " ") for name in names)
    ]
    return models + members if models else []


def model_count(selection: Element, held: list[Element], stat_types: set[str]) -> int:
    """Its models: those typed model it holds (with the members written as upgrades named as one of them: a Space
    Marine w/Special Weapon), else those that carry a stat line besides its own (squad members and a war machine's
    crew written as upgrades; a WHFB champion is one of the rank and file), else its own number."""
    models = typed_models(selection, held)
    if models:
        return min(sum(map(number_of, models)), 100_000)
    members = topmost([child for child in held if own_stat(child, stat_types)])
    if members:
        ranks = [member for member in members if not COMMAND.match(plain(entry_name(member)))] or members
        own = number_of(selection) if own_stat(selection, stat_types) else 0
        return min(own + sum(map(number_of, ranks)), 100_000)
    return number_of(selection)
