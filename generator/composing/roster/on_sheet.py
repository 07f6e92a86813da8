"""A roster's units drawn on a sheet: each stat line in the sheet's characteristics, its upgrades and profiles
matched to the sheet's weapon rows, saves items and keywords, what matches nothing printed as the roster writes it
and reported once, grouped. A save the sheet cannot derive (armour it does not know, such as gromril) is the
roster's own save characteristic, or "?" with a footnote naming what was not understood."""

from __future__ import annotations

import re

from generator.composing.handout import saves_block
from generator.composing.roster.making import Maker, choices, clean, model_entry, slug, unit_base
from generator.composing.roster.names import SheetNames, folded, plain
from generator.composing.roster.text import MAX_VALUE, Report, Text
from generator.model.types import Sheet
from generator.reading.rosters.selections import SAVE_NAMES, Profile, Roster, RosterEntry, Rule

ARMOUR_LIKE = re.compile(r"armou?r|shield|mail|plate|barding|carapace|bouclier|armure", re.IGNORECASE)


def with_sheet(
    roster: Roster, sheet: Sheet, names: SheetNames, handout_id: str, army: str, languages: list[str], report: Report
) -> dict:
    maker = Maker(roster, report)
    units, unit_ids = [], set()
    sheet_keywords = {keyword.id for keyword in sheet.keywords}
    for entry in roster.units:
        units.append(_unit(entry, slug(entry.name, unit_ids), sheet, names, maker, report, sheet_keywords))

    def rule_id(rule: Rule) -> str:
        return names.keywords.find(rule.name) or maker.keyword(rule, "army", sheet_keywords)

    data = maker.handout(
        handout_id,
        army,
        units,
        {"sheet": sheet.sheet, "lang": sheet.lang, "languages": languages, "choices": choices(roster, maker, rule_id)},
    )
    data["exclude"] = []  # every section of the sheet: the handout is the army's reference, edited down at will
    return data


def _unit(
    entry: RosterEntry,
    unit_id: str,
    sheet: Sheet,
    names: SheetNames,
    maker: Maker,
    report: Report,
    sheet_keywords: set[str],
) -> dict:
    unit = unit_base(entry, unit_id, maker)
    weapons, armour, kept, rules, own_rules, unknown_armour, profiles, bare = [], [], [], [], [], [], [], []
    held = [(name, None) for name in entry.gear] + [(profile.name, profile) for profile in entry.profiles]
    for name, profile in held:
        if not name:
            continue
        if (ident := names.keywords.find(name)) is not None:  # a skill, or an upgrade that gives a rule
            rules.append(ident)
        elif (ident := names.weapons.find(name)) is not None:
            weapons.append(ident)
        elif (ident := names.armour.find(name)) is not None:
            armour.append(ident)
            if profile is None:
                bare.append(name)  # armour the roster names without a profile: its save is the sheet's to give
        else:
            if profile is None or not profile.values:
                kept.append(name)
            if ARMOUR_LIKE.search(name) or (profile is not None and ARMOUR_LIKE.search(profile.type)):
                unknown_armour.append(name)
            report.add(
                entry.name,
                "equipment",
                name,
                "no row of the sheet's tables, nor item of its saves table, by id, name or alias: printed as written",
            )
            continue
    for rule in [*entry.rules, *maker.roster.army_rules]:
        if (ident := names.keywords.find(rule.name)) is not None:
            rules.append(ident)
        elif rule.text:
            own_rules_id = maker.keyword(rule, entry.name, sheet_keywords)
            rules.append(own_rules_id)
            report.add(
                entry.name,
                "rule",
                rule.name,
                "no keyword of the sheet, by id, term or original term: printed with the roster's text",
            )
        else:
            own_rules.append(rule.name)
            report.add(
                entry.name,
                "rule",
                rule.name,
                "no keyword of the sheet, by id, term or original term: printed as written",
            )
    unit["profile"], others = _sheet_profile(entry.stat, entry.name, sheet, names, report)
    unit["models"] = [
        model_entry(
            maker,
            line,
            entry.name,
            _sheet_profile(line.profile, entry.name, sheet, names, report)[0],
            len(entry.models),
        )
        for line in entry.models
    ]
    own_rules += others
    profiles += [profile for profile in entry.profiles if profile.values]  # those matched too: the roster's values
    unit["profiles"] = [maker.profile(profile, entry.name) for profile in profiles]
    unit["weapons"] = list(dict.fromkeys(weapons))
    unit["armour"] = _wearable(list(dict.fromkeys(armour)), sheet)
    unit["equipment"] = ", ".join(maker.text(name, 200, entry.name) for name in dict.fromkeys(kept)) or None
    unit["rules"] = list(dict.fromkeys(rules))
    unit["other_rules"] = ", ".join(maker.text(name, 200, entry.name) for name in dict.fromkeys(own_rules)) or None
    save = entry.save
    if save:
        unit["save"] = maker.text(save, MAX_VALUE, entry.name)
    elif unknown_armour:
        unit["save"], source = _roster_save(entry, list(dict.fromkeys(unknown_armour)), bare)
        unit["save_from"] = {
            key: [maker.text(name, 200, entry.name) for name in value]
            if isinstance(value, list)
            else maker.text(value, 40, entry.name)
            for key, value in source.items()
        }
    return clean(unit)


_SAVE = re.compile(r"^\s*([2-7])\s*\+\s*$")
_BONUS = re.compile(r"^\s*[-+]\s*([1-3])\s*$")


def _roster_save(entry: RosterEntry, unknown: list[str], bare: list[str]) -> tuple[str, dict]:
    """The save the roster's own armour profiles give (Gromril Armour 4+ with a Shield -1: 3+), when each of them
    reads as a save or a bonus and no armour is named without one; else '?'. Either with where it comes from (the
    handout's save_from, printed as a footnote in each of its languages)."""
    described = {plain(profile.name) for profile in entry.profiles if ARMOUR_LIKE.search(profile.type)}
    undescribed = [name for name in bare if plain(name) not in described]
    if undescribed:
        return "?", {"unknown": unknown, "worn_with": undescribed}
    pieces, best, bonus = [], None, 0
    for profile in [entry.stat, *entry.profiles]:
        if profile is None or not ARMOUR_LIKE.search(profile.type) or not profile.values:
            continue
        value = profile.values[0][1]
        if (found := _SAVE.match(value)) is not None:
            best = min(best or 7, int(found.group(1)))
        elif (found := _BONUS.match(value)) is not None:
            bonus += int(found.group(1))
        else:
            return "?", {"unknown": unknown, "reads": value.strip()}
        pieces.append(f"{profile.name} {value.strip()}")
    if best is None:
        return "?", {"unknown": unknown}
    return f"{max(best - bonus, 2)}+", {"unknown": unknown, "profiles": pieces}


def _wearable(armour: list[str], sheet: Sheet) -> list[str]:
    """The items the unit's troop type can wear (a handout names no armour its troop cannot)."""
    saves = saves_block(sheet)
    if saves is None:
        return []
    items = {item.id: item for item in saves.items}
    troop = saves.troop_of(armour)
    return [ref for ref in armour if ref in items and (troop in items[ref].saves or items[ref].troop is not None)]


def _sheet_profile(
    stat: Profile | None, unit: str, sheet: Sheet, names: SheetNames, report: Report
) -> tuple[dict, list[str]]:
    """A stat line's values by the sheet's characteristic ids ('-' where the roster gives none), and the roster's
    values of the characteristics the sheet has not (a ward save, a troop type), as 'Type: Infantry'."""
    values: dict[str, str] = {}
    others = []
    for name, value in stat.values if stat else []:
        key = names.characteristics.find(name)
        if key is None:
            if value and value != "-" and folded(name) not in SAVE_NAMES:
                others.append(f"{name}: {value}")
                report.add(
                    unit,
                    "characteristic",
                    name,
                    "no characteristic of the sheet, by id, label, name or alias: printed with the unit's rules",
                )
        else:
            values.setdefault(key, value or "-")
    for characteristic in sheet.characteristics:
        if characteristic.id not in values:
            report.add(
                unit, "sheet characteristic", characteristic.id, "no value in the roster's stat line: printed as '-'"
            )
    text = Text(report)
    return {
        characteristic.id: text.value(values.get(characteristic.id, "-"), MAX_VALUE, unit) or "-"
        for characteristic in sheet.characteristics
    }, others
