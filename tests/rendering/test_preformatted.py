"""The size a preformatted block is set at, and where it goes, from the monospace font's advance alone
(generator.rendering.widths): its longest line fits its column, down to 6 pt; narrower, it spans the page; wider
than the page even at 6 pt, it is refused."""

from __future__ import annotations

import pytest

from generator.model.blocks.preformatted import MIN_POINTS, MONO_ADVANCE, PreformattedBlock
from generator.model.types import Sheet
from generator.rendering import layout, widths


def block(characters: int) -> PreformattedBlock:
    return PreformattedBlock(id="d", type="preformatted", text=f"+{'-' * (characters - 2)}+\n|  x\n")


def test_a_short_diagram_is_set_at_nine_tenths_of_the_body_and_a_longer_one_smaller_to_fit():
    assert widths.preformatted_points(block(20), 88.0, 7.6) == pytest.approx(6.84)
    size = widths.preformatted_points(block(64), 88.0, 7.6)
    assert MIN_POINTS < size < 6.84 and block(64).longest() * MONO_ADVANCE * size * 25.4 / 72 <= 88.0
    assert widths.preformatted_points(block(200), 88.0, 7.6) == MIN_POINTS  # the least; it spans the page


def test_a_diagram_too_wide_for_a_column_at_6_pt_spans_the_page_and_one_too_wide_for_the_page_is_refused():
    sheet = Sheet.model_validate(
        {
            "sheet": "x",
            "game": "G",
            "title": "T",
            "lang": "en",
            "paper": {"size": "A4", "orientation": "landscape", "columns": 3},
            "sections": [
                {
                    "id": "s",
                    "blocks": [
                        {"id": "narrow", "type": "preformatted", "text": "+" * 64},
                        {"id": "wide", "type": "preformatted", "text": "+" * 104},
                        {"id": "huge", "type": "preformatted", "text": "+" * 300},
                    ],
                }
            ],
        }
    )
    frame = layout.page_frame(sheet, None)
    narrow, wide, huge = sheet.blocks()
    assert not widths.too_wide(narrow, frame, 7.6) and widths.too_wide(wide, frame, 7.6)
    [(where, message)] = list(widths.findings(sheet, frame))
    assert where == ("sections", 0, "blocks", 2, "text")
    assert (
        message.startswith("the longest line of 'huge' has 300 characters, 382 mm wide at 6 pt")
        and "at most 220 characters a line" in message
    )
