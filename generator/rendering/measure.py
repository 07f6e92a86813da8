"""Heights read from the measuring pass: WeasyPrint's laid-out boxes → what the packer needs, in millimetres.

The measuring document holds, in one tall column of the final width, each block whole; for a block
that may continue, a probe: its continuation (repeated title and table header) with its first unit; and
its section's heading marked continued, as a column starting inside the section repeats it. Every unit a block may be continued between (a table row, a
step, a paragraph) carries the class `u`; a sub-heading a continuation repeats carries the class `r` (the probe
repeats every one of the block's, above its first unit). From the boxes:
- the block's height, and each unit's (from the top of one unit to the top of the next);
- what sits above the first unit (head) and below the last (tail), whole and in a continuation;
- the height of each sub-heading repeated "(cont.)" in a continuation;
- the widths WeasyPrint gave the block's table columns, so that every fragment of a table gets the same;
- how far its content reaches past its right edge: a block too wide for a column is measured again at the page's
  width (generator.rendering.render), to span the page in a band (generator.rendering.layout.pack_bands);
- for a table row, a paragraph, a term or a list item (a bullet, a step) of many lines, where it may be cut between
  two of its lines (`Cuts`): one taller than a third of a column continues into the next column, rather than leave
  the foot of one empty.

A measurement is plain data (`Measured.from_json` refuses anything that is not exactly its shape), so
that it can be kept between builds (generator.rendering.heights).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from math import isfinite

from generator.rendering.layout import PX_PER_MM
from generator.rendering.pieces import Parts

# The ranges of what qrs measures, beyond which a measurement read back is refused: a block no taller than the
# measuring page (30 m), a table of at most 64 columns none wider than 4,000 px (a metre), 5,000 units.
MAX_MM = 30000.0
MAX_UNITS = 5000
MAX_WIDTHS = 64
MAX_WIDTH_PX = 4000.0

PROBE = "~cont"  # id suffix of a block's continuation probe
HEADING = "~heading"  # id suffix of a section's continued-heading probe
UNIT, REPEAT = "u", "r"  # the classes of a unit and of a sub-heading repeated above a continuation's first unit
MIN_LINES = 3  # lines a row cut in two keeps on each side, as a paragraph keeps against widows and orphans
AUTO_HYPHEN = "\u2010"  # what WeasyPrint adds at the end of a line it hyphenates: a cut there would split a word


@dataclass(frozen=True)
class Cuts:
    """Where unit `unit` (a table row, a paragraph, a term, a list item) may be cut between two lines of its tallest
    cell, `cell` (0 for a paragraph, a term or a list item): after each of `lines`,
    (height from the row's top to that line's foot, the printing characters of the cell before the cut: what
    generator.rendering.cuts counts to cut the cell's markup there). A part printed alone adds the row's padding
    on the side of the cut: `top` above a continued part, `bottom` below a part continued."""

    unit: int
    cell: int
    top: float
    bottom: float
    lines: tuple[tuple[float, int], ...]

    @classmethod
    def from_json(cls, data) -> "Cuts | None":
        if not (
            isinstance(data, dict)
            and set(data) == set(cls.__dataclass_fields__)
            and all(_count(data[name]) for name in ("unit", "cell"))
            and all(_number(data[name], MAX_MM) for name in ("top", "bottom"))
            and isinstance(data["lines"], list)
            and len(data["lines"]) <= MAX_UNITS
            and all(
                isinstance(line, list) and len(line) == 2 and _number(line[0], MAX_MM) and _count(line[1])
                for line in data["lines"]
            )
        ):
            return None
        return cls(**{**data, "lines": tuple((height, chars) for height, chars in data["lines"])})


@dataclass(frozen=True)
class Measured(Parts):
    """A block as WeasyPrint laid it out (its parts as pieces.Parts, and what else the packer and the checks need)."""

    heading: float = 0.0
    group_heading: float = 0.0  # its group's heading, repeated "(cont.)"
    repeats: tuple[float, ...] = ()  # each of its sub-headings, repeated "(cont.)" above a continuation's first row
    # by unit: what a fragment stopping after it prints below it besides cont_tail (a list closed there: _list_closes)
    closes: tuple[float, ...] = ()
    widths: tuple[float, ...] | None = None  # CSS pixels, as WeasyPrint laid the table out
    overflow: float = 0.0  # how far its content reaches past its right edge: too wide for where it was measured
    wide: bool = False  # measured at the page's width, to span the page (generator.rendering.layout.pack_bands)
    cuts: tuple[Cuts, ...] = ()  # the units of many lines, where each may be cut between two lines

    def to_json(self) -> dict:
        """As a JSON file holds it (lists, not tuples): what from_json reads back."""
        data = asdict(self)
        data["cuts"] = [{**cut, "lines": [list(line) for line in cut["lines"]]} for cut in data["cuts"]]
        return {name: list(value) if isinstance(value, tuple) else value for name, value in data.items()}

    @classmethod
    def from_json(cls, data) -> "Measured | None":
        """A measurement read back from a file, or None if it is not exactly one."""
        if not isinstance(data, dict) or set(data) != set(cls.__dataclass_fields__):
            return None
        numbers = [
            data[name]
            for name in ("height", "head", "tail", "cont_head", "cont_tail", "heading", "group_heading", "overflow")
        ]
        units, widths, repeats, closes = data["units"], data["widths"], data["repeats"], data["closes"]
        cuts = [Cuts.from_json(cut) for cut in data["cuts"]] if isinstance(data["cuts"], list) else [None]
        if None in cuts or any(cut.unit >= len(units) for cut in cuts):
            return None
        if not (
            all(_number(value, MAX_MM) for value in numbers)
            and isinstance(data["wide"], bool)
            and all(
                isinstance(values, list)
                and len(values) <= MAX_UNITS
                and all(_number(value, MAX_MM) for value in values)
                for values in (units, repeats)
            )
            and isinstance(closes, list)
            and len(closes) in (0, len(units))
            and all(_signed(value, MAX_MM) for value in closes)
            and (
                widths is None
                or isinstance(widths, list)
                and len(widths) <= MAX_WIDTHS
                and all(_number(value, MAX_WIDTH_PX) for value in widths)
            )
        ):
            return None
        if units and abs(data["head"] + sum(units) + data["tail"] - data["height"]) > 0.01:
            return None  # a block's height is its head, its units and its tail: not a height qrs measured
        return cls(
            **{
                **data,
                "units": tuple(units),
                "repeats": tuple(repeats),
                "closes": tuple(closes),
                "cuts": tuple(cuts),
                "widths": tuple(widths) if widths is not None else None,
            }
        )


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_MM * 100


def _number(value, largest: float) -> bool:
    return _signed(value, largest) and value >= 0


def _signed(value, largest: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and isfinite(value) and abs(value) <= largest


def section_boxes(document) -> dict[str, list]:
    """The boxes of each block fragment (a <section class="block">) by id: more than one means it was split."""
    found: dict[str, list] = {}
    for page in document.pages:
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is None or box.element_tag != "section" or "block" not in element.get("class", "").split():
                continue
            found.setdefault(element.get("id"), []).append(box)
    return found


def header_height(document) -> float:
    header = next(
        (box for box in document.pages[0]._page_box.descendants() if getattr(box, "element_tag", None) == "header"),
        None,
    )
    return header.margin_height() / PX_PER_MM if header else 0.0


def measure(document, ids: list[str]) -> dict[str, Measured]:
    """Each block's measurement, by id, from the measuring document's boxes."""
    boxes = section_boxes(document)
    found = {}
    for ident in ids:
        box = boxes[ident][0]
        height = sum(fragment.margin_height() for fragment in boxes[ident]) / PX_PER_MM
        heading_probe = boxes.get(ident + HEADING)
        heading = _first_child_height(heading_probe[0], "h2") if heading_probe else 0.0
        group_heading = _first_child_height(heading_probe[0], "h3") if heading_probe else 0.0
        found[ident] = Measured(
            height=height,
            heading=heading,
            group_heading=group_heading,
            widths=_column_widths(box),
            overflow=round(max(overflow(fragment) for fragment in boxes[ident]), 3),
            **_units(box, boxes.get(ident + PROBE)),
        )
    return found


def overflow(block_box) -> float:
    """How far (mm) anything inside a block reaches past the block's right edge."""
    right = block_box.position_x + block_box.margin_width()
    furthest = max(
        (
            box.position_x + box.margin_width()
            for box in block_box.descendants()
            if hasattr(box, "margin_width") and box.width is not None
        ),
        default=right,
    )
    return max(0.0, (furthest - right) / PX_PER_MM)


def _units(box, probe) -> dict:
    """The block's units and what its continuation repeats; nothing for a block that is never split: one of no
    unit, or of a single unit that may not be cut between its lines."""
    rows = _unit_boxes(box)
    tops, bottom = _edges(rows)
    if not probe or not tops:
        return {}
    edges = tops + [bottom]
    heights = [after - before for before, after in zip(edges, edges[1:])]
    cuts = tuple(
        found
        for unit, (row, height) in enumerate(zip(rows, heights))
        if (found := _cuts(unit, row, height)) is not None
    )
    if len(tops) < 2 and not cuts:
        return {}
    top, end = box.position_y, box.position_y + box.margin_height()
    probe_tops, probe_bottom = _unit_edges(probe[0])
    repeated, _ = _unit_edges(probe[0], REPEAT)
    probe_top, probe_end = probe[0].position_y, probe[0].position_y + probe[0].margin_height()
    # The repeated sub-headings stand one under another above the probe's unit: each from its top to the next's.
    repeats = [after - before for before, after in zip(repeated, repeated[1:] + probe_tops[:1])]
    # The probe's table is laid out with its one unit, at the column widths that unit gives it; a continuation
    # prints at the whole table's (generator.rendering.planned.fragment): its header is as tall as the whole's.
    header_gap = _first_child_height(probe[0], "thead") - _first_child_height(box, "thead")
    return {
        "repeats": tuple(height / PX_PER_MM for height in repeats),
        "closes": _list_closes(box, rows),
        "units": tuple(height / PX_PER_MM for height in heights),
        "head": (tops[0] - top) / PX_PER_MM,
        "tail": (end - bottom) / PX_PER_MM,
        "cont_head": ((repeated or probe_tops)[0] - probe_top) / PX_PER_MM - header_gap,
        "cont_tail": (probe_end - probe_bottom) / PX_PER_MM,
        "cuts": cuts,
    }


def _list_closes(box, units: list) -> tuple[float, ...]:
    """By unit (`units`, the first box of each), in millimetres: what a fragment stopping after it prints below it
    besides `cont_tail`. A unit of a list (ul, ol) whose next unit stands in the same list leaves the list to be
    closed there: its foot (padding, border and margin, as the whole block prints them after its last item), which
    the units' heights, from one unit's top to the next's, leave out. `cont_tail` is measured on the probe, which
    prints the first unit alone, closing its list if it stands in one: that list's foot is counted there already,
    and taken off here."""
    list_of = {
        id(item): holder
        for holder in box.descendants()
        if getattr(holder, "element_tag", None) in ("ul", "ol")
        for item in holder.children
    }
    lists = [list_of.get(id(unit)) for unit in units]

    def foot(holder) -> float:
        if holder is None:
            return 0.0
        last = holder.children[-1]
        return max(0.0, holder.position_y + holder.margin_height() - last.position_y - last.margin_height()) / PX_PER_MM

    counted = foot(lists[0]) if lists else 0.0
    closes = [
        (foot(holder) if holder is not None and holder is after else 0.0) - counted
        for holder, after in zip(lists, [*lists[1:], None])
    ]
    return tuple(closes) if any(closes) else ()


def _unit_boxes(box, kind: str = UNIT) -> list:
    """The first box of each of the block's units (or of its elements of class `kind`), in order."""
    seen, found = set(), []
    for child in box.descendants():
        element = getattr(child, "element", None)
        if element is None or id(element) in seen or "::" in child.element_tag:
            continue
        if kind in element.get("class", "").split():
            seen.add(id(element))
            found.append(child)
    return found


# The units that may be cut between lines: a table's row (a dice table's too), a paragraph, a term, a list item (a
# bullet, a numbered line, a step with its sub-steps and bullets).
CUT_UNITS = ("tr", "p", "div", "li")


def _cuts(unit: int, row, height: float) -> Cuts | None:
    """Where a unit may be cut between two lines: a table row, of its tallest cell, a paragraph, a term or a list
    item (one "cell", its nested lists' lines among its own). After a line that keeps MIN_LINES on each side (and, after it, one more than a row's first cell, which
    a continued part repeats), below every other cell's last line, not after a word WeasyPrint hyphenated; None for
    a unit with no such line."""
    if getattr(row, "element_tag", None) not in CUT_UNITS:
        return None
    cells = [child for child in getattr(row, "children", ()) if type(child).__name__ == "TableCellBox"] or [row]
    lines = [_lines(cell) for cell in cells]
    if max(map(len, lines)) < 2 * MIN_LINES:
        return None
    cell = max(range(len(cells)), key=lambda index: len(lines[index]))
    top = row.position_y
    others = max(
        (
            line.position_y + line.margin_height()
            for index, found in enumerate(lines)
            if index != cell
            for line in found
        ),
        default=top,
    )
    keep_after = max(MIN_LINES, len(lines[0]) + 1 if cell else MIN_LINES)
    source = printing("".join(cells[cell].element.itertext()))
    found, chars = [], 0
    for number, line in enumerate(lines[cell][:-keep_after], start=1):
        text = "".join(
            box.text for box in line.descendants() if type(box).__name__ == "TextBox" and "::" not in box.element_tag
        )  # not a step's number or a term's colon: the page's own
        chars, ends_in_word = _consumed(source, chars, printing(text))
        foot = line.position_y + line.margin_height()
        if number >= MIN_LINES and foot >= others and not ends_in_word:
            found.append((round((foot - top) / PX_PER_MM, 3), chars))
    if not found:
        return None
    first, last = lines[cell][0], lines[cell][-1]
    return Cuts(
        unit,
        cell,
        top=round((first.position_y - top) / PX_PER_MM, 3),
        bottom=round(height / PX_PER_MM - (last.position_y + last.margin_height() - top) / PX_PER_MM, 3),
        lines=tuple(found),
    )


def printing(text: str) -> str:
    """The printing characters of text, what a cut between lines counts (generator.rendering.cuts): no spaces."""
    return "".join(character for character in text if not character.isspace())


def _consumed(source: str, position: int, printed: str) -> tuple[int, bool]:
    """How far into the cell's source text (its printing characters) a line's printed characters reach, from
    `position`; and whether the line ends inside a word (hyphenated by WeasyPrint: a cut there would split it).
    What the page prints that the source does not hold (the hyphen of a hyphenated word, a colon after a term) is
    passed over; case is not compared (a heading set in capitals)."""
    hyphenated = False
    for character in printed:
        if position < len(source) and source[position].lower() == character.lower():
            position += 1
            hyphenated = False
        else:
            hyphenated = character in ("-", AUTO_HYPHEN)  # printed, not in the source: the line's own hyphen
    return position, hyphenated


def _lines(box) -> list:
    """The line boxes of a cell, in order, not those inside another line (an inline block's)."""
    found = []
    for child in getattr(box, "children", ()):
        if type(child).__name__ == "LineBox":
            found.append(child)
        else:
            found += _lines(child)
    return found


def _unit_edges(box, kind: str = UNIT) -> tuple[list[float], float]:
    """The tops of the block's units (or of the elements of class `kind`), and the bottom of the last one (CSS
    pixels)."""
    return _edges(_unit_boxes(box, kind))


def _edges(found: list) -> tuple[list[float], float]:
    return [child.position_y for child in found], (found[-1].position_y + found[-1].margin_height() if found else 0.0)


def _first_child_height(box, tag: str) -> float:
    heading = next((child for child in box.descendants() if getattr(child, "element_tag", None) == tag), None)
    return heading.margin_height() / PX_PER_MM if heading else 0.0


def _column_widths(box) -> tuple[float, ...] | None:
    table = next((child for child in box.descendants() if hasattr(child, "column_widths")), None)
    return tuple(round(width, 3) for width in table.column_widths) if table is not None else None
