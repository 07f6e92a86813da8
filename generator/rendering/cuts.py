"""Units cut between two lines: a table's or dice table's row, a paragraph, a term, a bullet or a step taller than a
third of a column continues into the next (a block's template prints the parts where its type says it may:
`cuts_units`); one of six lines or more does only where keeping it whole would leave a hole at a column's foot.

The measuring pass finds where each unit of many lines may be cut (measure.Cuts). Here: which rows the packer is
told to cut (`Rows`: each such row becomes as many of the packer's units as it has parts, the other rows one unit
each), a unit of the packer's plan read back as (row, cut), and a cell's markup cut after a count of printing
characters, its open tags closed before the cut and opened again after it. The two parts of the cell then wrap as
the whole did, the second starting at the line the cut leaves it. A list open at the cut (a step's sub-steps or
bullets) goes on where it stopped: its item opened again is marked continued (`CONTINUED`: no number or bullet of
its own) and a numbered list starts again at that item's number."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

from markupsafe import Markup

from generator.rendering import measure

_TOKEN = re.compile(r"<[^>]*>|&#?\w+;|[^<&]+|[<&]")
_VOID = {"br", "img", "wbr", "hr"}
_LEADING_BREAKS = re.compile(r"^(?:\s|<br\s*/?>)+", re.IGNORECASE)
CONTINUED = "cut"  # the class of a list item printed continued from the column before: no marker (sheet.css)


@dataclass(frozen=True)
class Cut:
    """Where a row is cut: in its cell `cell`, after `chars` printing characters."""

    cell: int
    chars: int


@dataclass(frozen=True)
class Rows:
    """The packer's units of a block, each a row or a part of one: `units[u]` is (row, the cut it starts at, or
    None at the row's top). `heights` are the units' heights; `pads[u]`, for a unit that starts inside a row, the
    padding (above the part it starts, below the part before it) a fragment starting or stopping there adds."""

    units: tuple[tuple[int, Cut | None], ...]
    heights: tuple[float, ...]
    pads: tuple[tuple[float, float], ...]
    soft: frozenset[int] = frozenset()  # the units inside a row cut softly (not taller than tall): Piece.soft

    @property
    def inside(self) -> frozenset[int]:
        """The units that start inside a row (cut between its lines, softly or not): pieces.Piece.inside."""
        return frozenset(unit for unit, (_, cut) in enumerate(self.units) if cut is not None)

    def unit_of_row(self, row: int) -> int:
        return next(unit for unit, (found, cut) in enumerate(self.units) if found == row and cut is None)

    def at(self, unit: int | None) -> tuple[int | None, Cut | None]:
        """The row and cut a fragment starting (or stopping) at the packer's `unit` starts (or stops) at."""
        if unit is None:
            return None, None
        return self.units[unit]


def told(item, measured: measure.Measured, tall: float) -> Rows:
    """The units the packer is told of an item's block: its rows taller than `tall` cut at every line they may be,
    the others softly (`rows`), where the block's template prints the parts (`item.cuts_units`), else its rows as
    they are."""
    return rows(measured, tall if item.cuts_units else None, keyed=not item.block.text_units)


def rows(measured: measure.Measured, tall: float | None, keyed: bool = True) -> Rows:
    """The units of a measured block, rows taller than `tall` (millimetres) cut at every line they may be; the
    other rows that may be cut (measure.Cuts: six lines or more) too, softly: there only where keeping the row
    whole would leave a hole over pieces.MAX_HOLE at a column's foot (a wargear rule of 35 mm in a column of 191).
    Not softly in a table's first cell (`keyed`), its row's name: a name cut from its text would head nothing.
    None for `tall`: no row is cut (the block's template does not print parts)."""
    cuts = (
        {}
        if tall is None
        else {cut.unit: cut for cut in measured.cuts if measured.units[cut.unit] > tall or cut.cell > 0 or not keyed}
    )
    units, heights, pads, soft = [], [], [], []
    for row, height in enumerate(measured.units):
        found = cuts.get(row)
        feet = [0.0, *(foot for foot, _ in found.lines)] if found else [0.0]
        for number, foot in enumerate(feet):
            if number and height <= tall:
                soft.append(len(units))
            units.append((row, Cut(found.cell, found.lines[number - 1][1]) if number else None))
            heights.append((feet[number + 1] if number + 1 < len(feet) else height) - foot)
            pads.append((found.top, found.bottom) if number else (0.0, 0.0))
    return Rows(tuple(units), tuple(heights), tuple(pads), frozenset(soft))


def cut_markup(html: str, chars: int) -> tuple[Markup, Markup] | None:
    """`html` cut after its `chars`-th printing character (an entity is one): the part before, its open tags
    closed, and the part after, without its leading spaces, the same tags opened again; None where the markup
    holds fewer characters."""
    head: list[str] = []
    opened: list[_Open] = []
    seen = 0
    tokens = list(_TOKEN.finditer(str(html)))
    for index, match in enumerate(tokens):
        token = match.group()
        if token.startswith("<") and len(token) > 1:
            _follow(opened, token)
            head.append(token)
            continue
        text = unescape(token) if token.startswith("&") else token
        count = len(measure.printing(text))
        if seen + count < chars:
            seen += count
            head.append(token)
            continue
        split = _after(token, chars - seen)
        rest = token[split:].lstrip() + "".join(match.group() for match in tokens[index + 1 :])
        closing = "".join(f"</{_name(tag.tag)}>" for tag in reversed(opened))
        # a cut at a line's end where the text breaks the line itself: the part after starts at the next line, not
        # at a blank one
        rest = _LEADING_BREAKS.sub("", rest, count=1)
        return Markup("".join(head) + token[:split] + closing), Markup(_reopened(opened, rest.lstrip()))
    return None


def _reopened(opened: list[_Open], rest: str) -> str:
    """The part after a cut: the tags open at the cut opened again, then `rest`; those `rest` closes at once (a cut
    at the end of a sub-step) left out rather than printed empty, the list they were in starting at its next
    item."""
    opened = list(opened)
    while opened and (found := re.match(rf"\s*</\s*{re.escape(_name(opened[-1].tag))}\s*>", rest)):
        rest = rest[found.end() :]
        finished = opened.pop()
        if _name(finished.tag) == "li" and opened:
            opened[-1] = _Open(opened[-1].tag, opened[-1].items + 1)  # the next item's number
    return "".join(tag.reopened() for tag in opened) + rest.lstrip()


@dataclass
class _Open:
    """A tag open at some point of the markup; for a list, how many items it has opened so far."""

    tag: str
    items: int = 0

    def reopened(self) -> str:
        """The tag as the part after a cut opens it again: a list item marked continued, a numbered list starting
        at the number of the item the cut is in."""
        name = _name(self.tag)
        if name == "li":
            return _with_class(self.tag, CONTINUED)
        if name == "ol" and self.items:
            found = re.search(r'\sstart="(\d+)"', self.tag)
            start = (int(found.group(1)) if found else 1) + self.items - 1
            return re.sub(r'\sstart="\d+"', "", self.tag)[:-1].rstrip("/ ") + f' start="{start}">'
        return self.tag


def _with_class(tag: str, name: str) -> str:
    """`tag` with the class `name` added to its own."""
    found = re.search(r'\sclass="([^"]*)"', tag)
    if found:
        return tag[: found.start(1)] + (found.group(1) + " " + name).strip() + tag[found.end(1) :]
    return tag[:-1].rstrip() + f' class="{name}">'


def _after(token: str, count: int) -> int:
    """The position in `token` (text, or one entity) just after its `count`-th printing character."""
    if token.startswith("&"):
        return len(token)
    for position, character in enumerate(token):
        if not character.isspace():
            count -= 1
            if count == 0:
                return position + 1
    return len(token)


def _follow(opened: list[_Open], tag: str) -> None:
    """The tags open after `tag` (an item counted in the list it opens in)."""
    name = _name(tag)
    if tag.startswith("</"):
        for position in range(len(opened) - 1, -1, -1):
            if _name(opened[position].tag) == name:
                del opened[position:]
                break
    elif not tag.endswith("/>") and name not in _VOID and not tag.startswith("<!"):
        if name == "li" and opened and _name(opened[-1].tag) in ("ol", "ul"):
            opened[-1].items += 1
        opened.append(_Open(tag))


def _name(tag: str) -> str:
    return re.match(r"</?\s*([\w-]*)", tag).group(1).lower()
