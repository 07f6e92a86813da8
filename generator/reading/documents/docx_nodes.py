"""A Word file's paragraphs, as read, made into the document's nodes: which are headings, list items, rows of a
table typed with tabs, or paragraphs. Word says a heading by its style (Title, Heading N) or outline level; where
it says nothing, its user set headings larger and in bold, or in bold alone on their line, or numbered ("5.1
Cosmopolitan", "6.0 Professions"), and typed tables as lines of tab-separated words."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from generator.reading.documents.document import Heading, ListBlock, ListItem, Paragraph, Table, plain

HEADING_SIZE = 1.15  # a bold paragraph this much larger than the body's type is a heading, where no style says
MAX_HEADING = 120  # characters: a longer bold paragraph is a paragraph
MAX_NUMBERED = 60  # characters: a numbered heading is a few words ("7.5 Skill Descriptions")
BOLD_SHARE = 1 / 3  # where more paragraphs than this are bold throughout, bold says nothing of headings
MIN_TABBED = 3  # lines of tab-separated cells in a row: a table typed with tabs
# "5.1 Cosmopolitan", "6.0 Professions", "2. Setting up": a section's number, then a word in capitals; a line
# ending in a sentence's or a term's stop is no heading.
_NUMBERED = re.compile(r"^(?P<number>\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(?P<title>[A-Z\u00c0-\u00de][^\t]*)$")
_STOP = (".", ",", ";", ":", "!", "?")


@dataclass
class Para:
    """A paragraph as read, before the document's body size says which ones are headings."""

    text: str
    origin: str
    level: int = 0  # a heading's level from its style or outline level; 0: none said
    size: float = 0.0  # its most used type size, in points (0: not known)
    bold: bool = False  # every run in bold
    list_level: int = 0  # 1 and more: an item of a list at that depth
    ordered: bool = False
    cells: list[str] = field(default_factory=list)  # its text cut at its tabs (one cell: no tab)


def nodes(found: list) -> list:
    """Paragraphs (`Para`) and tables → headings, list items, tables and paragraphs. Headings from size and bold only
    in a document where no paragraph has a heading's style or outline level; numbered ones in any."""
    found = [item for item in found if not isinstance(item, Para) or item.text.strip()]
    styled = any(isinstance(item, Para) and item.level for item in found)
    levels = _numbered_levels(found) if styled else {}
    kinds = [] if styled else _heading_kinds(found)
    out: list = []
    at = 0
    while at < len(found):
        item = found[at]
        if isinstance(item, Table):
            out.append(item)
        elif (tabbed := _tabbed_run(found, at))[1]:
            out.append(Table(tabbed[1], None, f"table typed with tabs at {item.origin}"))
            at = tabbed[0]
            continue
        else:
            _place(item, _level_of(item, found, at, kinds, levels), out)
        at += 1
    return out


def _numbered(item: Para) -> int:
    """The depth of a numbered heading's number ("6" and "6.0": 1, "6.1": 2), 0 where the paragraph is none."""
    text = plain(item.text)
    match = _NUMBERED.match(text)
    if (
        not match
        or item.list_level
        or len(text) > MAX_NUMBERED
        or text.rstrip().endswith(_STOP)
        or len(match.group("title").split()) > 8
    ):
        return 0
    parts = match.group("number").split(".")
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return len(parts)


def _numbered_alone(found: list, at: int) -> bool:
    """A numbered paragraph stands as a heading: text follows it, and a one-part number ("2. Setting up") is not
    one of a run of numbered lines ("1. Roll", "2. Move": a list typed by hand)."""
    following = found[at + 1] if at + 1 < len(found) else None
    if not isinstance(following, (Para, Table)):
        return False
    depth = _numbered(found[at])
    if depth > 1 or "." in _NUMBERED.match(plain(found[at].text)).group("number"):
        return True
    previous = found[at - 1] if at else None
    return not any(isinstance(near, Para) and not near.level and _numbered(near) == 1 for near in (previous, following))


def _numbered_levels(found: list) -> dict[int, int]:
    """In a document with heading styles, the level its styled numbered headings have at each depth of number
    (the most frequent): an unstyled "6.0 Professions" takes the level of a styled "5.0 Culture"."""
    seen: dict[int, Counter] = {}
    for item in found:
        if isinstance(item, Para) and item.level and (depth := _numbered(item)):
            seen.setdefault(depth, Counter())[item.level] += 1
    return {depth: counts.most_common(1)[0][0] for depth, counts in seen.items()}


def _heading_kinds(found: list) -> list:
    """The kinds of heading a document without heading styles uses, from the top: its larger sizes in bold
    (largest first), its numbered headings by depth, then bold paragraphs of the body's size alone on their line
    (only where bold is rare enough to say something)."""
    paras = [item for item in found if isinstance(item, Para)]
    body = Counter()
    for item in paras:
        if item.size:
            body[item.size] += len(plain(item.text))
    body_size = body.most_common(1)[0][0] if body else 0.0
    sized = sorted(
        {item.size for item in paras if _short_bold(item) and body_size and item.size > body_size * HEADING_SIZE},
        reverse=True,
    )[:3]
    kinds: list = [("size", size) for size in sized]
    depths = sorted(
        {
            _numbered(item)
            for at, item in enumerate(found)
            if isinstance(item, Para) and _numbered(item) and _numbered_alone(found, at)
        }
    )
    kinds += [("number", depth) for depth in depths]
    bold = [item for item in paras if _short_bold(item) and item.size not in sized]
    if bold and len(bold) <= BOLD_SHARE * len(paras):
        kinds.append(("bold",))
    return kinds


def _short_bold(item: Para) -> bool:
    return (
        item.bold
        and not item.list_level
        and len(item.cells) < 2
        and 0 < len(plain(item.text)) <= MAX_HEADING
        and not plain(item.text).endswith((".", ",", ";"))
    )


def _level_of(item: Para, found: list, at: int, kinds: list, levels: dict[int, int]) -> int:
    """The heading level of a paragraph (0: none): its style's, else the rank of its kind of heading."""
    if item.level:
        return item.level
    depth = _numbered(item)
    if levels and depth and _numbered_alone(found, at):
        known = max(levels)
        return levels.get(depth) or levels[known] + depth - known
    if not kinds:
        return 0
    for kind in (
        ("size", item.size) if _short_bold(item) else None,
        ("number", depth) if depth else None,
        ("bold",) if _short_bold(item) else None,
    ):
        if kind in kinds and (kind[0] != "number" or _numbered_alone(found, at)):
            return kinds.index(kind) + 1
    return 0


def _tabbed_run(found: list, at: int) -> tuple[int, list[list[str]]]:
    """The end and rows of a run of at least three paragraphs cut by tabs into the same number of cells (two or
    more), starting at `at`: a table typed with tabs (`at` and no rows where there is none). A line of twice as
    many cells holds two rows typed side by side ("Scanners 2 ranks → Science: General 2 ranks")."""
    first = found[at]
    if not isinstance(first, Para) or len(first.cells) < 2 or first.list_level:
        return at, []
    width, end, rows = len(first.cells), at, []
    while (
        end < len(found)
        and isinstance(found[end], Para)
        and found[end].cells
        and len(found[end].cells) % width == 0
        and not found[end].list_level
        and not found[end].level
    ):
        cells = found[end].cells
        rows += [cells[start : start + width] for start in range(0, len(cells), width)]
        end += 1
    return (end, rows) if end - at >= MIN_TABBED else (at, [])


def _place(item: Para, level: int, nodes: list) -> None:
    if level:
        nodes.append(Heading(level, item.text.replace("**", ""), item.origin))  # a heading's bold is its own
    elif item.list_level:
        _list_item(item, nodes)
    else:
        nodes.append(Paragraph(item.text, item.origin))


def _list_item(item: Para, nodes: list) -> None:
    """An item joins the list just before it (at its depth, under that list's last item), or opens a list."""
    last = nodes[-1] if nodes and isinstance(nodes[-1], ListBlock) else None
    if last is None or item.list_level == 1 and last.ordered != item.ordered:
        nodes.append(ListBlock([ListItem(item.text)], item.ordered, "1", item.origin))
        return
    items, depth = last.items, 1
    while depth < item.list_level and items:
        items, depth = items[-1].children, depth + 1
    items.append(ListItem(item.text))
