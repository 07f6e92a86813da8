"""The small parts of the typing: ids made from titles, the heading levels, a dice row, a step, a long paragraph
cut between sentences, the bold terms offered as keywords."""

from __future__ import annotations

import re
import unicodedata

from generator.model.types import MAX_TEXT
from generator.reading.documents.document import Document, Heading, ListItem, plain

_BOLD = re.compile(r"\*\*(.+?)\*\*")


class Ids:
    """Ids made from titles: lower-case ASCII words joined by hyphens, unique in the sheet."""

    def __init__(self):
        self.used: set[str] = set()

    def make(self, text: str, fallback: str) -> str:
        words = unicodedata.normalize("NFKD", plain(text or "")).encode("ascii", "ignore").decode().lower()
        base = "-".join(re.findall(r"[a-z0-9]+", words))[:48].strip("-") or fallback
        ident, n = base, 2
        while ident in self.used:
            ident, n = f"{base}-{n}", n + 1
        self.used.add(ident)
        return ident


def levels(document: Document) -> dict[int, int]:
    """The document's heading levels mapped to the sheet's: the top headings at its very start (a title, and a
    subtitle right under it) are the title (1) when no later heading is of their level; the next level makes
    sections (2), the one below groups (3), the rest block titles (4); a level skipped stays skipped."""
    headings = [node for node in document.nodes if isinstance(node, Heading)]
    if not headings:
        return {}
    top = min(node.level for node in headings)
    lead = 0
    while (
        lead < min(2, len(document.nodes))
        and isinstance(document.nodes[lead], Heading)
        and document.nodes[lead].level == top
    ):
        lead += 1
    later = sorted({node.level for node in headings[lead:]})
    mapping = {}
    if lead and later and top not in later:
        mapping[top] = 1
    else:
        later = sorted({node.level for node in headings})
    for level in later:
        mapping[level] = min(2 + level - later[0], 4)
    return mapping


def dice_row(roll: str, cells: list[str]) -> dict:
    row = {"roll": roll}
    cells = [cell for cell in cells]
    if len(cells) >= 2:
        if cells[0].strip():
            row["name"] = cells[0]
        row["text"] = cells[1]
        return row
    text = cells[0] if cells else ""
    named = re.match(r"^\*(?P<name>[^*]+)\*\s*(?:[–—-]\s*)?(?P<text>.*)$", text, re.S)
    if named and named.group("name").strip():
        row["name"] = named.group("name").strip()
        text = named.group("text").strip()
    row["text"] = text
    return row


def step(item: ListItem) -> dict:
    """A list item as a sequence's step: a bold opening, or a short item, is its title."""
    made = {}
    title, text = item.title, item.text
    if not title:
        bold = re.match(r"^\*\*(?P<title>[^*]+)\*\*\s*[:.–-]?\s*(?P<text>.*)$", text, re.S)
        if bold and bold.group("text").strip():
            # "**Surprise :** Le cas…": the colon inside the bold goes too (the step prints "Surprise – Le cas…")
            title, text = re.sub(r"[\s\u00a0\u202f]*:$", "", bold.group("title").strip()), bold.group("text").strip()
    if title:
        made["title"] = title
        if text.strip():
            made["text"] = one_line(text)
    elif len(plain(text)) <= 100:
        made["title"] = one_line(text)
    else:
        made["text"] = one_line(text)
    if item.children:
        made["steps"] = [step(child) for child in item.children]
    return made


def flatten(items: list[ListItem]) -> list[str]:
    """A bulleted list's items, nested ones after their parent (the text block has one level)."""
    out = []
    for item in items:
        out.append(one_line(f"**{item.title}** {item.text}".strip() if item.title else item.text))
        out += [f"– {text}" for text in flatten(item.children)]
    return [text for text in out if text.strip()]


def one_line(text: str) -> str:
    """An item's text as the original prints it: the lines of its source (a Markdown item wrapped at 72
    characters, a PDF's lines) joined, as a paragraph's are; a line break kept would break the printed line."""
    return " ".join(text.split("\n"))


def split_long(text: str) -> list[str]:
    """A paragraph longer than a text may be, cut between sentences."""
    if len(text) <= MAX_TEXT:
        return [text]
    parts, current = [], ""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if current and len(current) + len(sentence) + 1 > MAX_TEXT:
            parts.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    parts.append(current)
    return [part[i : i + MAX_TEXT] for part in parts for i in range(0, len(part), MAX_TEXT)]


def numbering(first: str) -> str:
    return "A" if first.isupper() else "a" if first.isalpha() else "1"


def first_words(block: dict) -> str:
    for key in ("steps", "content", "rows", "items"):
        if block.get(key):
            first = block[key][0]
            if isinstance(first, dict):
                first = next((value for value in first.values() if isinstance(value, str)), "") or next(
                    (
                        value[0]
                        for value in first.values()
                        if isinstance(value, list) and value and isinstance(value[0], str)
                    ),
                    "",
                )
            elif isinstance(first, list):
                first = first[0]
            return " ".join(plain(str(first)).split()[:4])
    return ""


def bold_terms(sections: list[dict]) -> list[str]:
    """Bold words repeated across the sheet (two times or more, four words at most): offered as keywords."""
    counts: dict[str, int] = {}

    def walk(value):
        if isinstance(value, str):
            for term in _BOLD.findall(value):
                if len(term.split()) <= 4 and not term.isupper():
                    counts[term.strip()] = counts.get(term.strip(), 0) + 1
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(sections)
    return sorted(term for term, count in counts.items() if count >= 2)
