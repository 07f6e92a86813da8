"""Modifier lists: signed values and what they apply to."""

from __future__ import annotations

from typing import Annotated, Iterator, Literal, Union

from pydantic import Discriminator, Field, StringConstraints, Tag

from generator.model import rules
from generator.model.base import MAX_ROWS, TRANSLATABLE, Fact, Finding, Model, OptionalText, Text
from generator.model.blocks.block import BlockBase, Subheaded, Subheading, TitledColumns, or_subheading

MAX_VALUES = 12  # columns of values, as a table's columns
Value = Annotated[str, StringConstraints(min_length=1, max_length=120), TRANSLATABLE]
# One of several values: "" leaves its column empty (the condition changes only the other column).
ColumnValue = Annotated[str, StringConstraints(max_length=120), TRANSLATABLE]
# The tags name the field itself: pydantic puts a union's tag in an error's path, where a message names the field.
Values = Annotated[
    Union[
        Annotated[Value, Tag("value")],
        Annotated[list[ColumnValue], Field(min_length=1, max_length=MAX_VALUES), Tag("values")],
    ],
    Discriminator(lambda value: "values" if isinstance(value, list) else "value"),
]


class Modifier(Model):
    value: Values = Field(
        description="A signed number (+1, -2, ½, x2, 0), optionally followed by words that qualify it: "
        '"+2 & Quick Kill", "-1 unless {Transfixed}". The number is aligned with the others\'. '
        'Under the block\'s value_titles, a list of one value a column: ["-1", "+1"].',
        examples=["+1", "-1", "+2 & Quick Kill", ["-1", "+1"]],
    )
    text: Text = Field(description="When it applies.")
    detail: OptionalText | None = None
    concerns: list[Annotated[str, StringConstraints(min_length=1, max_length=60)]] = Field(
        default_factory=list,
        description="The keywords (id or term) or unit types (a profile value: Cavalerie) the "
        "modifier applies to: a handout keeps it only when its army has one of them.",
    )


class ModifiersBlock(Subheaded, BlockBase):
    """Signed values with their conditions: "+1 Tir sur une grande cible"; an item may be a sub-heading."""

    type: Literal["modifiers"]
    value_title: OptionalText | None = Field(None, description="Header of the values' column.")
    value_titles: Annotated[list[OptionalText], Field(min_length=2, max_length=MAX_VALUES)] | None = Field(
        None,
        description="Several columns of values (To hit, To be hit), one title each: every item's value is then a "
        "list of as many values, each column aligned on its sign.",
    )
    text_title: OptionalText | None = Field(None, description="Header of the conditions' column.")
    detail_title: OptionalText | None = Field(None, description="Header of the details' column.")
    unit: OptionalText | None = Field(None, description='A unit the values may carry: u, ps, ", SP…')
    items: Annotated[list[or_subheading(Modifier, "items")], Field(min_length=1, max_length=MAX_ROWS)] = Field(
        description="The modifiers, in printed order; {subheading: …} heads the items after it."
    )

    @property
    def lines(self) -> list[Modifier | Subheading]:
        return self.items

    @property
    def modifiers(self) -> list[Modifier]:
        """The items but the sub-headings."""
        return [item for item in self.items if isinstance(item, Modifier)]

    @property
    def titled_columns(self) -> TitledColumns:
        """Its values' columns: one, or one a title of `value_titles`."""
        return TitledColumns("value", "values", self.value_titles, self.value_title)

    @property
    def value_columns(self) -> int:
        """How many columns of values each item has: one, or one a title of `value_titles`."""
        return self.titled_columns.count

    @staticmethod
    def values(item: Modifier) -> list[str]:
        """An item's values, one a column."""
        return TitledColumns.listed(item.value)

    def check(self) -> Iterator[Finding]:
        yield from self.titled_columns.both_titles()
        for index, item in enumerate(self.items):
            if isinstance(item, Subheading):
                continue
            values = self.values(item)
            if len(values) != self.value_columns:
                yield ("items", index, "value"), self._count_problem(values)
                continue
            for column, value in enumerate(values):
                if value and self.split(value) is None:
                    place = ("items", index, "value") + ((column,) if isinstance(item.value, list) else ())
                    yield place, self._value_problem(value)
            if isinstance(item.value, list) and not any(values):
                yield ("items", index, "value"), "every value is empty: a modifier changes at least one column"

    def _count_problem(self, values: list[str]) -> str:
        given = f"{len(values)} value{'s' if len(values) > 1 else ''}"
        example = ", ".join(('"-1"', '"+1"')[column % 2] for column in range(self.value_columns))
        return self.titled_columns.count_problem(given, "value", '"+1"', "To hit, To be hit", example)

    def _value_problem(self, value: str) -> str:
        unit = f" (optionally followed by {self.unit})" if self.unit else ""
        return (
            f"'{value}' is not a modifier: expected a signed number such as +1 or -2, "
            f"a fraction (½, ¼) or a multiplier (x2){unit}, then, if it has one, what qualifies it "
            f"after a space (+2 & Quick Kill)"
        )

    def split(self, value: str) -> tuple[str, str] | None:
        """A value's number and what qualifies it ("+2", "& Quick Kill"): printed in two cells, the numbers aligned."""
        return rules.split_modifier(value, self.unit)

    def cells(self, item: Modifier) -> list[tuple[str, str]]:
        """An item's values, each as its number and its qualifier: one pair a column ("" and "" for an empty one)."""
        return [self.split(value) or (value, "") for value in self.values(item)]

    @property
    def qualified_columns(self) -> list[bool]:
        """Whether each column of values has a qualifier somewhere ("+2 & Quick Kill"): a cell of its own."""
        return [
            any(qualifier for qualifier in column)
            for column in zip(
                *(
                    [qualifier for _, qualifier in self.cells(item)]
                    for item in self.modifiers
                    if len(self.values(item)) == self.value_columns
                )
            )
        ] or [False] * self.value_columns

    @property
    def qualified(self) -> bool:
        return any(self.qualified_columns)

    def row_facts(self) -> Iterator[Fact]:
        for r, item in enumerate(self.items):
            if isinstance(item, Subheading):
                yield ("subheading", item.subheading), "sub-heading", item.subheading, r, 0
                continue
            if isinstance(item.value, str):
                yield ("row", item.text, "value"), item.text, item.value, r, 0
            else:  # one fact a column, keyed by its place (the columns are the block's structure), named by its title
                for column, value in enumerate(item.value):
                    title = self.titled_columns.title(column)
                    yield ("row", item.text, "value", column + 1), f"{item.text} ({title})", value, r, 0
            if item.detail:
                yield ("row", item.text, "detail"), f"{item.text} ({self.detail_title or 'detail'})", item.detail, r, 2
