"""Each language's typographic conventions, applied to text at render time.

Sources are typed with a plain keyboard; what prints follows the language of the edition:
French non-breaking spaces before : ; ! ? and inside « », typographic apostrophes,
English curly quotes; everywhere a true minus sign in numbers and an en dash in ranges (3–4).
"""

from __future__ import annotations

import re

NBSP = "\u00a0"
NNBSP = "\u202f"  # narrow no-break space, French usage before ; ! ?
MINUS = "\u2212"

_MINUS = re.compile(r"(?<![\w\-–])-(?=\d|½|¼)")
_RANGE = re.compile(r"(?<=\d)-(?=\d)")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w|$)")  # at the end: before a keyword, « d'{Archaic missiles} »
_COMPARISONS = (("<=", "≤"), (">=", "≥"))
_FR_BEFORE_HIGH = re.compile(r"(?<=[\w)»\"”%…])\s*([;!?])")
_FR_BEFORE_COLON = re.compile(r"(?<=[\w)»\"”%…])\s*:(?=\s|$)")
_FR_GUILLEMETS_OPEN = re.compile(r"«\s*")
_FR_GUILLEMETS_CLOSE = re.compile(r"\s*»")
_EN_DOUBLE_QUOTES = re.compile(r'(?<![\w\d])"(?=\S)(.+?)(?<=\S)"')


def common(text: str) -> str:
    text = _MINUS.sub(MINUS, text)
    text = _RANGE.sub("\u2013", text)
    text = _APOSTROPHE.sub("\u2019", text)
    for ascii_form, sign in _COMPARISONS:
        text = text.replace(ascii_form, sign)
    return text


def french(text: str) -> str:
    text = common(text)
    text = _FR_BEFORE_HIGH.sub(NNBSP + r"\1", text)
    text = _FR_BEFORE_COLON.sub(NBSP + ":", text)
    text = _FR_GUILLEMETS_OPEN.sub("«" + NBSP, text)
    return _FR_GUILLEMETS_CLOSE.sub(NBSP + "»", text)


def english(text: str) -> str:
    text = common(text)
    return _EN_DOUBLE_QUOTES.sub("\u201c\\1\u201d", text)


def for_language(lang: str):
    """The typographer for a language code ('fr', 'en', 'de'…); unknown ones get the common rules."""
    return {"fr": french, "en": english}.get(lang.split("-")[0], common)

