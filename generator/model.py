"""The one place the shape of a sheet is defined.

A sheet has metadata, a glossary of keywords, errata, and ordered sections of typed blocks.
Fields typed `Text` are prose in the sheet's language: they carry inline markup (see
`generator.markup`) and are what translators translate. Fields typed `Cell` are table
contents that may be language-neutral ("4+", "2D6"); they carry markup too.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Iterator, Literal, Union, get_args

from generator import rules
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator


class Translatable:
    """Marks a string field as prose that translators translate."""

    def __repr__(self) -> str:
        return "Translatable"


TRANSLATABLE = Translatable()

MAX_TEXT = 4000
Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT), TRANSLATABLE]
OptionalText = Annotated[str, StringConstraints(max_length=MAX_TEXT), TRANSLATABLE]
Date = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$")]
LanguageCode = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}(-[A-Z]{2})?$")]
MAX_ROWS = 500

# A problem found by a block's own check: where in the block (a path of keys) and what is wrong.
Finding = tuple[tuple, str]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False, validate_default=True)


class Footnote(Model):
    """A note under a block, referenced from its cells as [^id]."""

    id: Annotated[str, StringConstraints(pattern=r"^[^\s\]]{1,4}$")]
    text: Text


class Keyword(Model):
    """A special rule of the game, defined once, referenced from any text as {id} or {term}."""

    id: Id
    term: Text
    text: OptionalText | None = Field(None, description="Its definition, printed by glossary blocks.")
    original: str | None = Field(None, description="The game's English term, shown with --gloss.")


class Erratum(Model):
    edition: str
    text: Text


class Paper(Model):
    size: Literal["A4", "letter"] = "A4"
    orientation: Literal["portrait", "landscape"] = "landscape"
    pages: Annotated[int, Field(ge=1, le=20)] = 2
    columns: Annotated[int, Field(ge=1, le=4)] = 3


class BlockBase(Model):
    id: Id
    title: OptionalText | None = None
    intro: OptionalText | None = Field(None, description="A sentence printed before the block's content.")
    after: OptionalText | None = Field(None, description="A sentence printed after the block's content.")
    notes: list[Footnote] = Field(default_factory=list, description="Footnotes, referenced as [^id].")


# --- sequence -------------------------------------------------------------------------------


class Step(Model):
    title: OptionalText | None = None
    text: OptionalText | None = None
    steps: list[Step] = Field(default_factory=list)

    @model_validator(mode="after")
    def _has_content(self) -> "Step":
        if not (self.title or self.text):
            raise ValueError("a step needs a title or a text")
        return self


class SequenceBlock(BlockBase):
    """Numbered steps (turn sequence, phase order), optionally nested."""

    type: Literal["sequence"]
    numbering: Literal["1", "A", "a", "none"] = "1"
    steps: Annotated[list[Step], Field(min_length=1, max_length=MAX_ROWS)]


# --- table ----------------------------------------------------------------------------------


class Column(Model):
    title: OptionalText = ""
    align: Literal["left", "center", "right"] = "left"


class Cell(Model):
    """A table cell; written as a plain string, or as {text: …, span: 2} to span columns."""

    text: OptionalText
    span: Annotated[int, Field(ge=1, le=12)] = 1


class Row(Model):
    """A table row; written as a list of cells, or as {id: …, cells: […]} to give it a stable id."""

    id: Id | None = None
    cells: Annotated[list[Cell], Field(min_length=1, max_length=12)]

    @field_validator("cells", mode="before")
    @classmethod
    def _strings_as_cells(cls, cells):
        if isinstance(cells, list):
            return [{"text": cell} if isinstance(cell, str) else cell for cell in cells]
        return cells

    @property
    def width(self) -> int:
        return sum(cell.span for cell in self.cells)


class TableBlock(BlockBase):
    """A table with a header and rows; a cell spans columns as {text: …, span: 2}."""

    type: Literal["table"]
    columns: Annotated[list[Column], Field(min_length=1, max_length=12)]
    rows: Annotated[list[Row], Field(min_length=1, max_length=MAX_ROWS)]

    @field_validator("rows", mode="before")
    @classmethod
    def _lists_as_rows(cls, rows):
        if isinstance(rows, list):
            return [{"cells": row} if isinstance(row, list) else row for row in rows]
        return rows

    def check(self) -> Iterator[Finding]:
        width = len(self.columns)
        for index, row in enumerate(self.rows):
            if row.width != width:
                yield ("rows", index), f"this row fills {row.width} columns; the table has {width}"

    @property
    def has_header(self) -> bool:
        return any(column.title for column in self.columns)


# --- dice table -----------------------------------------------------------------------------


class DiceRow(Model):
    roll: Annotated[str, StringConstraints(min_length=1, max_length=12)]
    name: OptionalText | None = Field(None, description="A named result, printed in italics before the text.")
    text: OptionalText = ""


class DiceBlock(BlockBase):
    """Rows keyed by a roll ("2", "3-4", "10+") of a die expression (D6, 2D6, D66…)."""

    type: Literal["dice"]
    die: Annotated[str, StringConstraints(pattern=r"^(\d*)D(\d+)$")]
    roll_title: OptionalText | None = Field(None, description="Header of the roll column; the die by default.")
    name_title: OptionalText | None = None
    text_title: OptionalText | None = None
    rows: Annotated[list[DiceRow], Field(min_length=1, max_length=MAX_ROWS)]

    def check(self) -> Iterator[Finding]:
        possible = rules.die_results(self.die)
        seen: dict[int, int] = {}
        unreadable = False
        for index, row in enumerate(self.rows):
            try:
                results = rules.roll_results(row.roll, possible)
            except ValueError as error:
                unreadable = True
                yield ("rows", index, "roll"), str(error)
                continue
            for result in results:
                if result in seen:
                    yield ("rows", index, "roll"), f"{result} is already covered by row {seen[result] + 1} ('{self.rows[seen[result]].roll}')"
                else:
                    seen[result] = index
        missing = [r for r in possible if r not in seen]
        if missing and not unreadable:  # a gap behind an unreadable roll is not news
            yield ("rows",), f"{self.die} can roll {rules.describe(missing)}, which no row covers"


# --- modifier list --------------------------------------------------------------------------


class Modifier(Model):
    value: Annotated[str, StringConstraints(min_length=1, max_length=20), TRANSLATABLE]
    text: Text
    detail: OptionalText | None = None


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


# --- matrix ---------------------------------------------------------------------------------


MatrixRule = Literal["to-hit-ws", "to-hit-ws-wab", "to-wound", "bs-to-hit"]


class MatrixBlock(BlockBase):
    """A lookup: row key × column key → value, optionally checked against a game rule."""

    type: Literal["matrix"]
    row_title: OptionalText = ""
    column_title: OptionalText = ""
    row_keys: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30)]
    column_keys: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30)]
    cells: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30, description="One string a row, values separated by spaces.")]
    impossible: str | None = Field(None, description="The value that means 'cannot succeed', e.g. N or –.")
    rule: MatrixRule | None = None

    def grid(self) -> list[list[str]]:
        return [row.split() for row in self.cells]

    def check(self) -> Iterator[Finding]:
        if len(self.cells) != len(self.row_keys):
            yield ("cells",), f"{len(self.cells)} rows of cells for {len(self.row_keys)} row keys"
        for index, values in enumerate(self.grid()):
            if len(values) != len(self.column_keys):
                yield ("cells", index), f"{len(values)} values for {len(self.column_keys)} columns"
        if self.rule is None:
            return
        try:
            rows = [int(key) for key in self.row_keys] if self.rule != "bs-to-hit" else [0] * len(self.row_keys)
            columns = [int(key) for key in self.column_keys]
        except ValueError:
            yield ("row_keys",), f"the rule {self.rule} needs whole numbers as keys"
            return
        for index, values in enumerate(self.grid()[: len(rows)]):
            for value, row, column in zip(values, [rows[index]] * len(values), columns):
                expected = rules.matrix_value(self.rule, row, column)
                shown = self.impossible if expected is None else str(expected)
                if rules.normalise_score(value) != rules.normalise_score(shown or ""):
                    where = f"{self.row_keys[index]} × {column}" if self.rule != "bs-to-hit" else f"column {column}"
                    yield ("cells", index), f"{where}: '{value}', but the {self.rule} rule gives '{shown}'"


# --- rules text -----------------------------------------------------------------------------


class Term(Model):
    term: Text
    text: Text


class Paragraph(Model):
    p: Text | None = None
    bullets: list[Text] | None = None
    numbered: list[Text] | None = None
    terms: list[Term] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> "Paragraph":
        given = [name for name in ("p", "bullets", "numbered", "terms") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("each item of a text block has exactly one of p, bullets, numbered, terms")
        return self


class TextBlock(BlockBase):
    """Rules text: paragraphs, bullet lists, numbered lists, term/definition lists."""

    type: Literal["text"]
    content: Annotated[list[Paragraph], Field(min_length=1, max_length=MAX_ROWS)]


# --- glossary -------------------------------------------------------------------------------


class GlossaryBlock(BlockBase):
    """The definitions of the sheet's keywords (all of them, or those listed)."""

    type: Literal["glossary"]
    keywords: list[Id] | None = None


Block = Annotated[
    Union[SequenceBlock, TableBlock, DiceBlock, ModifiersBlock, MatrixBlock, TextBlock, GlossaryBlock],
    Field(discriminator="type"),
]


class Section(Model):
    id: Id
    title: Text
    blocks: Annotated[list[Block], Field(min_length=1)]


class Sheet(Model):
    """A quick-reference sheet: the root of a source file."""

    sheet: Id
    game: Text
    title: Text
    subtitle: OptionalText | None = None
    lang: LanguageCode
    edition: Annotated[str, StringConstraints(pattern=r"^\d+(\.\d+)*$")]
    date: Date
    credits: OptionalText | None = None
    accent: Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")] = "#7a1f1f"
    paper: Paper = Field(default_factory=Paper)
    keywords: list[Keyword] = Field(default_factory=list)
    errata: list[Erratum] = Field(default_factory=list)
    sections: Annotated[list[Section], Field(min_length=1)]

    def blocks(self):
        for section in self.sections:
            yield from section.blocks


Step.model_rebuild()


def _mentions_translatable(annotation) -> bool:
    if annotation is TRANSLATABLE:
        return True
    return any(_mentions_translatable(arg) for arg in get_args(annotation))


@cache
def _prose_fields(model_class: type[BaseModel]) -> frozenset[str]:
    return frozenset(
        name
        for name, info in model_class.model_fields.items()
        if TRANSLATABLE in info.metadata or _mentions_translatable(info.annotation)
    )


def prose(model: BaseModel, loc: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Every prose string of a model, with its path: what markup checks and translators see."""
    prose_fields = _prose_fields(type(model))
    for name in type(model).model_fields:
        value = getattr(model, name)
        yield from _prose_in(value, loc + (name,), name in prose_fields)


def _prose_in(value, loc: tuple, is_prose: bool) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, BaseModel):
        yield from prose(value, loc)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _prose_in(item, loc + (index,), is_prose)
    elif is_prose and isinstance(value, str) and value:
        yield loc, value
