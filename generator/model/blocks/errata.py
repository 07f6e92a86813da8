"""The changes box: this edition's corrections that change play, printed after the sheet's last block.

A block made from the sheet (`ChangesBox.of`), never written in a source: its `type` is a class variable, not a
field, so the blocks a section reads (`Block`) leave it out. Its template, templates/blocks/errata.html.j2, prints
its own frame: a heading of the box's own, not a section's."""

from __future__ import annotations

from typing import ClassVar

from generator.model.base import EditionNumber, Id
from generator.model.blocks.block import BlockBase
from generator.model.changes import Change


class ChangesBox(BlockBase):
    """This edition's changes the box lists (the sheet's changes_box kinds), then those it only counts."""

    type: ClassVar[str] = "errata"
    text_units: ClassVar[bool] = True
    framed: ClassVar[bool] = False

    id: Id = "errata"
    edition: EditionNumber | None = None
    changes: list[Change]
    others: list[Change]

    @classmethod
    def of(cls, sheet) -> "ChangesBox | None":
        """The sheet's box, or None where it lists nothing."""
        changes = sheet.boxed_changes()
        return cls(edition=sheet.edition, changes=changes, others=sheet.other_changes()) if changes else None

    @property
    def named(self) -> str:
        return "the changes box"
