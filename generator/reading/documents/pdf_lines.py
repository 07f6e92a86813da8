"""A PDF page's characters (each with its box, size, weight and colour, as `pdf` read them) put into lines: cut
into the page's columns at the gutters no line crosses, read column by column, into lines by baseline, into words
at gaps wider than a tenth of an em and into cells at gaps wider than an em. A table its rules draw (`Grid`, found
by pdfplumber) stands among the lines as one, its cells filled from the characters inside them."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from generator.reading.documents import pdf_mending as mending
from generator.reading.documents.document import Table
from generator.reading.documents.inline import inline

PLACE = "\ufffc"  # the mark of a ruled table among the characters (the object replacement character)
CELL_GAP = 1.1  # a gap wider than this many ems separates two cells
WORD_GAP = 0.1  # ems: a justified line of TeX, its spaces not drawn, sets words 0.17 em apart
FIGURE_GAP = 0.75  # ems after a number: wider than a word space, two cells of a row of figures ("9  10", "6+  miss")
_FIGURE = set("0123456789−-–+")


@dataclass
class Grid:
    """A table its rules draw, as pdfplumber found it: its box and its cells' boxes, row by row (None where a
    cell merged with its neighbour), in PDF space (left, bottom, right, top)."""

    box: tuple[float, float, float, float]
    cells: list[list[tuple[float, float, float, float] | None]]


def _figure(chars) -> bool:
    """A word that is a number ("10", "−2", "6+"): the centred cells of a row of figures stand closer than their
    columns' pitch where a cell is two figures wide ("9  10", "6+  miss"), yet further apart than words."""
    return bool(chars) and all(char[0] in _FIGURE for char in chars)


def join(text: str, more: str) -> str:
    return mending.HYPHENS.join(text, more)


def page_lines(number: int, page) -> list:
    """A page's lines in reading order, column by column; a ruled table is one line of its own, in the column it
    stands in, where it stands."""
    width, height, chars, grids, rules = page
    grid_lines = [GridLine(grid, number) for grid in grids]
    free = [char for char in chars if not any(grid.holds(char) for grid in grid_lines)]
    for grid in grid_lines:
        grid.fill([char for char in chars if grid.holds(char)])
    # each ruled table stands in the column finder as one mark as wide as it: the gutters go round it, and the
    # column holding the mark holds the table
    marks = [
        (PLACE, grid.left, grid.bottom, grid.right, grid.top, 0, 0, False, at) for at, grid in enumerate(grid_lines)
    ]
    regions = []
    for column in _columns(width, free + marks):
        placed = [grid_lines[char[8]] for char in column if char[0] == PLACE]
        lines = [Line(line, number) for line in baseline_lines([char for char in column if char[0] != PLACE])]
        regions.append(sorted(lines + placed, key=lambda item: -item.top))
    out = []
    for place, region in enumerate(regions):
        left = min(item.left for item in region)
        for item in region:
            item.column, item.indent = place, item.left - left
            item.edge = not item.grid and (item.bottom < height * 0.06 or item.top > height * 0.94)
            if not item.grid:
                item.rule = _rule_above(item, rules)
        out += region
    return out


def _rule_above(line, rules) -> float | None:
    """The height of the nearest rule drawn above the line and across some of it (a cell's border, the edge of a
    shaded row): the lines under one rule, down to the next, are one row of a table ruled between its rows. None
    where no rule stands above it."""
    middle = (line.top + line.bottom) / 2
    return min((y for left, right, y in rules if y > middle and left < line.right and right > line.left), default=None)


class Line:
    """A line of one column: its words with their positions, cut into cells at gaps wider than an em."""

    grid = False

    def __init__(self, chars, page: int):
        self.page, self.origin, self.heading, self.column = page, "", 0, 0
        letters = [char for char in chars if not char[0].isspace()]
        self.size = Counter(char[5] for char in letters).most_common(1)[0][0] if letters else 0
        self.bold = bool(letters) and all(char[6] >= 600 for char in letters)
        self.accent = sum(1 for char in letters if char[0].isalpha()) >= 3 and all(char[7] for char in letters)
        self.left = letters[0][1] if letters else 0
        self.indent = 0.0  # from its column's left, once the page is cut into columns
        self.bottom = min((char[2] for char in letters), default=0)
        self.top = max((char[4] for char in letters), default=0)
        self.edge = False  # in the top or bottom band of its page, where running headers and footers stand
        self.rule: float | None = None  # the height of the nearest rule above it (`_rule_above`), once read
        self.hangs = False  # the first line under a table's header repeated atop its page (and left out)
        self.cells: list[list[tuple]] = []  # cells of words: (x, text, bold, look)
        word, previous, spaced = [], None, False
        for char in chars:
            if char[0].isspace():
                spaced = True
                continue
            if previous is not None:
                gap, em = char[1] - previous[3], max(previous[5], 1)
                if gap > CELL_GAP * em or gap > FIGURE_GAP * em and _figure(word):
                    self._word(word)
                    self.cells.append([])
                    word = []
                elif gap > WORD_GAP * em or spaced:
                    self._word(word)
                    word = []
            if not self.cells:
                self.cells.append([])
            word.append(char)
            previous, spaced = char, False
        self._word(word)
        self.right = max((word[4] for word in self.words()), default=self.left)

    def _word(self, chars) -> None:
        if chars:
            self.cells[-1].append(
                (
                    chars[0][1],
                    "".join(c[0] for c in chars),
                    all(c[6] >= 600 for c in chars),
                    (chars[0][5], chars[0][6] >= 600, chars[0][7]),  # its look: size, bold, colour
                    chars[-1][3],
                )
            )

    @property
    def tabbed(self) -> bool:
        return len(self.cells) > 1

    def words(self):
        return [word for cell in self.cells for word in cell]

    def text(self, cells=None) -> str:
        return "\t".join(marked(cell, self.bold) for cell in (cells if cells is not None else self.cells))


class GridLine:
    """A table its rules draw, standing among the page's lines: its cells filled from the characters inside them,
    each cell's lines joined (a wrapped cell stays one cell)."""

    grid = True
    heading, bold, accent, edge, tabbed, size, cells, rule = 0, False, False, False, False, 0, (), None

    def __init__(self, grid: Grid, page: int):
        self.page, self.origin, self.column, self.indent = page, "", 0, 0.0
        self.left, self.bottom, self.right, self.top = grid.box
        self.rows = [[cell for cell in row] for row in grid.cells]
        self.tops = sorted(
            -row_top for row_top in (max((cell[3] for cell in row if cell), default=self.top) for row in grid.cells)
        )
        self.chars: list[list[list]] = [[[] for _ in row] for row in grid.cells]

    def holds(self, char) -> bool:
        middle_x, middle_y = (char[1] + char[3]) / 2, (char[2] + char[4]) / 2
        return self.left <= middle_x <= self.right and self.bottom <= middle_y <= self.top

    def fill(self, chars) -> None:
        """Each character into its cell: the row found by its height among the rows' tops, the cell along it."""
        for char in chars:
            middle_x, middle_y = (char[1] + char[3]) / 2, (char[2] + char[4]) / 2
            row = max(0, bisect_right(self.tops, -middle_y) - 1)
            for column, box in enumerate(self.rows[row]):
                if box and box[0] <= middle_x <= box[2]:
                    self.chars[row][column].append(char)
                    break

    def words(self):
        return []

    def text(self, cells=None) -> str:
        return ""

    def table(self) -> Table:
        rows = []
        for row in self.chars:
            cells = []
            for chars in row:
                text = ""
                for line in (Line(line, self.page) for line in baseline_lines(chars)):
                    text = join(text, line.text().replace("\t", " ")) if text else line.text().replace("\t", " ")
                cells.append(inline(text))
            rows.append(cells)
        rows = [row for row in rows if any(cell.strip() for cell in row)]
        return Table(rows, None, self.origin)


def marked(words, all_bold: bool) -> str:
    """Words with their bold runs marked (a line all in bold is marked by its reader, not word by word)."""
    out, run = [], []
    for at, (_, text, bold, *_) in enumerate(words):
        if at == 0 and re.fullmatch(r"\d{1,3}[.)]|[•·–-]", text):  # a step's number stays out: the list is found
            out.append(text)
            continue
        if bold and not all_bold:
            run.append(text)
            continue
        if run:
            out.append("**" + " ".join(run) + "**")
            run = []
        out.append(text)
    if run:
        out.append("**" + " ".join(run) + "**")
    return " ".join(out)


def _columns(width: float, chars) -> list[list]:
    """The page's characters cut into its columns, left to right, at the gutters that (almost) no line crosses; the
    lines that do cross one (a title bar, a footer across the page) come before the columns, or after them when
    they stand below every column's text."""
    if not chars:
        return []
    page_lines = baseline_lines(chars)
    count = [0] * (int(width) + 2)
    for line in page_lines:
        covered = set()
        for char in line:
            if not char[0].isspace():
                covered.update(range(max(0, int(char[1])), min(len(count), int(char[3]) + 1)))
        for x in covered:
            count[x] += 1
    limit = max(2, len(page_lines) // 30)
    gutters, start = [], None
    for x, used in enumerate([*count, limit + 1]):
        if used <= limit and start is None:
            start = x
        elif used > limit and start is not None:
            if x - start >= 8 and width * 0.15 < (start + x) / 2 < width * 0.85:
                gutters.append((start + x) / 2)
            start = None
    gutters = [gutter for gutter in gutters if _holds_columns(page_lines, gutter)]
    if not gutters:
        return [chars]
    spanning = [
        any(char[1] <= gutter <= char[3] for gutter in gutters for char in line if not char[0].isspace())
        for line in page_lines
    ]
    columned = [index for index, spans in enumerate(spanning) if not spans]
    first, last = (columned[0], columned[-1]) if columned else (len(page_lines), len(page_lines))
    top = [char for index in range(len(page_lines)) if spanning[index] and index <= last for char in page_lines[index]]
    bottom = [
        char for index in range(len(page_lines)) if spanning[index] and index > last for char in page_lines[index]
    ]
    rest = [char for index in columned for char in page_lines[index]]
    bounds = [0, *gutters, width + 1]
    columns = [
        [char for char in rest if low <= (char[1] + char[3]) / 2 < high] for low, high in zip(bounds, bounds[1:])
    ]
    return [part for part in [top, *columns, bottom] if part]


def _holds_columns(page_lines, gutter: float) -> bool:
    """A gutter with three lines or more on either side of it (a line or two standing out past the others, on a
    short page, leave a blank that parts no columns)."""
    edges = [(min(char[1] for char in line), max(char[3] for char in line)) for line in page_lines if line]
    return sum(1 for _, right in edges if right < gutter) >= 3 and sum(1 for left, _ in edges if left > gutter) >= 3


def baseline_lines(chars) -> list[list]:
    """Characters grouped into lines by baseline, top to bottom, each line's characters left to right."""
    lines: list[list] = []
    for char in sorted(chars, key=lambda c: (-round(c[2], 0), c[1])):
        if lines and _same_line(lines[-1][0], char):
            lines[-1].append(char)
        else:
            lines.append([char])
    out = []
    for line in (sorted(line, key=lambda c: c[1]) for line in lines):
        letters = [index for index, char in enumerate(line) if not char[0].isspace()]
        if letters and line[letters[0]][7]:  # a title in the accent colour, then cells on its line: two lines
            plain_at = next((index for index in letters if not line[index][7]), None)
            if (
                plain_at is not None
                and sum(1 for char in line[:plain_at] if char[0].isalpha()) >= 3
                and _cells_after(line, plain_at)
            ):
                out += [line[:plain_at], line[plain_at:]]
                continue
        out.append(line)
    return out


def _cells_after(line, plain_at: int) -> bool:
    """Whether the line's plain words stand a cell's gap after its coloured ones (a title, then its cells): a link
    coloured at a wrapped line's start is followed by the sentence it is of, a word space on."""
    coloured = max(char[3] for char in line[:plain_at] if not char[0].isspace())
    return line[plain_at][1] - coloured > CELL_GAP * max(line[plain_at][5], 1)


def _same_line(first, char) -> bool:
    """On the line `first` opened: the same baseline, or a smaller mark (a footnote's star) within its height."""
    if abs(first[2] - char[2]) <= max(1.5, char[5] * 0.3):
        return True
    middle = (char[2] + char[4]) / 2
    return char[5] < first[5] * 0.9 and first[2] <= middle <= first[4]
