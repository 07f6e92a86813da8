"""Plain text as PDF extraction and word processors leave it: tab-separated or space-aligned tables, "1)", "1." or
"1 -" numbered lines, "•", "-" or "*" bullets, headings in capitals (or Markdown's #), light emphasis (`**bold**`,
`<b>bold</b>`, `<i>italic</i>`), lines broken inside a paragraph and words hyphenated at a line's end."""

from __future__ import annotations

import re

from generator.reading.documents.document import (
    Document,
    Heading,
    ListBlock,
    ListItem,
    Paragraph,
    Table,
    clean,
    plain,
)
from generator.reading.documents.inline import inline
from generator.reading.documents.pdf_mending import TOC_TITLE, normal_title

_HASH_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-•*·▪◦‣–]\s+(\S.*)$")
_NUMBERED = re.compile(r"^(\s*)(\d{1,2}|[A-Za-z])\s*(?:[.)]|\s-)\s+(\S.*)$")
_ALIGNED = re.compile(r"\S(?: {2,}|\t)\S")
# a chapter's number or label alone on its line, over its title: "III", "APPENDIX", "Chapter 4"
_CHAPTER_LABEL = re.compile(r"^(?:[IVXLC]+|(?i:chapter|appendix|part|book)(?: [IVXLC\d]+)?)[-.:]*$")
_ILLUSTRATION = re.compile(r"^\[(?:Illustration|Image|Figure|Picture)\b", re.I)  # a caption: "[Illustration: …]"
_ENTRY_NUMBER = re.compile(r"^(?:[IVXLC]+|\d+(?:\.\d+)*)[.)]?\s+")  # "III. THE RULES--", "2.1 Moving"


def read(text: str, titled: bool = True) -> Document:
    """`titled`: the text's first line is the document's title (not so for a PDF's stretch of text between tables)."""
    text = re.sub(
        r"\xad\n[ \t]*", "", text.replace("\r\n", "\n").replace("\r", "\n")
    )  # a PDF's word broken at a line's end
    return Reader(typeset_dashes(text).split("\n")).document(titled)


def typeset_dashes(text: str) -> str:
    """A typewriter's dashes as a typesetter sets them (Project Gutenberg's texts keep them): "10--12" a range (–),
    "word--word" and "word -- word" a dash (—); a rule of three hyphens or more stays as it is."""
    text = re.sub(r"(?<=\d)--(?=\d)", "–", text)
    return re.sub(r"(?<=[^\s-])--(?=[^\s-])|(?<= )--(?= )", "—", text)


def heading_text(text: str) -> str:
    """A heading without its trailing colon ("Phase de Tir :" is the heading "Phase de Tir")."""
    return re.sub(r"\s*:\s*$", "", text).strip()


def _is_table_line(line: str) -> bool:
    if "\t" in line.strip("\t ") or (line.startswith("\t") and line.strip()):
        cells = [cell for cell in line.split("\t")]
        return sum(1 for cell in cells if cell.strip()) >= 2 or (
            len(cells) >= 2 and bool(cells[0].strip()) and line.rstrip("\t") != line.rstrip()
        )
    return False


def _cells(line: str) -> list[str]:
    cells = line.rstrip("\n").split("\t") if "\t" in line else re.split(r" {2,}", line.strip())
    while len(cells) > 1 and not cells[-1].strip():
        cells.pop()
    return [inline(cell) for cell in cells]


def _opens_list(line: str) -> bool:
    """A bullet, a number or the letter a: a capital alone before a full stop at a line's start is more often an
    initial ("H. G. Wells", a paragraph wrapped before "W. was asked") or a Roman numeral ("I. OF THE PAST")."""
    numbered = _NUMBERED.match(line)
    return bool(_BULLET.match(line)) or bool(numbered) and (numbered.group(2).isdigit() or numbered.group(2) in "aA")


def _next_letter(marker: str, previous: str | None) -> bool:
    return marker in "aA" or previous is not None and ord(marker) == ord(previous) + 1


def _caps(line: str) -> bool:
    letters = [char for char in line if char.isalpha()]
    return len(letters) >= 3 and all(char.isupper() for char in letters)


class Reader:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.nodes: list = []
        self.at = 0

    def origin(self, index: int) -> str:
        return f"line {index + 1}"

    def document(self, titled: bool = True) -> Document:
        dropped = self.contents_left_out() if titled else []  # a PDF's stretch: the PDF reader left out its contents
        while self.at < len(self.lines):
            line = self.lines[self.at]
            stripped = line.strip()
            if not stripped or not stripped.strip("\t"):
                self.at += 1
            elif _HASH_HEADING.match(stripped):
                match = _HASH_HEADING.match(stripped)
                self.nodes.append(
                    Heading(len(match.group(1)), inline(heading_text(match.group(2))), self.origin(self.at))
                )
                self.at += 1
            elif self.caption_left_out(dropped):
                continue
            elif _is_table_line(line):
                self.table("\t")
            elif _opens_list(line):
                self.list_()
            elif self.chapter_heading():
                continue
            elif self.aligned_table():
                continue
            else:
                self.paragraph()
        if titled:
            self.titles()
        block_titles(self.nodes)
        return Document(self.nodes, "text", dropped)

    def caption_left_out(self, dropped: list[tuple[str, str]]) -> bool:
        """An illustration's caption where a text file has no picture ("[Illustration: Fig. 1--Battle of Hook's
        Farm…]" over up to six lines, as Project Gutenberg marks one): left out and listed, not a paragraph."""
        if not _ILLUSTRATION.match(self.lines[self.at].strip()):
            return False
        for end in range(self.at, min(self.at + 6, len(self.lines))):
            if not self.lines[end].strip():
                return False
            if self.lines[end].rstrip().endswith("]"):
                caption = " ".join(line.strip() for line in self.lines[self.at : end + 1])
                dropped.append((self.origin(self.at), f"an illustration's caption, no picture: {caption}"))
                self.at = end + 1
                return True
        return False

    def contents_left_out(self) -> list[tuple[str, str]]:
        """A table of contents, left out and listed as the PDF reader leaves one out (its lines were headings with
        nothing under them): a title "Contents" over three lines or more, each naming a line found further down
        (a heading), its number and page number aside."""
        for title_at, title in enumerate(self.lines):
            if not TOC_TITLE.match(title.strip()):
                continue
            entries = self.contents_entries(title_at + 1)
            if len(entries) >= 3:
                dropped = [
                    (self.origin(at), "a table of contents: " + self.lines[at].strip()) for at in [title_at, *entries]
                ]
                for at in [title_at, *entries]:
                    self.lines[at] = ""
                return dropped
        return []

    def contents_entries(self, start: int) -> list[int]:
        """The lines from `start` that each name a line further down, blank lines between them allowed."""
        later: dict[str, int] = {}  # each line's words, normalised, and the last line they stand on
        for at, line in enumerate(self.lines):
            later[normal_title(line)] = at
        entries, at = [], start
        while at < len(self.lines):
            line = self.lines[at].strip()
            if line:
                name = normal_title(_ENTRY_NUMBER.sub("", re.sub(r"[\s.·…_]*\d{1,3}$", "", line)))
                if not name or later.get(name, at) <= at:
                    break
                entries.append(at)
            at += 1
        return entries

    def chapter_heading(self) -> bool:
        """A chapter's number or label alone on its line over its title in capitals, as books set them ("III" then
        "THE RULES"): one heading, "III. THE RULES" (the number alone was a paragraph or a heading over nothing)."""
        label = self.lines[self.at].strip()
        after = self.at + 1
        while after < len(self.lines) and not self.lines[after].strip():
            after += 1
        if not _CHAPTER_LABEL.match(label) or after == len(self.lines):
            return False
        title = self.lines[after].strip()
        if not _caps(title) or len(title) > 80 or _opens_list(title) or _is_table_line(self.lines[after]):
            return False
        heading = f"{label.rstrip('-.:')}. {heading_text(title)}"
        self.nodes.append(Heading(2, inline(heading), self.origin(self.at)))
        self.at = after + 1
        return True

    def table(self, _sep: str) -> None:
        start, rows = self.at, []
        while self.at < len(self.lines) and (
            _is_table_line(self.lines[self.at]) or rows and "\t" in self.lines[self.at] and self.lines[self.at].strip()
        ):
            cells = _cells(self.lines[self.at])
            filled = [c for c, cell in enumerate(cells) if cell.strip()]
            if rows and filled and not cells[0].strip() and len(filled) <= len([c for c in rows[-1] if c.strip()]) // 2:
                for c in filled:  # a cell's next line (a PDF's wrapped cell): joined to the row above
                    if c < len(rows[-1]):
                        rows[-1][c] = _join_words(rows[-1][c], cells[c])
                    else:
                        rows[-1].append(cells[c])
            else:
                rows.append(cells)
            self.at += 1
        self.nodes.append(Table(rows, None, self.origin(start)))

    def aligned_table(self) -> bool:
        """Two or more lines of cells aligned by runs of spaces (a PDF's extraction): a table."""
        end = self.at
        while end < len(self.lines) and _ALIGNED.search(self.lines[end].strip()) and self.lines[end].strip():
            end += 1
        if end - self.at < 2:
            return False
        rows = [_cells(line) for line in self.lines[self.at : end]]
        if len({len(row) for row in rows}) > 2:
            return False
        self.nodes.append(Table(rows, None, self.origin(self.at)))
        self.at = end
        return True

    def list_(self) -> None:
        start = self.at
        top_kind, items, numbers = None, [], []
        letter = None  # the last letter of a list lettered a, b, c: another capital and a full stop is an initial
        more: dict[int, tuple[ListItem, list[str]]] = {}  # an item's next lines, joined once at the end (not per line)
        while self.at < len(self.lines):
            line = self.lines[self.at]
            bullet, numbered = _BULLET.match(line), _NUMBERED.match(line)
            if _is_table_line(line) or not line.strip():
                break
            if numbered and numbered.group(2).isalpha() and not _next_letter(numbered.group(2), letter):
                numbered = None
            if numbered:
                marker, text = numbered.group(2), numbered.group(3)
                kind = "letter" if marker.isalpha() else "number"
                letter = marker if marker.isalpha() else letter
            elif bullet:
                marker, text, kind = "", bullet.group(2), "bullet"
            elif items and not _HASH_HEADING.match(line.strip()) and not _caps(line.strip()):
                target = items[-1].children[-1] if items[-1].children else items[-1]
                more.setdefault(id(target), (target, []))[1].append(inline(line.strip()))
                self.at += 1
                continue
            else:
                break
            top_kind = top_kind or kind
            item = ListItem(inline(text))
            if kind != top_kind and items:
                items[-1].children.append(item)
            else:
                if kind != top_kind:
                    break
                items.append(item)
                numbers.append(marker)
            self.at += 1
        for item, lines in more.values():
            item.text = "\n".join([item.text, *lines] if item.text else lines)
        if not items:  # a lone marker line that starts nothing: a paragraph
            self.paragraph()
            return
        if top_kind == "bullet":
            _signs_restored(items)
        ordered = top_kind != "bullet"
        numbering = "1" if top_kind == "number" else ("A" if numbers[0].isupper() else "a") if ordered else "1"
        first = int(numbers[0]) if ordered and numbers[0].isdigit() else 1
        self.nodes.append(ListBlock(items, ordered, numbering, self.origin(start), first))

    def paragraph(self) -> None:
        start, lines = self.at, []
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if not line.strip() or _is_table_line(line) or _opens_list(line) or _HASH_HEADING.match(line.strip()):
                break
            if lines and (_caps(line.strip()) != _caps(lines[-1])):
                break
            lines.append(line.strip())
            self.at += 1
            if _caps(lines[-1]) and len(lines[-1]) <= 80:  # a heading in capitals stands on its own line
                break
        if not lines:
            lines.append(self.lines[self.at].strip())
            self.at += 1
        if len(lines) == 1 and _caps(lines[0]) and len(lines[0]) <= 80:
            self.nodes.append(Heading(2, inline(heading_text(lines[0].strip("\t "))), self.origin(start)))
            return
        text = lines[0]
        joined = [text]
        for line in lines[1:]:
            if joined[-1].endswith("\xad"):  # a PDF's mark of a word broken at the line's end
                joined[-1] = joined[-1][:-1] + line
            elif re.search(r"[^\W\d]-$", joined[-1]) and line[:1].islower():  # a word hyphenated at the line's end
                joined[-1] = joined[-1][:-1] + line
            else:
                joined.append(line)
        self.nodes.append(Paragraph("\n".join(inline(line) for line in joined), self.origin(start)))

    def titles(self) -> None:
        """The document's first line is its title; a second heading right under it, its subtitle."""
        if self.nodes and isinstance(self.nodes[0], (Heading, Paragraph)) and "\n" not in self.nodes[0].text:
            first = self.nodes[0]
            self.nodes[0] = Heading(1, heading_text(first.text), first.origin)
            if len(self.nodes) > 2 and isinstance(self.nodes[1], Heading) and isinstance(self.nodes[2], Heading):
                self.nodes[1] = Heading(1, self.nodes[1].text, self.nodes[1].origin)


def block_titles(nodes: list) -> None:
    """A short line alone right before a table or a list titles it."""
    for index, node in enumerate(nodes[:-1]):
        following = nodes[index + 1]
        if (
            isinstance(node, Paragraph)
            and "\n" not in node.text
            and len(plain(node.text)) <= 60
            and not plain(node.text).rstrip().endswith((".", ":", ",", ";"))
            and isinstance(following, (Table, ListBlock))
        ):
            nodes[index] = Heading(4, node.text, node.origin)


def _join_words(text: str, more: str) -> str:
    """Two lines of one cell: a word hyphenated at the line's end is joined again."""
    if text.endswith("\xad") or re.search(r"[^\W\d]-$", text) and more[:1].islower():
        return text[:-1] + more
    return f"{text} {more}".strip()


def _join(text: str, more: str) -> str:
    return f"{text}\n{more}" if text else more


def _signs_restored(items: list[ListItem]) -> None:
    """ "- 1 Tir en mouvement" among "+1 Tir sur une grande cible": the bullet was the minus sign (a PDF's text
    detaches it): the value is -1."""
    texts = [clean(item.text) for item in items]
    if any(re.match(r"^\+\s?\d", text) for text in texts) and all(
        re.match(r"^[+]?\s?\d+\S*\s", text) for text in texts
    ):
        for item in items:
            if not item.text.lstrip().startswith("+"):
                item.text = "-" + item.text.lstrip()
