"""What a document says of itself: its language, guessed from its commonest words, and its edition and date, where
its text states them."""

from __future__ import annotations

import datetime
import re

from generator.reading.documents.document import Document

_FRENCH = {"le", "la", "les", "des", "du", "une", "et", "est", "pour", "au", "aux", "sur", "dans", "qui", "de"}
_ENGLISH = {"the", "of", "and", "to", "is", "for", "on", "in", "with", "a", "an", "each", "that", "unit"}
_EDITION = re.compile(r"(?<!\w)(?:v|version|ver\.|[ée]dition)\s?(\d{1,3}(?:\.\d{1,3}){1,3})\b", re.I)
_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("janvier", "january"),
            ("février", "fevrier", "february"),
            ("mars", "march"),
            ("avril", "april"),
            ("mai", "may"),
            ("juin", "june"),
            ("juillet", "july"),
            ("août", "aout", "august"),
            ("septembre", "september"),
            ("octobre", "october"),
            ("novembre", "november"),
            ("décembre", "decembre", "december"),
        ],
        start=1,
    )
    for name in names
}
_DATE_WORDS = re.compile(r"\b(\d{1,2})(?:er)?\s+(" + "|".join(_MONTHS) + r")\s+((?:19|20)\d{2})\b", re.I)
_DATE_DMY = re.compile(r"\b(\d{1,2})/(\d{1,2})/((?:19|20)\d{2})\b")
_DATE_ISO = re.compile(r"\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b")


# Common words of the languages a document is compared with when --lang names one of them (a cheap guess: a
# rulebook's prose holds dozens of these in any of them).
_COMMON = {
    "fr": _FRENCH,
    "en": _ENGLISH,
    "de": {
        "der",
        "die",
        "das",
        "und",
        "ist",
        "nicht",
        "mit",
        "den",
        "von",
        "zu",
        "ein",
        "eine",
        "auf",
        "für",
        "dem",
        "des",
        "wird",
        "oder",
        "jede",
        "einheit",
    },
    "es": {"el", "los", "las", "es", "por", "con", "para", "una", "del", "se", "cada", "unidad", "puede"},
    "it": {"il", "gli", "di", "è", "per", "con", "una", "della", "che", "ogni", "unità", "non", "sono"},
}
_NAMES = {"fr": "French", "en": "English", "de": "German", "es": "Spanish", "it": "Italian"}
LANGUAGE_EVIDENCE = (
    12  # common words at least, and twice those of the language given, for the document to read as another
)


def language_mismatch(document: Document, lang: str) -> str | None:
    """What to warn of when the document's words read as another language than the one --lang gives (an English
    rulebook imported with --lang fr), else None; a language the guess does not know is taken as given."""
    given = lang.split("-")[0]
    if given not in _COMMON:
        return None
    words = re.findall(r"[^\W\d_]+", document.text().lower())
    counts = {code: sum(1 for word in words if word in common) for code, common in _COMMON.items()}
    read = max(counts, key=lambda code: counts[code])
    if read == given or counts[read] < LANGUAGE_EVIDENCE or counts[read] < 2 * counts[given]:
        return None
    return (
        f"--lang {lang}, but the document reads as {_NAMES[read]} ({counts[read]} common {_NAMES[read]} words "
        f"against {counts[given]} {_NAMES[given]} ones): the draft says lang: {lang}; give --lang {read} if the "
        "document is in " + _NAMES[read]
    )


def guess_language(document: Document) -> tuple[str, str]:
    words = re.findall(r"[a-zà-ÿ]+", document.text().lower())
    french = sum(1 for word in words if word in _FRENCH)
    english = sum(1 for word in words if word in _ENGLISH)
    lang = "fr" if french > english else "en"
    return lang, f"{french} common French words against {english} English ones"


def stated_edition(document: Document) -> tuple[str | None, str | None, dict[str, str]]:
    """(edition, date) where the document states them ("v2.0", "19/05/2010", "21 novembre 2026"), else None; and
    the words each was read in, for the report."""
    text = document.text()
    seen = {}
    edition = _EDITION.search(text)
    if edition:
        seen["edition"] = _around(text, edition)
    date = None
    found = _DATE_ISO.search(text)
    dmy, words = _DATE_DMY.search(text), _DATE_WORDS.search(text)
    if found:
        date = found.group(0)
    elif dmy and 1 <= int(dmy.group(2)) <= 12 and 1 <= int(dmy.group(1)) <= 31:
        found, date = dmy, f"{dmy.group(3)}-{int(dmy.group(2)):02d}-{int(dmy.group(1)):02d}"
    elif words and 1 <= int(words.group(1)) <= 31:
        found, date = words, f"{words.group(3)}-{_MONTHS[words.group(2).lower()]:02d}-{int(words.group(1)):02d}"
    if date:
        try:
            datetime.date.fromisoformat(date)
            seen["date"] = _around(text, found)
        except ValueError:
            date = None
    return (edition.group(1) if edition else None), date, seen


def _around(text: str, match) -> str:
    return " ".join(text[max(0, match.start() - 30) : match.end() + 10].split())
