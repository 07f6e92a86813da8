"""Modifier lists: signed values and what they apply to."""

from __future__ import annotations

from typing import Annotated, Iterator, Literal

from pydantic import Field, StringConstraints

from generator.model import rules
from generator.model.base import MAX_ROWS, TRANSLATABLE, Fact, Finding, Model, OptionalText, Text
from generator.model.blocks.block import BlockBase, Subheaded, Subheading, or_subheading


class Modifier(Model):
    value: Annotated[str, StringConstraints(min_length=1, max_length=120), TRANSLATABLE] = Field(
        description="A signed number (+1, -2, ½, x2, 0), optionally followed by words that qualify it: "
                    "\"+2 & Quick Kill\", \"-1 unless {Transfixed}\". The number is aligned with the others'.")
    text: Text
    detail: OptionalText | None = None
    concerns: list[Annotated[str, StringConstraints(min_length=1, max_length=60)]] = Field(
        default_factory=list, description="The keywords (id or term) or unit types (a profile value: Cavalerie) the "
                                          "modifier applies to: a handout keeps it only when its army has one of them.")


class ModifiersBlock(Subheaded, BlockBase):
    """Signed values with their conditions: "+1 Tir sur une grande cible"; an item may be a sub-heading."""

    type: Literal["modifiers"]
    value_title: OptionalText | None = None
    text_title: OptionalText | None = None
    detail_title: OptionalText | None = None
    unit: OptionalText | None = Field(None, description="A unit the values may carry: u, ps, \", SP…")
    items: Annotated[list[or_subheading(Modifier, "items")], Field(min_length=1, max_length=MAX_ROWS)]

    @property
    def lines(self) -> list[Modifier | Subheading]:
        return self.items

    @property
    def modifiers(self) -> list[Modifier]:
        """The items but the sub-headings."""
        return [item for item in self.items if isinstance(item, Modifier)]

    def check(self) -> Iterator[Finding]:
        for index, item in enumerate(self.items):
            if isinstance(item, Modifier) and self.split(item) is None:
                unit = f" (optionally followed by {self.unit})" if self.unit else ""
                yield ("items", index, "value"), (
                    f"'{item.value}' is not a modifier: expected a signed number such as +1 or -2, "
                    f"a fraction (½, ¼) or a multiplier (x2){unit}, then, if it has one, what qualifies it "
                    f"after a space (+2 & Quick Kill)"
                )

    def split(self, item: Modifier) -> tuple[str, str] | None:
        """The item's number and what qualifies it ("+2", "& Quick Kill"): printed in two cells, the numbers aligned."""
        return rules.split_modifier(item.value, self.unit)

    @property
    def qualified(self) -> bool:
        return any((self.split(item) or ("", ""))[1] for item in self.modifiers)

    def row_facts(self) -> Iterator[Fact]:
        for r, item in enumerate(self.items):
            if isinstance(item, Subheading):
                yield ("subheading", item.subheading), "sub-heading", item.subheading, r, 0
                continue
            yield ("row", item.text, "value"), item.text, item.value, r, 0
            if item.detail:
                yield ("row", item.text, "detail"), f"{item.text} ({self.detail_title or 'detail'})", item.detail, r, 2
