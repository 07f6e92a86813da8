"""Matrices: a result for each pair of values (to hit, to wound), checked against the rule they encode."""

from __future__ import annotations

from typing import Annotated, ClassVar, Iterator, Literal

from pydantic import Field

from generator.model import rules
from generator.model.base import TRANSLATABLE, CharacteristicId, Fact, Finding, OptionalText, Text, counted
from generator.model.blocks.block import BlockBase

MatrixRule = Literal["to-hit-ws", "to-hit-ws-wab", "to-wound", "bs-to-hit"]


class MatrixBlock(BlockBase):
    """A lookup: row key × column key → value, optionally checked against a game rule."""

    type: Literal["matrix"]
    may_continue: ClassVar[bool] = False
    row_title: OptionalText = Field("", description="What the row keys are (Attacker's WS): printed in the corner.")
    column_title: OptionalText = Field("", description="What the column keys are: printed over them.")
    corner: OptionalText | None = Field(
        None,
        description="The corner cell's text, instead of the row title: a short "
        "label such as x/y, explained in the legend.",
    )
    legend: Annotated[list[Text], Field(max_length=20)] = Field(
        default_factory=list, description="Lines printed under the matrix: x = number of people in the warband."
    )
    row_keys: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30)] = Field(
        description="The rows' keys, in order."
    )
    column_keys: Annotated[list[Annotated[str, TRANSLATABLE]], Field(min_length=1, max_length=30)] = Field(
        description="The columns' keys, in order."
    )
    cells: Annotated[
        list[Annotated[str, TRANSLATABLE]],
        Field(min_length=1, max_length=30, description="One string a row, values separated by spaces."),
    ] = Field(examples=["4 5 6 6"])
    impossible: str | None = Field(None, description="The value that means 'cannot succeed', e.g. N or –.")
    rule: MatrixRule | None = Field(None, description="A rule every value is checked against (to-wound, to-hit…).")
    row_characteristic: CharacteristicId | None = Field(
        None,
        description="The characteristic the row keys are values of (the "
        "attacker's WS, S): a handout keeps only its army's rows.",
    )
    column_characteristic: CharacteristicId | None = Field(
        None,
        description="The characteristic the column keys are values of (BS): a handout keeps only its army's columns.",
    )

    def only(self, rows: set[str] | None, columns: set[str] | None) -> "MatrixBlock":
        """The matrix cut to these row and column keys (None: all of them), in its own order."""
        kept_rows = [r for r, key in enumerate(self.row_keys) if rows is None or key in rows]
        kept_columns = [c for c, key in enumerate(self.column_keys) if columns is None or key in columns]
        grid = self.grid()
        return self.model_copy(
            update={
                "row_keys": [self.row_keys[r] for r in kept_rows],
                "column_keys": [self.column_keys[c] for c in kept_columns],
                "cells": [" ".join(grid[r][c] for c in kept_columns) for r in kept_rows],
            }
        )

    def grid(self) -> list[list[str]]:
        return [row.split() for row in self.cells]

    def check(self) -> Iterator[Finding]:
        if self.corner and self.row_title:
            yield ("corner",), "a matrix has a corner or a row title, not both: the corner cell prints one of them"
        if len(self.cells) != len(self.row_keys):
            yield ("cells",), f"{counted(len(self.cells), 'row')} of cells for {counted(len(self.row_keys), 'row key')}"
        for index, values in enumerate(self.grid()):
            if len(values) != len(self.column_keys):
                yield (
                    ("cells", index),
                    f"{counted(len(values), 'value')} for {counted(len(self.column_keys), 'column')}",
                )
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
