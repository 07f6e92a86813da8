"""The one place the shape of a sheet is defined.

A sheet has metadata, a glossary of keywords, a changelog, and ordered sections of typed blocks.
Fields typed `Text` are prose in the sheet's language: they carry inline markup (see
`generator.schema.markup`) and are what translators translate. Fields typed `Cell` are table
contents that may be language-neutral ("4+", "2D6"); they carry markup too.
"""

from __future__ import annotations

import datetime
import re
from functools import cache
from typing import Annotated, ClassVar, Iterator, Literal, Union, get_args

from generator.schema import markup, rules
from babel import Locale, UnknownLocaleError
from pydantic import (AfterValidator, BaseModel, ConfigDict, Discriminator, Field, PrivateAttr, StringConstraints, Tag,
                      field_validator, model_validator)


class Translatable:
    """Marks a string field as prose that translators translate."""

    def __repr__(self) -> str:
        return "Translatable"


TRANSLATABLE = Translatable()

MAX_TEXT = 4000
Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT), TRANSLATABLE]
OptionalText = Annotated[str, StringConstraints(max_length=MAX_TEXT), TRANSLATABLE]
EARLIEST_DATE = datetime.date(1970, 1, 1)  # the PDF's timestamps (SOURCE_DATE_EPOCH, font tables) start in 1970


def _calendar_day(value: str) -> str:
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"'{value}' is not a day of the calendar: expected YYYY-MM-DD, such as 2026-11-21") from None
    if day < EARLIEST_DATE:
        raise ValueError(f"'{value}' is too early: a date is {EARLIEST_DATE.isoformat()} or later")
    return value


def known_language(code: str) -> bool:
    """A language code the renderer can format dates and hyphenate for (fr, en, en-GB)."""
    try:
        Locale.parse(code.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return False
    return True


def _known_language(code: str) -> str:
    if not known_language(code):
        raise ValueError(f"unknown language '{code}': expected an ISO 639-1 language code such as fr, en or de")
    return code


MIN_CONTRAST = 4.5  # WCAG AA for text: white headings on the accent, and the accent's text on white


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _dark_enough(colour: str) -> str:
    """The accent fills headings set in white, and prints grey in black and white: it must stay dark."""
    contrast = 1.05 / (_luminance(colour) + 0.05)
    if contrast < MIN_CONTRAST:
        raise ValueError(f"the accent {colour} is too light: white text on it has a contrast of {contrast:.1f}, "
                         f"at least {MIN_CONTRAST} is needed to read it, in colour or printed in black and white")
    return colour


Accent = Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$"), AfterValidator(_dark_enough)]
Date = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(_calendar_day)]
LanguageCode = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}(-[A-Z]{2})?$"), AfterValidator(_known_language)]
MAX_ROWS = 500
# A block, or a row of one of the sheet's tables ("longbow"), or "table/row" where two tables share a row id.
RowRef = Annotated[str, StringConstraints(pattern=r"^([a-z0-9][a-z0-9-]*/)?[a-z0-9][a-z0-9-]*$", max_length=121)]

# A problem found by a block's own check: where in the block (a path of keys) and what is wrong.
Finding = tuple[tuple, str]
# What an edition diff compares: stable key, where in the sheet's words, value, row and cell printed.
Fact = tuple[tuple, str, str, "int | None", "int | None"]


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False, validate_default=True, populate_by_name=True)


class Document(Model):
    """A sheet or a handout. A translated one knows which of its texts are still in the canonical language
    (printed where the translation lacked, with --allow-fallback), to print them in that language's typography."""

    _fallback_texts: frozenset[str] = PrivateAttr(default=frozenset())
    _fallback_lang: str | None = PrivateAttr(default=None)

    def mark_fallback(self, texts: set[str], lang: str) -> None:
        self._fallback_texts, self._fallback_lang = frozenset(texts), lang

    def mark_fallback_of(self, *documents: "Document") -> None:
        """This document prints the texts of others (a handout, its sheet's): their fallback texts too."""
        langs = [document._fallback_lang for document in documents if document._fallback_lang]
        if langs:
            self.mark_fallback(set().union(*(document._fallback_texts for document in documents)), langs[0])

    def language_of(self, text: str) -> str:
        """The language a text of this document is written in."""
        return self._fallback_lang if text in self._fallback_texts and self._fallback_lang else self.lang


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
    see: Id | None = Field(None, description="The block that defines it at length; handouts print that block.")


CharacteristicId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9]{0,11}$")]
Aliases = Annotated[list[Annotated[str, StringConstraints(min_length=1, max_length=60)]], Field(max_length=20)]


class Characteristic(Model):
    """One characteristic of the game's unit profiles (M, WS, Ld…), as handouts and rosters print it."""

    id: CharacteristicId
    label: Text = Field(description="The abbreviation printed above the column: CC.")
    name: OptionalText | None = Field(None, description="The full name: Capacité de combat.")
    aliases: Aliases = Field(default_factory=list, description="What army lists call it (WS, Weapon Skill): "
                                                               "qrs handout import matches these too.")


EditionNumber = Annotated[str, StringConstraints(pattern=r"^\d+(\.\d+)*$")]


def edition_key(edition: str) -> tuple[int, ...]:
    """Editions compare as numbers: 2.10 comes after 2.9."""
    return tuple(int(part) for part in edition.split("."))


ChangeKind = Literal["rules", "clarification", "layout", "typo"]
PLAYERS_KINDS: tuple[ChangeKind, ...] = ("rules", "clarification")  # what the printed box lists by default


class Change(Model):
    """One correction of an edition, typed: only what changes play goes in the printed box."""

    text: Text = Field(description="The correction, stated as it now reads; never the damaged text.")
    kind: ChangeKind = Field(description="rules: what a player does changes; clarification: the same rule in "
                                         "clearer words; layout: blocks added, moved or retitled; typo: spelling, "
                                         "typography, extraction damage.")
    lang: LanguageCode | None = Field(None, description="The language whose text it concerns (a French spelling fix: fr); "
                                                        "editions in other languages leave it out.")
    blocks: list[RowRef] = Field(default_factory=list, description="The blocks (or block/row) it touches.")

    @model_validator(mode="before")
    @classmethod
    def _typed(cls, data):
        if isinstance(data, str):
            raise ValueError("a change needs its kind: write {kind: rules|clarification|layout|typo, text: …}")
        return data

    def concerns(self, lang: str) -> bool:
        return self.lang is None or self.lang.split("-")[0] == lang.split("-")[0]


class Edition(Model):
    """One edition of the sheet: its number, its date, and what it changed (the errata it fixed)."""

    edition: EditionNumber
    date: Date
    changes: Annotated[list[Change], Field(min_length=1, max_length=MAX_ROWS)]


class Paper(Model):
    size: Literal["A4", "letter"] = "A4"
    orientation: Literal["portrait", "landscape"] = "landscape"
    pages: Annotated[int, Field(ge=1, le=20)] = 2
    columns: Annotated[int, Field(ge=1, le=4)] = 3


class BlockBase(Model):
    # Whether the block may continue into the next column between two rows, steps or paragraphs.
    may_continue: ClassVar[bool] = True

    id: Id
    title: OptionalText | None = None
    intro: OptionalText | None = Field(None, description="A sentence printed before the block's content.")
    after: OptionalText | None = Field(None, description="A sentence printed after the block's content.")
    notes: list[Footnote] = Field(default_factory=list, description="Footnotes, referenced as [^id].")
    keep: Literal["together"] | None = Field(
        None, description="together: never continue the block into the next column (matrices and saves never are).")
    break_before: Literal["column", "page"] | None = Field(
        None, alias="break", description="Start the block at the top of a new column or page: a rare manual decision.")
    group: Id | None = Field(None, description="The id of one of its section's groups: the group's blocks follow "
                                               "one another under the group's heading.")

    @property
    def splits(self) -> bool:
        return self.may_continue and self.keep is None

    def footnote_refs(self) -> Iterator[tuple[tuple, str]]:
        """Every footnote the block references, with where: [^id] marks in its prose (its notes aside),
        and, in blocks that have them, footnote fields."""
        for loc, text in prose(self):
            if loc[0] != "notes":
                for token in markup.walk(markup.parse(text)):
                    if isinstance(token, markup.FootnoteRef):
                        yield loc, token.key

    def facts(self) -> Iterator[Fact]:
        """What a diff between editions compares: (stable key, where in the sheet's words, value, row, cell).

        Blocks with rows override `row_facts`; the rest are compared string by string, keyed by
        the ids or titles on the way to each string."""
        for name in ("title", "intro", "after"):
            if getattr(self, name):
                yield (name,), "", getattr(self, name), None, None
        for note in self.notes:
            yield ("note", note.id), f"note {note.id}", note.text, None, None
        yield from self.row_facts()

    def row_facts(self) -> Iterator[Fact]:
        for loc, text in prose(self):
            if loc[0] in ("title", "intro", "after", "notes"):
                continue
            key, words, node = [], [], self
            for part in loc:
                node = node[part] if isinstance(part, int) or isinstance(node, dict) else getattr(node, part)
                ident = (node.id if "id" in type(node).model_fields else getattr(node, "title", None)) \
                    if isinstance(part, int) and isinstance(node, BaseModel) else None
                key.append(ident or part)
                words += [ident] if ident else []
            yield tuple(key), " › ".join(words), text, None, None


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
    width: Annotated[str, StringConstraints(pattern=r"^\d{1,3}(\.\d{1,2})?(mm|%)$")] | None = Field(
        None, description="The column's width: 18mm, or a share of the table such as 30%.")
    nowrap: bool = Field(False, description="true: the column's cells never break a line (costs, ranges).")
    characteristic: CharacteristicId | None = Field(None, description="The characteristic the column's values give (S for a "
                                                        "weapon's Strength): handouts cut matrices to those their army uses.")


class Cell(Model):
    """A table cell; written as a plain string, or as {text: …, span: 2} to span columns."""

    text: OptionalText
    span: Annotated[int, Field(ge=1, le=12)] = 1


class Row(Model):
    """A table row; written as a list of cells, or as {id: …, cells: […]} to give it a stable id."""

    id: Id | None = None
    cells: Annotated[list[Cell], Field(min_length=1, max_length=12)]
    aliases: Aliases = Field(default_factory=list, description="What army lists call it (Longbow): "
                                                               "qrs handout import matches these too.")

    @field_validator("cells", mode="before")
    @classmethod
    def _strings_as_cells(cls, cells):
        if isinstance(cells, list):
            return [{"text": cell} if isinstance(cell, str) else cell for cell in cells]
        return cells

    @property
    def width(self) -> int:
        return sum(cell.span for cell in self.cells)


Columns = Annotated[list[Column], Field(min_length=1, max_length=12)]


class TableBlock(BlockBase):
    """A table with a header and rows; a cell spans columns as {text: …, span: 2}."""

    type: Literal["table"]
    columns: Annotated[Union[Annotated[Columns, Tag("columns")], Annotated[Id, Tag("column_set")]],
                       Discriminator(lambda value: "column_set" if isinstance(value, str) else "columns")] = Field(
        description="The table's columns (title, align, width, nowrap), or the name of one of the sheet's column_sets.")
    rows: Annotated[list[Row], Field(min_length=1, max_length=MAX_ROWS)]
    _shared: list[Column] | None = PrivateAttr(None)  # the named set's columns, given by the sheet

    @property
    def header(self) -> list[Column]:
        """The columns the table prints: its own, or the named set's (translated with the sheet's column_sets)."""
        return (self._shared or []) if isinstance(self.columns, str) else self.columns

    @field_validator("rows", mode="before")
    @classmethod
    def _lists_as_rows(cls, rows):
        if isinstance(rows, list):
            return [{"cells": row} if isinstance(row, list) else row for row in rows]
        return rows

    def check(self) -> Iterator[Finding]:
        if not self.header:
            return  # an unknown column set: the sheet names it
        width = len(self.header)
        for index, row in enumerate(self.rows):
            if row.width != width:
                yield ("rows", index), f"this row fills {counted(row.width, 'column')}; the table has {width}"

    @property
    def has_header(self) -> bool:
        return any(column.title for column in self.header)

    def row_facts(self) -> Iterator[Fact]:
        titles = [column.title or str(n + 1) for n, column in enumerate(self.header)]
        for r, row in enumerate(self.rows):
            position = 0
            for c, cell in enumerate(row.cells):
                column = titles[min(position, len(titles) - 1)]
                yield ("row", row.id or row.cells[0].text, column), f"{row.cells[0].text}, {column}", cell.text, r, c
                position += cell.span


# --- dice table -----------------------------------------------------------------------------


class DiceResult(Model):
    id: Id | None = Field(None, description="A stable id, so that texts can name this result: {result:BLOCK/ID}.")
    roll: Annotated[str, StringConstraints(min_length=1, max_length=30)] = Field(
        description="The results the row covers: 7, 3-4 (or 3~4), 10+, or several: '16, 21', '11-15, 62'.")
    name: OptionalText | None = Field(None, description="A named result, printed in italics before the text.")
    text: OptionalText = ""

    @field_validator("roll", mode="before")
    @classmethod
    def _ranges_with_a_dash(cls, roll):
        return roll.replace("~", "-") if isinstance(roll, str) else roll  # "11~15" is written "11-15"


class InnerRoll(Model):
    """A roll inside a result ("roll again: 1-3 …, 4-6 …"), checked like a dice table, printed under the result."""

    die: Annotated[str, StringConstraints(pattern=r"^(\d?)D(\d{1,2})$")] = Field(
        description="The die of the roll made on this result: D3, D6, 2D6…")
    rows: Annotated[list[DiceResult], Field(min_length=1, max_length=36)]


class DiceRow(DiceResult):
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
                yield ("rows", index, "roll"), f"{result} is already covered by row {seen[result] + 1} ('{rows[seen[result]].roll}')"
            else:
                seen[result] = index
    missing = [r for r in possible if r not in seen]
    if missing and not unreadable:  # a gap behind an unreadable roll is not news
        verb = "can give" if rolled.startswith("the range") else "can roll"
        yield ("rows",), f"{rolled} {verb} {rules.describe(missing)}, which no row covers"


class DiceBlock(BlockBase):
    """Rows keyed by a roll ("2", "3-4", "10+", "16, 21") of a die expression (D6, 2D6, D66…), or, as a lookup,
    by ranges of any number (`range: 1+`, rows "1-5", "6-11", "36+")."""

    type: Literal["dice"]
    die: Annotated[str, StringConstraints(pattern=r"^(\d*)D(\d+)$")] | None = None
    range: Annotated[str, StringConstraints(pattern=r"^\d{1,4}(\+|-\d{1,4})$")] | None = Field(
        None, description="Instead of a die: the numbers the rows cover, '1-40', or '1+' (the last row ends in +).")
    roll_title: OptionalText | None = Field(None, description="Header of the roll column; the die by default.")
    name_title: OptionalText | None = None
    text_title: OptionalText | None = None
    rows: Annotated[list[DiceRow], Field(min_length=1, max_length=MAX_ROWS)]

    @model_validator(mode="after")
    def _die_or_range(self):
        if (self.die is None) == (self.range is None):
            raise ValueError("a dice table has a die (D6, 2D6, D66…) or, as a lookup, a range (1-40, 1+): one of them")
        return self

    @property
    def rolled(self) -> str:
        """What the rows are results of, in messages: the die, or the lookup's range."""
        return self.die or f"the range {self.range}"

    def check(self) -> Iterator[Finding]:
        rolls = [row.roll for row in self.rows]
        possible = rules.die_results(self.die) if self.die else rules.range_results(self.range, rolls)
        if self.die and self.die != "D66" and rules.reads_as_d66(rolls) and max(possible) < 66:
            yield ("die",), f"every roll reads as a D66 result (11-66, two digits from 1 to 6): did you mean die: D66?"
            return
        yield from roll_findings(possible, self.rows, self.rolled)
        for index, row in enumerate(self.rows):
            if row.then:  # the inner roll's own rows, checked the same way
                for loc, message in roll_findings(rules.die_results(row.then.die), row.then.rows, row.then.die):
                    yield ("rows", index, "then") + loc, message
        if self.range and self.range.endswith("+") and not any(roll.replace(" ", "").endswith("+") for roll in rolls):
            yield ("rows",), f"the range {self.range} has no end: its last row covers the rest (36+)"

    def row_facts(self) -> Iterator[Fact]:
        for r, row in enumerate(self.rows):
            for part in ("name", "text"):
                if getattr(row, part):
                    yield ("row", row.roll, part), f"{self.die or self.roll_title or ''} {row.roll}".strip(), getattr(row, part), r, None
            for inner in row.then.rows if row.then else []:
                for part in ("name", "text"):
                    if getattr(inner, part):
                        yield (("row", row.roll, "then", inner.roll, part), f"{self.die or self.roll_title or ''} {row.roll}, "
                               f"{row.then.die} {inner.roll}".strip(), getattr(inner, part), r, None)


# --- modifier list --------------------------------------------------------------------------


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


# --- matrix ---------------------------------------------------------------------------------


MatrixRule = Literal["to-hit-ws", "to-hit-ws-wab", "to-wound", "bs-to-hit"]


class MatrixBlock(BlockBase):
    """A lookup: row key × column key → value, optionally checked against a game rule."""

    type: Literal["matrix"]
    may_continue: ClassVar[bool] = False
    row_title: OptionalText = ""
    column_title: OptionalText = ""
    row_keys: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30)]
    column_keys: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30)]
    cells: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30, description="One string a row, values separated by spaces.")]
    impossible: str | None = Field(None, description="The value that means 'cannot succeed', e.g. N or –.")
    rule: MatrixRule | None = None
    row_characteristic: CharacteristicId | None = Field(None, description="The characteristic the row keys are values of (the "
                                                            "attacker's WS, S): a handout keeps only its army's rows.")
    column_characteristic: CharacteristicId | None = Field(None, description="The characteristic the column keys are values of "
                                                               "(BS): a handout keeps only its army's columns.")

    def only(self, rows: set[str] | None, columns: set[str] | None) -> "MatrixBlock":
        """The matrix cut to these row and column keys (None: all of them), in its own order."""
        kept_rows = [r for r, key in enumerate(self.row_keys) if rows is None or key in rows]
        kept_columns = [c for c, key in enumerate(self.column_keys) if columns is None or key in columns]
        grid = self.grid()
        return self.model_copy(update={
            "row_keys": [self.row_keys[r] for r in kept_rows],
            "column_keys": [self.column_keys[c] for c in kept_columns],
            "cells": [" ".join(grid[r][c] for c in kept_columns) for r in kept_rows]})

    def grid(self) -> list[list[str]]:
        return [row.split() for row in self.cells]

    def check(self) -> Iterator[Finding]:
        if len(self.cells) != len(self.row_keys):
            yield ("cells",), f"{counted(len(self.cells), 'row')} of cells for {counted(len(self.row_keys), 'row key')}"
        for index, values in enumerate(self.grid()):
            if len(values) != len(self.column_keys):
                yield ("cells", index), f"{counted(len(values), 'value')} for {counted(len(self.column_keys), 'column')}"
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

    def row_facts(self) -> Iterator[Fact]:
        for r, (row_key, values) in enumerate(zip(self.row_keys, self.grid())):
            for c, (column_key, value) in enumerate(zip(self.column_keys, values)):
                where = f"{self.row_title} {row_key}".strip() + ", " + f"{self.column_title} {column_key}".strip()
                yield ("row", row_key, column_key), where, value, r, c


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


# --- armour saves ---------------------------------------------------------------------------


class Troop(Model):
    """A troop type with its own column of saves (on foot, mounted)."""

    id: Id
    title: OptionalText = ""


class Protection(Model):
    """What one piece of equipment gives one troop type."""

    save: Annotated[str, StringConstraints(pattern=r"^[1-6]\+$")] | None = Field(
        None, description="The save it gives on its own: 5+.")
    bonus: Annotated[str, StringConstraints(pattern=r"^\+[1-6]$")] | None = Field(
        None, description="What it adds to the save of another piece: +1.")
    shield_bonus: bool = Field(True, description="false when a shield adds nothing to this piece's save.")
    notes: list[Annotated[str, StringConstraints(pattern=r"^[^\s\]]{1,4}$")]] = Field(
        default_factory=list, description="Footnotes of the block shown beside the value.")

    @property
    def roll(self) -> int | None:
        return int(self.save[0]) if self.save else None

    @property
    def plus(self) -> int:
        return int(self.bonus[1]) if self.bonus else 0


class MovePenalty(Model):
    """What a piece of armour takes off the unit's move; the penalties of several pieces add up."""

    penalty: Annotated[int, Field(ge=1, le=9, description="How much it takes off: 1 for -1.")]
    with_shield: bool = Field(False, description="Only when the unit also carries a shield (WAB heavy armour).")


class MoveColumn(Model):
    """Where a saves table prints its items' move penalties, and which characteristic they reduce."""

    column: Annotated[int, Field(ge=1, le=12, description="The extra column (from 1) that prints them.")]
    characteristic: Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9]{0,11}$")] = Field(
        "M", description="The id of the sheet's characteristic they reduce.")


class SaveItem(Model):
    """A piece of armour, a shield or a mount, and what it gives each troop type."""

    id: Id
    name: Text
    shield: bool = Field(False, description="true for shields: pieces marked shield_bonus: false ignore them.")
    troop: Id | None = Field(None, description="A unit with this item reads this troop column (a horse: mounted).")
    saves: dict[Id, Protection] = Field(default_factory=dict, description="By troop id; a troop left out cannot use it.")
    extra: list[Cell] = Field(default_factory=list, description="Cells of the block's extra columns.")
    move: MovePenalty | None = Field(None, description="What it takes off the move, printed in the column "
                                                       "the block's move_penalties names.")
    aliases: Aliases = Field(default_factory=list, description="What army lists call it (Heavy Armour): "
                                                               "qrs handout import matches these too.")

    @field_validator("extra", mode="before")
    @classmethod
    def _strings_as_cells(cls, cells):
        return Row._strings_as_cells(cells)


NO_SAVE = 7  # a roll of 7+ on a D6 cannot succeed


class SavesBlock(BlockBase):
    """Armour saves by troop type: base saves ("5+") and bonuses ("+1"), from which a unit's save is derived."""

    type: Literal["saves"]
    may_continue: ClassVar[bool] = False
    item_title: OptionalText = ""
    troops: Annotated[list[Troop], Field(min_length=1, max_length=4)]
    columns: list[Column] = Field(default_factory=list, description="Extra columns printed after the troops'.")
    none: OptionalText = Field("–", description="Printed where an item gives a troop type nothing.")
    items: Annotated[list[SaveItem], Field(min_length=1, max_length=MAX_ROWS)]
    move_penalties: MoveColumn | None = Field(
        None, description="The extra column printing the items' move penalties: handouts derive a unit's move from them.")

    def check(self) -> Iterator[Finding]:
        yield from self._move_findings()
        troops = {troop.id for troop in self.troops}
        for index, item in enumerate(self.items):
            for troop in item.saves:
                if troop not in troops:
                    yield ("items", index, "saves", troop), f"unknown troop '{troop}': expected one of {sorted(troops)}"
            if item.troop is not None and item.troop not in troops:
                yield ("items", index, "troop"), f"unknown troop '{item.troop}': expected one of {sorted(troops)}"
            if len(item.extra) != len(self.columns):
                yield ("items", index, "extra"), f"{counted(len(item.extra), 'extra cell')} for {counted(len(self.columns), 'extra column')}"

    def _move_findings(self) -> Iterator[Finding]:
        """The printed penalty column and the items' `move` must say the same: the number, or none."""
        if self.move_penalties is None:
            for index, item in enumerate(self.items):
                if item.move:
                    yield ("items", index, "move"), "a move penalty needs the column that prints it: add move_penalties: {column: …}"
            return
        column = self.move_penalties.column
        if column > len(self.columns):
            yield ("move_penalties", "column"), f"column {column} of {counted(len(self.columns), 'extra column')}"
            return
        for index, item in enumerate(self.items):
            if len(item.extra) < column:
                continue  # reported as a missing extra cell
            printed = re.findall(r"\d+", markup.without_footnotes(item.extra[column - 1].text))
            wanted = [str(item.move.penalty)] if item.move else []
            if printed != wanted:
                shown = f"-{item.move.penalty}" if item.move else "no penalty"
                yield ("items", index, "extra", column - 1), (
                    f"the printed move penalty '{item.extra[column - 1].text}' does not match the item's move ({shown})")

    def move_penalty(self, item_ids: list[str]) -> int:
        """What a unit's pieces take off its move, all together."""
        worn = [item for item in self.items if item.id in item_ids]
        shielded = any(item.shield for item in worn)
        return sum(item.move.penalty for item in worn if item.move and (shielded or not item.move.with_shield))

    def troop_of(self, item_ids: list[str]) -> str:
        """The column a unit reads: the one its mount selects, else the first."""
        chosen = [item.troop for item in self.items if item.id in item_ids and item.troop]
        return chosen[0] if chosen else self.troops[0].id

    def save(self, item_ids: list[str]) -> int | None:
        """A unit's save roll: the best piece's own save (7+ without one) improved by the others' bonuses."""
        troop = self.troop_of(item_ids)
        worn = [(item, item.saves[troop]) for item in self.items if item.id in item_ids and troop in item.saves]
        candidates = [(None, Protection())] + [pair for pair in worn if pair[1].save]
        best = min(self._with_bonuses(base, protection, worn) for base, protection in candidates)
        return best if best < NO_SAVE else None

    @staticmethod
    def _with_bonuses(base, protection: Protection, worn) -> int:
        roll = protection.roll or NO_SAVE
        for item, other in worn:
            if item is base or (item.shield and not protection.shield_bonus):
                continue
            roll -= other.plus
        return max(roll, 2)  # a natural 1 always fails

    def footnote_refs(self) -> Iterator[tuple[tuple, str]]:
        yield from super().footnote_refs()
        for index, item in enumerate(self.items):
            for troop, protection in item.saves.items():
                for key in protection.notes:
                    yield ("items", index, "saves", troop, "notes"), key

    def row_facts(self) -> Iterator[Fact]:
        for r, item in enumerate(self.items):
            yield ("row", item.id, "name"), item.name, item.name, r, 0
            for c, troop in enumerate(self.troops, start=1):
                given = item.saves.get(troop.id, Protection())
                shown = " ".join(filter(None, [given.save, given.bonus and f"({given.bonus})"])) or self.none
                shown += "".join(f"[^{note}]" for note in given.notes) + ("" if given.shield_bonus else " (no shield bonus)")
                yield ("row", item.id, troop.id), f"{item.name}, {troop.title or troop.id}", shown, r, c
            for c, cell in enumerate(item.extra):
                column = self.columns[c].title if c < len(self.columns) else str(c + 1)
                yield ("row", item.id, column), f"{item.name}, {column}", cell.text, r, 1 + len(self.troops) + c


# --- unit profiles --------------------------------------------------------------------------


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


# --- glossary -------------------------------------------------------------------------------


class GlossaryBlock(BlockBase):
    """The definitions of the sheet's keywords (all of them, or those listed)."""

    type: Literal["glossary"]
    keywords: list[Id] | None = None


Block = Annotated[
    Union[SequenceBlock, TableBlock, DiceBlock, ModifiersBlock, MatrixBlock, TextBlock, GlossaryBlock,
          SavesBlock, RosterBlock],
    Field(discriminator="type"),
]


class Group(Model):
    """A heading between a section's and its blocks' (Price charts › Missile weapons › Upgrades)."""

    id: Id
    title: Text


class Section(Model):
    id: Id
    title: Text
    groups: list[Group] = Field(default_factory=list, description="Headings that gather some of the section's blocks "
                                                                  "(those whose group names them), a third level.")
    blocks: Annotated[list[Block], Field(min_length=1)]

    def group_of(self, block) -> Group | None:
        return next((group for group in self.groups if group.id == block.group), None)


class Sheet(Document):
    """A quick-reference sheet: the root of a source file."""

    sheet: Id
    game: Text
    title: Text
    subtitle: OptionalText | None = None
    lang: LanguageCode
    edition: EditionNumber
    date: Date
    credits: OptionalText | None = None
    accent: Accent = "#7a1f1f"
    paper: Paper = Field(default_factory=Paper)
    keywords: list[Keyword] = Field(default_factory=list)
    characteristics: list[Characteristic] = Field(default_factory=list, description="The game's unit profile, for handouts.")
    column_sets: dict[Id, Columns] = Field(
        default_factory=dict, description="Named sets of table columns that tables share by name (columns: price); "
                                          "their titles are translated once.")
    untranslatable: list[Annotated[str, StringConstraints(min_length=1, max_length=200)]] = Field(
        default_factory=list, description="Names printed as they are in every language (the game's name, a faction): "
                                          "not offered for translation.")
    changelog: list[Edition] = Field(default_factory=list, description="Newest first; the first is this edition.")
    changes_box: bool | list[ChangeKind] = Field(
        True, description="The box of this edition's changes: true lists rules and clarifications, a list of kinds "
                          "lists those, false prints no box.")
    sections: Annotated[list[Section], Field(min_length=1)]

    def blocks(self):
        for section in self.sections:
            yield from section.blocks

    @model_validator(mode="after")
    def _shared_columns(self):
        """Tables that name a column set print its columns (a name the sheet lacks is a finding of validate)."""
        for block in self.blocks():
            if block.type == "table" and isinstance(block.columns, str):
                block._shared = self.column_sets.get(block.columns)
        return self

    @property
    def current_changes(self) -> list[Change]:
        return self.changelog[0].changes if self.changelog else []

    @property
    def box_kinds(self) -> tuple[str, ...]:
        if self.changes_box is True:
            return PLAYERS_KINDS
        return tuple(self.changes_box or ())

    def boxed_changes(self) -> list[Change]:
        """This edition's changes the printed box lists: of its kinds, in the sheet's language."""
        return [change for change in self.current_changes if change.kind in self.box_kinds and change.concerns(self.lang)]

    def row_refs(self) -> dict[str, tuple[str, int]]:
        """Table rows and saves items with an id, by BLOCK/ROW: (the block's id, the row's position in it)."""
        return {f"{block.id}/{row.id}": (block.id, index) for block in self.blocks()
                for index, row in enumerate([*getattr(block, "rows", []), *getattr(block, "items", [])])
                if getattr(row, "id", None)}

    def result_names(self) -> dict[str, str]:
        """The named results of the dice tables, by BLOCK/ROW: what a {result:BLOCK/ROW} reference prints."""
        return {f"{block.id}/{row.id}": row.name for block in self.blocks() if block.type == "dice"
                for row in block.rows if row.id and row.name}

    def changes_after(self, edition: str) -> list[tuple[Edition, list[Change]]]:
        """What changes play since `edition`: each newer edition's rules and clarifications in the sheet's
        language, newest first. These name the blocks and rows they touch (validate checks it)."""
        newer = [entry for entry in self.changelog if edition_key(entry.edition) > edition_key(edition)]
        return [(entry, [change for change in entry.changes if change.kind in PLAYERS_KINDS and change.concerns(self.lang)])
                for entry in newer]

    def other_changes(self) -> list[Change]:
        """This edition's other changes in the sheet's language: counted under the box, listed by `qrs changelog`."""
        return [change for change in self.current_changes
                if change.kind not in self.box_kinds and change.concerns(self.lang)]


# --- handouts -------------------------------------------------------------------------------



class HandoutWeapon(Model):
    """A weapon of the army that the sheet has no row for (a great weapon), named once for every unit."""

    id: Id
    name: Text
    two_handed: bool = Field(False, description="true: no shield in close combat while fighting with it.")
    profile: dict[CharacteristicId, Annotated[str, StringConstraints(pattern=r"^[+-]?\d{1,2}$")]] = Field(
        default_factory=dict, description="What it does to its bearer's characteristics: {S: '+2'} adds, {S: '4'} "
                                          "sets (a crossbow's Strength); handouts keep the matrix rows these give.")


Points = Annotated[str, StringConstraints(pattern=r"^\d{1,6}(\.\d{1,2})?$")]


class HandoutUnit(Model):
    """A unit of the army, described with the sheet's own characteristics, equipment and keywords."""

    id: Id
    name: Text
    profile: dict[Annotated[str, StringConstraints(max_length=12)], Annotated[str, StringConstraints(min_length=1, max_length=20), TRANSLATABLE]] = Field(
        description="A value for each of the sheet's characteristics, by id: {M: '4', WS: '3', …}.")
    weapons: list[RowRef] = Field(default_factory=list, description="Rows of the sheet's tables, or the handout's "
                                                                    "own weapons, by id.")
    armour: list[Id] = Field(default_factory=list, description="Items of the sheet's saves table, by id.")
    equipment: OptionalText | None = Field(None, description="Other equipment, printed as written.")
    rules: list[Annotated[str, StringConstraints(min_length=1, max_length=60)]] = Field(
        default_factory=list, description="The sheet's keywords, by id or term.")
    other_rules: OptionalText | None = Field(None, description="Special rules the sheet does not define, "
                                                                "printed as written.")
    count: Annotated[int, Field(ge=1, le=1000)] | None = Field(None, description="How many models: printed before "
                                                                                "the name.")
    points: Points | None = Field(None, description="What the unit costs, printed beside its name.")


class Handout(Document):
    """A one-army handout: its units and only the parts of a sheet they use. The root of a handout file."""

    handout: Id
    sheet: Id = Field(description="The sheet (file name in sources/, without .yaml) the handout draws on.")
    army: Text
    subtitle: OptionalText | None = None
    lang: LanguageCode = Field(description="The language the handout is written in.")
    languages: list[LanguageCode] = Field(default_factory=list, description="Languages to print (default: lang).")
    date: Date
    accent: Accent | None = None
    paper: Paper = Field(default_factory=lambda: Paper(orientation="portrait", pages=1, columns=2))
    include: list[Id] | None = Field(None, description="Sections or blocks of the sheet to print, by id.")
    exclude: list[Id] | None = Field(None, description="Print every section of the sheet but these.")
    kept: list[Id] | None = Field(None, alias="except", description="With exclude: blocks of the excluded sections "
                                                                    "to print all the same.")
    weapons: list[HandoutWeapon] = Field(default_factory=list, description="The army's weapons the sheet has no row for.")
    units: Annotated[list[HandoutUnit], Field(min_length=1, max_length=60)]
    points: Points | None = Field(None, description="The army's total points, printed under its units.")
    untranslatable: list[Annotated[str, StringConstraints(min_length=1, max_length=200)]] = Field(
        default_factory=list, description="Names printed as they are in every language (a roster's own unit names): "
                                          "not offered for translation.")

    @model_validator(mode="after")
    def _include_or_exclude(self) -> "Handout":
        if self.include is not None and self.exclude is not None:
            raise ValueError("give include (sections to print) or exclude (sections to leave out), not both")
        if self.kept is not None and self.exclude is None:
            raise ValueError("except keeps blocks of excluded sections: give it with exclude (or name the blocks in include)")
        return self

    @property
    def outputs(self) -> list[str]:
        return self.languages or [self.lang]


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
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _prose_in(item, loc + (key,), is_prose)
    elif is_prose and isinstance(value, str) and value:
        yield loc, value
