"""Rosters: a BattleScribe / New Recruit army list (.ros, or .rosz: the same XML zipped) as a handout file.

A roster is read as hostile input: its XML is parsed by defusedxml (no DTD, no entity, no external reference),
a .rosz must hold exactly one member of bounded size and compression ratio, and any refusal is a UserError
naming ROSTER[:member]:line:column. The roster's units are then matched against the sheet: characteristics by
id, label, name or alias; weapons and armour by row or item id, name or alias; rules by keyword id, term or
original term. What does not match is kept, printed as the roster wrote it, and listed in one report."""

from __future__ import annotations

import datetime
import io
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree
import yaml

from generator.errors import Problem, UserError
from generator.schema.handout import row_index, saves_block
from generator.schema.model import Sheet
from generator.schema.validate import keyword_index, load
from generator.files import read_regular

NAMESPACE = "{http://www.battlescribe.net/schema/rosterSchema}"
MAX_ROSTER_BYTES = 4 * 1024 * 1024  # the file as given: a large army's roster is some hundred kilobytes
MAX_UNZIPPED_BYTES = 16 * 1024 * 1024
MAX_COMPRESSION_RATIO = 100  # XML compresses ten to twenty times; a zip bomb, thousands of times
UNIT_TYPES = ("unit", "model")
MAX_POINTS = 1_000_000  # what the handout's points field holds


# --- reading ----------------------------------------------------------------------------------


def read(path: Path) -> tuple[Element, str]:
    """The roster's root element and the name its problems are reported under (ROSTER or ROSTER:member)."""
    content = read_regular(path, MAX_ROSTER_BYTES, "a roster")
    label = str(path)
    if zipfile.is_zipfile(io.BytesIO(content)):
        member, content = _only_member(path, content)
        label = f"{path}:{member}"
    root = _parsed(content, label)
    if root.tag != f"{NAMESPACE}roster":
        raise UserError.at(label, 1, 1, f"the root element is <{_local(root.tag)}>: expected <roster> in the "
                                        f"namespace {NAMESPACE.strip('{}')} (a BattleScribe or New Recruit roster)")
    return root, label


def _only_member(path: Path, content: bytes) -> tuple[str, bytes]:
    """The one file a .rosz holds, refused if there are several, or if it would unpack too large."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        members = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, ValueError) as error:
        raise UserError.at(path, 1, 1, f"not a readable zip archive ({error}): expected a .rosz roster") from None
    if len(members) != 1:
        names = ", ".join(info.filename for info in members) or "none"
        raise UserError.at(path, 1, 1, f"the archive holds {len(members)} files ({names}): "
                                       "expected exactly one roster (.ros) in a .rosz")
    info = members[0]
    _refuse_bomb(path, info)
    with archive.open(info) as stream:
        unpacked = stream.read(MAX_UNZIPPED_BYTES + 1)  # the size the archive declares may lie
    if len(unpacked) > MAX_UNZIPPED_BYTES:
        raise UserError.at(f"{path}:{info.filename}", 1, 1, f"the roster unpacks to more than {MAX_UNZIPPED_BYTES} "
                                                            "bytes: expected a roster of a few hundred kilobytes")
    return info.filename, unpacked


def _refuse_bomb(path: Path, info: zipfile.ZipInfo) -> None:
    where = f"{path}:{info.filename}"
    if info.file_size > MAX_UNZIPPED_BYTES:
        raise UserError.at(where, 1, 1, f"the roster unpacks to {info.file_size} bytes: a roster may be at most "
                                        f"{MAX_UNZIPPED_BYTES} bytes")
    ratio = info.file_size / max(info.compress_size, 1)
    if ratio > MAX_COMPRESSION_RATIO:
        raise UserError.at(where, 1, 1, f"the roster is compressed {ratio:.0f} times: expected at most "
                                        f"{MAX_COMPRESSION_RATIO} times (a zip bomb is refused unread)")


def _parsed(content: bytes, label: str) -> Element:
    opened: list[str] = []  # the elements open where parsing stopped: what a malformed roster should close
    root = None
    try:
        for event, element in defusedxml.ElementTree.iterparse(io.BytesIO(content), events=("start", "end"),
                                                               forbid_dtd=True, forbid_entities=True,
                                                               forbid_external=True):
            if event == "start":
                opened.append(_local(element.tag))
            else:
                opened.pop()
                root = element
        return root
    except ParseError as error:
        line, column = error.position
        raise UserError.at(label, line, column + 1, _malformed(error, content, opened)) from None
    except defusedxml.DTDForbidden:
        raise UserError.at(label, *_position_of(content, b"<!DOCTYPE"), "a document type declaration (<!DOCTYPE>): "
                           "expected none; a roster is refused with a DTD, which could define entities") from None
    except defusedxml.EntitiesForbidden:
        raise UserError.at(label, *_position_of(content, b"<!ENTITY"), "an entity declaration (<!ENTITY>): "
                           "expected none; a roster is refused with entities (a billion-laughs bomb)") from None
    except defusedxml.ExternalReferenceForbidden:
        raise UserError.at(label, *_position_of(content, b"SYSTEM"), "a reference to an external resource: "
                           "expected none; a roster never reads other files") from None


def _malformed(error: ParseError, content: bytes, opened: list[str]) -> str:
    reason = re.sub(r": line \d+, column \d+$", "", str(error))
    if not opened:
        return f"malformed XML ({reason}): expected a well-formed BattleScribe roster"
    line, column = error.position
    text = content.decode("utf-8", "replace").splitlines()[line - 1] if content else ""
    found = re.compile(r"</?[\w:.-]+>?").match(text, max(column - 2, 0))  # expat points past the "</"
    found_text = f", found {found.group(0)}" if found else ""
    return f"malformed XML ({reason}): expected </{opened[-1]}> to close <{opened[-1]}>{found_text}"


def _position_of(content: bytes, marker: bytes) -> tuple[int, int]:
    offset = max(content.find(marker), 0)
    before = content[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(element: Element, name: str) -> list[Element]:
    """The elements <name> directly inside <names>, as the roster schema wraps every list."""
    wrapper = element.find(f"{NAMESPACE}{name}s")
    return [] if wrapper is None else wrapper.findall(f"{NAMESPACE}{name}")


# --- the roster's units ------------------------------------------------------------------------


@dataclass
class RosterEntry:
    """A unit or model of the roster, as the roster names its parts."""

    name: str
    count: int
    points: float | None
    profile: list[tuple[str, str]]  # (characteristic name, value), as the roster writes them
    gear: list[str] = field(default_factory=list)  # the names of its upgrade selections, in order
    rules: list[str] = field(default_factory=list)


def units(root: Element) -> list[RosterEntry]:
    """Every selection of type unit or model at the top of a force, with what it holds."""
    found = []
    for force in _forces(root):
        army_rules = [rule.get("name", "").strip() for rule in _children(force, "rule")]  # every unit of it has them
        for selection in _children(force, "selection"):
            if selection.get("type") in UNIT_TYPES:
                entry = _entry(selection)
                entry.rules = _unique([*army_rules, *entry.rules])
                found.append(entry)
    return found


def _forces(root: Element) -> list[Element]:
    """Every force, nested ones too (Element.iter: no recursion, however deep a hostile roster nests them)."""
    return list(root.iter(f"{NAMESPACE}force"))


def _points(element: Element) -> float | None:
    """The element's points cost (the cost named pts or points), or None when it declares none."""
    for cost in _children(element, "cost"):
        if cost.get("name", "").strip().lower() in ("pts", "points", "pts."):
            try:
                value = float(cost.get("value", ""))
            except ValueError:
                return None
            return value if 0 <= value < MAX_POINTS else None  # nor NaN, nor infinity
    return None


def _entry(selection: Element) -> RosterEntry:
    descendants = list(_selections_within(selection))
    models = [child for child in descendants if child.get("type") == "model"]
    count = sum(_number(model) for model in models) if selection.get("type") == "unit" and models else _number(selection)
    costs = [points for points in map(_points, [selection, *descendants]) if points is not None]
    holders = [selection, *descendants]
    return RosterEntry(
        name=selection.get("name", "").strip(),
        count=count,
        points=sum(costs) if costs else None,
        profile=_profile(holders),
        gear=_unique(child.get("name", "").strip() for child in descendants if child.get("type") == "upgrade"),
        rules=_unique(rule.get("name", "").strip() for holder in holders for rule in _children(holder, "rule")),
    )


def _selections_within(selection: Element) -> list[Element]:
    return [child for child in selection.iter(f"{NAMESPACE}selection") if child is not selection]


def _number(selection: Element) -> int:
    try:
        return max(int(selection.get("number", "1")), 1)
    except ValueError:
        return 1


def _profile(holders: list[Element]) -> list[tuple[str, str]]:
    """The first profile with characteristics among the unit's selections (its own before its models')."""
    for holder in holders:
        for profile in _children(holder, "profile"):
            values = [(item.get("name", "").strip(), (item.text or "").strip())
                      for item in _children(profile, "characteristic")]
            if values:
                return values
    return []


def _unique(names) -> list[str]:
    return list(dict.fromkeys(name for name in names if name))


# --- matching against the sheet ----------------------------------------------------------------


def folded(name: str) -> str:
    """A name as matched: case, accents, spacing and punctuation do not count (Hand Weapon = hand-weapon)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return re.sub(r"[^a-z0-9+]+", " ", plain).strip()


@dataclass
class Unmatched:
    """One element of the roster the sheet has no name for: where it is, and what was tried."""

    unit: str
    kind: str  # characteristic, equipment, rule
    name: str
    tried: str

    def __str__(self) -> str:
        return f"unit '{self.unit}': {self.kind} '{self.name}' matches no {self.tried}"


class SheetNames:
    """What the sheet calls things, folded: characteristics, table rows, saves items, keywords."""

    def __init__(self, sheet: Sheet):
        self.characteristics: dict[str, str] = {}
        for characteristic in sheet.characteristics:
            for name in [characteristic.id, characteristic.label, characteristic.name or "", *characteristic.aliases]:
                self.characteristics.setdefault(folded(name), characteristic.id)
        self.weapons = self._rows(sheet)
        saves = saves_block(sheet)
        self.armour: dict[str, str] = {}
        for item in saves.items if saves else []:
            for name in [item.id, item.name, *item.aliases]:
                self.armour.setdefault(folded(name), item.id)
        self.keywords: dict[str, str] = {}
        for key, keyword in keyword_index(sheet).items():
            self.keywords.setdefault(folded(key), keyword.id)
        for keyword in sheet.keywords:
            if keyword.original:
                self.keywords.setdefault(folded(keyword.original), keyword.id)

    @staticmethod
    def _rows(sheet: Sheet) -> dict[str, str]:
        """Rows by id, first cell and alias; a row id two tables share is named table/row."""
        names: dict[str, str] = {}
        for ref, places in row_index(sheet).items():
            if "/" in ref or len(places) > 1:
                continue
            table, index = places[0]
            row = table.rows[index]
            for name in [ref, row.cells[0].text, *row.aliases]:
                names.setdefault(folded(name), ref)
        return names


@dataclass
class Import:
    """The handout made from a roster, and what of the roster the sheet could not name."""

    handout: dict
    unmatched: list[Unmatched]

    def report(self, roster: str) -> str:
        """The one report of what the sheet could not name: a heading, then a line per element."""
        heading = (f"{roster}: {len(self.unmatched)} element(s) match nothing of the sheet "
                   f"'{self.handout['sheet']}', kept as written:")
        return "\n".join([heading, *(str(item) for item in self.unmatched)])


def handout_of(root: Element, label: str, sheet: Sheet, handout_id: str, languages: list[str]) -> Import:
    names = SheetNames(sheet)
    unmatched: list[Unmatched] = []
    entries = units(root)
    if not entries:
        raise UserError.at(label, 1, 1, "no selection of type unit or model in any force: expected at least one unit")
    unit_data, ids = [], set()
    for entry in entries:
        unit_data.append(_unit(entry, _unique_id(entry.name, ids), sheet, names, unmatched))
    army = literal((root.get("name") or "").strip() or Path(label.split(":")[0]).stem)
    handout = {
        "handout": handout_id, "sheet": sheet.sheet, "army": army, "lang": sheet.lang,
        "languages": languages, "date": datetime.date.today(),
        "points": _shown_points(_points(root)),
        "untranslatable": sorted({army, *_printed_as_written(unit_data)}),
        "units": unit_data,
    }
    return Import({key: value for key, value in handout.items() if value not in (None, [])}, unmatched)


def _unit(entry: RosterEntry, unit_id: str, sheet: Sheet, names: SheetNames, unmatched: list[Unmatched]) -> dict:
    weapons, armour, kept, rules, own_rules = [], [], [], [], []
    for item in entry.gear:
        key = folded(item)
        if key in names.keywords:  # a skill or an upgrade that gives a rule of the sheet
            rules.append(names.keywords[key])
        elif key in names.weapons:
            weapons.append(names.weapons[key])
        elif key in names.armour:
            armour.append(names.armour[key])
        else:
            kept.append(item)
            unmatched.append(Unmatched(entry.name, "equipment", item, "row of the sheet's tables, nor any item of its saves table (by id, name or alias)"))
    for rule in entry.rules:
        key = folded(rule)
        if rule in entry.gear and key in names.keywords:
            continue  # the upgrade of that name gave it
        if key in names.keywords:
            rules.append(names.keywords[key])
        else:
            own_rules.append(rule)
            unmatched.append(Unmatched(entry.name, "rule", rule, "keyword of the sheet (by id, term or original term)"))
    unit = {
        "id": unit_id, "name": literal(entry.name), "count": entry.count if entry.count > 1 else None,
        "points": _shown_points(entry.points),
        "profile": _profile_values(entry, sheet, names, unmatched),
        "weapons": _unique(weapons), "armour": _unique(armour),
        "equipment": ", ".join(map(literal, kept)) or None,
        "rules": _unique(rules), "other_rules": ", ".join(map(literal, own_rules)) or None,
    }
    return {key: value for key, value in unit.items() if value not in (None, [])}


def _profile_values(entry: RosterEntry, sheet: Sheet, names: SheetNames, unmatched: list[Unmatched]) -> dict:
    """The unit's values by the sheet's characteristic ids; '-' where the roster gives none."""
    values: dict[str, str] = {}
    for name, value in entry.profile:
        key = names.characteristics.get(folded(name))
        if key is None:
            unmatched.append(Unmatched(entry.name, "characteristic", name, "characteristic of the sheet (id, label, "
                                                                           "name or alias)"))
        else:
            values.setdefault(key, value or "-")
    for characteristic in sheet.characteristics:
        if characteristic.id not in values:
            unmatched.append(Unmatched(entry.name, "sheet characteristic", characteristic.id,
                                       "value of the roster's profile (printed as '-')"))
    return {characteristic.id: values.get(characteristic.id, "-") for characteristic in sheet.characteristics}


def literal(text: str) -> str:
    """A roster's name as source text that prints as written: the markup's characters escaped, a '<' that would
    open an HTML tag made a single angle quote."""
    return re.sub(r"<(?=[/!?a-zA-Z])", "\u2039", re.sub(r"([*{}\[\]\\])", r"\\\1", text))


def _unique_id(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", folded(name)).strip("-") or "unit"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate


def _shown_points(points: float | None) -> str | None:
    if points is None or points >= MAX_POINTS:
        return None
    return f"{points:.2f}".rstrip("0").rstrip(".")


def _printed_as_written(unit_data: list[dict]) -> set[str]:
    """The roster's own words: unit names, equipment and rules the sheet does not name (not offered for translation)."""
    return {unit[key] for unit in unit_data for key in ("name", "equipment", "other_rules") if unit.get(key)}


# --- writing -----------------------------------------------------------------------------------


HEADER = "# yaml-language-server: $schema=../../schema/handout.schema.json\n# Imported from the roster {roster}.\n"


def as_yaml(handout: dict, roster: str) -> str:
    return HEADER.format(roster=Path(roster.split(":")[0]).name) + yaml.safe_dump(
        handout, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


def strict_problems(unmatched: list[Unmatched], label: str) -> list[Problem]:
    return [Problem(label, 0, 0, f"{item} (--strict: everything must match)") for item in unmatched]


def import_roster(project, roster_path: Path, sheet_name: str, handout_id: str | None,
                  strict: bool) -> tuple[Path, Import, str]:
    """Read the roster, match it against the sheet and write sources/handouts/<id>.yaml (never over a file):
    the path written, the import (with what did not match) and the roster's name in reports. With `strict`, anything unmatched is an error and nothing is written."""
    from generator import write
    from generator.source import i18n, translations

    sheet_path = project.sheet_paths((sheet_name,))[0]
    _, sheet = load(sheet_path)
    root, label = read(roster_path)
    handout_id = handout_id or _unique_id(roster_path.stem, set())
    made = handout_of(root, label, sheet, handout_id, i18n.languages(project.sources, sheet))
    if strict and made.unmatched:
        raise UserError(strict_problems(made.unmatched, label))
    target = project.handouts / f"{handout_id}.yaml"
    try:
        write.text(target, as_yaml(made.handout, label), overwrite=False)
    except FileExistsError:
        raise UserError.at(target, 0, 0, "a handout of this id exists: give another with --id, or remove it") from None
    translations.update_handout_translations(project, target)  # its catalogues, empty: the roster's names print as written
    return target, made, label
