"""A roster's units made into a handout file's data: what every handout of a roster shares (its units' names,
points and counts, its profile types' tables, its keywords, the army's choices), and the handout of a game qrs has
no sheet for, printed from the roster alone: its stat line as the characteristics, every other profile in a table
of its type, the rules with their texts as keywords. `on_sheet` draws the units on a sheet instead."""

from __future__ import annotations

import datetime
import re
import unicodedata

from generator.composing.handout_profiles import prints_carriers
from generator.composing.roster.fitting import fit
from generator.composing.roster.labels import columns
from generator.composing.roster.names import folded
from generator.composing.roster.text import MAX_TEXT, MAX_VALUE, Report, Text, Unmatched, literal
from generator.model import geometry
from generator.model.types import MAX_COUNT
from generator.reading.rosters.selections import MAX_POINTS, ModelLine, Profile, Roster, RosterEntry, Rule

__all__ = [
    "Maker",
    "Report",
    "Text",
    "Unmatched",
    "alone",
    "choices",
    "clean",
    "literal",
    "model_entry",
    "slug",
    "shown_points",
    "told_apart",
    "unit_base",
]

PAPER = {"size": "A4", "orientation": "landscape", "columns": 3}  # a roster handout's, as its source says
WORDS = re.compile(r"[^\W\d_]{3,}(?:[\s,/]+[^\W\d_]+)*")  # a value in words, no number: March, Infantry


def slug(name: str, taken: set[str], fallback: str = "unit") -> str:
    base = re.sub(r"[^a-z0-9]+", "-", folded(name)).strip("-")[:50].strip("-") or fallback
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate


def shown_points(points: float | None) -> str | None:
    if points is None or points >= MAX_POINTS:
        return None
    return f"{points:.2f}".rstrip("0").rstrip(".")


class Maker:
    """The handout's data, made unit by unit: its profile types and keywords gathered as units name them."""

    def __init__(self, roster: Roster, report: Report):
        self.roster, self.report, self.text = roster, report, Text(report)
        self.types: dict[str, dict] = {}  # the roster's profile type → the handout's profile type
        self.keywords: dict[str, dict] = {}  # a rule's name → the handout's keyword
        self.type_ids: set[str] = set()
        self.keyword_ids: set[str] = set()
        self.used: dict[str, list[str]] = {}  # each profile type's characteristics that some profile gives a value
        for entry in roster.units:
            for profile in ([entry.stat] if entry.stat else []) + entry.profiles:
                kept = self.used.setdefault(profile.type, [])
                kept.extend(name for name, value in profile.values if value and name not in kept)

    def profile(self, profile: Profile, unit: str) -> dict:
        """A unit's profile as a row of its type's table (the type made as first met)."""
        kind = self.types.get(profile.type)
        used = self.used.get(profile.type, [])
        names = [name for name, _ in profile.values if name in used] or ["-"]
        if kind is None:
            shown = names[:10] + (["\u2026"] if len(names) > 11 else names[10:11])
            kind = self.types[profile.type] = {
                "id": slug(profile.type, self.type_ids, "profile"),
                "name": self.text(profile.type or "-", 200, unit),
                "characteristics": [self.text(name or "-", 200, unit) for name in shown],
                "_names": names,
            }
        values = dict(profile.values)
        wanted = kind["_names"]
        row = [self.text.value(values.get(name, "") or "-", MAX_TEXT, unit, lines=True) for name in wanted[:10]]
        if len(wanted) > 11:  # the rest in the last column, each named
            row.append(self.text("; ".join(f"{name}: {values.get(name, '-')}" for name in wanted[10:]), MAX_TEXT, unit))
        elif len(wanted) == 11:
            row.append(self.text(values.get(wanted[10], "") or "-", MAX_TEXT, unit, lines=True))
        for name in values:
            if name not in wanted and values[name]:  # a characteristic the first profile of its type had not
                row[-1] = f"{row[-1]}; {self.text(name, 200, unit)}: {self.text(values[name], 400, unit)}"
        carried = [
            clean({"name": self.text(model.name, 200, unit), "count": min(model.count, MAX_COUNT)})
            if model.count > 1
            else {"name": self.text(model.name, 200, unit)}
            for model in profile.carried_by
        ]
        return clean(
            {
                "type": kind["id"],
                "name": self.text(profile.name or "-", 200, unit),
                "values": row,
                "carried_by": carried[:20],
                "_by": self.text(profile.carrier or unit, 200, unit),
            }
        )

    def keyword(self, rule: Rule, unit: str, taken: set[str] = frozenset()) -> str:
        """The handout keyword of a roster's rule, made as first met: its id."""
        known = self.keywords.get(rule.name)
        if known is None:
            ident = slug(rule.name, self.keyword_ids | set(taken), "rule")
            self.keyword_ids.add(ident)
            known = self.keywords[rule.name] = {"id": ident, "term": self.text(rule.name, 200, unit)}
            if rule.text:
                known["text"] = self.text(rule.text, MAX_TEXT, unit, lines=True)
        elif rule.text and "text" not in known:
            known["text"] = self.text(rule.text, MAX_TEXT, unit, lines=True)
        return known["id"]

    def handout(self, handout_id: str, army: str, units: list[dict], extra: dict) -> dict:
        types = [{key: value for key, value in kind.items() if not key.startswith("_")} for kind in self.types.values()]
        told_apart(units, {kind["id"] for kind in self.types.values() if prints_carriers(kind["name"])})
        page = geometry.frame(**PAPER, pages=None)
        fit(types, units, page.column_width, page.content_width)
        data = {
            "handout": handout_id,
            **extra,
            "army": army,
            "date": datetime.date.today(),
            "paper": PAPER,  # no page count: as few as it takes
            "as_written": True,
            "points": shown_points(self.roster.points),
            "cost": self.text(self.roster.cost_label, 12) if self.roster.cost_label else None,
            "keywords": [{key: value for key, value in keyword.items()} for keyword in self.keywords.values()],
            "profile_types": types,
            "units": units,
        }
        return {key: value for key, value in data.items() if value not in (None, [])}


def told_apart(units: list[dict], lined: set[str] = frozenset()) -> None:
    """Profiles of one name and type with different values (the Silent King's Armoured bulk, A1, and the Doomsday
    Ark's, A3) each named with what carries it: "Armoured bulk (Doomsday Ark)"; but one that some models carry in
    a table that prints them under its name (`lined`: its type's id), told apart there. In place; the carriers
    dropped."""
    rows = [profile for unit in units for profile in unit.get("profiles", [])]
    carriers: dict[tuple, dict[tuple, list[str]]] = {}
    for row in rows:
        by = carriers.setdefault((row["type"], row["name"]), {}).setdefault(tuple(row["values"]), [])
        by.extend([row["_by"]] if row["_by"] not in by else [])
    for row in rows:
        kinds = carriers[(row["type"], row["name"])]
        if len(kinds) > 1 and not (row["type"] in lined and row.get("carried_by")):
            row["name"] = f"{row['name']} ({', '.join(kinds[tuple(row['values'])])})"
        del row["_by"]


def unit_base(entry: RosterEntry, unit_id: str, maker: Maker) -> dict:
    """Its name, points and count (left to its models when they are listed, each with its own: "4 × Cannon" read
    as four guns where there are one and three crew)."""
    return {
        "id": unit_id,
        "name": maker.text(entry.name or "-", 200, entry.name),
        "count": entry.count if entry.count > 1 and not entry.models else None,
        "points": shown_points(entry.points),
    }


def choices(roster: Roster, maker: Maker, rule_id) -> list[dict]:
    """The army's choices as the handout's: each with what was chosen, and its rules by id (`rule_id`: the sheet's
    keyword it names, else the handout's own)."""
    return [
        clean(
            {
                "name": maker.text(choice.name or "-", 200, "army"),
                "value": maker.text(choice.value, 400, "army"),
                "rules": list(dict.fromkeys(rule_id(rule) for rule in choice.rules)),
            }
        )
        for choice in roster.choices
    ]


def clean(unit: dict) -> dict:
    return {key: value for key, value in unit.items() if value not in (None, [], "")}


def alone(roster: Roster, handout_id: str, army: str, lang: str, report: Report) -> dict:
    """The handout of a game qrs has no sheet for: the roster's own stat line, profiles and rules."""
    maker = Maker(roster, report)
    every = _stat_names(roster)
    names = [name for name in every if _short(roster, name)][:16]  # columns; the wordy ones go with the rules
    stat_columns = columns(names, roster.game)
    ids, taken = {}, set()
    for column in stat_columns:
        written = column.name
        ident = re.sub(r"[^A-Za-z0-9]", "", unicodedata.normalize("NFKD", written).encode("ascii", "ignore").decode())
        ident = (ident if ident[:1].isalpha() else f"C{ident}")[:12] or "C"
        while ident in taken:
            ident = f"{ident[:10]}{len(taken)}"
        taken.add(ident)
        ids[column] = ident
    units, unit_ids = [], set()
    for entry in roster.units:
        unit = unit_base(entry, slug(entry.name, unit_ids), maker)
        profiles = list(entry.profiles)
        values = dict(entry.stat.values) if entry.stat else {}
        unit["profile"] = {ids[column]: _value(maker, column.value(values), entry.name) for column in stat_columns}
        unit["models"] = [
            model_entry(
                maker,
                line,
                entry.name,
                {
                    ids[column]: _value(maker, column.value(dict(line.profile.values)), entry.name)
                    for column in stat_columns
                },
                len(entry.models),
            )
            for line in entry.models
        ]
        wordy = _wordy(entry, [name for name in every if name not in names])
        unit["profiles"] = [maker.profile(profile, entry.name) for profile in profiles]
        unit["equipment"] = (
            ", ".join(maker.text(name, 200, entry.name) for name in entry.gear if name not in entry.tabled) or None
        )  # weapons print in their tables
        unit["rules"] = [maker.keyword(rule, entry.name) for rule in entry.rules]
        unit["other_rules"] = "; ".join(maker.text(text, MAX_TEXT, entry.name) for text in wordy) or None
        units.append(clean(unit))
    for rule in roster.army_rules:
        maker.keyword(rule, "army")
    characteristics = [
        {"id": ids[column], "label": maker.text(column.label, 200), "name": maker.text(column.name or "-", 200)}
        for column in stat_columns
    ]
    return maker.handout(
        handout_id,
        army,
        units,
        {
            "game": maker.text(roster.game, 200) if roster.game else None,
            "lang": lang,
            "languages": [lang],
            "characteristics": characteristics,
            "choices": choices(roster, maker, lambda rule: maker.keyword(rule, "army")),
        },
    )


def model_entry(maker: Maker, line: ModelLine, unit: str, profile: dict, lines: int) -> dict:
    """A model line of a unit of `lines` lines, with its count, but where it is the unit's only line and stands for
    one selection: Apocalypse's "Strike Team (5 models)", one profile for the five, is not "1 ×"."""
    count = None if lines == 1 and line.count == 1 else line.count
    return clean({"name": maker.text(line.profile.name or "-", 200, unit), "count": count, "profile": profile})


def _wordy(entry: RosterEntry, wordy: list[str]) -> list[str]:
    """The values of the unit's characteristics that are words (MESBG's Keywords, Heroic Actions), printed with its
    rules: each once where its models' lines share it, else named with each line's (a warband's hero and warriors)."""
    lines = [line.profile for line in entry.models] or ([entry.stat] if entry.stat else [])
    found = []
    for name in wordy:
        values = {profile.name: dict(profile.values).get(name) for profile in lines}
        shown = {line: value for line, value in values.items() if value}
        if len(set(shown.values())) == 1 and len(shown) == len(lines):
            found.append(f"{name}: {next(iter(shown.values()))}")
        else:
            found += [f"{line} \u2014 {name}: {value}" for line, value in shown.items()]
    return found


def _stat_names(roster: Roster) -> list[str]:
    """The characteristics of the units' stat lines, whatever their types (a Hero's Might, Will and Fate after a
    Warrior's), those no unit fills left out."""
    names: list[str] = []
    for entry in roster.units:
        for profile in [entry.stat] if entry.stat else []:
            names += [name for name, value in profile.values if name not in names and value]
        for line in entry.models:
            names += [name for name, value in line.profile.values if name not in names and value]
    return names


def _short(roster: Roster, name: str) -> bool:
    """A characteristic whose every value fits a column of the stat line: not a list of keywords, nor words (MESBG's
    Heroic Actions: March), which read as the unit's rules."""
    lines = [
        profile
        for entry in roster.units
        for profile in [entry.stat, *(line.profile for line in entry.models)]
        if profile
    ]
    return all(
        len(value) <= 8 and not WORDS.fullmatch(value)
        for profile in lines
        for found, value in profile.values
        if found == name
    )


def _value(maker: Maker, value: str, unit: str) -> str:
    return maker.text.value(value or "-", MAX_VALUE, unit)
