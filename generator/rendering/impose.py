"""Imposition (`--impose`): a PDF of half-size pages (A5 portrait, laid out so by generator.rendering.render.page_frame)
put two side by side on each side of the sheet's paper, in landscape (A4, or Letter).

- `2up`: pages in order, 1-2 on the first sheet, 3-4 on the next; printed one side, cut in two.
- `booklet`: pages ordered for folding: the last and the first on the outside of the first sheet, and so on
  inwards (blank pages make the count a multiple of four). Printed on both sides, flipping on the short edge,
  folded in the middle and stapled on the fold, the pages read in order.

Built with pypdf (generator.rendering.placing); every half page keeps its own size and is centred in its half of the
paper.
"""

from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter

from generator.rendering import placing
from generator.rendering.layout import PAPER_MM

POINTS_PER_MM = 72 / 25.4
MODES = ("2up", "booklet")


def order(count: int, mode: str) -> list[tuple[int | None, int | None]]:
    """The pages (numbered from 1; None for a blank) on the left and the right of each side of paper, in print order."""
    if mode == "2up":
        numbers: list[int | None] = list(range(1, count + 1)) + [None] * (count % 2)
        return [(numbers[index], numbers[index + 1]) for index in range(0, len(numbers), 2)]
    if mode != "booklet":
        raise ValueError(f"unknown imposition '{mode}': one of {', '.join(MODES)}")
    total = -(-count // 4) * 4  # rounded up to a multiple of four: a folded sheet carries four pages

    def page(number: int) -> int | None:
        return number if number <= count else None

    sides = []
    for sheet in range(total // 4):
        outer, inner = 2 * sheet + 1, total - 2 * sheet
        sides.append((page(inner), page(outer)))  # front: the higher page on the left, as the fold reads it
        sides.append((page(outer + 1), page(inner - 1)))  # back
    return sides


def imposed(pdf: bytes, mode: str, paper: str) -> bytes:
    """The pages of `pdf`, two on each side of `paper` in landscape, in the order of `mode`."""
    reader = PdfReader(io.BytesIO(pdf))
    short, long = (size * POINTS_PER_MM for size in PAPER_MM[paper])
    writer = PdfWriter()
    for left, right in order(len(reader.pages), mode):
        placing.side(
            writer,
            long,
            short,
            [
                _placed(reader.pages[number - 1], slot, long / 2, short)
                for slot, number in enumerate((left, right))
                if number is not None
            ],
        )
    writer.add_metadata({key: value for key, value in (reader.metadata or {}).items() if isinstance(value, str)})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _placed(page: PageObject, slot: int, half_width: float, height: float) -> tuple[PageObject, float, float]:
    """`page` with where it goes: in the left (slot 0) or right (slot 1) half of a side, centred."""
    box = page.mediabox
    x = slot * half_width + (half_width - float(box.width)) / 2 - float(box.left)
    y = (height - float(box.height)) / 2 - float(box.bottom)
    return page, x, y
