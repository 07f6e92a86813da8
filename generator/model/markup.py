"""The inline markup of source text: small, safe, and parsed in one place.

    **bold**   *italic*   {keyword}   {keyword|shown text}   [^footnote]   \\* a literal star   \\< a literal "<" before a letter
    {result:BLOCK/ROW}   {result:BLOCK/ROW|shown text}   a named result of a dice table, printed as its name
    a line break (a YAML block scalar's, or "\\n") is printed as one: a new line in the same item or cell

Anything that looks like an HTML tag is refused: sources carry data, templates carry HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Union

from markupsafe import Markup, escape

_TOKEN = re.compile(
    r"\\(?P<escaped>[*{}\[\]\\<])"
    r"|\*\*(?P<strong>(?=\S).+?(?<=\S))\*\*"
    r"|\*(?P<em>(?=[^\s*]).+?(?<=[^\s*]))\*"
    r"|\{result:(?P<result>[^{}|]+)(?:\|(?P<result_shown>[^{}]+))?\}"
    r"|\{(?P<keyword>[^{}|]+)(?:\|(?P<shown>[^{}]+))?\}"
    r"|\[\^(?P<footnote>[^\]\s]+)\]"
)
# as an HTML parser: "a < b" opens no tag, "<b" does; "\<b" is the escape that prints "<b" (a roster's <HIVE FLEET>)
_HTML_TAG = re.compile(r"(?<!\\)<[/!?a-zA-Z]")


@dataclass(frozen=True)
class Text:
    value: str


@dataclass(frozen=True)
class Styled:
    style: str  # "strong" or "em"
    children: tuple["Token", ...]


@dataclass(frozen=True)
class KeywordRef:
    key: str
    shown: str | None


@dataclass(frozen=True)
class ResultRef:
    ref: str  # BLOCK/ROW: a dice table's row, by ids
    shown: str | None


@dataclass(frozen=True)
class FootnoteRef:
    key: str


Token = Union[Text, Styled, KeywordRef, ResultRef, FootnoteRef]


def html_tag_at(text: str) -> int | None:
    """Offset of the first thing that looks like an HTML tag, or None."""
    match = _HTML_TAG.search(text)
    return match.start() if match else None


def parse(text: str) -> tuple[Token, ...]:
    tokens: list[Token] = []
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() > position:
            tokens.append(Text(text[position : match.start()]))
        tokens.append(_token(match))
        position = match.end()
    if position < len(text):
        tokens.append(Text(text[position:]))
    return tuple(tokens)


def _token(match: re.Match) -> Token:
    if match["escaped"] is not None:
        return Text(match["escaped"])
    if match["strong"] is not None:
        return Styled("strong", parse(match["strong"]))
    if match["em"] is not None:
        return Styled("em", parse(match["em"]))
    if match["result"] is not None:
        return ResultRef(match["result"].strip(), match["result_shown"])
    if match["keyword"] is not None:
        return KeywordRef(match["keyword"].strip(), match["shown"])
    return FootnoteRef(match["footnote"])


def walk(tokens: tuple[Token, ...]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if isinstance(token, Styled):
            yield from walk(token.children)


# How a keyword reference is shown: given the key and the author's text, the words to print.
KeywordNamer = Callable[[str, "str | None"], str]
Typographer = Callable[[str], str]
# The name a result reference prints: the named result of the dice table's row (BLOCK/ROW), or None if unknown.
ResultNamer = Callable[[str], "str | None"]
# Where a keyword reference links to (the web edition: its definition on the page), or None for no link.
KeywordLinker = Callable[[str], "str | None"]


def to_html(tokens: tuple[Token, ...], typo: Typographer, name_keyword: KeywordNamer,
            link_keyword: KeywordLinker | None = None, name_result: ResultNamer | None = None) -> Markup:
    parts: list[str] = []
    for token in tokens:
        if isinstance(token, Text):
            parts.append(Markup("<br>").join(escape(typo(line)) for line in token.value.split("\n")))
        elif isinstance(token, Styled):
            inner = to_html(token.children, typo, name_keyword, link_keyword, name_result)
            parts.append(Markup(f"<{token.style}>{inner}</{token.style}>"))
        elif isinstance(token, ResultRef):
            parts.append(Markup('<em class="result-ref">{}</em>').format(typo(_result_name(token, name_result))))
        elif isinstance(token, KeywordRef):
            name = typo(name_keyword(token.key, token.shown))
            target = link_keyword(token.key) if link_keyword else None
            if target:
                parts.append(Markup('<a class="kw" href="#{}">{}</a>').format(target, name))
            else:
                parts.append(Markup('<span class="kw">{}</span>').format(name))
        else:
            parts.append(Markup('<sup class="fn">{}</sup>').format(token.key))
    return Markup("".join(parts))


def _result_name(token: ResultRef, name_result: ResultNamer | None) -> str:
    return token.shown or (name_result(token.ref) if name_result else None) or token.ref


def to_plain(tokens: tuple[Token, ...], typo: Typographer, name_keyword: KeywordNamer,
             name_result: ResultNamer | None = None) -> str:
    """The words a reader sees, as they are printed (used to check PDFs for completeness)."""
    parts: list[str] = []
    for token in tokens:
        if isinstance(token, Text):
            parts.append(typo(token.value))
        elif isinstance(token, Styled):
            parts.append(to_plain(token.children, typo, name_keyword, name_result))
        elif isinstance(token, ResultRef):
            parts.append(typo(_result_name(token, name_result)))
        elif isinstance(token, KeywordRef):
            parts.append(typo(name_keyword(token.key, token.shown)))
        else:
            parts.append(token.key)
    return "".join(parts)


_FOOTNOTE = re.compile(r"(?<!\\)\[\^[^\]\s]+\]")


def without_footnotes(text: str) -> str:
    """The text with its footnote marks removed (a weapon's name, quoted away from its table)."""
    return _FOOTNOTE.sub("", text).strip()
