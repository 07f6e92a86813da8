"""Sequence blocks: numbered steps (a turn sequence, a phase's order), optionally nested, with bullets under a step."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BeforeValidator, Field, StringConstraints, model_validator

from generator.model.base import MAX_ROWS, Model, OptionalText, Text
from generator.model.blocks.block import BlockBase

Numbering = Literal["1", "A", "a", "none"]
# A level without a style of its own: the style under its parent's, as a single `numbering` always nested them.
_UNDER = {"A": "1", "1": "a", "a": "1", "none": "none"}
MAX_LEVELS = 12  # deeper than steps may nest in a source (two of generator.reading.sources.MAX_NESTING a level)


def _one_or_more(value):
    """`numbering: "1"` is the list of one style: the top level's."""
    return [value] if isinstance(value, str) else value


class Step(Model):
    title: OptionalText | None = Field(None, description="The step's name, printed in bold.")
    text: OptionalText | None = Field(None, description="What happens in the step.")
    items: Annotated[list[Text], Field(default_factory=list, max_length=MAX_ROWS)] = Field(
        description="Bullets under the step's text, above its sub-steps."
    )
    steps: list[Step] = Field(default_factory=list)

    @model_validator(mode="after")
    def _has_content(self) -> "Step":
        if not (self.title or self.text):
            raise ValueError("a step needs a title or a text")
        return self


class SequenceBlock(BlockBase):
    """Numbered steps (turn sequence, phase order), optionally nested."""

    text_units: ClassVar[bool] = True
    cuts_units: ClassVar[bool] = True  # a long step, its sub-steps and bullets with it

    type: Literal["sequence"]
    numbering: Annotated[
        list[Numbering],
        Field(min_length=1, max_length=MAX_LEVELS),
        BeforeValidator(_one_or_more, json_schema_input_type=Numbering | list[Numbering]),
    ] = Field(
        "1",
        validate_default=True,
        description='How steps are numbered: "1", "A", "a" or "none"; or a list, one style a level (["1", '
        '"1"]: sub-steps numbered 1, 2… too). A level the list does not reach takes the style under '
        "the level above (1 → a → 1, A → 1).",
    )
    separator: Annotated[str, StringConstraints(min_length=1, max_length=12)] | None = Field(
        None,
        description="What joins a step's title to its text, as typed (\": \"), in the language's spacing; an "
        "en dash ( – ) without it.",
    )
    steps: Annotated[list[Step], Field(min_length=1, max_length=MAX_ROWS)]

    def numbering_at(self, level: int) -> str:
        """The style of the steps at `level` (0: the block's own): the list's, else the style under the level above."""
        if level < len(self.numbering):
            return self.numbering[level]
        return _UNDER[self.numbering_at(level - 1)]


Step.model_rebuild()
