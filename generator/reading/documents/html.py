"""HTML (a wiki page, a word processor's "save as web page") through the standard library's html.parser: it never
fetches anything, reads any tag soup without raising, and needs no dependency (html5lib, the test suite's strict
parser, builds a whole tree for what one pass over the tags gives here). Scripts, styles and forms are skipped."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from generator.reading.documents.document import Document, Heading, ListBlock, ListItem, Paragraph, Table
from generator.reading.documents.inline import runs
from generator.reading.documents.text import heading_text

_SKIPPED = {"script", "style", "head", "title", "noscript", "template", "svg", "form", "button", "select"}
_BLOCKS = {"p", "div", "section", "article", "blockquote", "pre", "dd", "dt", "figcaption", "caption", "header",
           "footer", "main", "aside", "nav"}
MAX_DEPTH = 200


def read(path: Path, text: str) -> Document:
    parser = _Parser()
    parser.feed(text)
    parser.close()
    parser.end_text()
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

    def origin(self) -> str:
        return f"line {self.getpos()[0]}"

    def text(self) -> str:
        made = runs(self.parts)
        self.parts = []
        return made

    def end_text(self) -> None:
        """The text gathered so far ends a paragraph (or a heading, an item, a cell)."""
        if self.in_cell or (self.items and not self.parts):
            return
        text = self.text()
        if not text.strip():
            return
        if self.items:
            self.items[-1].text = f"{self.items[-1].text}\n{text}".strip()
        elif self.heading:
            self.nodes.append(Heading(self.heading, heading_text(text), self.origin()))
        else:
            self.nodes.append(Paragraph(text, self.origin()))

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
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.parts, self.in_cell = [], True
            if tag == "th":
                self.header_cells += 1
            span = dict(attrs).get("colspan") or "1"
            self._span = min(int(span), 12) if span.isdigit() else 1

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
        elif tag in ("td", "th") and self.row is not None and self.in_cell:
            self.in_cell = False
            cell = " ".join(self.text().split())
            self.row += [cell] + [""] * (getattr(self, "_span", 1) - 1)
        elif tag == "tr" and self.tables and self.row is not None:
            if self.row:
                self.tables[-1].rows.append(self.row)
                if self.header_cells and len(self.tables[-1].rows) == 1:
                    self.tables[-1].header = True
            self.row, self.header_cells = None, 0
        elif tag == "table" and self.tables:
            table = self.tables.pop()
            if table.rows:
                self.nodes.append(table)

    def handle_data(self, data):
        if self.skip:
            return
        if self.heading is None and not self.in_cell and not self.items and not data.strip():
            return
        self.parts.append((data, self.bold > 0, self.italic > 0))
