"""Unit profiles: one row of characteristics a unit, with its equipment and rules beneath."""

from __future__ import annotations

from typing import Annotated, Iterator, Literal

from pydantic import Field, StringConstraints

from generator.model.base import MAX_ROWS, TRANSLATABLE, Fact, Finding, Id, Model, OptionalText, Text, counted
from generator.model.blocks.block import BlockBase

StatLine = Annotated[
    list[Annotated[str, StringConstraints(max_length=20), TRANSLATABLE]], Field(min_length=1, max_length=16)
]


class RosterModel(Model):
    """One kind of model in a unit whose models have different stat lines: a row of its own under the unit."""

    name: Text
    profile: StatLine


class RosterUnit(Model):
    """A unit: its profile in the block's characteristics, its equipment, special rules and save."""

    id: Id
    name: Text
    profile: StatLine = Field(examples=[["4", "3", "3", "3", "7"]])
    models: Annotated[list[RosterModel], Field(max_length=40)] = Field(
        default_factory=list, description="Its models' own lines, when they differ: printed instead of the profile."
    )
    equipment: OptionalText | None = None
    rules: OptionalText | None = None
    abilities: OptionalText | None = Field(
        None, description="The names of its abilities, whose texts the handout's abilities tables print."
    )
    save: OptionalText | None = None
    points: Annotated[str, StringConstraints(max_length=12)] | None = Field(None, description="What the unit costs.")


class RosterBlock(BlockBase):
    """Unit profiles: one row of characteristics a unit, with its equipment and rules beneath."""

    type: Literal["roster"]
    characteristics: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=16)] = Field(
        description="The profile's column headers (M, WS, S…)."
    )
    units: Annotated[list[RosterUnit], Field(min_length=1, max_length=MAX_ROWS)]
    points: Annotated[str, StringConstraints(max_length=12)] | None = Field(None, description="The army's total.")
    cost: Annotated[str, StringConstraints(max_length=12)] | None = Field(
        None, description="What the points are counted in (PL, EP); points (pts) in the sheet's language by default."
    )

    def check(self) -> Iterator[Finding]:
        for index, unit in enumerate(self.units):
            lines = [(("units", index, "profile"), unit.profile)]
            lines += [(("units", index, "models", m, "profile"), model.profile) for m, model in enumerate(unit.models)]
            for where, profile in lines:
                if len(profile) != len(self.characteristics):
                    yield (
                        where,
                        (
                            f"{counted(len(profile), 'value')} for "
                            f"{counted(len(self.characteristics), 'characteristic')}"
                        ),
                    )

    def row_facts(self) -> Iterator[Fact]:
        for r, unit in enumerate(self.units):
            for label, value in [
                *zip(self.characteristics, unit.profile),
                ("equipment", unit.equipment),
                ("rules", unit.rules),
                ("save", unit.save),
            ]:
                if value:
                    yield ("row", unit.id, label), f"{unit.name}, {label}", value, r, None
            for m, model in enumerate(unit.models):
                for label, value in zip(self.characteristics, model.profile):
                    if value:
                        yield ("row", unit.id, "model", m, label), f"{unit.name}, {model.name}, {label}", value, r, None
