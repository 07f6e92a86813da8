"""The intermediate document every reader makes: headings with their level, paragraphs, lists (numbered or not),
tables of cells; its text is already in the sheet's inline markup (emphasis as *…*, bold as **…**, the markup's
own characters escaped), so that the typing (`blocks`) never sees a file format.

Each node knows where it stood in the original (`origin`: "line 12", "page 2, line 7", "paragraph 31"): the
report names it, for a guess and for a problem of the draft alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union

_MARKUP_CHARACTERS = re.compile(r"([*{}\[\]\\])")
# What a source may not hold (load.py refuses them): controls, separators, bidirectional marks; tabs become spaces.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff\u00ad]"
)
_SPACES = re.compile(r"[ \t\u00a0\u202f]+")
# "<" before a letter, "/", "!" or "?" reads as a tag to the markup's check, which refuses it: such text keeps it
# with the markup's escape, \<, and prints "<" (docs/authoring.md).
_TAG_OPENING = re.compile(r"<(?=[/!?a-zA-Z])")


def clean(text: str) -> str:
    """Plain text as a source holds it: no control or invisible characters, one space between words."""
    return _SPACES.sub(" ", _UNPRINTABLE.sub("", text.replace("\t", " "))).strip()


def escape(text: str) -> str:
    """Plain text as markup: the markup's characters (* { } [ ] \\) print as typed."""
    return _TAG_OPENING.sub(r"\\<", _MARKUP_CHARACTERS.sub(r"\\\1", clean(text)))


def emphasis(text: str, style: str) -> str:
    """Already-escaped text in bold ("strong") or italics ("em"), its surrounding spaces kept outside the marks."""
    inner = text.strip()
    if not inner:
        return text
    marks = "**" if style == "strong" else "*"
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
    return f"{lead}{marks}{inner}{marks}{trail}"


def plain(markup: str) -> str:
    """The text a reader sees of markup: marks and escapes gone (for tests of kinds: is this cell a roll?)."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", markup)
    text = re.sub(r"(?<!\\)\*(.+?)(?<!\\)\*", r"\1", text)
    return re.sub(r"\\([*{}\[\]\\<])", r"\1", text).strip()


# French rulebooks write a range "1 à 3" or "de 2 à 6", an open end "12 ou +" ("ou plus", "et plus") or "2 ou -"
# ("ou moins"): rolls as much as "1-3" and "12+" are
ROLL_PART = (
    r"(?:[Dd]e\s+)?\d{1,3}"
    r"(?:\s*[-–~]\s*\d{1,3}|\s+à\s+\d{1,3}|\s*\+|\s+(?:ou|et)\s+(?:\+|plus)|\s+ou\s+(?:[-–]|moins))?"
)
_ROLL = re.compile(rf"^{ROLL_PART}(?:\s*,\s*{ROLL_PART})*$")


def is_roll(cell: str) -> bool:
    """A cell reads as a roll: "1-2", "7-12", "11~15", "10+", "16, 21", "1 à 3", "12 ou +"."""
    return bool(_ROLL.match(plain(cell)))


@dataclass
class Heading:
    level: int  # 1: the document's title, 2: a section, 3: a group, 4 and more: a block's title
    text: str
    origin: str = ""


@dataclass
class Paragraph:
    text: str
    origin: str = ""


@dataclass
class ListItem:
    text: str
    children: list["ListItem"] = field(default_factory=list)
    title: str = ""  # a numbered step's bold opening ("**DECLARATION DES CHARGES**" then its text), when it has one


@dataclass
class ListBlock:
    items: list[ListItem]
    ordered: bool = False
    numbering: str = "1"  # "1", "A", "a": how an ordered list counts
    origin: str = ""
    start: int = 1  # the number of its first item


@dataclass
class Table:
    rows: list[list[str]]  # cells in markup; rows padded to the same width by `padded`
    header: bool | None = None  # True: the first row is a header (Markdown, HTML <th>); None: not known (text)
    origin: str = ""

    title: str = ""  # a caption the original gave it (HTML's <caption>): the block's title

    @property
    def width(self) -> int:
        return max((len(row) for row in self.rows), default=0)

    def padded(self) -> list[list[str]]:
        width = self.width  # once: a table of 100000 rows measured once a row is quadratic
        return [row + [""] * (width - len(row)) for row in self.rows]


Node = Union[Heading, Paragraph, ListBlock, Table]


@dataclass
class Document:
    """What a reader found, in order; `fmt` names the reader ("markdown", "text", "html", "docx", "pdf")."""

    nodes: list[Node]
    fmt: str
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (origin, text) a reader left out on purpose

    def text(self) -> str:
        """Every word of the document, for the language's and the edition's guesses."""
        parts = []
        for node in self.nodes:
            if isinstance(node, Table):
                parts += [cell for row in node.rows for cell in row]
            elif isinstance(node, ListBlock):
                parts += [item.text for item in walk_items(node.items)]
            else:
                parts.append(node.text)
        return "\n".join(plain(part) for part in parts)


def walk_items(items: list[ListItem]):
    for item in items:
        yield item
        yield from walk_items(item.children)
