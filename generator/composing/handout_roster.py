"""A handout's units as its roster block prints them: each unit's count, points, stat line, the weapons it names
(rows of the sheet's tables), its armour and the save it gives, its move, its rules."""

from __future__ import annotations

from generator.composing.handout_checks import row_index
from generator.composing.handout_headings import labelled
from generator.composing.handout_profiles import ability_names, counted_name, roster_block
from generator.model import markup
from generator.model.types import (
    Handout,
    HandoutUnit,
    RosterBlock,
    RosterModel,
    RosterUnit,
    SavesBlock,
    SaveSource,
    Sheet,
    TableBlock,
)


def roster(handout: Handout, sheet: Sheet, saves: SavesBlock | None, words: dict[str, str]) -> RosterBlock:
    notes: dict[str, str] = {}  # the roster's footnotes, numbered as they first appear: text → id

    def noted(value: str, note: str) -> str:
        return f"{value}[^{notes.setdefault(note, str(len(notes) + 1))}]"

    units = [_roster_unit(handout, unit, sheet, saves, words, noted) for unit in handout.units]
    labels = [characteristic.label for characteristic in sheet.characteristics]
    return roster_block(handout, labels, units, notes)


def _roster_unit(
    handout: Handout, unit: HandoutUnit, sheet: Sheet, saves: SavesBlock | None, words: dict[str, str], noted
) -> RosterUnit:
    """One unit's row: its move less its armour's penalties, and two saves when a two-handed weapon
    leaves its shield out of close combat; each derived value marked with the note that explains it."""
    own = {weapon.id: weapon for weapon in handout.weapons}
    items = {item.id: item for item in saves.items} if saves else {}
    gear = [own[ref].name if ref in own else _row_name(row_index(sheet), ref) for ref in unit.weapons]
    gear += [items[ref].name for ref in unit.armour] + ([unit.equipment] if unit.equipment else [])
    profile = [unit.profile[characteristic.id] for characteristic in sheet.characteristics]
    moved = _moved(saves, unit, sheet)
    if moved is not None:
        profile[moved[0]] = noted(str(moved[1]), words["move_derived"])
    save = _save_shown(saves, unit.armour)
    if unit.save:  # the roster's own save, or "?": the sheet could not derive it
        note = unit.save_note or (_save_source_note(unit.save_from, words) if unit.save_from else None)
        save = noted(unit.save, note) if note else unit.save
    elif any(own[ref].two_handed for ref in unit.weapons if ref in own):
        close_combat = _save_shown(saves, _without_shields(saves, unit.armour))
        save = noted(f"{save}/{close_combat}", words["saves_split"]) if close_combat != save else save
    rules = [f"{{{rule}}}" for rule in unit.rules] + (
        [labelled(unit.other_rules, sheet, words)] if unit.other_rules else []
    )
    models = [
        RosterModel(
            name=counted_name(model),
            profile=[model.profile.get(characteristic.id, "-") for characteristic in sheet.characteristics],
        )
        for model in unit.models
    ]
    return RosterUnit(
        id=unit.id,
        name=counted_name(unit),
        profile=profile,
        models=models,
        equipment=", ".join(markup.without_footnotes(name) for name in gear) or None,
        rules=", ".join(rules) or None,
        abilities=ability_names(handout, unit),
        save=save,
        points=unit.points,
    )


def _save_source_note(source: SaveSource, words: dict[str, str]) -> str:
    """Where the roster's save comes from, in the handout's language (the roster's names are source text already)."""
    listed = {name: ", ".join(getattr(source, name)) for name in ("unknown", "profiles", "worn_with")}
    if source.profiles:
        return words["save_from_profiles"].format(**listed)
    if source.worn_with:
        return words["save_worn_with"].format(**listed)
    if source.reads:
        return words["save_unreadable"].format(reads=source.reads, **listed)
    return words["save_unknown"].format(**listed)


def _row_name(rows: dict[str, list[tuple[TableBlock, int]]], ref: str) -> str:
    table, index = rows[ref][0]
    return table.rows[index].cells[0].text


def _moved(saves: SavesBlock | None, unit: HandoutUnit, sheet: Sheet) -> tuple[int, int] | None:
    """The unit's move less its armour's penalties, as (position in the profile, value); None when unchanged
    (no penalty, or a move that is not a number, such as 2D6)."""
    if saves is None or saves.move_penalties is None:
        return None
    penalty = saves.move_penalty(unit.armour)
    ids = [characteristic.id for characteristic in sheet.characteristics]
    base = unit.profile.get(saves.move_penalties.characteristic, "")
    if not penalty or not base.isdigit():
        return None
    return ids.index(saves.move_penalties.characteristic), max(int(base) - penalty, 0)


def _without_shields(saves: SavesBlock | None, armour: list[str]) -> list[str]:
    """A unit's armour as it fights with a two-handed weapon: its shields stay on its back."""
    shields = {item.id for item in saves.items if item.shield} if saves else set()
    return [ref for ref in armour if ref not in shields]


def _save_shown(saves: SavesBlock | None, armour: list[str]) -> str | None:
    if saves is None:
        return None
    roll = saves.save(armour)
    return f"{roll}+" if roll else saves.none
