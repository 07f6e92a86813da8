"""Table blocks: columns, rows of cells; the cells and rows other blocks share."""

from __future__ import annotations

from typing import Annotated, ClassVar, Iterator, Literal, Union

from pydantic import Discriminator, Field, PrivateAttr, StringConstraints, Tag, field_validator

from generator.model.base import (
    MAX_ROWS,
    Aliases,
    Align,
    CharacteristicId,
    Fact,
    Finding,
    Id,
    Model,
    OptionalText,
    counted,
)
from generator.model.blocks.block import BlockBase, Subheaded, Subheading, or_subheading


class Column(Model):
    title: OptionalText = Field("", description="The column's header.")
    align: Align = Field("left", description="left (default), center or right.")
    width: Annotated[str, StringConstraints(pattern=r"^\d{1,3}(\.\d{1,2})?(mm|%)$")] | None = Field(
        None, description="The column's width: 18mm, or a share of the table such as 30%.", examples=["20mm", "15%"]
    )
    nowrap: bool = Field(False, description="true: the column's cells never break a line (costs, ranges).")
    characteristic: CharacteristicId | None = Field(
        None,
        description="The characteristic the column's values give (S for a "
        "weapon's Strength): handouts cut matrices to those their army uses.",
    )


class Cell(Model):
    """A table cell; written as a plain string, or as {text: …, span: 2} to span columns."""

    text: OptionalText
    span: Annotated[int, Field(ge=1, le=12)] = Field(1, description="How many columns the cell covers.")


class Row(Model):
    """A table row; written as a list of cells, or as {id: …, cells: […]} to give it a stable id."""

    id: Id | None = None
    cells: Annotated[list[Cell], Field(min_length=1, max_length=12)] = Field(
        description="The row's cells, one a column."
    )
    aliases: Aliases = Field(
        default_factory=list, description="What army lists call it (Longbow): qrs handout import matches these too."
    )
    under: bool = Field(
        False,
        description="true: the row prints under the row above it, as part of it (a long text across the table, "
        "beneath a row of short values): on its stripe, never apart from it at a column's foot.",
    )

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


class TableBlock(Subheaded, BlockBase):
    """A table with a header and rows; a cell spans columns as {text: …, span: 2}; a row may be a sub-heading."""

    cuts_units: ClassVar[bool] = True

    type: Literal["table"]
    columns: Annotated[
        Union[Annotated[Columns, Tag("columns")], Annotated[Id, Tag("column_set")]],
        Discriminator(lambda value: "column_set" if isinstance(value, str) else "columns"),
    ] = Field(
        description="The table's columns (title, align, width, nowrap), or the name of one of the sheet's column_sets."
    )
    rows: Annotated[list[or_subheading(Row, "rows")], Field(min_length=1, max_length=MAX_ROWS)] = Field(
        description="The rows: a list of cells, {id, cells} for a row others refer to, or {subheading: …} for a "
        "sub-heading over the rows after it."
    )
    _shared: list[Column] | None = PrivateAttr(None)  # the named set's columns, given by the sheet

    @property
    def header(self) -> list[Column]:
        """The columns the table prints: its own, or the named set's (translated with the sheet's column_sets)."""
        return (self._shared or []) if isinstance(self.columns, str) else self.columns

    @property
    def lines(self) -> list[Row | Subheading]:
        return self.rows

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
            if isinstance(row, Row) and row.width != width:
                yield ("rows", index), f"this row fills {counted(row.width, 'column')}; the table has {width}"
            if isinstance(row, Row) and row.under and (index == 0 or isinstance(self.rows[index - 1], Subheading)):
                yield ("rows", index, "under"), "'under: true' prints a row under the row above it: there is none"

    @property
    def has_header(self) -> bool:
        return any(column.title for column in self.header)

    def row_facts(self) -> Iterator[Fact]:
        titles = [column.title or str(n + 1) for n, column in enumerate(self.header)]
        for r, row in enumerate(self.rows):
            if isinstance(row, Subheading):
                yield ("subheading", row.subheading), "sub-heading", row.subheading, r, 0
                continue
            position = 0
            for c, cell in enumerate(row.cells):
                column = titles[min(position, len(titles) - 1)]
                yield ("row", row.id or row.cells[0].text, column), f"{row.cells[0].text}, {column}", cell.text, r, c
                position += cell.span
