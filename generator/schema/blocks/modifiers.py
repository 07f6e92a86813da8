"""Modifier lists: signed values and what they apply to."""

from __future__ import annotations

from typing import Annotated, Iterator, Literal

from pydantic import Field, StringConstraints

from generator.schema import rules
from generator.schema.base import MAX_ROWS, TRANSLATABLE, Fact, Finding, Model, OptionalText, Text
from generator.schema.blocks.block import BlockBase


class Modifier(Model):
    value: Annotated[str, StringConstraints(min_length=1, max_length=20), TRANSLATABLE]
    text: Text
    detail: OptionalText | None = None
    concerns: list[Annotated[str, StringConstraints(min_length=1, max_length=60)]] = Field(
        default_factory=list, description="The keywords (id or term) or unit types (a profile value: Cavalerie) the "
                                          "modifier applies to: a handout keeps it only when its army has one of them.")


class ModifiersBlock(BlockBase):
    """Signed values with their conditions: "+1 Tir sur une grande cible"."""

    type: Literal["modifiers"]
    value_title: OptionalText | None = None
    text_title: OptionalText | None = None
    detail_title: OptionalText | None = None
    unit: OptionalText | None = Field(None, description="A unit the values may carry: u, ps, \", SP…")
    items: Annotated[list[Modifier], Field(min_length=1, max_length=MAX_ROWS)]

    def check(self) -> Iterator[Finding]:
        for index, item in enumerate(self.items):
            if not rules.is_modifier(item.value, self.unit):
                unit = f" (optionally followed by {self.unit})" if self.unit else ""
                yield ("items", index, "value"), (
                    f"'{item.value}' is not a modifier: expected a signed number such as +1 or -2, "
                    f"a fraction (½, ¼) or a multiplier (x2){unit}"
                )

    def row_facts(self) -> Iterator[Fact]:
        for r, item in enumerate(self.items):
            yield ("row", item.text, "value"), item.text, item.value, r, 0
            if item.detail:
                yield ("row", item.text, "detail"), f"{item.text} ({self.detail_title or 'detail'})", item.detail, r, 2
