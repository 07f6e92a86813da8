"""PDF through pypdfium2's text API (PDFium, the engine of Chrome's viewer, already what qrs draws previews with):
each character with its box, size and weight. Pages are cut into their columns at the gutters no character
crosses, lines are rebuilt from baselines, cells from gaps wider than a word space, headings from a larger type,
bold from the font's weight; lines repeated at the top or foot of every page (running headers, footers, page
numbers) are dropped. The lines so rebuilt are then read as plain text (`text`), which joins the words hyphenated
at a line's end and finds the tables, lists and headings."""

from __future__ import annotations

import ctypes
import re
from collections import Counter
from pathlib import Path

from generator.errors import UserError
from generator.reading.documents import text as plain_text
from generator.reading.documents.document import Document, Heading, Table, is_roll
from generator.reading.documents.inline import inline

MAX_PAGES = 40
MAX_OBJECTS = 100_000  # page objects of one page: a sheet's page holds a few thousand
MAX_CHARACTERS = 200_000  # characters of one page
# The PDF format's own bound on a page's side (ISO 32000, annex C: 14400 units, 200 inches); a page wider than
# that is no sheet's, and its width is what the column finder allocates (2e9 pt asked for 22 GB).
MAX_PAGE_SIDE = 14_400
CELL_GAP = 1.1  # a gap wider than this many ems separates two cells
WORD_GAP = 0.18


def read(path: Path, raw: bytes) -> Document:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        pdf = pdfium.PdfDocument(raw)
    except pdfium.PdfiumError as error:
        raise UserError.at(path, 1, 1, f"cannot read the PDF: {error}") from None
    if len(pdf) > MAX_PAGES:
        raise UserError.at(path, 1, 1, f"the PDF has {len(pdf)} pages; a sheet to import has at most {MAX_PAGES}")
    pages = []
    for number in range(len(pdf)):
        page = pdf[number]
        objects = pdfium_c.FPDFPage_CountObjects(page.raw)
        if objects > MAX_OBJECTS:
            raise UserError.at(path, 1, 1, f"page {number + 1} of the PDF draws {objects} objects; a sheet's page draws "
                                           f"at most {MAX_OBJECTS}: refused, nothing written")
        width, height = page.get_size()
        if not (0 < width <= MAX_PAGE_SIDE and 0 < height <= MAX_PAGE_SIDE):
            raise UserError.at(path, 1, 1, f"page {number + 1} of the PDF measures {width:g} × {height:g} pt; a PDF's "
                                           f"page measures at most {MAX_PAGE_SIDE} pt a side: refused, nothing written")
        textpage = page.get_textpage()
        count = textpage.count_chars()
        if count > MAX_CHARACTERS:
            raise UserError.at(path, 1, 1, f"page {number + 1} holds {count} characters; at most {MAX_CHARACTERS}")
        chars, colour = [], [ctypes.c_uint() for _ in range(4)]
        for index in range(count):
            char = textpage.get_text_range(index, 1)
            if char in ("\x02", "\xad", "\ufffe"):  # PDFium's mark of a word hyphenated at the line's end
                char = "\xad"
            if not char or char in "\r\n":
                continue
            left, bottom, right, top = textpage.get_charbox(index, loose=True)  # the font's box: one baseline a line
            size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index) or (top - bottom)
            weight = pdfium_c.FPDFText_GetFontWeight(textpage.raw, index)
            pdfium_c.FPDFText_GetFillColor(textpage.raw, index, *colour)
            red, green, blue = (channel.value for channel in colour[:3])
            accent = max(red, green, blue) - min(red, green, blue) > 24 and max(red, green, blue) < 230
            chars.append((char, left, bottom, right, top, round(size, 1), weight, accent))
        pages.append((width, height, chars))
    return _document(pages)


def _document(pages) -> Document:
    body = Counter(char[5] for _, _, chars in pages for char in chars if not char[0].isspace())
    body_size = body.most_common(1)[0][0] if body else 10
    sizes = sorted({size for size in body if size > body_size * 1.12}, reverse=True)[:3]
    pages_lines = []
    for number, (width, height, chars) in enumerate(pages, start=1):
        lines = []
        for place, column in enumerate(_columns(width, chars)):
            left = min(char[1] for char in column)
            made = [_Line(line, left, number) for line in _lines(column)]
            for line in made:
                line.column, line.edge = place, line.bottom < height * 0.06 or line.top > height * 0.94
            lines += made
        pages_lines.append(lines)
    repeated = _running(pages_lines)
    lines, dropped = [], []
    for page in pages_lines:
        for at, line in enumerate(page, start=1):
            line.origin = f"page {line.page}, line {at}"
            text = line.text()
            key = re.sub(r"\d+", "#", text.strip())
            continued = re.search(r"\((suite|cont\.?|continued)\)\s*$", text, re.I) and len(text) < 80
            number = line.edge and re.fullmatch(r"\s*(page\s*)?\d+(\s*/\s*\d+)?\s*", text, re.I)
            if key in repeated or number or continued:
                dropped.append((line.origin, text.strip()))
                continue
            line.heading = sizes.index(line.size) + 1 if line.size in sizes else 0
            lines.append(line)
    nodes = _title_runs(lines[0]) if lines and lines[0].heading else []
    if nodes:
        lines = lines[1:]
    for kind, chunk in _chunks(lines):
        for node in _table(chunk) if kind == "table" else _text(chunk, body_size):
            if isinstance(node, Table) and nodes and isinstance(nodes[-1], Table) and node.rows and \
                    nodes[-1].rows and node.rows[0] == nodes[-1].rows[0] and len(node.rows[0]) == len(nodes[-1].rows[0]):
                nodes[-1].rows += node.rows[1:]  # a table continued in the next column, its header repeated
                dropped.append((node.origin, "\t".join(node.rows[0])))
            else:
                nodes.append(node)
    if nodes and isinstance(nodes[0], Heading):
        nodes[0].level = 1
    plain_text.block_titles(nodes)
    return Document(nodes, "pdf", dropped)


class _Line:
    """A line of one column: its words with their positions, cut into cells at gaps wider than an em."""

    def __init__(self, chars, left: float, page: int):
        self.page, self.origin, self.heading, self.column = page, "", 0, 0
        letters = [char for char in chars if not char[0].isspace()]
        self.size = Counter(char[5] for char in letters).most_common(1)[0][0] if letters else 0
        self.bold = bool(letters) and all(char[6] >= 600 for char in letters)
        self.accent = sum(1 for char in letters if char[0].isalpha()) >= 3 and all(char[7] for char in letters)
        self.indent = (letters[0][1] - left) if letters else 0
        self.bottom = min((char[2] for char in letters), default=0)
        self.top = max((char[4] for char in letters), default=0)
        self.edge = False  # in the top or bottom band of its page, where running headers and footers stand
        self.cells: list[list[tuple[float, str, bool]]] = []  # cells of words: (x, text, bold)
        word, previous, spaced = [], None, False
        for char in chars:
            if char[0].isspace():
                spaced = True
                continue
            if previous is not None:
                gap, em = char[1] - previous[3], max(previous[5], 1)
                if gap > CELL_GAP * em:
                    self._word(word, new_cell=False)
                    self.cells.append([])
                    word = []
                elif gap > WORD_GAP * em or spaced:
                    self._word(word, new_cell=False)
                    word = []
            if not self.cells:
                self.cells.append([])
            word.append(char)
            previous, spaced = char, False
        self._word(word, new_cell=False)

    def _word(self, chars, new_cell: bool) -> None:
        if chars:
            self.cells[-1].append((chars[0][1], "".join(c[0] for c in chars), all(c[6] >= 600 for c in chars),
                                   (chars[0][5], chars[0][6] >= 600, chars[0][7])))  # its look: size, bold, colour

    @property
    def tabbed(self) -> bool:
        return len(self.cells) > 1

    def words(self):
        return [word for cell in self.cells for word in cell]

    def text(self, cells=None) -> str:
        return "\t".join(_marked(cell, self.bold) for cell in (cells if cells is not None else self.cells))


def _marked(words, all_bold: bool) -> str:
    """Words with their bold runs marked (a line all in bold is marked by its reader, not word by word)."""
    out, run = [], []
    for _, text, bold, _ in words:
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
    """Runs of lines: tables (lines with cells, and the short lines between or just above them) and text."""
    kinds = []
    for index, line in enumerate(lines):
        kinds.append("table" if line.tabbed and not line.heading and not line.accent else "text")
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
        if chunks and chunks[-1][0] == kind and (kind == "text" and same_band or same_column):
            chunks[-1][1].append(line)
        else:
            chunks.append((kind, [line]))
    return chunks


def _joins_table(lines, kinds, index: int) -> bool:
    """A text line that belongs to the table lines around it: between two of them, a short line over an indented
    one, a line going on from the row above, or one aligned with the row under it."""
    line = lines[index]
    if line.heading or line.bold or line.accent:
        return False
    before = index > 0 and kinds[index - 1] != "text" and lines[index - 1].page == line.page
    after = index + 1 < len(lines) and kinds[index + 1] != "text" and lines[index + 1].page == line.page
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
    the column it starts in; a line that fills fewer columns is the next line of the row above."""
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
    rows = [[inline(cell) for cell in row] for row in _joined(rows)]
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


def _join(text: str, more: str) -> str:
    # the end alone is read: a cell joins line after line, and searching all of it each time was quadratic
    if text.endswith("\xad") or re.fullmatch(r"[^\W\d]-", text[-2:]) and more[:1].islower():
        return text[:-1] + more
    return f"{text} {more}".strip()


def _text(lines, body_size: float, indented: bool = False) -> list:
    """A stretch of text lines, read as plain text: headings from their size, a whole line in bold as a block's
    title, the rest as paragraphs, lists and terms."""
    out, origins = [], []
    for line in lines:
        text = " ".join(_marked(cell, line.bold) for cell in line.cells)
        if line.heading:
            text = "#" * min(line.heading, 3) + " " + text.replace("**", "")
        elif (line.bold or line.accent) and len(text) < 80 and not indented:
            text = "#### " + text
        elif line.bold:
            text = f"**{text}**"
        if indented and out and not re.match(r"^\s*([+\-−±]\s?\d|\d)", text):
            out[-1] += " " + text  # a hanging line of the item above
            continue
        out.append(text)
        origins.append(line.origin)
    document = plain_text.read("\n".join(out), titled=False)
    for node in document.nodes:
        match = re.match(r"line (\d+)", node.origin)
        if match and int(match.group(1)) - 1 < len(origins):
            node.origin = origins[int(match.group(1)) - 1]
    return document.nodes


def _running(pages_lines) -> set[str]:
    """Lines (digits aside) found at the top or foot of most pages: running headers and footers."""
    if len(pages_lines) < 2:
        return set()
    counts = Counter()
    for lines in pages_lines:
        counts.update({re.sub(r"\d+", "#", line.text().strip()) for line in lines if line.edge})
    return {key for key, count in counts.items() if count >= max(2, len(pages_lines) - 1) and key}
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
