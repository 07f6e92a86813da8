"""A handout's own profiles and rules, as a roster gives them: a table for each kind of profile (weapons,
abilities, other models), the army's rules with their texts in a glossary, and a handout made of these alone when
it draws on no sheet (a game qrs has no sheet for)."""

from __future__ import annotations

import re
from typing import Iterator

from generator.composing import table_widths
from generator.composing.handout_headings import heading, labelled
from generator.model import geometry
from generator.model.types import (
    Block,
    Finding,
    Footnote,
    GlossaryBlock,
    Handout,
    HandoutUnit,
    Keyword,
    RosterBlock,
    RosterModel,
    RosterUnit,
    Section,
    Sheet,
    TableBlock,
    TextBlock,
    UnitProfile,
)
from generator.reading.rosters.names import MIDDLE_EARTH

ABILITY_TYPES = re.compile(
    r"abilit|rule|spell|psychic|power|prayer|trait|invocation|enhancement|lore|transport", re.IGNORECASE
)
# a profile that says how one unit degrades as it is wounded: printed with its unit, not among the weapons
TRACK_TYPES = re.compile(r"wound ?track|damage ?table|damage ?chart|bracket|degrad", re.IGNORECASE)
SHORT = 8  # a value of at most this many characters (N/A, 2+, -1, 18") prints on one line: its column never breaks
# a characteristic whose text would wrap to more lines than this in its column (a Middle-earth power's rule, an Age
# of Sigmar ability's effect, a Kill Team weapon's abilities beside five numbers) prints under its row across the
# table, labelled, where the kind has others: its column would be a few words wide
UNDER_LINES = 8


def prints_carriers(kind_name: str) -> bool:
    """Whether a profile type's rows print who carries them under their names: an equipment table's do; an
    ability names its units beside it, a wound track prints with its unit."""
    return not ABILITY_TYPES.search(kind_name) and not TRACK_TYPES.search(kind_name)


def profile_findings(handout: Handout) -> Iterator[Finding]:
    """Each unit's profiles name a profile type of the handout and give one value for each of its characteristics;
    the handout's keywords have distinct ids and terms."""
    types = {kind.id: kind for kind in handout.profile_types}
    seen = set()
    for t, kind in enumerate(handout.profile_types):
        if kind.id in seen:
            yield ("profile_types", t, "id"), f"duplicate profile type id '{kind.id}'"
        seen.add(kind.id)
    for u, unit in enumerate(handout.units):
        for p, profile in enumerate(unit.profiles):
            kind = types.get(profile.type)
            here = ("units", u, "profiles", p)
            if kind is None:
                yield here + ("type",), f"unknown profile type '{profile.type}': not one of the handout's profile_types"
            elif len(profile.values) != len(kind.characteristics):
                yield (
                    here + ("values",),
                    (
                        f"{len(profile.values)} value(s) for the {len(kind.characteristics)} "
                        f"characteristic(s) of '{kind.name}'"
                    ),
                )
    terms: set[str] = set()
    for k, keyword in enumerate(handout.keywords):
        keys = {keyword.id, keyword.term.casefold()}
        for key in sorted(keys & terms):
            yield ("keywords", k), f"duplicate keyword '{key}': each rule is defined once"
        terms |= keys


def profile_blocks(
    handout: Handout, words: dict[str, str], sheet: Sheet | None = None
) -> tuple[list[Block], list[Block]]:
    """The tables of the units' profiles, each profile once however many units carry it: (equipment, abilities), an
    ability named with its units. Their headings in the handout's language; their rows as the roster writes them."""
    equipment, abilities = [], []
    for kind in handout.profile_types:
        if TRACK_TYPES.search(kind.name):
            continue  # printed with its unit (unit_tables)
        carriers: dict[tuple, list[tuple[HandoutUnit, UnitProfile]]] = {}  # each profile once, with its units
        for unit in handout.units:
            for profile in unit.profiles:
                if profile.type == kind.id:
                    carriers.setdefault((profile.name, tuple(profile.values)), []).append((unit, profile))
        if not carriers:
            continue
        ability = bool(ABILITY_TYPES.search(kind.name))
        whole = _whole(handout, words)
        under = _under(kind, list(carriers), handout.paper)
        rows = []
        for (name, values), held in carriers.items():
            named = (
                _carried(name, [unit.name for unit, _ in held], len(handout.units))
                if ability
                else _with_carriers(name, held, words, len(handout.units), whole)
            )
            rows.append([named, *(value or "-" for c, value in enumerate(values) if c not in under)])
            rows += _text_under(kind.characteristics, values, under, len(rows[-1]), sheet, words)
        shown = [characteristic for c, characteristic in enumerate(kind.characteristics) if c not in under]
        long_text = any(len(row[-1]) > 60 for row in rows if isinstance(row, list))
        table = _table(
            f"profiles-{kind.id}", None, heading(kind.name, sheet, words), shown, rows, long_text, sheet, words
        )
        (abilities if ability or (long_text and len(kind.characteristics) == 1) else equipment).append(table)
    return equipment, abilities


def _under(kind, rows: list[tuple[str, tuple[str, ...]]], paper) -> set[int]:
    """The characteristics of a kind printed under each row rather than in a column: those whose longest text
    would wrap to more than UNDER_LINES lines in the width a column of the page gives it (estimated as the
    roster's fitting estimates a table), where the kind has others (a kind of one text keeps it in its column)."""
    if len(kind.characteristics) < 2:
        return set()
    columns = [(kind.name, [name for name, _ in rows])]
    columns += [(title, [values[c] or "" for _, values in rows]) for c, title in enumerate(kind.characteristics)]
    room = geometry.frame(paper.size, paper.orientation, paper.columns, None).column_width
    widths = table_widths.shares(
        [table_widths.least_width(*column) for column in columns],
        [table_widths.most_width(*column) for column in columns],
        room,
    )
    return {
        c
        for c, (_, values) in enumerate(columns[1:])
        if max(map(len, values)) * table_widths.CHARACTER_MM > UNDER_LINES * (widths[c + 1] - table_widths.PADDING_MM)
    }


def _text_under(
    characteristics: list[str], values: tuple[str, ...], under: set[int], width: int, sheet, words: dict[str, str]
) -> list[dict]:
    """The row printed under a profile's row across the table: each long characteristic's text, labelled."""
    texts = [
        f"**{heading(characteristics[c], sheet, words)}**: {values[c]}"
        for c in sorted(under)
        if values[c] and values[c] != "-"
    ]
    return [{"cells": [{"text": "\n".join(texts), "span": width}], "under": True}] if texts else []


def ability_names(handout: Handout, unit: HandoutUnit) -> str | None:
    """The names of a unit's abilities, each once, as its row lists them: their texts are in the abilities tables,
    which name the units beside them (without the unit's own name, where an ability told apart on import has it).
    Not one its special rules name already (a 40k Leader is both)."""
    kinds = {kind.id for kind in handout.profile_types if ABILITY_TYPES.search(kind.name)}
    terms = {keyword.id: keyword.term for keyword in handout.keywords}
    said = {name.casefold() for rule in unit.rules for name in (rule, terms.get(rule, rule))}
    own = f" ({unit.name})"
    names = [profile.name.removesuffix(own) for profile in unit.profiles if profile.type in kinds]
    return ", ".join(name for name in dict.fromkeys(names) if name.casefold() not in said) or None


def _carried(name: str, units: list[str], every: int) -> str:
    """An ability's name with the units it belongs to, gathered away from them: "Reanimation Protocols (Necron
    Warriors, Canoptek Wraiths)"; as it is when the army's only unit has it, or when its name already says so (an
    ability told apart from another of its name on import: "Invulnerable Save (The Silent King)")."""
    units = list(dict.fromkeys(units))
    named = f" ({', '.join(units)})"
    return f"{name}{named}" if every > 1 and not name.endswith(named) else name


def _whole(handout: Handout, words: dict[str, str]) -> str:
    """How a unit carrying a profile whole is said beside models of its name: a warband in the Middle-earth game."""
    return words["whole_warband"] if MIDDLE_EARTH.search(handout.game or "") else words["whole_unit"]


def _with_carriers(
    name: str, held: list[tuple[HandoutUnit, UnitProfile]], words: dict[str, str], every: int, whole: str
) -> str:
    """A weapon's name, and under it who carries it: the models of a unit that carry it in part, with their numbers,
    and the units that carry it whole (Heavy bolter / Carried by 2 × Devastator Marine w/Heavy Weapon; Warpforged
    Blade / Carried by Clawlord: a Warcry fighter's weapon). Nothing under it where every unit of the army (`every`)
    carries it whole: a one-unit army's, or everyone's."""
    parts = any(profile.carried_by for _, profile in held)
    if not parts and _named_after(name, [unit.name for unit, _ in held]):
        return name  # told apart on import by what carries it: said already
    line = carriers_line(held, whole, whole_too=len({unit.id for unit, _ in held}) < every)
    if not line:
        return name
    said = words["carried_by"].format(carriers=line)
    return f"{name}\n{said}" if "*" in said else f"{name}\n*{said}*"  # a star in a name would end the italics


def _named_after(name: str, units: list[str]) -> bool:
    """Whether a profile's name, told apart from another of its name on import, already names the units that carry
    it: "Lasgun (Doc Ulver)" for Doc Ulver (Medic Veteran), "Armoured bulk (Doomsday Ark)"."""
    match = re.search(r"\(([^()]*)\)$", name)
    said = [part.strip() for part in match.group(1).split(",")] if match else []
    return bool(said) and all(any(unit.startswith(part) for part in said) for unit in units)


def carriers_line(held: list[tuple[HandoutUnit, UnitProfile]], whole: str, whole_too: bool = False) -> str:
    """Who carries a profile the units hold ("Thane, 6 × Dwarf Crew"): the units that carry it whole, each unit once
    (two of one name "×2"), then the models that carry it in the others, like-named ones added up; "" when no unit
    carries it in part, unless `whole_too`. A whole unit is never added to a model of its name: a MESBG warband is
    named after its hero, so the second Captain of Minas Tirith's warband prints as a whole unit beside the first
    one's Captain."""
    if all(not profile.carried_by for _, profile in held) and not whole_too:
        return ""
    models: dict[str, int] = {}
    for _, profile in held:
        for model in profile.carried_by:
            models[model.name] = models.get(model.name, 0) + model.count
    wholes: dict[str, set[str]] = {}  # a unit's name → the units of that name that carry it whole
    for unit, profile in held:
        if not profile.carried_by:
            wholes.setdefault(unit.name, set()).add(unit.id)
    return ", ".join(
        [
            *(_whole_units(name, len(units), name in models, whole) for name, units in wholes.items()),
            *(f"{count} × {name}" if count > 1 else name for name, count in models.items()),
        ]
    )


def _whole_units(name: str, units: int, like_a_model: bool, whole: str) -> str:
    """Units of one name that carry a profile whole: their name, "×2" after it for two; said to be whole units
    (`whole`: the words for it) where a model of the line has their name."""
    shown = f"{name} \u00d7{units}" if units > 1 else name
    return whole.format(unit=shown) if like_a_model else shown


def unit_tables(handout: Handout, words: dict[str, str], sheet: Sheet | None = None) -> list[Block]:
    """The profiles that belong to one unit (a vehicle's wound track, a monster's damage table): a table for each
    unit, titled with its name, printed after the units' table rather than among the weapons."""
    kinds = {kind.id: kind for kind in handout.profile_types if TRACK_TYPES.search(kind.name)}
    tables: list[Block] = []
    for unit in handout.units:
        for kind in kinds.values():
            rows = [
                [profile.name, *(value or "-" for value in profile.values)]
                for profile in unit.profiles
                if profile.type == kind.id
            ]
            if rows:
                tables.append(
                    _table(
                        f"profiles-{kind.id}-{unit.id}",
                        f"{unit.name}: {heading(kind.name, sheet, words)}",
                        heading(kind.name, sheet, words),
                        kind.characteristics,
                        rows,
                        False,
                        sheet,
                        words,
                    )
                )
    return tables


def _table(
    ident: str,
    title: str | None,
    name: str,
    characteristics: list[str],
    rows: list[list[str] | dict],
    long_text: bool,
    sheet: Sheet | None,
    words: dict[str, str],
) -> TableBlock:
    """A table of profiles of one type: its name's column, then a column a characteristic, short values centred and
    never broken (N/A, 2+), wordy ones set left; a row given as a mapping (a text under the row above) as it is."""
    cells = [row for row in rows if isinstance(row, list)]
    wordy = [any(len(row[c + 1]) > SHORT for row in cells) for c in range(len(characteristics))]
    columns = [{"title": name, "width": "24%" if long_text else None}] + [
        {
            "title": heading(characteristic, sheet, words),
            "align": "left" if wordy[c] else "center",
            "nowrap": None if wordy[c] else True,
        }
        for c, characteristic in enumerate(characteristics)
    ]
    return TableBlock(
        id=ident,
        type="table",
        title=title,
        columns=[{key: value for key, value in column.items() if value is not None} for column in columns],
        rows=rows,
    )


def keywords_of(handout: Handout, sheet: Sheet | None) -> list[Keyword]:
    """The keywords a composed handout resolves: its sheet's, then its own."""
    return [*(sheet.keywords if sheet else []), *handout.keywords]


def glossary(handout: Handout) -> list[Block]:
    """The army's own rules with their texts, each once."""
    defined = [keyword.id for keyword in handout.keywords if keyword.text]
    return [GlossaryBlock(id="handout-army-rules", type="glossary", keywords=defined)] if defined else []


def counted_name(unit) -> str:
    """A unit's or a model's name as its row prints it: with its count before it (5 × Devastator Marine)."""
    return f"{unit.count} × {unit.name}" if unit.count else unit.name


def choices_block(handout: Handout, words: dict[str, str]) -> list[Block]:
    """The army's choices (battle size, detachment, hive fleet) in a list above its units, each with what was
    chosen and the rules it brings (their texts in the army's rules): what a player tells an opponent first."""
    items = []
    for choice in handout.choices:
        said = [choice.value] if choice.value else []
        said += [", ".join(f"{{{rule}}}" for rule in choice.rules)] if choice.rules else []
        items.append(f"**{choice.name}**" + (f": {' — '.join(said)}" if said else ""))
    if not items:
        return []
    return [TextBlock(id="handout-army", type="text", title=words["army"], content=[{"bullets": items}])]


def own_roster(handout: Handout, words: dict[str, str]) -> RosterBlock:
    """The units in the handout's own characteristics, their saves as the roster gives them."""
    notes: dict[str, str] = {}
    labels = [characteristic.label for characteristic in handout.characteristics] or ["-"]
    units = []
    for unit in handout.units:
        profile = [unit.profile.get(characteristic.id, "-") for characteristic in handout.characteristics] or ["-"]
        save = unit.save
        if save and unit.save_note:
            save = f"{save}[^{notes.setdefault(unit.save_note, str(len(notes) + 1))}]"
        rules = [f"{{{rule}}}" for rule in unit.rules] + (
            [labelled(unit.other_rules, None, words)] if unit.other_rules else []
        )
        models = [
            RosterModel(
                name=counted_name(model),
                profile=[model.profile.get(characteristic.id, "-") for characteristic in handout.characteristics]
                or ["-"],
            )
            for model in unit.models
        ]
        units.append(
            RosterUnit(
                id=unit.id,
                name=counted_name(unit),
                profile=profile,
                models=models,
                equipment=unit.equipment,
                rules=", ".join(rules) or None,
                abilities=ability_names(handout, unit),
                save=save,
                points=unit.points,
            )
        )
    return roster_block(handout, labels, units, notes)


def roster_block(handout: Handout, labels: list[str], units: list[RosterUnit], notes: dict[str, str]) -> RosterBlock:
    """The handout's roster block: its units under the stat line's headings, the army's points, the notes the units
    mark (text → mark)."""
    return RosterBlock(
        id="handout-units",
        type="roster",
        characteristics=labels,
        units=units,
        points=handout.points,
        cost=handout.cost,
        notes=[Footnote(id=key, text=text) for text, key in notes.items()],
    )


def compose_alone(handout: Handout, words: dict[str, str]) -> Sheet:
    """A handout without a sheet as a sheet: its units, the tables of their profiles, their rules."""
    equipment, abilities = profile_blocks(handout, words)
    sections = [
        Section(
            id="handout-units",
            title=words["units"],
            blocks=choices_block(handout, words) + [own_roster(handout, words)] + unit_tables(handout, words),
        )
    ]
    if equipment:
        sections.append(Section(id="handout-equipment", title=words["equipment"], blocks=equipment))
    rules = abilities + glossary(handout)
    if rules:
        sections.append(Section(id="handout-special-rules", title=words["special_rules"], blocks=rules))
    return Sheet(
        sheet=handout.handout,
        game=handout.game or handout.army,
        title=handout.army,
        subtitle=handout.subtitle,
        lang=handout.lang,
        date=handout.date,
        accent=handout.accent or "#7a1f1f",
        paper=handout.paper,
        keywords=handout.keywords,
        characteristics=handout.characteristics,
        sections=sections,
    )
