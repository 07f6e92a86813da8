"""Glossaries: the definitions of the sheet's keywords."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from generator.model.base import Id
from generator.model.blocks.block import BlockBase


class GlossaryBlock(BlockBase):
    """The definitions of the sheet's keywords (all of them, or those listed)."""

    cuts_units: ClassVar[bool] = True
    text_units: ClassVar[bool] = True

    type: Literal["glossary"]
    keywords: list[Id] | None = Field(
        None, description="The keywords to define, by id; every keyword that has a text by default."
    )
