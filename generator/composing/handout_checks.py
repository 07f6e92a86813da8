"""A handout checked against its sheet: every characteristic, weapon, armour, keyword and section it names must
exist there (or, without a sheet, in the handout itself); the sheet's saves and table rows as the checks and the
composition (generator.composing.handout) look them up."""

from __future__ import annotations

import difflib
from collections import defaultdict
from pathlib import Path
from typing import Iterator

from generator.composing.handout_profiles import keywords_of, profile_findings
from generator.errors import UserError
from generator.model import glyphs
from generator.model.types import Finding, Handout, HandoutUnit, SavesBlock, Sheet, TableBlock
from generator.model.validate import keyword_index, load, markup_findings, parse
from generator.project import Project
from generator.reading.sources import Located, load_file


def load_handout(project: Project, path: Path) -> tuple[Located, Handout, Located | None, Sheet | None]:
    """A handout checked against its sheet, with both located sources (None, None for a handout without a sheet)."""
    located = load_file(path)
    handout = parse(located, Handout)
    sheet_located, sheet = None, None
    if handout.sheet is not None:
        sheet_path = project.sources / f"{handout.sheet}.yaml"
        if not sheet_path.is_file():
            raise UserError([located.problem(("sheet",), f"no sheet '{handout.sheet}' in {project.sources}")])
        sheet_located, sheet = load(sheet_path)
    keywords = keyword_index(Sheet.model_construct(keywords=keywords_of(handout, sheet)))
    found = [
        *findings(handout, sheet),
        *markup_findings(handout, keywords, sheet.result_names() if sheet else {}),
        *glyphs.glyph_findings(handout, handout.lang, keywords),
    ]
    if handout.handout != path.stem:
        found.append((("handout",), f"the handout id '{handout.handout}' must match the file name '{path.stem}'"))
    if found:
        raise UserError(glyphs.one_per_character(located.problem(loc, message) for loc, message in found))
    return located, handout, sheet_located, sheet


def findings(handout: Handout, sheet: Sheet | None) -> Iterator[Finding]:
    """Every name in the handout that its sheet (or, without one, the handout itself) does not define, as (path in
    the handout, message)."""
    yield from _duplicate_units(handout)
    yield from profile_findings(handout)
    own_sheet = Sheet.model_construct(
        sheet=handout.handout, characteristics=handout.characteristics, keywords=[], sections=[]
    )
    saves = saves_block(sheet) if sheet else None
    rows = row_index(sheet) if sheet else {}
    keywords = keyword_index(Sheet.model_construct(keywords=keywords_of(handout, sheet)))
    sheet = sheet or own_sheet
    own = {weapon.id for weapon in handout.weapons}
    for w, weapon in enumerate(handout.weapons):
        if weapon.id in rows:
            yield (
                ("weapons", w, "id"),
                f"'{weapon.id}' is already a row of the sheet's tables: name that row in the units instead",
            )
    for u, unit in enumerate(handout.units):
        here = ("units", u)
        yield from _profile_findings(unit, sheet, here)
        for w, ref in enumerate(unit.weapons):
            matches = rows.get(ref, [])
            if ref in own:
                continue
            if not matches:
                yield (
                    here + ("weapons", w),
                    (
                        f"unknown weapon '{ref}': neither a row of the sheet's tables nor a weapon of "
                        f"the handout{_suggest(ref, [*rows, *own])}"
                    ),
                )
            elif len(matches) > 1:
                tables = " or ".join(f"{table.id}/{ref}" for table, _ in matches)
                yield here + ("weapons", w), f"'{ref}' is a row of several tables: write {tables}"
        yield from _armour_findings(unit, saves, here)
        for r, rule in enumerate(unit.rules):
            if rule.casefold() not in keywords and rule not in keywords:
                yield (
                    here + ("rules", r),
                    f"unknown special rule '{rule}': not a keyword of the sheet{_suggest(rule, keywords)}",
                )
    for c, choice in enumerate(handout.choices):
        for r, rule in enumerate(choice.rules):
            if rule.casefold() not in keywords and rule not in keywords:
                yield (
                    ("choices", c, "rules", r),
                    (f"unknown special rule '{rule}': not a keyword of the sheet{_suggest(rule, keywords)}"),
                )
    parts = (
        {section.id for section in sheet.sections}
        | {block.id for block in sheet.blocks()}
        | {group.id for section in sheet.sections for group in section.groups}
    )
    for field in ("include", "exclude"):
        for i, ref in enumerate(getattr(handout, field) or []):
            if ref not in parts:
                yield (
                    (field, i),
                    f"unknown section '{ref}': not a section, group or block id of the sheet{_suggest(ref, parts)}",
                )
    yield from _kept_findings(handout, sheet)


def _kept_findings(handout: Handout, sheet: Sheet) -> Iterator[Finding]:
    """`except` names blocks of the sections `exclude` leaves out."""
    excluded = {
        block.id for section in sheet.sections if section.id in (handout.exclude or []) for block in section.blocks
    }
    for i, ref in enumerate(handout.kept or []):
        if ref not in excluded:
            yield (
                ("except", i),
                (
                    f"'{ref}' is not a block of an excluded section: except keeps blocks of the sections "
                    f"exclude leaves out{_suggest(ref, excluded)}"
                ),
            )


def _duplicate_units(handout: Handout) -> Iterator[Finding]:
    seen: set[str] = set()
    for u, unit in enumerate(handout.units):
        if unit.id in seen:
            yield ("units", u, "id"), f"duplicate unit id '{unit.id}'"
        seen.add(unit.id)


def _profile_findings(unit: HandoutUnit, sheet: Sheet, here: tuple) -> Iterator[Finding]:
    """The unit's profile, and each of its models' (held to the same characteristics)."""
    yield from _line_findings(unit.profile, sheet, here + ("profile",))
    for m, model in enumerate(unit.models):
        yield from _line_findings(model.profile, sheet, here + ("models", m, "profile"))


def _line_findings(profile: dict[str, str], sheet: Sheet, here: tuple) -> Iterator[Finding]:
    wanted = [characteristic.id for characteristic in sheet.characteristics]
    if not wanted and not sheet.sections:  # a handout without a sheet, nor characteristics of its own
        if profile:
            yield here, "the handout has no characteristics: give them, or leave the profile out"
        return
    if not wanted:
        yield here, f"the sheet '{sheet.sheet}' declares no characteristics for profiles"
        return
    for key in profile:
        if key not in wanted:
            yield here + (key,), f"unknown characteristic '{key}': the sheet's profile is {' '.join(wanted)}"
    missing = [key for key in wanted if key not in profile]
    if missing:
        yield here, f"no value for {', '.join(missing)}: the sheet's profile is {' '.join(wanted)}"


def _armour_findings(unit: HandoutUnit, saves: SavesBlock | None, here: tuple) -> Iterator[Finding]:
    if unit.armour and saves is None:
        yield here + ("armour",), "the sheet has no saves table to take armour from"
        return
    if saves is None:
        return
    items = {item.id: item for item in saves.items}
    troop = saves.troop_of(unit.armour)
    for a, ref in enumerate(unit.armour):
        if ref not in items:
            yield (
                here + ("armour", a),
                f"unknown armour '{ref}': not an item of the saves table '{saves.id}'{_suggest(ref, items)}",
            )
        elif troop not in items[ref].saves and items[ref].troop is None:
            yield here + ("armour", a), f"'{ref}' gives nothing to '{troop}' troops in the saves table '{saves.id}'"


def _suggest(wrong: str, known) -> str:
    close = difflib.get_close_matches(wrong, list(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def saves_block(sheet: Sheet) -> SavesBlock | None:
    return next((block for block in sheet.blocks() if isinstance(block, SavesBlock)), None)


def row_index(sheet: Sheet) -> dict[str, list[tuple[TableBlock, int]]]:
    """Table rows by id and by table/id: what a unit's weapons can name."""
    index: dict[str, list[tuple[TableBlock, int]]] = defaultdict(list)
    for block in sheet.blocks():
        if isinstance(block, TableBlock):
            for r, row in enumerate(block.rows):
                if getattr(row, "id", None):  # a sub-heading has none
                    index[row.id].append((block, r))
                    index[f"{block.id}/{row.id}"].append((block, r))
    return index


# --- composition ----------------------------------------------------------------------------
