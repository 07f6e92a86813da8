"""A PDF's lines told apart into tables and text (`chunked`), and a table rebuilt from its lines (`rebuilt`): the
columns from where cells start, a wrapped cell's lines joined, the rows of a table whose rows stand apart (a blank
between them) kept whole, a cell centred beside a taller one too."""

from __future__ import annotations

import copy
import re
from collections import Counter

from generator.reading.documents.document import Table, is_roll
from generator.reading.documents.inline import inline
from generator.reading.documents.pdf_lines import CELL_GAP, join, marked

GUTTER = 1.5  # ems: the least blank between two tables set side by side (twice as wide as any between their cells)
WIDE_SPACE = 0.4  # ems: wider than a word space, narrower than a cell's gap
ROW_GAP = 0.25  # ems of blank between two lines of a table that start another row (a wrapped cell's lines touch)


def chunked(lines):
    """Runs of lines: ruled tables, tables (lines with cells, and the short lines between or just above them),
    keys under a ruled header (`_keys_under`) and text."""
    kinds = []
    for index, line in enumerate(lines):
        kinds.append(
            "grid"
            if line.grid
            else "table"
            if line.tabbed and not line.heading and not line.accent and not _heads_text(lines, index)
            else "text"
        )
    for index in range(len(lines)):
        keys = _keys_under(lines, index) if kinds[index] == "text" else 0
        if keys:  # a header over keys whose other columns are empty: the keys would read as a paragraph
            kinds[index : index + 1 + keys] = ["keys"] * (1 + keys)
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
    return (
        after is not None
        and not after.grid
        and not after.tabbed
        and after.page == lines[index].page
        and (_opens_with_value(after) or _opens_with_roll(after))
        and all(len(cell) <= 2 for cell in lines[index].cells)
    )


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
    # a short line over an indented table opens it, unless a rule parts them: a ruled table's top rule stands
    # under the last line of the paragraph above it ("from the options below."), which is none of it; a header
    # set right under its own rule (booktabs' top rule, its middle rule under it) is the table's
    opens = (
        after
        and len(line.words()) <= 6
        and lines[index + 1].indent > em
        and (line.rule == lines[index + 1].rule or _under_its_rule(line))
    )
    goes_on = before and (line.indent > em or _opens_with_roll(line) and _opens_with_roll(lines[index - 1]))
    aligned = (
        after
        and _aligned(line, lines[index + 1])
        and _opens_with_roll(lines[index + 1]) == _opens_with_roll(line)
        and (_opens_with_roll(line) or _opens_with_value(line))
    )
    hangs = after and (line.hangs and line.indent > em or _over_later_cells(lines, index))
    return bool(before and after or opens or goes_on or aligned or hangs)


def _under_its_rule(line) -> bool:
    """A line standing within an em under a rule: a table's header under its top rule, where a paragraph's last
    line stands a line or more under any rule above it."""
    return line.rule is not None and line.rule - line.top < max(line.size, 1)


def _keys_under(lines, index: int) -> int:
    """How many lines of one key each stand under the line at `index`, a header between a table's top rule and the
    rule under it: a table whose other columns are still empty ("d66 Roll | Scroll" over "1-3.1", "1-3.2", …), its
    lines each one word, all under that one rule. 0 where the line heads no such keys."""
    header = lines[index]
    if not (_under_its_rule(header) and len(header.words()) >= 2):
        return 0
    count = 0
    for line in lines[index + 1 :]:
        ruled_under_header = line.rule is not None and line.rule < header.bottom
        if line.grid or line.page != header.page or not ruled_under_header or len(line.words()) != 1:
            break
        if count and line.rule != lines[index + 1].rule:
            break
        count += 1
    return count if count >= 2 else 0


def keyed(lines) -> list[Table]:
    """A header over lines of one key each (`_keys_under`): the table, its header's words right of every key
    heading the empty columns; none where no word of the header stands there (its lines read as text)."""
    header, keys = lines[0], lines[1:]
    reach = max(line.right for line in keys)
    over = " ".join(word[1] for word in header.words() if word[0] < reach)
    beyond = " ".join(word[1] for word in header.words() if word[0] >= reach)
    if not beyond:
        return []
    rows = [[over, beyond]] + [[key.words()[0][1], ""] for key in keys]
    return [Table([[inline(cell) for cell in row] for row in rows], None, header.origin)]


def _over_later_cells(lines, index: int) -> bool:
    """A line standing over the later cells of the table row just under it (within three lines), none over its
    first: the first line of one of that row's cells, the others centred lower (a web page's table printed, its
    header dropped as a running line at the page's top)."""
    line = lines[index]
    words = line.words()
    row = next((near for near in lines[index + 1 : index + 4] if len(near.cells) >= 3), None)
    return bool(
        words
        and row is not None
        and row.page == line.page
        and row.cells[1]
        and words[0][0] >= row.cells[1][0][0] - 2
        and all(near.left >= row.cells[1][0][0] - 2 for near in lines[index + 1 : lines.index(row, index)])
    )


def _aligned(line, row) -> bool:
    """A line whose words start where the cells of the table row under it start (a first row with narrow gaps)."""
    starts = [cell[0][0] for cell in row.cells[1:] if cell]
    return (
        len(row.cells) >= 2
        and bool(starts)
        and all(any(abs(word[0] - start) < 2 for word in line.words()) for start in starts)
    )


def _opens_with_value(line) -> bool:
    words = line.words()
    return bool(words) and bool(re.fullmatch(r"[+\-−±]\d+\S{0,2}", words[0][1]))


def _opens_with_roll(line) -> bool:
    words = line.words()
    return bool(words) and is_roll(words[0][1])


def rebuilt(lines) -> list[Table]:
    """The tables of a run of table lines: one, or those set side by side (`_apart`); none for a table of one
    column (a list set with a hanging indent, its lines to be read as text)."""
    parts = _apart(lines)
    tables = [_table(part) for part in parts] if parts else []
    if tables and all(tables):
        return tables
    table = _table(lines)
    return [table] if table else []


def _apart(lines) -> list[list] | None:
    """The lines of tables set side by side with no blank column between them, each table's own: cut at the widest
    blank no word crosses (lines of one cell aside: a title over both), GUTTER ems wide at least, where one table
    ends on a line before the other does, or, where both end together, a blank twice as wide as any other that
    parts tables opening with the same kind of key (rolls); each part three lines of two cells or more at least;
    None where there is no such blank."""
    em = max(max(line.size for line in lines), 1)
    spans = sorted((word[0], word[4]) for line in lines if len(line.cells) > 1 for word in line.words())
    if not spans:
        return None
    blanks, reach = [], spans[0][1]
    for start, end in spans[1:]:
        if start > reach:
            blanks.append((start - reach, reach, start))
        reach = max(reach, end)
    if len(blanks) < 3 or max(blanks)[0] < GUTTER * em:
        return None
    widest = max(blanks)
    cut = (widest[1] + widest[2]) / 2
    left, right = (
        [_part(line, lambda x: x < cut) for line in lines],
        [_part(line, lambda x: x >= cut) for line in lines],
    )
    ends = [max((at for at, line in enumerate(part) if line.cells), default=-1) for part in (left, right)]
    keyed = all(any(_opens_with_roll(line) for line in part if line.cells) for part in (left, right))
    twice = all(2 * blank[0] <= widest[0] for blank in blanks if blank is not widest)
    if ends[0] == ends[1] and not (twice and keyed):
        return None
    if any(sum(1 for line in part if len(line.cells) >= 2) < 3 for part in (left, right)):
        return None  # a part of one column (a table's keys beside its wrapped text) is no table of its own
    return [[line for line in part if line.cells] for part in (left, right)]


def _part(line, keeps):
    """The line with only its words that `keeps` (by where they start)."""
    part = copy.copy(line)
    part.cells = [kept for kept in ([word for word in cell if keeps(word[0])] for cell in line.cells) if kept]
    if part.cells:
        part.left = part.cells[0][0][0]
    return part


def _table(lines) -> Table | None:
    """A table rebuilt from its lines: the columns start where cells start on two lines or more; each word goes to
    the column it starts in. Rows that stand apart (a blank between them) keep their lines whole; else a line that
    fills fewer columns is the next line of the row above. None for a table of one column."""
    em = max(max(line.size for line in lines), 1)
    starts = sorted([word_cell[0][0] for line in lines for word_cell in line.cells if word_cell] + _shared(lines))
    left = min(starts)
    columns: list[list[float]] = []
    for x in starts:
        if columns and x - columns[-1][0] < 1.2 * em:
            columns[-1].append(x)
        else:
            columns.append([x])
    columns = _never_together(columns, lines, em)
    bounds = [left] + [group[0] for group in columns[1:] if len(group) >= 2]
    if len(bounds) > 2 and len(columns[0]) == 1 and len(lines) > 2 and _spans_on(lines, left, bounds[1]):
        bounds = [left] + bounds[2:]  # only a header starts there, running over the next column's start: it spans left

    def starting(x: float) -> int:
        return max(i for i, bound in enumerate(bounds) if bound <= x + 2) if x + 2 >= left else 0

    extents = _extents(lines, bounds, starting)
    rows = []
    for line in lines:
        cells = [[] for _ in bounds]
        for cell in line.cells:
            for word in cell:
                cells[_column_of(word, extents) if extents else starting(word[0])].append(word)
        rows.append([marked(words, line.bold) for words in cells])
    rows = [
        [inline(cell) for cell in row] for row in (_ruled(lines, rows) or _banded(lines, rows, em) or _joined(rows))
    ]
    width = max(len(row) for row in rows)
    empty = [c for c in range(width) if not any(row[c].strip() for row in rows)]
    rows = [[cell for c, cell in enumerate(row) if c not in empty] for row in rows]
    for c in range(len(rows[0]) - 2, -1, -1) if len(rows) > 2 else []:
        only_header = rows[0][c].strip() and not any(row[c].strip() for row in rows[1:])
        if only_header and not rows[0][c + 1].strip():  # a header set left of the centred column it titles
            rows = [row[:c] + [rows[0][c] if r == 0 else row[c + 1]] + row[c + 2 :] for r, row in enumerate(rows)]
    if rows and len(rows[0]) == 1:  # a list set with a hanging indent
        return None
    return Table(rows, None, lines[0].origin)


def _never_together(columns: list[list[float]], lines, em: float) -> list[list[float]]:
    """Neighbouring groups of starts that no line has both of, less than three ems apart, are one column: a centred
    column's cells start wider apart than an em where they differ in width ("-19 to 09" over "-80")."""
    starts = [{round(word[0] * 2) for word in line.words()} for line in lines]  # half points: `_shared`'s own
    out = [columns[0]]
    for group in columns[1:]:
        before = out[-1]
        left, right = {round(x * 2) for x in before}, {round(x * 2) for x in group}  # once a group, not once a line
        together = any(found & left and found & right for found in starts)
        if not together and group[0] - before[0] < 3 * em:
            out[-1] = before + group
        else:
            out.append(group)
    return out


def _shared(lines) -> list[float]:
    """Where words start at the same place on half the lines or more (three at least), each further than a word
    space from the word before it in its cell: a column whose cells run on from the narrow one before it, less
    than a cell's gap apart ("01-  Blow through"), given twice, so that it is a column's start."""
    at = Counter(
        round(word[0] * 2)
        for line in lines
        for cell in line.cells
        for before, word in zip(cell, cell[1:])
        if word[0] - before[4] > WIDE_SPACE * max(word[3][0], 1)
    )
    return [x / 2 for x, count in at.items() if count >= max(3, len(lines) / 2) for _ in range(2)]


def _spans_on(lines, left: float, following: float) -> bool:
    """Whether the cell starting at `left` runs on past `following`, the next column's start: a header wider than the
    centred column it titles, not a row's key (a matrix's "D6" left of its first column of figures)."""
    return any(cell[-1][4] > following for line in lines for cell in line.cells if cell and cell[0][0] == left)


def _extents(lines, bounds, starting) -> list[tuple[float, float]] | None:
    """Each column's reach, from the lines that fill every column (a header's words run together aside): where its
    cells start and end, however they are aligned; None where no line fills every column."""
    full = [
        line
        for line in lines
        if len(line.cells) == len(bounds)
        and sorted({starting(cell[0][0]) for cell in line.cells}) == list(range(len(bounds)))
    ]
    if len(bounds) < 2 or not full:
        return None
    extents = [[float("inf"), float("-inf")] for _ in bounds]
    for line in full:
        for cell in line.cells:
            extent = extents[starting(cell[0][0])]
            extent[0], extent[1] = min(extent[0], cell[0][0]), max(extent[1], cell[-1][4])
    return [(low, high) for low, high in extents]


def _column_of(word, extents) -> int:
    """The column a word stands in: the one its width overlaps most (a centred column's header starts left of its
    cells), else the last starting at or left of it."""
    overlaps = [min(word[4], high) - max(word[0], low) for low, high in extents]
    best = max(range(len(extents)), key=lambda column: overlaps[column])
    if overlaps[best] > 0:
        return best
    return max((column for column, (low, _) in enumerate(extents) if low <= word[0] + 2), default=0)


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
                out.append([join(pending[0], row[0])] + row[1:])
                pending = None
                continue
            out.append(pending)
            pending = None
        if out and filled == [0] and len([c for c in out[-1] if c.strip()]) >= 2:
            out[-1][0] = join(out[-1][0], row[0])
        elif filled == [0] and len(row) > 1:
            pending = row
        elif out and filled and row[0].strip() == "" and len(filled) <= len([c for c in out[-1] if c.strip()]) // 2:
            out[-1] = [join(a, b) if b.strip() else a for a, b in zip(out[-1], row)]
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
            out[-1] = [join(a, b) if b.strip() else a for a, b in zip(out[-1], row)]
        else:
            out.append(row)
    return out


def _ruled(lines, rows: list[list[str]]) -> list[list[str]] | None:
    """The rows of a table ruled between its rows (a cell's border or a shaded row's edge over each): the lines
    under one rule are one row, each column's lines joined, its key on whichever of them it stands (centred beside
    a wrapped cell). None unless three rules or more part its lines, each row's first cell on one line at most: a
    table ruled only above and below its body holds many rows under one rule."""
    ruled = [line.rule for line in lines]
    if None in ruled or len(set(ruled)) < 3:
        return None
    out: list[list[str]] = []
    for at, row in enumerate(rows):
        if at and ruled[at] == ruled[at - 1]:
            if row[0].strip() and out[-1][0].strip():
                return None
            out[-1] = [join(a, b) if a.strip() and b.strip() else a + b for a, b in zip(out[-1], row)]
        else:
            out.append(list(row))
    return out


def _banded(lines, rows: list[list[str]], em: float) -> list[list[str]] | None:
    """The rows of a table whose rows stand apart, a blank between them that no cell crosses (a browser's or a word
    processor's table with padding): each column's lines that touch are one cell, and the cells whose heights
    overlap one row, however many lines each (a cell centred beside a taller one included). None unless most of
    its rows of several lines (half of them at least) have their first cell centred (a browser's default): a table whose cells stand at
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
    if len(bands) < 2 or len(bands) >= len(lines) or 2 * centred < len(tall):
        return None
    out = []
    for _, _, members in bands:
        cells = [""] * len(rows[0])
        for _, _, column, texts, _ in sorted(members, key=lambda block: -block[0]):
            for text in texts:
                cells[column] = join(cells[column], text) if cells[column] else text
        out.append(cells)
    return out
