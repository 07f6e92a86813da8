"""Unit profiles: one row of characteristics a unit, with its equipment and rules beneath."""

from __future__ import annotations

from typing import Annotated, Iterator, Literal

from pydantic import Field, StringConstraints

from generator.model.base import MAX_ROWS, TRANSLATABLE, Fact, Finding, Id, Model, OptionalText, Text, counted
from generator.model.blocks.block import BlockBase


class RosterUnit(Model):
    """A unit: its profile in the block's characteristics, its equipment, special rules and save."""

    id: Id
    name: Text
    profile: Annotated[list[Annotated[str, StringConstraints(max_length=20), TRANSLATABLE]], Field(min_length=1, max_length=16)]
    equipment: OptionalText | None = None
    rules: OptionalText | None = None
    save: OptionalText | None = None
    points: Annotated[str, StringConstraints(max_length=12)] | None = Field(None, description="What the unit costs.")


class RosterBlock(BlockBase):
    """Unit profiles: one row of characteristics a unit, with its equipment and rules beneath."""

    type: Literal["roster"]
    characteristics: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=16)]
    units: Annotated[list[RosterUnit], Field(min_length=1, max_length=MAX_ROWS)]
    points: Annotated[str, StringConstraints(max_length=12)] | None = Field(None, description="The army's total.")
    cost: Annotated[str, StringConstraints(max_length=12)] | None = Field(
        None, description="What the points are counted in (PL, EP); points (pts) in the sheet's language by default.")

    def check(self) -> Iterator[Finding]:
        for index, unit in enumerate(self.units):
            if len(unit.profile) != len(self.characteristics):
                yield ("units", index, "profile"), (
                    f"{counted(len(unit.profile), 'value')} for {counted(len(self.characteristics), 'characteristic')}")

    def row_facts(self) -> Iterator[Fact]:
        for r, unit in enumerate(self.units):
            for label, value in [*zip(self.characteristics, unit.profile), ("equipment", unit.equipment),
                                 ("rules", unit.rules), ("save", unit.save)]:
                if value:
                    yield ("row", unit.id, label), f"{unit.name}, {label}", value, r, None
