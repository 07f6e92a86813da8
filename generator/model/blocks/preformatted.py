"""Preformatted text: lines printed as typed, in a monospace font (a battlefield diagram drawn with | and -)."""

from __future__ import annotations

from typing import ClassVar, Iterator, Literal

from pydantic import Field

from generator.model.base import AsTyped, Finding
from generator.model.blocks.block import BlockBase

# DejaVu Sans Mono's advance, in ems, the same for every character (templates/symbols/DejaVuSansMono.subset.ttf):
# 1233 units of 2048, about 0.602
MONO_ADVANCE = 1233 / 2048
MIN_POINTS = 6.0  # the smallest size a diagram is set at to fit its column; narrower still, it spans the page


class PreformattedBlock(BlockBase):
    """Lines as typed, in a monospace font: never wrapped, hyphenated or typeset; set smaller (down to 6 pt) to fit
    its column, else across the page's columns."""

    may_continue: ClassVar[bool] = False  # a diagram is never cut across columns

    type: Literal["preformatted"]
    text: AsTyped = Field(
        description="The lines, as typed (a YAML block scalar, |): printed character for "
        "character in a monospace font, spaces kept; no markup, no typography."
    )

    def lines(self) -> list[str]:
        return self.text.split("\n")

    def longest(self) -> int:
        """The characters of its longest line: what its width is, in advances of the monospace font."""
        return max(len(line.rstrip()) for line in self.lines())

    def check(self) -> Iterator[Finding]:
        if "\t" in self.text:
            yield ("text",), "a tab in preformatted text: type spaces, so that the lines line up as typed"
