"""An edition's corrections, typed: what the sheet's changelog lists and the changes box prints
(generator.model.blocks.errata)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from generator.model.base import LanguageCode, Model, RowRef, Text

ChangeKind = Literal["rules", "clarification", "layout", "typo"]
PLAYERS_KINDS: tuple[ChangeKind, ...] = ("rules", "clarification")  # what the printed box lists by default


class Change(Model):
    """One correction of an edition, typed: only what changes play goes in the printed box."""

    text: Text = Field(description="The correction, stated as it now reads; never the damaged text.")
    kind: ChangeKind = Field(
        description="rules: what a player does changes; clarification: the same rule in "
        "clearer words; layout: blocks added, moved or retitled; typo: spelling, "
        "typography, extraction damage."
    )
    lang: LanguageCode | None = Field(
        None,
        description="The language whose text it concerns (a French spelling fix: fr); "
        "editions in other languages leave it out.",
    )
    blocks: list[RowRef] = Field(default_factory=list, description="The blocks (or block/row) it touches.")

    @model_validator(mode="before")
    @classmethod
    def _typed(cls, data):
        if isinstance(data, str):
            raise ValueError("a change needs its kind: write {kind: rules|clarification|layout|typo, text: …}")
        return data

    def concerns(self, lang: str) -> bool:
        return self.lang is None or self.lang.split("-")[0] == lang.split("-")[0]
