"""HTML (a wiki page, a word processor's "save as web page") through the standard library's html.parser: it never
fetches anything, reads any tag soup without raising, and needs no dependency (html5lib, the test suite's strict
parser, builds a whole tree for what one pass over the tags gives here). Scripts, styles and forms are skipped."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from generator.reading.documents.document import Document, Heading, ListBlock, ListItem, Paragraph, Table
from generator.reading.documents.inline import runs
from generator.reading.documents.text import heading_text

_SKIPPED = {"script", "style", "head", "title", "noscript", "template", "svg", "form", "button", "select"}
_BLOCKS = {
    "p",
    "div",
    "section",
    "article",
    "blockquote",
    "pre",
    "dd",
    "dt",
    "figcaption",
    "header",
    "footer",
    "main",
    "aside",
    "nav",
}
MAX_DEPTH = 200
# HTML's own bounds are 1000 columns and 65534 rows; a sheet's table spans far fewer, and a span multiplies
# cells: a page of <td colspan=1000> would make a billion.
MAX_COLSPAN = 64
MAX_ROWSPAN = 1000


# A DOCTYPE with an internal subset: html.parser ends the declaration at the subset's first ">", and its "]>" was
# read as a paragraph. The subset's entities are never expanded (a document is read as text), so it is dropped whole.
_DOCTYPE_SUBSET = re.compile(r"<!DOCTYPE[^\[>]*\[.*?\]\s*>", re.S | re.I)


def read(path: Path, text: str) -> Document:
    parser = _Parser()
    parser.feed(_DOCTYPE_SUBSET.sub("", text, count=1))
    parser.close()
    parser.end_text()
    parser.items_written()
    return Document(parser.nodes, "html")


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.nodes: list = []
        self.parts: list[tuple[str, bool, bool]] = []  # the text being gathered, with its bold and italic flags
        self.bold = self.italic = 0
        self.skip = 0
        self.heading: int | None = None
        self.lists: list[ListBlock] = []
        self.items: list[ListItem] = []
        self.tables: list[Table] = []
        self.row: list[str] | None = None
        self.header_cells = 0
        self.in_cell = False
        self.caption = False  # in a table's <caption>: its words are the table's title
        self.cell: tuple[int, int, bool] = (1, 1, False)  # the open cell's colspan, rowspan, and whether a <th>
        # each open table's cells spanning down: column → (rows left, the text each row repeats)
        self.downs: list[dict[int, tuple[int, str]]] = []
        # an item's paragraphs, joined once when the page is read: joined one by one, 400000 <p> in an <li> were
        # quadratic
        self.item_parts: dict[int, tuple[ListItem, list[str]]] = {}

    def origin(self) -> str:
        return f"line {self.getpos()[0]}"

    def text(self) -> str:
        made = runs(self.parts)
        self.parts = []
        return made

    def end_text(self) -> None:
        """The text gathered so far ends a paragraph (or a heading, an item, a cell)."""
        if self.in_cell or self.caption or (self.items and not self.parts):
            return
        text = self.text()
        if not text.strip():
            return
        if self.items:
            self.item_parts.setdefault(id(self.items[-1]), (self.items[-1], []))[1].append(text)
        elif self.heading:
            self.nodes.append(Heading(self.heading, heading_text(text), self.origin()))
        else:
            self.nodes.append(Paragraph(text, self.origin()))

    def items_written(self) -> None:
        for item, parts in self.item_parts.values():
            item.text = "\n".join(parts).strip()
        self.item_parts.clear()

    def handle_starttag(self, tag, attrs):
        if tag in _SKIPPED:
            self.skip += 1
        if self.skip:
            return
        if tag in ("b", "strong"):
            self.bold += 1
        elif tag in ("i", "em"):
            self.italic += 1
        elif tag == "br":
            self.parts.append(("\n", False, False))
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.end_text()
            if len(self.items) == 1 and len(self.lists) == 1:
                self.list_parted()
            self.heading = int(tag[1])
        elif tag in _BLOCKS:
            self.end_text()
        elif tag in ("ul", "ol"):
            self.end_text()
            block = ListBlock([], tag == "ol", "1", self.origin())
            if self.items and len(self.lists) < MAX_DEPTH:  # nested: its items are the open item's children
                block.items = self.items[-1].children
            self.lists.append(block)
        elif tag == "li":
            self.end_text()
            item = ListItem("")
            (self.lists[-1].items if self.lists else []).append(item)
            self.items.append(item)
        elif tag == "table":
            self.end_text()
            self.tables.append(Table([], None, self.origin()))
            self.downs.append({})
        elif tag == "caption" and self.tables:
            self.end_text()
            self.caption, self.parts = True, []
        elif tag == "tr" and self.tables:
            if self.row is not None:  # the row before, left open (tag soup): it ends here
                self.handle_endtag("tr")
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            if self.in_cell:  # "<td>a<td>b": the cell before ends here, as a browser ends it
                self.cell_ended()
            self.parts, self.in_cell = [], True
            if tag == "th":
                self.header_cells += 1
            self.spanned()
            self.cell = (_span(attrs, "colspan", MAX_COLSPAN), _span(attrs, "rowspan", MAX_ROWSPAN), tag == "th")

    def list_parted(self) -> None:
        """A heading inside an item of a list (Cairn's Jekyll page: "<li>…forward. <h3>Talking</h3></li>"), as a
        browser shows it: the list so far, then the heading, then the items after it in a list of their own (read
        as the item's last words, it printed "…forward. Talking" and no heading)."""
        before = self.lists[-1]
        if before.items:
            self.nodes.append(before)
        after = before.start + len(before.items) if before.ordered else 1
        self.lists[-1] = ListBlock([], before.ordered, before.numbering, self.origin(), after)
        self.items.clear()

    def spanned(self, to_end: bool = False) -> None:
        """The cells of the rows above that span down into this row, where the row stands now (or, at its end,
        all that are left): a data cell's text repeated in each row it spans (its row's key), a header's once."""
        down = self.downs[-1]
        while len(self.row) in down or to_end and down and max(down) > len(self.row):
            column = len(self.row)
            if column not in down:
                self.row.append("")
                continue
            left, text = down.pop(column)
            self.row.append(text)
            if left > 1:
                down[column] = (left - 1, text)

    def cell_ended(self) -> None:
        self.in_cell = False
        text = " ".join(self.text().split())
        colspan, rowspan, header = self.cell
        column = len(self.row)
        self.row += [text] + [""] * (colspan - 1)
        if rowspan > 1:
            for offset in range(colspan):
                self.downs[-1][column + offset] = (rowspan - 1, text if offset == 0 and not header else "")

    def handle_endtag(self, tag):
        if tag in _SKIPPED and self.skip:
            self.skip -= 1
            return
        if self.skip:
            return
        if tag in ("b", "strong") and self.bold:
            self.bold -= 1
        elif tag in ("i", "em") and self.italic:
            self.italic -= 1
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.end_text()
            self.heading = None
        elif tag in _BLOCKS:
            self.end_text()
        elif tag == "li" and self.items:
            self.end_text()
            self.items.pop()
        elif tag in ("ul", "ol") and self.lists:
            block = self.lists.pop()
            if not self.items and block.items:
                self.nodes.append(block)
        elif tag == "caption" and self.caption:
            self.caption = False
            self.tables[-1].title = self.text().replace("**", "")  # a title's bold is its own
        elif tag in ("td", "th") and self.row is not None and self.in_cell:
            self.cell_ended()
        elif tag == "tr" and self.tables and self.row is not None:
            if self.in_cell:
                self.cell_ended()
            self.spanned(to_end=True)
            if self.row:
                self.tables[-1].rows.append(self.row)
                if self.header_cells and len(self.tables[-1].rows) == 1:
                    self.tables[-1].header = True
            self.row, self.header_cells = None, 0
        elif tag == "table" and self.tables:
            table = self.tables.pop()
            self.downs.pop()
            if table.rows:
                self.nodes.append(table)

    def handle_data(self, data):
        if self.skip:
            return
        if self.heading is None and not self.in_cell and not self.items and not data.strip():
            return
        self.parts.append((data, self.bold > 0, self.italic > 0))


def _span(attrs, name: str, most: int) -> int:
    value = (dict(attrs).get(name) or "1").strip()
    return max(1, min(int(value), most)) if value.isdigit() else 1
