"""A roster's units made into a handout file's data: matched against a sheet where there is one, printed from the
roster alone where there is none.

With a sheet, each unit's stat line is given in the sheet's characteristics, its upgrades and profiles are matched
to the sheet's weapon rows, saves items and keywords, and what matches nothing is printed as the roster writes it
and reported once, grouped. A save the sheet cannot derive (armour it does not know, such as gromril) is the
roster's own save characteristic, or "?" with a footnote naming what was not understood. Without a sheet, the
handout carries the roster's stat line as its characteristics, every other profile in a table of its type, and
the rules with their texts as its keywords."""

from __future__ import annotations

import datetime
import re
import unicodedata
from dataclasses import dataclass, field

from generator.model import glyphs
from generator.composing.handout import saves_block
from generator.model.types import Sheet
from generator.composing.roster.fitting import fit
from generator.composing.roster.labels import label
from generator.composing.roster.marks import marked
from generator.composing.roster.names import SheetNames, folded, plain
from generator.reading.rosters.selections import MAX_POINTS, ModelLine, Profile, Roster, RosterEntry, Rule, SAVE_NAMES

MAX_VALUE = 20  # a stat line's value (the handout's limit): longer ones are cut, with an ellipsis
MAX_TEXT = 3900  # a text of the roster (an ability's): the model's limit, less room for escaping
ARMOUR_LIKE = re.compile(r"armou?r|shield|mail|plate|barding|carapace|bouclier|armure", re.IGNORECASE)
SUBSTITUTES = {"\u2011": "-"}  # a character no font of the sheet has, given its nearest that prints
BULLET = re.compile(r"^[-\u2013\u25a0\u25aa\u25cf\u2022*]\s+")  # a list's item, as catalogues mark it: - ■ ▪ ● • *
BLANK = " \u2800"  # a line of nothing but Braille blanks (Warcry's texts end in one) is no paragraph
WORDS = re.compile(r"[^\W\d_]{3,}(?:[\s,/]+[^\W\d_]+)*")  # a value in words, no number: March, Infantry
STRAY_APOSTROPHE = re.compile(r"^['\u2018\u2019](?=[-+\u2212]?\d)")  # '+2, '4: a spreadsheet's text mark


@dataclass
class Unmatched:
    """One name of the roster the sheet has no name for, with every unit that has it, and what was tried."""

    kind: str  # characteristic, equipment, rule, character…
    name: str
    tried: str
    units: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        units = ", ".join(f"'{unit}'" for unit in self.units[:6]) + (f" and {len(self.units) - 6} more"
                                                                    if len(self.units) > 6 else "")
        return f"{self.kind} '{self.name}' ({units}): {self.tried}"


class Report:
    """What the sheet could not name, grouped by kind and name (listed once, with the units that have it)."""

    def __init__(self):
        self.items: dict[tuple[str, str], Unmatched] = {}

    def add(self, unit: str, kind: str, name: str, tried: str) -> None:
        item = self.items.setdefault((kind, name), Unmatched(kind, name, tried))
        if unit not in item.units:
            item.units.append(unit)

    def list(self) -> list[Unmatched]:
        return list(self.items.values())


class Text:
    """The roster's words made source text that prints as written: control characters made spaces, characters the
    font lacks given their nearest the font has (each reported), markup escaped."""

    def __init__(self, report: Report):
        self.report = report
        self.font = glyphs.printable_characters()

    def __call__(self, text: str, limit: int = MAX_TEXT, where: str = "", lines: bool = False) -> str:
        """`lines`: a rule's or an ability's text, its paragraphs kept as lines and its "- " or "■ " lists as
        bullets; else one line."""
        text = unicodedata.normalize("NFC", text)
        kept = [self._line(line, where) for line in (text.splitlines() if lines else [text])]
        text = "\n".join(BULLET.sub("\u2022 ", line) for line in kept if line.strip(BLANK))
        if len(text) > limit:
            text = text[:limit - 1].rstrip() + "\u2026"
        return marked(text, literal)  # New Recruit's ^^keywords^^ and **bold**, as its app shows them

    def _line(self, text: str, where: str) -> str:
        text = "".join(" " if unicodedata.category(char)[0] in "CZ" and char != " " else char for char in text)
        text = " ".join(text.split())
        return "".join(char if ord(char) in self.font else self._substitute(char, where) for char in text)

    def value(self, text: str, limit: int = MAX_VALUE, where: str = "", lines: bool = False) -> str:
        """A characteristic's value: as a text, less the apostrophe a spreadsheet leaves before a number or a sign
        (BSData's WHFB Great Weapon: S '+2), reported."""
        cleaned = STRAY_APOSTROPHE.sub("", text.strip())
        if cleaned != text.strip():
            self.report.add(where or "roster", "value", text.strip(), f"a stray apostrophe: printed as '{cleaned}'")
        return self(cleaned, limit, where, lines)

    def _substitute(self, char: str, where: str) -> str:
        """A character no font of the sheet has: its nearest that prints, else its Unicode name in brackets (never a
        '?', which would read as a value), reported either way."""
        substitute = SUBSTITUTES.get(char) or unicodedata.normalize("NFKC", char)
        if not substitute or not all(ord(c) in self.font for c in substitute):
            substitute = f"[{unicodedata.name(char, f'U+{ord(char):04X}').lower()}]"
        self.report.add(where or "roster", "character", f"U+{ord(char):04X} {char}",
                        f"no font of the sheet has it: printed as '{substitute}'")
        return substitute


def literal(text: str) -> str:
    """A roster's name as source text that prints as written: the markup's characters escaped, and a '<' that
    would open an HTML tag (40k's <HIVE FLEET>) too."""
    return re.sub(r"<(?=[/!?a-zA-Z])", r"\\<", re.sub(r"([*{}\[\]\\])", r"\\\1", text))


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
                "id": slug(profile.type, self.type_ids, "profile"), "name": self.text(profile.type or "-", 200, unit),
                "characteristics": [self.text(name or "-", 200, unit) for name in shown], "_names": names}
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
        return {"type": kind["id"], "name": self.text(profile.name or "-", 200, unit), "values": row,
                "_by": self.text(profile.carrier or unit, 200, unit)}

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
        told_apart(units)
        fit(types, units)
        data = {"handout": handout_id, **extra, "army": army, "date": datetime.date.today(),
                "paper": {"size": "A4", "orientation": "landscape", "columns": 3},  # no page count: as few as it takes
                "as_written": True, "points": shown_points(self.roster.points), "cost": self.text(self.roster.cost_label, 12) if self.roster.cost_label else None,
                "keywords": [{key: value for key, value in keyword.items()} for keyword in self.keywords.values()],
                "profile_types": types,
                "units": units}
        return {key: value for key, value in data.items() if value not in (None, [])}


def told_apart(units: list[dict]) -> None:
    """Profiles of one name and type with different values (the Silent King's Armoured bulk, A1, and the Doomsday
    Ark's, A3) each named with what carries it: "Armoured bulk (Triarchal Menhir)". In place; the carriers dropped."""
    rows = [profile for unit in units for profile in unit.get("profiles", [])]
    carriers: dict[tuple, dict[tuple, list[str]]] = {}
    for row in rows:
        by = carriers.setdefault((row["type"], row["name"]), {}).setdefault(tuple(row["values"]), [])
        by.extend([row["_by"]] if row["_by"] not in by else [])
    for row in rows:
        kinds = carriers[(row["type"], row["name"])]
        if len(kinds) > 1:
            row["name"] = f"{row['name']} ({', '.join(kinds[tuple(row['values'])])})"
        del row["_by"]


def unit_base(entry: RosterEntry, unit_id: str, maker: Maker) -> dict:
    """Its name, points and count (left to its models when they are listed, each with its own: "4 × Cannon" read
    as four guns where there are one and three crew)."""
    return {"id": unit_id, "name": maker.text(entry.name or "-", 200, entry.name),
            "count": entry.count if entry.count > 1 and not entry.models else None,
            "points": shown_points(entry.points)}


def choices(roster: Roster, maker: Maker, rule_id) -> list[dict]:
    """The army's choices as the handout's: each with what was chosen, and its rules by id (`rule_id`: the sheet's
    keyword it names, else the handout's own)."""
    return [clean({"name": maker.text(choice.name or "-", 200, "army"), "value": maker.text(choice.value, 400, "army"),
                   "rules": list(dict.fromkeys(rule_id(rule) for rule in choice.rules))})
            for choice in roster.choices]


def clean(unit: dict) -> dict:
    return {key: value for key, value in unit.items() if value not in (None, [], "")}


# --- without a sheet ----------------------------------------------------------------------------


def alone(roster: Roster, handout_id: str, army: str, lang: str, report: Report) -> dict:
    """The handout of a game qrs has no sheet for: the roster's own stat line, profiles and rules."""
    maker = Maker(roster, report)
    every = _stat_names(roster)
    names = [name for name in every if _short(roster, name)][:16]  # columns; the wordy ones go with the rules
    ids, taken = {}, set()
    for name in names:
        ident = re.sub(r"[^A-Za-z0-9]", "", unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode())
        ident = (ident if ident[:1].isalpha() else f"C{ident}")[:12] or "C"
        while ident in taken:
            ident = f"{ident[:10]}{len(taken)}"
        taken.add(ident)
        ids[name] = ident
    units, unit_ids = [], set()
    for entry in roster.units:
        unit = unit_base(entry, slug(entry.name, unit_ids), maker)
        profiles = list(entry.profiles)
        values = dict(entry.stat.values) if entry.stat else {}
        unit["profile"] = {ids[name]: _value(maker, values.get(name, ""), entry.name) for name in names}
        unit["models"] = [_model(maker, line, entry.name, {ids[name]: _value(maker, dict(line.profile.values).get(
            name, ""), entry.name) for name in names}) for line in entry.models]
        wordy = [f"{name}: {values[name]}" for name in every if name not in names and values.get(name)]
        unit["profiles"] = [maker.profile(profile, entry.name) for profile in profiles]
        unit["equipment"] = ", ".join(maker.text(name, 200, entry.name) for name in entry.gear
                                      if name not in entry.tabled) or None  # weapons print in their tables
        unit["rules"] = [maker.keyword(rule, entry.name) for rule in entry.rules]
        unit["other_rules"] = "; ".join(maker.text(text, MAX_TEXT, entry.name) for text in wordy) or None
        units.append(clean(unit))
    for rule in roster.army_rules:
        maker.keyword(rule, "army")
    characteristics = [{"id": ids[name], "label": maker.text(label(name, roster.game), 200),
                        "name": maker.text(name or "-", 200)}
                       for name in names]
    return maker.handout(handout_id, army, units, {
        "game": maker.text(roster.game, 200) if roster.game else None, "lang": lang, "languages": [lang],
        "characteristics": characteristics, "choices": choices(roster, maker, lambda rule: maker.keyword(rule, "army"))})


def _model(maker: Maker, line: ModelLine, unit: str, profile: dict) -> dict:
    return clean({"name": maker.text(line.profile.name or "-", 200, unit), "count": line.count, "profile": profile})


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
    lines = [profile for entry in roster.units for profile in [entry.stat, *(line.profile for line in entry.models)]
             if profile]
    return all(len(value) <= 8 and not WORDS.fullmatch(value) for profile in lines
               for found, value in profile.values if found == name)


def _value(maker: Maker, value: str, unit: str) -> str:
    return maker.text.value(value or "-", MAX_VALUE, unit)


# --- with a sheet -------------------------------------------------------------------------------


def with_sheet(roster: Roster, sheet: Sheet, names: SheetNames, handout_id: str, army: str, languages: list[str],
               report: Report) -> dict:
    maker = Maker(roster, report)
    units, unit_ids = [], set()
    sheet_keywords = {keyword.id for keyword in sheet.keywords}
    for entry in roster.units:
        units.append(_unit(entry, slug(entry.name, unit_ids), sheet, names, maker, report, sheet_keywords))

    def rule_id(rule: Rule) -> str:
        return names.keywords.find(rule.name) or maker.keyword(rule, "army", sheet_keywords)

    data = maker.handout(handout_id, army, units, {"sheet": sheet.sheet, "lang": sheet.lang, "languages": languages,
                                                   "choices": choices(roster, maker, rule_id)})
    data["exclude"] = []  # every section of the sheet: the handout is the army's reference, edited down at will
    return data


def _unit(entry: RosterEntry, unit_id: str, sheet: Sheet, names: SheetNames, maker: Maker, report: Report,
          sheet_keywords: set[str]) -> dict:
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
            report.add(entry.name, "equipment", name, "no row of the sheet's tables, nor item of its saves table, "
                                                      "by id, name or alias: printed as written")
            continue
    for rule in [*entry.rules, *maker.roster.army_rules]:
        if (ident := names.keywords.find(rule.name)) is not None:
            rules.append(ident)
        elif rule.text:
            own_rules_id = maker.keyword(rule, entry.name, sheet_keywords)
            rules.append(own_rules_id)
            report.add(entry.name, "rule", rule.name, "no keyword of the sheet, by id, term or original term: "
                                                      "printed with the roster's text")
        else:
            own_rules.append(rule.name)
            report.add(entry.name, "rule", rule.name, "no keyword of the sheet, by id, term or original term: "
                                                      "printed as written")
    unit["profile"], others = _sheet_profile(entry.stat, entry.name, sheet, names, report)
    unit["models"] = [_model(maker, line, entry.name, _sheet_profile(line.profile, entry.name, sheet, names, report)[0])
                      for line in entry.models]
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
        unit["save_from"] = {key: [maker.text(name, 200, entry.name) for name in value] if isinstance(value, list)
                             else maker.text(value, 40, entry.name) for key, value in source.items()}
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


def _sheet_profile(stat: Profile | None, unit: str, sheet: Sheet, names: SheetNames,
                   report: Report) -> tuple[dict, list[str]]:
    """A stat line's values by the sheet's characteristic ids ('-' where the roster gives none), and the roster's
    values of the characteristics the sheet has not (a ward save, a troop type), as 'Type: Infantry'."""
    values: dict[str, str] = {}
    others = []
    for name, value in stat.values if stat else []:
        key = names.characteristics.find(name)
        if key is None:
            if value and value != "-" and folded(name) not in SAVE_NAMES:
                others.append(f"{name}: {value}")
                report.add(unit, "characteristic", name, "no characteristic of the sheet, by id, label, name "
                                                         "or alias: printed with the unit's rules")
        else:
            values.setdefault(key, value or "-")
    for characteristic in sheet.characteristics:
        if characteristic.id not in values:
            report.add(unit, "sheet characteristic", characteristic.id, "no value in the roster's stat line: "
                                                                        "printed as '-'")
    text = Text(report)
    return {characteristic.id: text.value(values.get(characteristic.id, "-"), MAX_VALUE, unit) or "-"
            for characteristic in sheet.characteristics}, others
