"""Each language's typographic conventions, applied to text at render time.

Sources are typed with a plain keyboard; what prints follows the language of the edition:
French spaces, whatever was typed before them (none, a space, a no-break space): a narrow no-break space before
; ! ?, a no-break space before : and % (after a number) and inside « »; typographic apostrophes,
English curly quotes; everywhere a true minus sign in numbers (and before -N, -∞) and an en dash in ranges (3–4).
"""

from __future__ import annotations

import re
from functools import cache

NBSP = "\u00a0"
NNBSP = "\u202f"  # narrow no-break space, French usage before ; ! ?
MINUS = "\u2212"

# -1, -½, dice (-D3, -D6"), a capital standing for a number (-N, -X: a letter alone, so -Tank and -V8 stay
# hyphens) and infinity (-∞)
_MINUS = re.compile(r"(?<![\w\-–])-(?=\d|½|¼|D\d|[A-Z](?!\w)|∞)")
_RANGE = re.compile(r"(?<=\d)-(?=\d)")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w|$)")  # at the end: before a keyword, « d'{Archaic missiles} »
_COMPARISONS = (("<=", "≤"), (">=", "≥"))
_FR_BEFORE_HIGH = re.compile(r"(?<=[\w)»\"”%…])\s*([;!?])")
_FR_BEFORE_COLON = re.compile(r"(?<=[\w)»\"”%…])\s*:(?=\s|$)")
_FR_BEFORE_PERCENT = re.compile(r"(?<=[\d½¼¾])\s*%")  # 25% and 25 % alike: 25 %
_FR_GUILLEMETS_OPEN = re.compile(r"«\s*")
_FR_GUILLEMETS_CLOSE = re.compile(r"\s*»")
_EN_DOUBLE_QUOTES = re.compile(r'(?<![\w\d])"(?=\S)(.+?)(?<=\S)"')
# An address as typed: a link's target, or one printed as text. It keeps every character as typed (no apostrophe,
# dash, minus or French space in it); one in text ends before the punctuation that follows it in the sentence.
URL = re.compile(
    r"\b(?:https?://|mailto:|www\.)(?:[^\s<>\"()\[\]]|\([^\s<>\"()]*\))*(?:[^\s<>\"()\[\].,;:!?'’]|\([^\s<>\"()]*\))",
    re.IGNORECASE,
)


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
    text = _FR_BEFORE_PERCENT.sub(NBSP + "%", text)
    text = _FR_GUILLEMETS_OPEN.sub("«" + NBSP, text)
    return _FR_GUILLEMETS_CLOSE.sub(NBSP + "»", text)


def english(text: str) -> str:
    text = common(text)
    return _EN_DOUBLE_QUOTES.sub("\u201c\\1\u201d", text)


_KEYWORD_KEY = re.compile(r"\{[^{}|]*")  # a keyword reference's key names a keyword: never retyped
_WORDLIKE_BEFORE = re.compile(r"[\w}\]]")  # a letter, or the end of a keyword reference or a footnote mark
_CLOSES_AFTER = re.compile(r"[\w}\].,;:!?%)…]")
_STYLE_MARKS = "*"


def quotes(text: str, lang: str) -> str:
    """Straight quotes and apostrophes made typographic in the source's markup itself, where a mark's neighbours
    may be markup ("{Fear}'s", "d'{archaic-missiles}", "'**Hammered**'"): the apostrophe ’ in every language,
    English ‘single’ and “double” quotes. A keyword reference's key is left as typed; so are addresses (a link's, one
    printed as text) and feet and inches (6', 6")."""
    english_quotes = lang.split("-")[0] == "en"
    protected = {
        index
        for pattern in (_KEYWORD_KEY, URL)
        for match in pattern.finditer(text)
        for index in range(match.start(), match.end())
    }
    chars = list(text)
    for index, char in enumerate(text):
        if char != "'" or index in protected:
            continue
        before, after = _neighbour(text, index, -1), _neighbour(text, index, 1)
        if before.isdigit() and not after.isalpha():
            continue  # 6' is six feet
        if _WORDLIKE_BEFORE.match(before) and (after.isalnum() or after == "{"):
            chars[index] = "\u2019"  # it's, d'{arc}, {Fear}'s
        elif english_quotes and _CLOSES_AFTER.match(before) and not (after.isalnum() or after == "{"):
            chars[index] = "\u2019"  # Heroes', 'Hammered'
        elif english_quotes and (not before.strip() or before in '([«—–-"'):
            chars[index] = "\u2018" if (after.isalnum() or after in "{") else char
    text = "".join(chars)
    return _EN_DOUBLE_QUOTES.sub("\u201c\\1\u201d", text) if english_quotes else text


def _neighbour(text: str, index: int, step: int) -> str:
    """The character beside text[index], style marks (*) skipped; '' at either end."""
    index += step
    while 0 <= index < len(text) and text[index] in _STYLE_MARKS:
        index += step
    return text[index] if 0 <= index < len(text) else ""


# Words the hyphenation dictionaries (pyphen's, which WeasyPrint uses) break wrongly, by language: each written with
# the breaks it may take ("re-rolled": after "re" only, never "rer-olled"). Matched whole, in any case; the printed
# word carries them as soft hyphens, and only them (generator.model.markup: a word of its own, hyphens: manual).
HYPHENATION_EXCEPTIONS = {
    "en": ("re-roll", "re-rolls", "re-rolled", "re-rolling"),  # never "rer-olled"
    "fr": ("in-fran-chissable", "in-fran-chissables"),  # never "infranchis-sable": a word "sable" (sand)
}
SOFT_HYPHEN = "\u00ad"


@cache  # asked for every text printed: built once a language
def _exceptions(lang: str) -> tuple[re.Pattern | None, dict[str, str]]:
    words = {word.replace("-", "").casefold(): word for word in HYPHENATION_EXCEPTIONS.get(lang.split("-")[0], ())}
    if not words:
        return None, {}
    return re.compile(r"\b(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")\b", re.IGNORECASE), words


def breaks(lang: str):
    """What sets the listed words' own breaks (HYPHENATION_EXCEPTIONS) in a text of the language: soft hyphens where
    the list puts its hyphens, the word's case kept."""
    pattern, words = _exceptions(lang)

    def broken(text: str) -> str:
        def mark(found: re.Match) -> str:
            typed, listed, out, at = found.group(0), words[found.group(0).casefold()], [], 0
            for part in listed.split("-"):
                out.append(typed[at : at + len(part)])
                at += len(part)
            return SOFT_HYPHEN.join(out)

        return pattern.sub(mark, text) if pattern else text

    return broken


def for_language(lang: str):
    """The typographer for a language code ('fr', 'en', 'de'…); unknown ones get the common rules."""
    return {"fr": french, "en": english}.get(lang.split("-")[0], common)


def keeping(names, typeset):
    """`typeset`, except on the names printed as written in every language (a sheet's `untranslatable`): "'Ere We
    Go!" in a French sheet is an English name, and takes no French space before its "!"."""
    if not names:
        return typeset
    kept = re.compile("|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)))

    def around(text: str) -> str:
        parts, last = [], 0
        for found in kept.finditer(text):
            parts += [typeset(text[last : found.start()]), found.group(0)]
            last = found.end()
        return "".join(parts) + typeset(text[last:])

    return around
