"""Inline emphasis in the text formats (plain text, and the runs of Markdown, HTML and Word): `<b>…</b>`, `<i>…</i>`,
`**…**`, `*…*` into the sheet's markup, everything else escaped so that it prints as typed."""

from __future__ import annotations

import re

from generator.reading.documents.document import emphasis, escape

_SPAN = re.compile(
    r"<(?P<tag>b|strong|i|em)>(?P<tagged>.*?)</(?P=tag)>"
    r"|\*\*(?P<strong>(?=\S)[^*]+?(?<=\S))\*\*"
    r"|(?<![\w*])\*(?P<em>(?=[^\s*])[^*]+?(?<=[^\s*]))\*(?![\w*])",
    re.S | re.I,
)
_OTHER_TAG = re.compile(r"</?(?:b|strong|i|em|u|span|font|br)\b[^<>]*>", re.I)


def inline(text: str) -> str:
    """Plain text with light emphasis → markup."""
    out, at = [], 0
    for match in _SPAN.finditer(text):
        out.append(escape_keep_spaces(text[at : match.start()]))
        if match.group("tag"):
            style = "strong" if match.group("tag").lower() in ("b", "strong") else "em"
            inner = match.group("tagged")
        else:
            style = "strong" if match.group("strong") is not None else "em"
            inner = match.group("strong") if match.group("strong") is not None else match.group("em")
        inner = _OTHER_TAG.sub("", inner)
        out.append(emphasis(escape_keep_spaces(inner), style))
        at = match.end()
    out.append(escape_keep_spaces(text[at:]))
    return " ".join("".join(out).split())


def escape_keep_spaces(text: str, tags: bool = True) -> str:
    """`escape`, with the spaces at both ends kept (words on either side of a mark stay apart); `tags`: the text
    may hold formatting tags, which go (not so of a Word run or an HTML page's decoded text: "&lt;b&gt;" is text)."""
    text = _OTHER_TAG.sub("", text) if tags else text
    if not text.strip():
        return " " if text else ""
    lead = " " if text[0].isspace() else ""
    trail = " " if text[-1].isspace() else ""
    return lead + escape(text) + trail


def runs(parts: list[tuple[str, bool, bool]]) -> str:
    """Runs of text with their bold and italic flags (Word, HTML) → markup; neighbouring runs of one style merge."""
    merged: list[list] = []
    for text, bold, italic in parts:
        if merged and merged[-1][1:] == [bold, italic]:
            merged[-1][0] += text
        else:
            merged.append([text, bold, italic])
    out = []
    for text, bold, italic in merged:
        piece = escape_keep_spaces(text, tags=False)
        if piece.strip() and bold:
            piece = emphasis(piece, "strong")
        elif piece.strip() and italic:
            piece = emphasis(piece, "em")
        out.append(piece)
    return " ".join("".join(out).split())
