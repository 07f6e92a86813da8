"""Dice tables: what each result of a roll does, every result covered once."""

from __future__ import annotations

from typing import Annotated, ClassVar, Iterator, Literal, Union

from pydantic import Discriminator, Field, StringConstraints, Tag, field_validator, model_validator

from generator.model import rules
from generator.model.base import MAX_ROWS, Align, Fact, Finding, Id, Model, OptionalText
from generator.model.blocks.block import BlockBase, TitledColumns

MAX_RESULT_COLUMNS = 8  # a critical table's locations or weapon classes (A to E); the roll column beside them


class DiceResult(Model):
    id: Id | None = Field(None, description="A stable id, so that texts can name this result: {result:BLOCK/ID}.")
    roll: Annotated[str, StringConstraints(min_length=1, max_length=30)] = Field(
        description="The results the row covers: 7, 3-4 (or 3~4), 10+, or several: '16, 21', '11-15, 62'.",
        examples=["4", "3-5", "7+"],
    )
    name: OptionalText | None = Field(None, description="A named result, printed in italics before the text.")
    text: OptionalText = Field("", description="What happens on these results, in the sheet's markup.")

    @field_validator("roll", mode="before")
    @classmethod
    def _ranges_with_a_dash(cls, roll):
        return roll.replace("~", "-") if isinstance(roll, str) else roll  # "11~15" is written "11-15"


class InnerRoll(Model):
    """A roll inside a result ("roll again: 1-3 …, 4-6 …"), checked like a dice table, printed under the result."""

    die: Annotated[str, StringConstraints(pattern=r"^(\d?)D(\d{1,2})$")] = Field(
        description="The die of the roll made on this result: D3, D6, 2D6…"
    )
    rows: Annotated[list[DiceResult], Field(min_length=1, max_length=36)]


# The tags name the field itself: pydantic puts a union's tag in an error's path, where a message names the field.
Texts = Annotated[
    Union[
        Annotated[OptionalText, Tag("text")],
        Annotated[list[OptionalText], Field(min_length=1, max_length=MAX_RESULT_COLUMNS), Tag("texts")],
    ],
    Discriminator(lambda text: "texts" if isinstance(text, list) else "text"),
]


class DiceRow(DiceResult):
    text: Texts = Field(
        "",
        description="What happens on these results, in the sheet's markup. Under the block's text_titles, a list "
        'of one text a column: ["Blow cuts the chest", "Strike slices the chest", …] ("" leaves a column empty).',
    )
    then: InnerRoll | None = Field(None, description="A roll made on this result: its die and its rows.")


def roll_findings(possible: list[int], rows: list[DiceResult], rolled: str) -> Iterator[Finding]:
    """Every result of `possible` in exactly one row: overlaps, results it cannot give, then gaps."""
    seen: dict[int, int] = {}
    unreadable = False
    for index, row in enumerate(rows):
        try:
            results = rules.roll_results(row.roll, possible)
        except ValueError as error:
            unreadable = True
            yield ("rows", index, "roll"), str(error)
            continue
        for result in results:
            if result in seen:
                yield (
                    ("rows", index, "roll"),
                    f"{result} is already covered by row {seen[result] + 1} ('{rows[seen[result]].roll}')",
                )
            else:
                seen[result] = index
    missing = [r for r in possible if r not in seen]
    if missing and not unreadable:  # a gap behind an unreadable roll is not news
        verb = "can give" if rolled.startswith("the range") else "can roll"
        yield ("rows",), f"{rolled} {verb} {rules.describe(missing)}, which no row covers"


class DiceAlign(Model):
    """How each column of a dice table is aligned; a column left out keeps its own (the roll centred, the rest left)."""

    roll: Align | None = Field(None, description="The roll column's alignment (centred by default).")
    name: Align | None = Field(None, description="The named results' column alignment (left by default).")
    text: Align | None = Field(None, description="The results' text column alignment (left by default).")


class DiceBlock(BlockBase):
    """Rows keyed by a roll ("2", "3-4", "10+", "16, 21") of a die expression (D6, 2D6, D66…), or, as a lookup,
    by ranges of any number (`range: 1+`, rows "1-5", "6-11", "36+")."""

    cuts_units: ClassVar[bool] = True

    type: Literal["dice"]
    die: Annotated[str, StringConstraints(pattern=r"^(\d*)D(\d+)$")] | None = Field(
        None,
        description="The dice rolled: D6, 2D6, D66… Every result must appear in exactly one row.",
        examples=["D6", "2D6", "D66"],
    )
    range: Annotated[str, StringConstraints(pattern=r"^\d{1,4}(\+|-\d{1,4})$")] | None = Field(
        None, description="Instead of a die: the numbers the rows cover, '1-40', or '1+' (the last row ends in +)."
    )
    roll_title: OptionalText | None = Field(
        None,
        description='Header of the roll column; the die by default, nothing for a lookup; "" leaves it '
        "empty. A dice table whose titles are all empty prints no header band.",
    )
    name_title: OptionalText | None = Field(None, description="Header of the result names' column.")
    text_title: OptionalText | None = Field(None, description="Header of the text column.")
    text_titles: Annotated[list[OptionalText], Field(min_length=2, max_length=MAX_RESULT_COLUMNS)] | None = Field(
        None,
        description="Several columns of results (a critical table's columns A to E), one title each: every row's "
        "text is then a list of as many texts, one a column.",
    )
    align: Align | DiceAlign | None = Field(
        None, description="The columns' alignment: one word for all of them (center), or {roll: …, name: …, text: …}."
    )
    rows: Annotated[list[DiceRow], Field(min_length=1, max_length=MAX_ROWS)]

    def align_class(self, column: str) -> str:
        """The class that aligns the column (roll, name, text) as the author asked; empty for the default."""
        align = self.align if isinstance(self.align, str) else getattr(self.align, column, None)
        return f"align-{align}" if align else ""

    @model_validator(mode="after")
    def _die_or_range(self):
        if (self.die is None) == (self.range is None):
            raise ValueError("a dice table has a die (D6, 2D6, D66…) or, as a lookup, a range (1-40, 1+): one of them")
        return self

    @property
    def roll_header(self) -> str:
        """What heads the roll column, untranslated: its title, else the die; nothing for a lookup without a title,
        or where the author wrote roll_title: "" (a roll of "the token's own die" names no die)."""
        if self.roll_title is None:
            return self.die or ""
        return self.roll_title

    @property
    def has_header(self) -> bool:
        """A header band only where it has something to say, as a table whose column titles are all empty."""
        return bool(self.roll_header or self.name_title or self.text_title or any(self.text_titles or []))

    @property
    def titled_columns(self) -> TitledColumns:
        """Its results' columns: one, or one a title of `text_titles`."""
        return TitledColumns("text", "results", self.text_titles, self.text_title)

    @property
    def result_columns(self) -> int:
        """How many columns of results each row has: one, or one a title of `text_titles`."""
        return self.titled_columns.count

    @staticmethod
    def texts(row: DiceResult) -> list[str]:
        """A row's results, one a column."""
        return TitledColumns.listed(row.text)

    @property
    def rolled(self) -> str:
        """What the rows are results of, in messages: the die, or the lookup's range."""
        return self.die or f"the range {self.range}"

    def check(self) -> Iterator[Finding]:
        rolls = [row.roll for row in self.rows]
        possible = rules.die_results(self.die) if self.die else rules.range_results(self.range, rolls)
        if self.die and self.die != "D66" and rules.reads_as_d66(rolls) and max(possible) < 66:
            yield ("die",), "every roll reads as a D66 result (11-66, two digits from 1 to 6): did you mean die: D66?"
            return
        yield from roll_findings(possible, self.rows, self.rolled)
        yield from self._column_findings()
        for index, row in enumerate(self.rows):
            if row.then:  # the inner roll's own rows, checked the same way
                for loc, message in roll_findings(rules.die_results(row.then.die), row.then.rows, row.then.die):
                    yield ("rows", index, "then") + loc, message
        if self.range and self.range.endswith("+") and not any(roll.replace(" ", "").endswith("+") for roll in rolls):
            yield ("rows",), f"the range {self.range} has no end: its last row covers the rest (36+)"

    def _column_findings(self) -> Iterator[Finding]:
        yield from self.titled_columns.both_titles()
        for index, row in enumerate(self.rows):
            if len(self.texts(row)) != self.result_columns:
                yield ("rows", index, "text"), self._count_problem(row)

    def _count_problem(self, row: DiceRow) -> str:
        count = len(self.texts(row))
        given = f"{count} text{'s' if count > 1 else ''}" if isinstance(row.text, list) else "one text"
        return self.titled_columns.count_problem(given, "text", "Blow to the chest", "A, B, C")

    def row_facts(self) -> Iterator[Fact]:
        for r, row in enumerate(self.rows):
            rolled = f"{self.die or self.roll_title or ''} {row.roll}".strip()
            if row.name:
                yield ("row", row.roll, "name"), rolled, row.name, r, None
            if isinstance(row.text, list):  # one fact a column, keyed by its place, named by its title
                for column, text in enumerate(row.text):
                    if text:
                        title = self.titled_columns.title(column)
                        yield ("row", row.roll, "text", column + 1), f"{rolled} ({title})", text, r, None
            elif row.text:
                yield ("row", row.roll, "text"), rolled, row.text, r, None
            for inner in row.then.rows if row.then else []:
                for part in ("name", "text"):
                    if getattr(inner, part):
                        yield (
                            ("row", row.roll, "then", inner.roll, part),
                            f"{rolled}, {row.then.die} {inner.roll}",
                            getattr(inner, part),
                            r,
                            None,
                        )
