"""What the PDF reader mends or leaves out of a page's lines: a hyphen at a line's end (a break joined, a typed
hyphen kept), a table of contents, running headers and footers."""

from __future__ import annotations

import re
from collections import Counter

TOC_TITLE = re.compile(r"^\W*(table of contents|contents|index|sommaire|table des mati[eè]res)\W*$", re.I)
TOC_LINE = re.compile(r"^(?P<title>.*?[^\W\d].*?)(?P<leader>\s*[.·…_]{2,}\s*|\t)\s*(?P<page>\d{1,3})\s*$")


class Hyphens:
    """Whether a hyphen at a line's end was typed or is the line's break: a word the document writes with its
    hyphen elsewhere keeps it, one it writes whole is joined; else the producer decides (TeX and WeasyPrint
    hyphenate by themselves, Word and browsers break lines only at hyphens typed)."""

    def __init__(self, words: set[str], hyphenating: bool):
        self.words, self.hyphenating = words, hyphenating

    def join(self, text: str, more: str) -> str:
        # the end alone is read: a cell joins line after line, and searching all of it each time was quadratic
        if text.endswith("\xad"):
            return text[:-1] + more
        if re.search(r"\d-$", text[-2:]) and more[:1].isdigit():  # "01-" over "05": the roll 01-05
            return text + more
        if re.fullmatch(r"[^\W\d]-", text[-2:]) and more[:1].islower():
            return text + more if self.typed(text, more) else text[:-1] + more
        return f"{text} {more}".strip()

    def typed(self, text: str, more: str) -> bool:
        left = re.search(r"[^\W\d][\w-]*-$", text[-60:])
        right = re.match(r"[\w-]+", more)
        if not left or not right:
            return not self.hyphenating
        left_word, right_word = left.group(0)[:-1].lower(), right.group(0).lower()
        if f"{left_word}-{right_word}" in self.words:
            return True
        if left_word + right_word in self.words:
            return False
        return not self.hyphenating


HYPHENS = Hyphens(set(), False)  # the document's, while it is read (set by pdf_layout.document_of)


def vocabulary(pages_lines) -> set[str]:
    """The words the document writes, each line's last word aside when it ends with a hyphen (a word broken there
    counts only as the document writes it elsewhere)."""
    words = set()
    for lines in pages_lines:
        for line in lines:
            found = re.findall(r"[^\W\d][\w-]*", line.text())
            if found and found[-1].endswith("-"):
                found.pop()
            words.update(word.lower().rstrip("-") for word in found)
    return words


def hyphens_resolved(out: list[str], origins: list[str]) -> None:
    """Lines ending with a hyphen, before the text reader joins them: a break is marked as a soft hyphen (joined
    without it), a typed hyphen keeps the word whole on the first line ("Demi-" over "déplacement": Demi-déplacement;
    "01-" over "05": 01-05)."""
    texts: list[str | None] = list(out)
    for index in range(len(texts) - 1):
        text, more = texts[index], texts[index + 1]
        if text is None or more is None:
            continue
        letters = re.search(r"[^\W\d]-$", text[-2:]) and more[:1].islower()
        digits = re.search(r"\d-$", text[-2:]) and more[:1].isdigit()
        if letters and not HYPHENS.typed(text, more):
            texts[index] = text[:-1] + "\xad"
        elif letters or digits:
            word, _, rest = more.partition(" ")
            texts[index] = text + word
            texts[index + 1] = rest if rest.strip() else None  # a line of that word alone is gone into the one above
    kept = [at for at, text in enumerate(texts) if text is not None]
    out[:], origins[:] = [texts[at] for at in kept], [origins[at] for at in kept]


def without_contents(lines: list, dropped: list) -> list:
    """The lines less a table of contents: three lines or more in a row, each a title then a page number, with dot
    leaders, under a title "Contents", or naming lines found elsewhere in the document (its headings)."""
    texts = [line.text() for line in lines]
    known = Counter(normal_title(text) for text in texts)
    out: list = []
    index = 0
    while index < len(lines):
        end = index
        while (
            end < len(lines)
            and not lines[end].grid
            and lines[end].page == lines[index].page
            and TOC_LINE.match(texts[end])
        ):
            end += 1
        if end - index < 3:
            out.append(lines[index])
            index += 1
            continue
        matches = [TOC_LINE.match(texts[at]) for at in range(index, end)]
        leaders = sum(1 for match in matches if match.group("leader").strip(" \t"))
        named = sum(1 for match in matches if known[normal_title(match.group("title"))])
        titled = bool(out) and TOC_TITLE.match(out[-1].text().replace("\t", " "))
        if titled or 2 * leaders >= len(matches) or 2 * named >= len(matches):
            if titled:
                title = out.pop()
                dropped.append((title.origin, "a table of contents: " + title.text()))
            dropped += [(lines[at].origin, "a table of contents: " + texts[at]) for at in range(index, end)]
        else:
            out += lines[index:end]
        index = end
    return out


def normal_title(text: str) -> str:
    """A title's words alone, in small letters: a line of the contents and the heading it names compare equal."""
    return re.sub(r"[\W_]+", " ", text).strip().lower()


def running(pages_lines) -> set[str]:
    """Lines (digits aside) found at the top or foot of most pages: running headers and footers."""
    if len(pages_lines) < 2:
        return set()
    counts = Counter()
    for lines in pages_lines:
        counts.update({re.sub(r"\d+", "#", line.text().strip()) for line in lines if line.edge})
    return {key for key, count in counts.items() if count >= max(2, len(pages_lines) - 1) and key}
