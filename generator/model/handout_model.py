"""The root of a handout file: one army's units, and the parts of a sheet they use."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints, model_validator

from generator.model.base import (
    TRANSLATABLE,
    Accent,
    CharacteristicId,
    Date,
    Id,
    LanguageCode,
    Model,
    OptionalText,
    RowRef,
    Text,
)
from generator.model.sheet import Characteristic, Document, Keyword, Paper

MAX_UNITS = 200  # a 3,000-point horde army has some 40 units; a roster of single models (Kill Team) fewer than 30
MAX_COUNT = 10_000  # models in one unit
CARD_SIZE = r"^(poker|tarot|a6|\d{2,3}(\.\d)?x\d{2,3}(\.\d)?)$"  # generator.rendering.card_sheets.card_size


class HandoutWeapon(Model):
    """A weapon of the army that the sheet has no row for (a great weapon), named once for every unit."""

    id: Id
    name: Text
    two_handed: bool = Field(False, description="true: no shield in close combat while fighting with it.")
    profile: dict[CharacteristicId, Annotated[str, StringConstraints(pattern=r"^[+-]?\d{1,2}$")]] = Field(
        default_factory=dict,
        description="What it does to its bearer's characteristics: {S: '+2'} adds, {S: '4'} "
        "sets (a crossbow's Strength); handouts keep the matrix rows these give.",
    )


Points = Annotated[str, StringConstraints(pattern=r"^\d{1,6}(\.\d{1,2})?$")]


class ProfileType(Model):
    """A kind of profile a roster gives its units (Ranged Weapons, Abilities): printed as a table, one column a
    characteristic, as the roster names them."""

    id: Id
    name: Text
    characteristics: Annotated[list[Text], Field(min_length=1, max_length=11)] = Field(
        description="The columns of its table after the profile's name: Range, A, BS, S, AP, D, Keywords."
    )


class Carrier(Model):
    """Models of a unit that carry one of its profiles."""

    name: Text = Field(description="The models, as the roster names them: Devastator Marine w/Heavy Weapon.")
    count: Annotated[int, Field(ge=1, le=MAX_COUNT)] = Field(1, description="How many of the unit's models they are.")


class UnitProfile(Model):
    """One profile of a unit (a weapon, an ability, a champion's line): a row of its type's table."""

    type: Id = Field(description="The id of one of the handout's profile_types.")
    name: Text
    values: Annotated[list[OptionalText], Field(max_length=11)] = Field(
        description="One value for each of its type's characteristics, in order."
    )
    carried_by: Annotated[list[Carrier], Field(max_length=20)] = Field(
        default_factory=list,
        description="The models of the unit that carry it, when not all of them do; printed under its name in its "
        "table (2 × Devastator Marine w/Heavy Weapon). None: every model of the unit carries it.",
    )


RosterNames = Annotated[list[Annotated[str, StringConstraints(min_length=1, max_length=200)]], Field(max_length=20)]


class SaveSource(Model):
    """Where a save the sheet could not derive comes from, as data: the footnote under the units says it in each
    language the handout prints in."""

    unknown: RosterNames = Field(
        description="The unit's armour the sheet's saves table has no row for, as the roster names it."
    )
    profiles: RosterNames = Field(
        default_factory=list,
        description="The roster's armour profiles the save was read from, with their values (Gromril Armour 4+).",
    )
    worn_with: RosterNames = Field(
        default_factory=list,
        description="Armour worn with it whose save the roster does not give: the save is then unknown (?).",
    )
    reads: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = Field(
        None, description="A profile's value that reads as no save nor bonus: the save is then unknown (?)."
    )


StatValues = dict[
    Annotated[str, StringConstraints(max_length=12)],
    Annotated[str, StringConstraints(min_length=1, max_length=20), TRANSLATABLE],
]


class HandoutModel(Model):
    """One kind of model in a unit with a stat line of its own (a squad's Sergeant, a war machine's crew)."""

    name: Text
    count: Annotated[int, Field(ge=1, le=MAX_COUNT)] | None = Field(
        None, description="How many of the unit's models it stands for."
    )
    profile: StatValues = Field(description="Its values, by characteristic id, as the unit's profile.")


class ArmyChoice(Model):
    """A choice made for the whole army (its battle size, detachment, chapter, hive fleet), printed above its units."""

    name: Text = Field(description="What is chosen: Battle Size, Detachment, Hive Fleet.")
    value: OptionalText | None = Field(None, description="What was chosen: Strike Force, Leviathan.")
    rules: list[Annotated[str, StringConstraints(min_length=1, max_length=60)]] = Field(
        default_factory=list,
        description="The keywords (the sheet's or the handout's) the choice brings, by id or term.",
    )


class HandoutUnit(Model):
    """A unit of the army, described with the sheet's own characteristics, equipment and keywords."""

    id: Id
    name: Text
    profile: dict[
        Annotated[str, StringConstraints(max_length=12)],
        Annotated[str, StringConstraints(min_length=1, max_length=20), TRANSLATABLE],
    ] = Field(
        default_factory=dict,
        description="A value for each of the sheet's characteristics (or the handout's own), "
        "by id: {M: '4', WS: '3', …}.",
    )
    weapons: list[RowRef] = Field(
        default_factory=list, description="Rows of the sheet's tables, or the handout's own weapons, by id."
    )
    armour: list[Id] = Field(default_factory=list, description="Items of the sheet's saves table, by id.")
    equipment: OptionalText | None = Field(None, description="Other equipment, printed as written.")
    rules: list[Annotated[str, StringConstraints(min_length=1, max_length=60)]] = Field(
        default_factory=list, description="The sheet's keywords, by id or term."
    )
    other_rules: OptionalText | None = Field(
        None, description="Special rules the sheet does not define, printed as written."
    )
    count: Annotated[int, Field(ge=1, le=MAX_COUNT)] | None = Field(
        None, description="How many models: printed before the name."
    )
    points: Points | None = Field(None, description="What the unit costs, printed beside its name.")
    save: Annotated[str, StringConstraints(min_length=1, max_length=20), TRANSLATABLE] | None = Field(
        None,
        description="The save printed instead of the one derived through the sheet's saves table: the "
        "roster's own (Sv 3+), or ? when its armour is not the sheet's.",
    )
    save_note: OptionalText | None = Field(None, description="A footnote to the save: what was not understood.")
    save_from: SaveSource | None = Field(
        None,
        description="Where a save the sheet could not derive comes from (written by qrs handout import): its footnote.",
    )
    profiles: Annotated[list[UnitProfile], Field(max_length=100)] = Field(
        default_factory=list,
        description="Its other profiles (weapons, abilities), printed in a table for each of "
        "the handout's profile_types.",
    )
    models: Annotated[list[HandoutModel], Field(max_length=40)] = Field(
        default_factory=list,
        description="Its kinds of model when they have different stat lines, each printed "
        "under its own name with its count (5 × Devastator Marine, 1 × "
        "Sergeant); the profile is then the rank and file's, that saves and "
        "moves derive from.",
    )


class Handout(Document):
    """A one-army handout: its units and only the parts of a sheet they use. The root of a handout file."""

    handout: Id
    sheet: Id | None = Field(
        None,
        description="The sheet (file name in sources/, without .yaml) the handout draws "
        "on; none: the handout prints what its units carry and nothing more.",
    )
    game: OptionalText | None = Field(None, description="Without a sheet: the game's name, printed under the army.")
    army: Text
    subtitle: OptionalText | None = None
    lang: LanguageCode = Field(description="The language the handout is written in.")
    languages: list[LanguageCode] = Field(default_factory=list, description="Languages to print (default: lang).")
    date: Date
    accent: Accent | None = None
    paper: Paper = Field(default_factory=lambda: Paper(orientation="portrait", columns=2))
    cards: Annotated[str, StringConstraints(pattern=CARD_SIZE)] | None = Field(
        None,
        description="Also print the units as cards of this size (qrs handout): poker (63 x 88 mm), tarot "
        "(70 x 120), a6 (105 x 148), or WIDTHxHEIGHT in mm (60x90).",
    )
    include: list[Id] | None = Field(None, description="Sections or blocks of the sheet to print, by id.")
    exclude: list[Id] | None = Field(None, description="Print every section of the sheet but these.")
    kept: list[Id] | None = Field(
        None, alias="except", description="With exclude: blocks of the excluded sections to print all the same."
    )
    weapons: list[HandoutWeapon] = Field(
        default_factory=list, description="The army's weapons the sheet has no row for."
    )
    characteristics: Annotated[list[Characteristic], Field(max_length=16)] = Field(
        default_factory=list, description="Without a sheet: the units' profile, as the roster names it."
    )
    keywords: Annotated[list[Keyword], Field(max_length=500)] = Field(
        default_factory=list,
        description="Special rules of the army with their texts, printed in a glossary: "
        "units name them in rules, by id or term.",
    )
    profile_types: Annotated[list[ProfileType], Field(max_length=60)] = Field(
        default_factory=list, description="The kinds of the units' profiles, each printed as a table."
    )
    as_written: bool = Field(
        False,
        description="true: the handout's own words (a roster's) print as written in "
        "every language; it has no catalogue.",
    )
    choices: Annotated[list[ArmyChoice], Field(max_length=40)] = Field(
        default_factory=list,
        description="The army's own choices (battle size, detachment, sub-faction), printed above its units.",
    )
    units: Annotated[list[HandoutUnit], Field(min_length=1, max_length=MAX_UNITS)]
    points: Points | None = Field(None, description="The army's total points, printed under its units.")
    cost: Annotated[str, StringConstraints(min_length=1, max_length=12)] | None = Field(
        None,
        description="What the points are counted in, as the army list names it (PL, EP), printed beside them; "
        "points (pts) in the handout's language by default.",
    )
    untranslatable: list[Annotated[str, StringConstraints(min_length=1, max_length=200)]] = Field(
        default_factory=list,
        description="Names printed as they are in every language (a roster's own unit names): "
        "not offered for translation.",
    )

    @model_validator(mode="after")
    def _include_or_exclude(self) -> "Handout":
        if self.include is not None and self.exclude is not None:
            raise ValueError("give include (sections to print) or exclude (sections to leave out), not both")
        if self.kept is not None and self.exclude is None:
            raise ValueError(
                "except keeps blocks of excluded sections: give it with exclude (or name the blocks in include)"
            )
        if self.sheet is None and (self.include or self.exclude or self.kept):
            raise ValueError("include, exclude and except name parts of a sheet: give the sheet, or leave them out")
        if self.sheet is not None and self.characteristics:
            raise ValueError("characteristics are the sheet's: give them only to a handout without a sheet")
        return self

    @property
    def outputs(self) -> list[str]:
        return self.languages or [self.lang]
