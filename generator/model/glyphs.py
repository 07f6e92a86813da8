"""Characters none of the sheet's fonts have (Source Sans, then the vendored symbol and emoji fonts): WeasyPrint
would print them in a system font, or as boxes; each refused once a file, naming every line it is on.

Read from the font files with fontTools alone, so that `qrs check` (through generator.model.validate) says what
`qrs build` says without importing WeasyPrint; the pipeline checks again what it composes (handouts)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Iterable, Iterator

import font_source_sans_pro

from generator.errors import Problem
from generator.model import markup, typography
from generator.model.types import Keyword, Model, prose, verbatim_texts
from generator.project import TEMPLATES

FONTS = Path(font_source_sans_pro.__file__).resolve().parent / "files"
# The fallbacks sheet.css and web.css name after Source Sans (templates/symbols/README.md): what they have prints too.
SYMBOLS = TEMPLATES / "symbols"
# Noto Emoji last: a monochrome face, so that emoji print alike in black and white (a red and a green square hatched
# apart); what the two before it have prints in their shapes, unless typed as emoji (followed by U+FE0F).
SYMBOL_FONTS = ("NotoSansSymbols2-Regular.subset.ttf", "DejaVuSans.subset.ttf", "NotoEmoji-Regular.subset.ttf")
MONO_FONT = "DejaVuSansMono.subset.ttf"  # preformatted text's, alone: a character of another font would not line up


@cache
def font_characters() -> frozenset[int]:
    """The characters every face of the sheet's font has."""
    from fontTools.ttLib import TTFont

    faces = [TTFont(path, lazy=True) for path in sorted(FONTS.glob("SourceSansPro-*.ttf"))]
    return frozenset.intersection(*(frozenset(face.getBestCmap()) for face in faces))


@cache
def symbol_characters() -> frozenset[int]:
    """The characters the fallback fonts have (dice faces, crossed swords, shapes, emoji)."""
    from fontTools.ttLib import TTFont

    return frozenset().union(*(TTFont(SYMBOLS / name, lazy=True).getBestCmap() for name in SYMBOL_FONTS))


@cache
def mono_characters() -> frozenset[int]:
    """The characters the monospace font has (Latin, Latin-1, box drawing, arrows, shapes)."""
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(SYMBOLS / MONO_FONT, lazy=True).getBestCmap())


@cache
def printable_characters() -> frozenset[int]:
    """What prints as itself: Source Sans's characters, and the fallbacks' (symbols, emoji) for the rest."""
    return font_characters() | symbol_characters()


# What each refusal says after the character's name (merged into one problem a character: `one_per_character`)
NO_FONT = (
    "in none of the sheet's fonts (Source Sans Pro, then its symbol and emoji fonts): it would print in a "
    "system font or as a box; write it another way"
)
NO_MONO = (
    "not in the monospace font of preformatted text (DejaVu Sans Mono, cut to Latin, box drawing, arrows and "
    "shapes): its lines would not line up; draw with those"
)


def glyph_findings(document: Model, lang: str, keywords: dict[str, Keyword]) -> Iterator[tuple[tuple, str]]:
    """(path, message) for each character no font prints, in each prose string of a sheet or handout that holds it.
    `keywords` is the sheet's keyword index (validate.keyword_index): a reference prints the keyword's term."""

    def name_keyword(key: str, shown: str | None) -> str:
        keyword = keywords.get(key.casefold())
        return shown or (keyword.term if keyword else key)  # an unknown keyword is a finding of its own

    for loc, text in prose(document):
        for char in _unprintable(text, lang) if "{" not in text else _missing(text, lang, name_keyword):
            yield loc, f"{_named(char)} {NO_FONT}"
    for loc, text in verbatim_texts(document):
        for char in sorted({char for char in text if ord(char) not in mono_characters() and not char.isspace()}):
            yield loc, f"{_named(char)} {NO_MONO}"


def _missing(text: str, lang: str, name_keyword: markup.KeywordNamer) -> tuple[str, ...]:
    """The characters no font prints in a prose string, as printed (typography applied, each keyword named)."""
    printed = markup.to_plain(markup.parse(typography.quotes(text, lang)), typography.for_language(lang), name_keyword)
    known = printable_characters()
    return tuple(sorted({char for char in printed if ord(char) not in known and not char.isspace()}))


@lru_cache(maxsize=1 << 15)
def _unprintable(text: str, lang: str) -> tuple[str, ...]:
    """_missing for a string naming no keyword nor result (no "{"): it prints the same in any sheet, so that a
    process checking a sheet again (a build checks its source, then what it composes) reads it once."""
    return _missing(text, lang, _names_nothing)


def _names_nothing(key: str, shown: str | None) -> str:
    raise AssertionError(f"a string without '{{' named keyword {key!r}")


def _named(char: str) -> str:
    return f"'{char}' (U+{ord(char):04X})"


def one_per_character(problems: Iterable[Problem]) -> list[Problem]:
    """The problems, each character no font prints refused once a file, where it is first, naming every line it is
    on (a sheet coding its cells with a character fifty times: one problem, not fifty); the others as they were."""
    merged: dict[tuple[str, str], list[Problem]] = {}
    kept = []
    for problem in problems:
        if problem.message.endswith((NO_FONT, NO_MONO)):
            merged.setdefault((problem.path, problem.message), []).append(problem)
        else:
            kept.append(problem)
    for (_, message), places in merged.items():
        first = min(places)
        lines = sorted({place.line for place in places})
        if len(lines) > 1:
            name, rest = message.split(") ", 1)
            message = f"{name}), on lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}, {rest}"
        kept.append(replace(first, message=message))
    return kept
