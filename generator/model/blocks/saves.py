"""Armour saves: what each piece of armour gives, by troop type, with its move penalties."""

from __future__ import annotations

import re
from typing import Annotated, ClassVar, Iterator, Literal

from pydantic import Field, StringConstraints, field_validator

from generator.model import markup
from generator.model.base import MAX_ROWS, Aliases, Fact, Finding, Id, Model, OptionalText, Text, counted
from generator.model.blocks.block import BlockBase
from generator.model.blocks.table import Cell, Column, Row


class Troop(Model):
    """A troop type with its own column of saves (on foot, mounted)."""

    id: Id
    title: OptionalText = Field("", description="The troop type's column header (On foot, Mounted).")


class Protection(Model):
    """What one piece of equipment gives one troop type."""

    save: Annotated[str, StringConstraints(pattern=r"^[1-6]\+$")] | None = Field(
        None, description="The save it gives on its own: 5+.", examples=["5+"]
    )
    bonus: Annotated[str, StringConstraints(pattern=r"^\+[1-6]$")] | None = Field(
        None, description="What it adds to the save of another piece: +1.", examples=["+1"]
    )
    shield_bonus: bool = Field(True, description="false when a shield adds nothing to this piece's save.")
    notes: list[Annotated[str, StringConstraints(pattern=r"^[^\s\]]{1,4}$")]] = Field(
        default_factory=list, description="Footnotes of the block shown beside the value."
    )

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
        "M", description="The id of the sheet's characteristic they reduce."
    )


class SaveItem(Model):
    """A piece of armour, a shield or a mount, and what it gives each troop type."""

    id: Id
    name: Text
    shield: bool = Field(False, description="true for shields: pieces marked shield_bonus: false ignore them.")
    troop: Id | None = Field(None, description="A unit with this item reads this troop column (a horse: mounted).")
    saves: dict[Id, Protection] = Field(
        default_factory=dict, description="By troop id; a troop left out cannot use it."
    )
    extra: list[Cell] = Field(default_factory=list, description="Cells of the block's extra columns.")
    move: MovePenalty | None = Field(
        None, description="What it takes off the move, printed in the column the block's move_penalties names."
    )
    aliases: Aliases = Field(
        default_factory=list,
        description="What army lists call it (Heavy Armour): qrs handout import matches these too.",
    )

    @field_validator("extra", mode="before")
    @classmethod
    def _strings_as_cells(cls, cells):
        return Row._strings_as_cells(cells)


NO_SAVE = 7  # a roll of 7+ on a D6 cannot succeed


class SavesBlock(BlockBase):
    """Armour saves by troop type: base saves ("5+") and bonuses ("+1"), from which a unit's save is derived."""

    type: Literal["saves"]
    may_continue: ClassVar[bool] = False
    item_title: OptionalText = Field("", description="Header of the items' column (Equipment).")
    troops: Annotated[list[Troop], Field(min_length=1, max_length=4)] = Field(
        description="The troop types, one column each."
    )
    columns: list[Column] = Field(default_factory=list, description="Extra columns printed after the troops'.")
    none: OptionalText = Field("–", description="Printed where an item gives a troop type nothing.")
    items: Annotated[list[SaveItem], Field(min_length=1, max_length=MAX_ROWS)] = Field(
        description="The pieces of equipment and what each gives to each troop type."
    )
    move_penalties: MoveColumn | None = Field(
        None,
        description="The extra column printing the items' move penalties: handouts derive a unit's move from them.",
    )

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
                yield (
                    ("items", index, "extra"),
                    f"{counted(len(item.extra), 'extra cell')} for {counted(len(self.columns), 'extra column')}",
                )

    def _move_findings(self) -> Iterator[Finding]:
        """The printed penalty column and the items' `move` must say the same: the number, or none."""
        if self.move_penalties is None:
            for index, item in enumerate(self.items):
                if item.move:
                    yield (
                        ("items", index, "move"),
                        "a move penalty needs the column that prints it: add move_penalties: {column: …}",
                    )
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
                yield (
                    ("items", index, "extra", column - 1),
                    (
                        f"the printed move penalty '{item.extra[column - 1].text}' does not match the item's move ({shown})"
                    ),
                )

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
                shown += "".join(f"[^{note}]" for note in given.notes) + (
                    "" if given.shield_bonus else " (no shield bonus)"
                )
                yield ("row", item.id, troop.id), f"{item.name}, {troop.title or troop.id}", shown, r, c
            for c, cell in enumerate(item.extra):
                column = self.columns[c].title if c < len(self.columns) else str(c + 1)
                yield ("row", item.id, column), f"{item.name}, {column}", cell.text, r, 1 + len(self.troops) + c
