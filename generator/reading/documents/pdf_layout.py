"""A PDF's pages put back together as a document: the characters `pdf` read (each with its box, size, weight and
colour) are cut into the page's columns at the gutters no line crosses, read column by column, into lines by
baseline and into cells at gaps wider than an em. Tables come from their rules (`Grid`: cells whole, found by
pdfplumber) or from aligned cells; a table whose rows stand apart (a blank between them) keeps each row's wrapped
lines in its cells, a cell centred beside a taller one too. Headings come from a larger type, a block's title from
a line in bold; lines repeated at the top or foot of every page (running headers, footers, page numbers) and a
table of contents are dropped and listed. A hyphen at a line's end joins the word again where it was a break, and
stays where the word is written with it ("01-" over "05" is the roll 01-05)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from generator.reading.documents import pdf_mending as mending
from generator.reading.documents import text as plain_text
from generator.reading.documents.document import Document, Heading, Table, is_roll
from generator.reading.documents.inline import inline

PLACE = "\ufffc"  # the mark of a ruled table among the characters (the object replacement character)
CELL_GAP = 1.1  # a gap wider than this many ems separates two cells
WORD_GAP = 0.1  # ems: a justified line of TeX, its spaces not drawn, sets words 0.17 em apart
ROW_GAP = 0.25  # ems of blank between two lines of a table that start another row (a wrapped cell's lines touch)


@dataclass
class Grid:
    """A table its rules draw, as pdfplumber found it: its box and its cells' boxes, row by row (None where a
    cell merged with its neighbour), in PDF space (left, bottom, right, top)."""

    box: tuple[float, float, float, float]
    cells: list[list[tuple[float, float, float, float] | None]]


def _join(text: str, more: str) -> str:
    return mending.HYPHENS.join(text, more)


def document_of(pages, hyphenating: bool = False) -> Document:
    """The document of pages read by `pdf`: [(width, height, characters, grids, rules), …]."""
    mending.HYPHENS = mending.Hyphens(set(), hyphenating)
    try:
        return _document(pages)
    finally:
        mending.HYPHENS = mending.Hyphens(set(), False)


def _document(pages) -> Document:
    body = Counter(char[5] for _, _, chars, _, _ in pages for char in chars if not char[0].isspace())
    body_size = body.most_common(1)[0][0] if body else 10
    sizes = sorted({size for size in body if size > body_size * 1.12}, reverse=True)[:3]
    pages_lines = [_page_lines(number, page) for number, page in enumerate(pages, start=1)]
    mending.HYPHENS.words = mending.vocabulary(pages_lines)
    repeated = mending.running(pages_lines)
    lines, dropped = [], []
    for page in pages_lines:
        for at, line in enumerate(page, start=1):
            line.origin = f"page {line.page}, line {at}"
            text = line.text()
            key = re.sub(r"\d+", "#", text.strip())
            continued = re.search(r"\((suite|cont\.?|continued)\)\s*$", text, re.I) and len(text) < 80
            number = line.edge and re.fullmatch(r"\s*(page\s*)?\d+(\s*(/|of|sur)\s*\d+)?\s*", text, re.I)
            if not line.grid and (key in repeated and line.edge or number or continued):
                dropped.append((line.origin, text.strip()))
                continue
            line.heading = sizes.index(line.size) + 1 if line.size in sizes else 0
            lines.append(line)
    lines = mending.without_contents(lines, dropped)
    nodes = _title_runs(lines[0]) if lines and lines[0].heading else []
    if nodes:
        lines = lines[1:]
    for kind, chunk in _chunks(lines):
        made = [chunk[0].table()] if kind == "grid" else _table(chunk) if kind == "table" else _text(chunk, body_size)
        for node in made:
            if not _continued(nodes, node, dropped):
                nodes.append(node)
    if nodes and isinstance(nodes[0], Heading):
        nodes[0].level = 1
    plain_text.block_titles(nodes)
    return Document(nodes, "pdf", dropped)


def _continued(nodes: list, node, dropped: list) -> bool:
    """A table that goes on from the one just before: in the next column, its header repeated (dropped), or at the
    top of the next page as wide, its repeated header dropped with the page's running lines."""
    last = nodes[-1] if nodes else None
    if not (isinstance(node, Table) and isinstance(last, Table) and node.rows and last.rows and
            len(node.rows[0]) == len(last.rows[0])):
        return False
    if node.rows[0] == last.rows[0]:
        last.rows += node.rows[1:]
        dropped.append((node.origin, "\t".join(node.rows[0])))
        return True
    if _page_of(node.origin) == _page_of(last.origin) + 1 and len(node.rows[0]) >= 2:
        last.rows += node.rows
        return True
    return False


def _page_of(origin: str) -> int:
    match = re.match(r"page (\d+)", origin)
    return int(match.group(1)) if match else 0


def _page_lines(number: int, page) -> list:
    """A page's lines in reading order, column by column; a ruled table is one line of its own, in the column it
    stands in, where it stands."""
    width, height, chars, grids, rules = page
    grid_lines = [_GridLine(grid, number) for grid in grids]
    free = [char for char in chars if not any(grid.holds(char) for grid in grid_lines)]
    for grid in grid_lines:
        grid.fill([char for char in chars if grid.holds(char)])
    # each ruled table stands in the column finder as one mark as wide as it: the gutters go round it, and the
    # column holding the mark holds the table
    marks = [(PLACE, grid.left, grid.bottom, grid.right, grid.top, 0, 0, False, at) for at, grid in enumerate(grid_lines)]
    regions = []
    for column in _columns(width, free + marks):
        placed = [grid_lines[char[8]] for char in column if char[0] == PLACE]
        lines = [_Line(line, number) for line in _lines([char for char in column if char[0] != PLACE])]
        regions.append(sorted(lines + placed, key=lambda item: -item.top))
    out = []
    for place, region in enumerate(regions):
        left = min(item.left for item in region)
        for item in region:
            item.column, item.indent = place, item.left - left
            item.edge = not item.grid and (item.bottom < height * 0.06 or item.top > height * 0.94)
        out += region
    return out


class _Line:
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
        self.cells: list[list[tuple]] = []  # cells of words: (x, text, bold, look)
        word, previous, spaced = [], None, False
        for char in chars:
            if char[0].isspace():
                spaced = True
                continue
            if previous is not None:
                gap, em = char[1] - previous[3], max(previous[5], 1)
                if gap > CELL_GAP * em:
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
            self.cells[-1].append((chars[0][1], "".join(c[0] for c in chars), all(c[6] >= 600 for c in chars),
                                   (chars[0][5], chars[0][6] >= 600, chars[0][7]),  # its look: size, bold, colour
                                   chars[-1][3]))

    @property
    def tabbed(self) -> bool:
        return len(self.cells) > 1

    def words(self):
        return [word for cell in self.cells for word in cell]

    def text(self, cells=None) -> str:
        return "\t".join(_marked(cell, self.bold) for cell in (cells if cells is not None else self.cells))


class _GridLine:
    """A table its rules draw, standing among the page's lines: its cells filled from the characters inside them,
    each cell's lines joined (a wrapped cell stays one cell)."""

    grid = True
    heading, bold, accent, edge, tabbed, size, cells = 0, False, False, False, False, 0, ()

    def __init__(self, grid: Grid, page: int):
        self.page, self.origin, self.column, self.indent = page, "", 0, 0.0
        self.left, self.bottom, self.right, self.top = grid.box
        self.rows = [[cell for cell in row] for row in grid.cells]
        self.tops = sorted(-row_top for row_top in (max((cell[3] for cell in row if cell), default=self.top)
                                                     for row in grid.cells))
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
                for line in (_Line(line, self.page) for line in _lines(chars)):
                    text = _join(text, line.text().replace("\t", " ")) if text else line.text().replace("\t", " ")
                cells.append(inline(text))
            rows.append(cells)
        rows = [row for row in rows if any(cell.strip() for cell in row)]
        return Table(rows, None, self.origin)


def _marked(words, all_bold: bool) -> str:
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


def _chunks(lines):
    """Runs of lines: ruled tables, tables (lines with cells, and the short lines between or just above them) and
    text."""
    kinds = []
    for index, line in enumerate(lines):
        kinds.append("grid" if line.grid else "table" if line.tabbed and not line.heading and not line.accent
                     and not _heads_text(lines, index) else "text")
    # Lines between two lines of a table, or in its later columns, are of it. Whether a line joins depends only
    # on its neighbours' kinds, so a line that joins puts only its two neighbours back to be looked at: each line
    # joins once, where passes over every line until none changed were quadratic.
    waiting = list(range(len(lines)))
    while waiting:
        index = waiting.pop()
        if kinds[index] == "text" and _joins_table(lines, kinds, index):
            kinds[index] = "table?"
            waiting += [near for near in (index - 1, index + 1) if 0 <= near < len(lines)]
    chunks = []
    for kind, line in zip(kinds, lines):
        kind = "table" if kind == "table?" else kind
        same_column = chunks and (chunks[-1][1][-1].page, chunks[-1][1][-1].column) == (line.page, line.column)
        same_band = chunks and chunks[-1][1][-1].edge == line.edge
        if chunks and kind != "grid" and chunks[-1][0] == kind and (kind == "text" and same_band or same_column):
            chunks[-1][1].append(line)
        else:
            chunks.append((kind, [line]))
    return chunks


def _heads_text(lines, index: int) -> bool:
    """A header ("Mod.  Situation") over lines that open with a value or a roll, each of one cell (its value and
    its text closer than a cell's gap): the text reader reads them, and finds the modifiers or the rolls."""
    after = lines[index + 1] if index + 1 < len(lines) else None
    return after is not None and not after.grid and not after.tabbed and after.page == lines[index].page and \
        (_opens_with_value(after) or _opens_with_roll(after)) and all(len(cell) <= 2 for cell in lines[index].cells)


def _joins_table(lines, kinds, index: int) -> bool:
    """A text line that belongs to the table lines around it: between two of them, a short line over an indented
    one, a line going on from the row above, or one aligned with the row under it."""
    line = lines[index]
    if line.heading or line.bold or line.accent:
        return False
    tables = ("table", "table?")
    before = index > 0 and kinds[index - 1] in tables and lines[index - 1].page == line.page
    after = index + 1 < len(lines) and kinds[index + 1] in tables and lines[index + 1].page == line.page
    em = CELL_GAP * max(line.size, 1)
    opens = after and len(line.words()) <= 6 and lines[index + 1].indent > em
    goes_on = before and (line.indent > em or _opens_with_roll(line) and _opens_with_roll(lines[index - 1]))
    aligned = after and _aligned(line, lines[index + 1]) and _opens_with_roll(lines[index + 1]) == \
        _opens_with_roll(line) and (_opens_with_roll(line) or _opens_with_value(line))
    return bool(before and after or opens or goes_on or aligned)


def _title_runs(line) -> list:
    """The sheet's first line, cut where the type changes (the game's name in bold, then the title, the subtitle):
    one top heading a run."""
    runs: list[list] = []
    for word in line.words():
        if runs and runs[-1][-1][3] == word[3]:
            runs[-1].append(word)
        else:
            runs.append([word])
    return [Heading(1, inline(" ".join(word[1] for word in run)), line.origin) for run in runs[:3]] + \
        ([Heading(1, inline(" ".join(word[1] for run in runs[3:] for word in run)), line.origin)] if runs[3:] else [])


def _aligned(line, row) -> bool:
    """A line whose words start where the cells of the table row under it start (a first row with narrow gaps)."""
    starts = [cell[0][0] for cell in row.cells[1:] if cell]
    return len(row.cells) >= 2 and bool(starts) and \
        all(any(abs(word[0] - start) < 2 for word in line.words()) for start in starts)


def _opens_with_value(line) -> bool:
    words = line.words()
    return bool(words) and bool(re.fullmatch(r"[+\-−±]\d+\S{0,2}", words[0][1]))


def _opens_with_roll(line) -> bool:
    words = line.words()
    return bool(words) and is_roll(words[0][1])


def _table(lines) -> list:
    """A table rebuilt from its lines: the columns start where cells start on two lines or more; each word goes to
    the column it starts in. Rows that stand apart (a blank between them) keep their lines whole; else a line that
    fills fewer columns is the next line of the row above."""
    em = max(max(line.size for line in lines), 1)
    starts = sorted(word_cell[0][0] for line in lines for word_cell in line.cells if word_cell)
    left = min(starts)
    columns: list[list[float]] = []
    for x in starts:
        if columns and x - columns[-1][0] < 1.2 * em:
            columns[-1].append(x)
        else:
            columns.append([x])
    bounds = [left] + [group[0] for group in columns[1:] if len(group) >= 2]
    rows = []
    for line in lines:
        cells = [[] for _ in bounds]
        for cell in line.cells:
            for word in cell:
                column = max(i for i, bound in enumerate(bounds) if bound <= word[0] + 2) if word[0] + 2 >= left else 0
                cells[column].append(word)
        rows.append([_marked(words, line.bold) for words in cells])
    rows = [[inline(cell) for cell in row] for row in (_banded(lines, rows, em) or _joined(rows))]
    width = max(len(row) for row in rows)
    empty = [c for c in range(width) if not any(row[c].strip() for row in rows)]
    rows = [[cell for c, cell in enumerate(row) if c not in empty] for row in rows]
    for c in range(len(rows[0]) - 2, -1, -1) if len(rows) > 2 else []:
        only_header = rows[0][c].strip() and not any(row[c].strip() for row in rows[1:])
        if only_header and not rows[0][c + 1].strip():  # a header set left of the centred column it titles
            rows = [row[:c] + [rows[0][c] if r == 0 else row[c + 1]] + row[c + 2:] for r, row in enumerate(rows)]
    if rows and len(rows[0]) == 1:  # a list set with a hanging indent: its lines, one a row
        return _text(lines, 0, indented=True)
    return [Table(rows, None, lines[0].origin)]


def _centred(members) -> bool:
    """A row whose first cell starts below the row's first line: set in the middle of its row."""
    first = [block[4][0] for block in members if block[2] == 0]
    return bool(first) and first[0] > min(block[4][0] for block in members)


def _joined(rows: list[list[str]]) -> list[list[str]]:
    """Lines of one row joined: a line that fills only cells the row above has, and fewer of them, continues it; a
    line with only its first cell above a line without one starts the row that line goes on."""
    out: list[list[str]] = []
    pending: list[str] | None = None
    for row in rows:
        filled = [c for c, cell in enumerate(row) if cell.strip()]
        if pending is not None:
            if row[0].strip() == "" and len(filled) >= 1:
                out.append([_join(pending[0], row[0])] + row[1:])
                pending = None
                continue
            out.append(pending)
            pending = None
        if out and filled == [0] and len([c for c in out[-1] if c.strip()]) >= 2:
            out[-1][0] = _join(out[-1][0], row[0])
        elif filled == [0] and len(row) > 1:
            pending = row
        elif out and filled and row[0].strip() == "" and len(filled) <= len([c for c in out[-1] if c.strip()]) // 2:
            out[-1] = [_join(a, b) if b.strip() else a for a, b in zip(out[-1], row)]
        else:
            out.append(row)
    if pending is not None:
        out.append(pending)
    return _keyed_rows(out)


def _keyed_rows(rows: list[list[str]]) -> list[list[str]]:
    """In a table whose rows mostly have a first cell (a key, a name), a row without one, or whose first cell goes
    on in lower case, is the next line of the row above."""
    keyed = sum(1 for row in rows if row[0].strip())
    if len(rows) < 3 or keyed < 0.6 * len(rows):
        return rows
    out: list[list[str]] = []
    for row in rows:
        first = row[0].strip()
        filled = [cell for cell in row if cell.strip()]
        numbers = all(re.fullmatch(r"[-−+]?\d+\+?", cell.strip()) for cell in filled)
        if out and (not first or first[:1].islower()) and filled and len(filled) <= 3 and not numbers:
            out[-1] = [_join(a, b) if b.strip() else a for a, b in zip(out[-1], row)]
        else:
            out.append(row)
    return out


def _banded(lines, rows: list[list[str]], em: float) -> list[list[str]] | None:
    """The rows of a table whose rows stand apart, a blank between them that no cell crosses (a browser's or a word
    processor's table with padding): each column's lines that touch are one cell, and the cells whose heights
    overlap one row, however many lines each (a cell centred beside a taller one included). None unless most of
    its rows of several lines have their first cell centred (a browser's default): a table whose cells stand at
    the top of their rows, its padding thin, reads as the lines of rows under one another."""
    gap = ROW_GAP * em
    blocks = []  # [top, bottom, column, texts, lines]: a cell's lines, and which of the table's lines they are
    for column in range(len(rows[0])):
        block = None
        for at, (line, row) in enumerate(zip(lines, rows)):
            if not row[column].strip():
                continue
            if block and block[1] - line.top <= gap:
                block[1] = min(block[1], line.bottom)
                block[3].append(row[column])
                block[4].append(at)
            else:
                block = [line.top, line.bottom, column, [row[column]], [at]]
                blocks.append(block)
    bands: list[list] = []  # [top, bottom, blocks]
    for block in sorted(blocks, key=lambda block: -block[0]):
        if bands and bands[-1][1] - block[0] <= gap:
            bands[-1][1] = min(bands[-1][1], block[1])
            bands[-1][2].append(block)
        else:
            bands.append([block[0], block[1], [block]])
    tall = [members for _, _, members in bands if any(len(block[4]) > 1 for block in members)]
    centred = sum(1 for members in tall if _centred(members))
    if len(bands) < 2 or len(bands) >= len(lines) or 2 * centred <= len(tall):
        return None
    out = []
    for _, _, members in bands:
        cells = [""] * len(rows[0])
        for _, _, column, texts, _ in sorted(members, key=lambda block: -block[0]):
            for text in texts:
                cells[column] = _join(cells[column], text) if cells[column] else text
        out.append(cells)
    return out


def _text(lines, body_size: float, indented: bool = False) -> list:
    """A stretch of text lines, read as plain text: headings from their size, a whole line in bold as a block's
    title, the rest as paragraphs, lists and terms."""
    out, origins = [], []
    for line in lines:
        text = " ".join(_marked(cell, line.bold) for cell in line.cells)
        numbered = re.match(r"^(\d{1,2}[.)])\s+(\S.*)$", text.replace("**", "")) if line.bold else None
        if line.heading:
            text = "#" * min(line.heading, 3) + " " + text.replace("**", "")
        elif numbered:  # a numbered step in bold ("1. Mouvements"): an item of its list, not a block's title
            text = f"{numbered.group(1)} **{numbered.group(2)}**"
        elif (line.bold or line.accent) and len(text) < 80 and not indented:
            text = "#### " + text
        elif line.bold:
            text = f"**{text}**"
        if indented and out and not re.match(r"^\s*([+\-−±]\s?\d|\d)", text):
            out[-1] += " " + text  # a hanging line of the item above
            continue
        out.append(text)
        origins.append(line.origin)
    mending.hyphens_resolved(out, origins)
    document = plain_text.read("\n".join(out), titled=False)
    for node in document.nodes:
        match = re.match(r"line (\d+)", node.origin)
        if match and int(match.group(1)) - 1 < len(origins):
            node.origin = origins[int(match.group(1)) - 1]
    return document.nodes




def _columns(width: float, chars) -> list[list]:
    """The page's characters cut into its columns, left to right, at the gutters that (almost) no line crosses; the
    lines that do cross one (a title bar, a footer across the page) come before the columns, or after them when
    they stand below every column's text."""
    if not chars:
        return []
    page_lines = _lines(chars)
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
    spanning = [any(char[1] <= gutter <= char[3] for gutter in gutters for char in line if not char[0].isspace())
                for line in page_lines]
    columned = [index for index, spans in enumerate(spanning) if not spans]
    first, last = (columned[0], columned[-1]) if columned else (len(page_lines), len(page_lines))
    top = [char for index in range(len(page_lines)) if spanning[index] and index <= last for char in page_lines[index]]
    bottom = [char for index in range(len(page_lines)) if spanning[index] and index > last for char in page_lines[index]]
    rest = [char for index in columned for char in page_lines[index]]
    bounds = [0, *gutters, width + 1]
    columns = [[char for char in rest if low <= (char[1] + char[3]) / 2 < high] for low, high in zip(bounds, bounds[1:])]
    return [part for part in [top, *columns, bottom] if part]


def _holds_columns(page_lines, gutter: float) -> bool:
    """A gutter with three lines or more on either side of it (a line or two standing out past the others, on a
    short page, leave a blank that parts no columns)."""
    edges = [(min(char[1] for char in line), max(char[3] for char in line)) for line in page_lines if line]
    return sum(1 for _, right in edges if right < gutter) >= 3 and sum(1 for left, _ in edges if left > gutter) >= 3


def _lines(chars) -> list[list]:
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
            if plain_at is not None and sum(1 for char in line[:plain_at] if char[0].isalpha()) >= 3:
                out += [line[:plain_at], line[plain_at:]]
                continue
        out.append(line)
    return out


def _same_line(first, char) -> bool:
    """On the line `first` opened: the same baseline, or a smaller mark (a footnote's star) within its height."""
    if abs(first[2] - char[2]) <= max(1.5, char[5] * 0.3):
        return True
    middle = (char[2] + char[4]) / 2
    return char[5] < first[5] * 0.9 and first[2] <= middle <= first[4]
