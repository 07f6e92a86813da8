"""Markdown: CommonMark with pipe tables, through markdown-it-py (the reference CommonMark parser's Python port,
kept by the Executable Books project); its tokens carry the lines each block stood on."""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from generator.reading.documents.document import Document, Heading, ListBlock, ListItem, Paragraph, Table, emphasis
from generator.reading.documents.inline import escape_keep_spaces, inline
from generator.reading.documents.text import heading_text

_HIDDEN = re.compile(r"<!--.*?(?:-->|$)|<(script|style)\b.*?(?:</\1\s*>|$)", re.S | re.I)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>|<![^<>]*>|<\?[^<>]*>")
_HTML_STYLES = {"<b>": "strong", "<strong>": "strong", "<i>": "em", "<em>": "em"}
# Inline elements an author's raw HTML uses around words: the tag goes (the model refuses HTML), its words stay.
# Anything else that CommonMark calls a tag ("<notatag>", "<3 dice>") is text its author typed, and stays text.
_HTML_ELEMENT = re.compile(
    r"^</?(?:a|abbr|b|big|br|cite|code|del|dfn|em|font|i|img|ins|kbd|mark|q|s|samp|small|span|"
    r"strike|strong|sub|sup|time|tt|u|var|wbr)\b[^<>]*>$",
    re.I,
)


_FRONT_MATTER = re.compile(r"\A---[ \t]*\n((?:[^\n]*\n){0,100}?)(?:---|\.\.\.)[ \t]*(?:\n|\Z)")
_FRONT_KEY = re.compile(r"^([A-Za-z_][\w-]*):[ \t]*(.*)$", re.M)


def read(text: str) -> Document:
    dropped: list[tuple[str, str]] = []
    text, title = _without_front_matter(text, dropped)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    nodes, _ = _blocks(tokens, 0, None, dropped)
    if title and not any(isinstance(node, Heading) and node.level == 1 for node in nodes):
        nodes.insert(0, Heading(1, escape_keep_spaces(title), "line 1"))
    return Document(nodes, "markdown", dropped)


def _without_front_matter(text: str, dropped: list) -> tuple[str, str]:
    """A static site's front matter (Jekyll, Hugo: "---", lines of "key: value", "---") left out and listed, its
    lines kept blank so that every line keeps its number; its title is the document's where no heading gives one.
    Read as Markdown, it was a heading of its keys ("layout: default title: …") over a thematic break."""
    match = _FRONT_MATTER.match(text)
    keys = _FRONT_KEY.findall(match.group(1)) if match else []
    if not keys:
        return text, ""
    dropped.append(("line 1", "front matter: " + ", ".join(f"{key}: {value}" for key, value in keys)))
    title = next((value.strip().strip("\"'") for key, value in keys if key.lower() == "title"), "")
    return "\n" * match.group(0).count("\n") + text[match.end() :], title


def _origin(token) -> str:
    return f"line {token.map[0] + 1}" if token.map else ""


def _blocks(tokens, at: int, closing: str | None, dropped: list):
    """Block tokens → nodes, up to `closing`; raw HTML blocks and comments go to `dropped` with their line (the
    model refuses HTML, and one raw <div> used to refuse the whole document)."""
    nodes = []
    while at < len(tokens):
        token = tokens[at]
        if closing and token.type == closing:
            return nodes, at + 1
        if token.type == "heading_open":
            nodes.append(Heading(int(token.tag[1]), heading_text(_inline(tokens[at + 1], dropped)), _origin(token)))
            at += 3
        elif token.type == "paragraph_open":
            text = _inline(tokens[at + 1], dropped)
            if text:  # a paragraph of nothing but a comment or tags is gone
                nodes.append(Paragraph(text, _origin(token)))
            at += 3
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            items, at = _list(tokens, at + 1, token.type.replace("open", "close"), dropped)
            start = int(token.attrGet("start") or 1) if token.type == "ordered_list_open" else 1
            nodes.append(ListBlock(items, token.type == "ordered_list_open", "1", _origin(token), start))
        elif token.type == "table_open":
            table, at = _table(tokens, at + 1, dropped)
            table.origin = _origin(token)
            nodes.append(table)
        elif token.type == "html_block":
            words = _words_of(token.content)
            if token.content.strip():
                kept = " (its words kept)" if words else ""
                dropped.append((_origin(token), "raw HTML: " + " ".join(_tags_of(token.content).split()) + kept))
            if words:
                nodes.append(Paragraph(words, _origin(token)))
            at += 1
        elif token.type in ("fence", "code_block"):
            text = token.content.strip()
            if text:
                nodes.append(Paragraph(escape_keep_spaces(text).strip(), _origin(token)))
            at += 1
        else:
            at += 1
    return nodes, at


def _words_of(raw: str) -> str:
    """The words a raw HTML block shows (a <div>'s text, as a browser prints it), as markup: comments, scripts,
    styles and every tag gone."""
    text = _HIDDEN.sub(" ", raw)
    text = html.unescape(_TAG.sub(" ", text))
    return inline(text)


def _tags_of(raw: str) -> str:
    """What of a raw HTML block is left out: its comments, scripts, styles and tags."""
    return " ".join(match.group(0) for match in re.finditer(rf"{_HIDDEN.pattern}|{_TAG.pattern}", raw, re.S | re.I))


def _list(tokens, at: int, closing: str, dropped: list):
    items = []
    while at < len(tokens) and tokens[at].type != closing:
        if tokens[at].type == "list_item_open":
            inner, at = _blocks(tokens, at + 1, "list_item_close", dropped)
            texts = [node.text for node in inner if isinstance(node, Paragraph)]
            children = [child for node in inner if isinstance(node, ListBlock) for child in node.items]
            items.append(ListItem("\n".join(texts), children))
        else:
            at += 1
    return items, at + 1


def _table(tokens, at: int, dropped: list):
    rows, row, header = [], [], False
    while tokens[at].type != "table_close":
        token = tokens[at]
        if token.type == "tr_open":
            row = []
        elif token.type == "tr_close":
            rows.append(row)
        elif token.type in ("th_open", "td_open"):
            header = header or token.type == "th_open"
            row.append(_inline(tokens[at + 1], dropped) if tokens[at + 1].type == "inline" else "")
        at += 1
    if header and rows and not any(cell.strip() for cell in rows[0]):
        rows, header = rows[1:], False  # a pipe table with an empty header row: no header
    return Table(rows, header or None), at + 1


def _inline(token, dropped: list) -> str:
    """An inline token's children → markup; comments and HTML elements' tags dropped (listed), their words kept."""
    out, styles = [], []
    buffer: list[str] = []
    line = token.map[0] + 1 if token.map else 0

    def flush():
        if buffer:
            text = "".join(buffer)
            out.append(emphasis(text, styles[-1]) if styles and text.strip() else text)
            buffer.clear()

    for child in token.children or []:
        kind = child.type
        if kind in ("text", "code_inline"):
            buffer.append(escape_keep_spaces(child.content))
        elif kind in ("softbreak", "hardbreak"):
            buffer.append("\n")
            line += 1
        elif kind in ("strong_open", "em_open") or kind == "html_inline" and child.content.lower() in _HTML_STYLES:
            flush()
            styles.append(
                "strong" if kind == "strong_open" or _HTML_STYLES.get(child.content.lower()) == "strong" else "em"
            )
        elif (
            kind in ("strong_close", "em_close")
            or kind == "html_inline"
            and child.content.lower() in ("</b>", "</strong>", "</i>", "</em>")
        ):
            flush()
            if styles:
                styles.pop()
        elif kind == "html_inline" and child.content.lower().startswith("<br"):
            buffer.append("\n")
        elif kind == "html_inline" and (child.content.startswith("<!--") or _HTML_ELEMENT.match(child.content)):
            dropped.append((f"line {line}" if line else "", "raw HTML: " + " ".join(child.content.split())))
            line += child.content.count("\n")
        elif kind == "html_inline":
            buffer.append(escape_keep_spaces(child.content))  # "<notatag>": its author's words
        elif kind == "image":
            buffer.append(escape_keep_spaces(child.content or ""))
    flush()
    return "\n".join(" ".join(line.split()) for line in "".join(out).split("\n")).strip()
