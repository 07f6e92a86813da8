"""The inline markup of source text: small, safe, and parsed in one place.

    **bold**   *italic*   {keyword}   {keyword|shown text}   [^footnote]   \\* a literal star   \\< a literal "<" before a letter
    {result:BLOCK/ROW}   {result:BLOCK/ROW|shown text}   a named result of a dice table, printed as its name
    [shown text](https://…)   a link: its text printed (a PDF link annotation, a link on the web page), its address
        not; http, https and mailto only (validate.markup_findings refuses the rest by link_problem)
    a line break (a YAML block scalar's, or "\\n") is printed as one: a new line in the same item or cell

Anything that looks like an HTML tag is refused: sources carry data, templates carry HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator, Union

from markupsafe import Markup, escape

from generator.model.typography import URL

_TOKEN = re.compile(
    r"\\(?P<escaped>[*{}\[\]\\<])"
    r"|\[(?P<link>(?!\^)(?:\\.|[^\[\]\\])+)\]\((?P<target>(?:[^\s()]|\([^\s()]*\))+)\)"
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


@dataclass(frozen=True)
class Link:
    target: str  # the address, as typed: never translated, never typeset
    children: tuple["Token", ...]  # the words printed


Token = Union[Text, Styled, KeywordRef, ResultRef, FootnoteRef, Link]

LINK_SCHEMES = ("http://", "https://", "mailto:")


def link_problem(link: Link) -> str | None:
    """What is wrong with a link, or None: an address of another scheme than http, https and mailto (file:,
    javascript:, a relative path), one with no host or address, or a text that holds what prints as a link
    or a mark of its own."""
    shown = f"[{to_plain(link.children, str, lambda key, words: words or key)}]({link.target})"
    scheme = next((prefix for prefix in LINK_SCHEMES if link.target.lower().startswith(prefix)), None)
    if scheme is None:
        given = f"starts with '{link.target.split(':', 1)[0]}:'" if ":" in link.target else "names no scheme"
        return (
            f"the link {shown} is refused: its address {given}; expected an address starting with http://, "
            "https:// or mailto: (write \\[ for a literal bracket)"
        )
    if not link.target[len(scheme) :].strip("/"):
        return f"the link {shown} has no address after {scheme}"
    inner = next(
        (token for token in walk(link.children) if isinstance(token, (Link, KeywordRef, ResultRef, FootnoteRef))), None
    )
    if inner is not None:
        return (
            f"the link {shown} holds a {type(inner).__name__.replace('Ref', '').lower()} mark in its text: "
            "a link's text is words (bold or italic at most)"
        )
    return None


def links(text: str) -> list[str]:
    """The addresses of a text's links, in order."""
    return [token.target for token in walk(parse(text)) if isinstance(token, Link)]


def html_tag_at(text: str) -> int | None:
    """Offset of the first thing that looks like an HTML tag, or None."""
    match = _HTML_TAG.search(text)
    return match.start() if match else None


@lru_cache(maxsize=1 << 15)  # tokens are immutable; a build parses each string in its checks and its templates
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
    if match["link"] is not None:
        return Link(match["target"], parse(match["link"]))
    if match["result"] is not None:
        return ResultRef(match["result"].strip(), match["result_shown"])
    if match["keyword"] is not None:
        return KeywordRef(match["keyword"].strip(), match["shown"])
    return FootnoteRef(match["footnote"])


def walk(tokens: tuple[Token, ...]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if isinstance(token, (Styled, Link)):
            yield from walk(token.children)


# How a keyword reference is shown: given the key and the author's text, the words to print.
KeywordNamer = Callable[[str, "str | None"], str]
Typographer = Callable[[str], str]
# The name a result reference prints: the named result of the dice table's row (BLOCK/ROW), or None if unknown.
ResultNamer = Callable[[str], "str | None"]
# Where a keyword reference links to (the web edition: its definition on the page), or None for no link.
KeywordLinker = Callable[[str], "str | None"]


def to_html(
    tokens: tuple[Token, ...],
    typo: Typographer,
    name_keyword: KeywordNamer,
    link_keyword: KeywordLinker | None = None,
    name_result: ResultNamer | None = None,
) -> Markup:
    parts: list[str] = []
    for before, token in zip((None, *tokens), tokens):
        if isinstance(token, Text):
            parts.append(Markup("<br>").join(_line_html(line, typo) for line in token.value.split("\n")))
        elif isinstance(token, Styled):
            inner = to_html(token.children, typo, name_keyword, link_keyword, name_result)
            parts.append(Markup(f"<{token.style}>{inner}</{token.style}>"))
        elif isinstance(token, Link):
            inner = to_html(token.children, typo, name_keyword, link_keyword, name_result)
            parts.append(Markup('<a class="link" href="{}">{}</a>').format(token.target, inner))
        elif isinstance(token, ResultRef):
            parts.append(Markup('<em class="result-ref">{}</em>').format(typo(_result_name(token, name_result))))
        elif isinstance(token, KeywordRef):
            name = typo(name_keyword(token.key, token.shown))
            target = link_keyword(token.key) if link_keyword else None
            if target:
                parts.append(Markup('<a class="kw" href="#{}">{}</a>').format(target, name))
            else:
                parts.append(Markup('<span class="kw">{}</span>').format(name))
        elif _ends_with(before, INCH_MARKS):  # 6"¹: a thin space between the inch mark and the mark (sheet.css)
            parts.append(Markup('<sup class="fn after-inch">{}</sup>').format(token.key))
        else:
            parts.append(Markup('<sup class="fn">{}</sup>').format(token.key))
    return Markup("".join(parts))


INCH_MARKS = "\"″'′"  # what a length ends with, in inches or feet (6", 6′): a footnote mark there keeps apart


def _ends_with(token: Token | None, characters: str) -> bool:
    """Whether the text a token prints ends with one of `characters` (inside bold or a link too)."""
    while isinstance(token, (Styled, Link)) and token.children:
        token = token.children[-1]
    return isinstance(token, Text) and token.value[-1:] in characters


def _line_html(line: str, typo: Typographer) -> Markup:
    """A line of text in the language's typography, but for the addresses in it: printed as typed, never
    hyphenated (sheet.css: .url)."""
    return Markup("").join(
        _url_html(piece) if address else _words_html(piece) for piece, address in _typeset(line, typo)
    )


_WITH_SOFT_HYPHENS = re.compile(r"([^\s\u00ad]*\u00ad\S*)")


def _words_html(text: str) -> Markup:
    """Text, each word that carries its own breaks (soft hyphens: typography.breaks) in a span of its own, hyphenated
    only there (sheet.css: .hy); a soft hyphen in a text box turns the dictionary's breaks off in all of it."""
    return Markup("").join(
        Markup('<span class="hy">{}</span>').format(piece) if index % 2 else escape(piece)
        for index, piece in enumerate(_WITH_SOFT_HYPHENS.split(text))
        if piece
    )


def _url_html(url: str) -> Markup:
    """An address printed as text: broken anywhere but after one of its hyphens (a reader would take the hyphen at a
    line's end for a word cut in two, and leave it out)."""
    pieces = (
        Markup('<span class="nb">{}</span>').format(piece) if piece.startswith("-") else escape(piece)
        for piece in _AFTER_HYPHEN.split(url)
        if piece
    )
    return Markup('<span class="url">{}</span>').format(Markup("").join(pieces))


_AFTER_HYPHEN = re.compile(r"(-+[^-]?)")
_STANDS_FOR_URL = "\ua66e"  # a letter no text uses: the typography sees a word where an address stands


def _typeset(text: str, typo: Typographer) -> list[tuple[str, bool]]:
    """The text in the language's typography, in pieces, each marked whether it is an address (left as typed). The
    typography sees the whole text, each address as one letter: the French space before a "!" that follows one."""
    addresses = [found.group(0) for found in URL.finditer(text)]
    if not addresses:
        return [(typo(text), False)]
    if _STANDS_FOR_URL in text:  # the letter typed: each piece between addresses typeset alone
        pieces = [typo(piece) for piece in URL.split(text)]
    else:
        pieces = typo(URL.sub(_STANDS_FOR_URL, text)).split(_STANDS_FOR_URL)
    found = [(pieces[0], False)]
    for address, piece in zip(addresses, pieces[1:]):
        found += [(address, True), (piece, False)]
    return [(piece, address) for piece, address in found if piece]


def _result_name(token: ResultRef, name_result: ResultNamer | None) -> str:
    return token.shown or (name_result(token.ref) if name_result else None) or token.ref


def to_plain(
    tokens: tuple[Token, ...], typo: Typographer, name_keyword: KeywordNamer, name_result: ResultNamer | None = None
) -> str:
    """The words a reader sees, as they are printed (used to check PDFs for completeness)."""
    parts: list[str] = []
    for token in tokens:
        if isinstance(token, Text):
            parts.append("".join(piece for piece, _ in _typeset(token.value, typo)))
        elif isinstance(token, (Styled, Link)):
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
