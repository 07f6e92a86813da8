"""Sequence blocks: numbered steps (a turn sequence, a phase's order), optionally nested."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from generator.model.base import MAX_ROWS, Model, OptionalText
from generator.model.blocks.block import BlockBase


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


Step.model_rebuild()
