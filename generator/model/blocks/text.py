"""Rules text: paragraphs, and terms defined in a line."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from generator.model.base import MAX_ROWS, Model, Text
from generator.model.blocks.block import BlockBase


class Term(Model):
    term: Text = Field(description="The term, printed in bold.")
    text: Text = Field(description="Its explanation.")


class Paragraph(Model):
    p: Text | None = Field(None, description="A paragraph.")
    bullets: list[Text] | None = Field(None, description="A bulleted list.")
    numbered: list[Text] | None = Field(None, description="A numbered list.")
    terms: list[Term] | None = Field(None, description="Terms followed by their explanation.")

    @model_validator(mode="after")
    def _exactly_one(self) -> "Paragraph":
        given = [name for name in ("p", "bullets", "numbered", "terms") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("each item of a text block has exactly one of p, bullets, numbered, terms")
        return self


class TextBlock(BlockBase):
    """Rules text: paragraphs, bullet lists, numbered lists, term/definition lists."""

    cuts_units: ClassVar[bool] = True
    text_units: ClassVar[bool] = True

    type: Literal["text"]
    content: Annotated[list[Paragraph], Field(min_length=1, max_length=MAX_ROWS)] = Field(
        description="The block's paragraphs and lists; each item is one of p, bullets, numbered, terms."
    )
