"""Names as a roster writes them, matched to what a sheet calls things.

A name matches when it is the same once folded (case, accents, spacing and punctuation do not count), or once
made plain: an erratum's suffix ("Skirmishers (FAQ'ed)"), a numbering prefix ("5 - Counter-attack") and plurals
("Shields", "Great Weapons") set aside. The sheet's names are its ids, names, first cells, aliases and English
originals, in its own language and in each of its translations (a French sheet answers to "Light Armour")."""

from __future__ import annotations

import re
import unicodedata

# The Middle-earth game, as its game system names itself (BSData's "Middle-Earth Strategy Battle Game"): its units
# are warbands, its heroes' Might, Will and Fate one column
MIDDLE_EARTH = re.compile(r"middle[- ]?earth|hobbit|lord of the rings", re.IGNORECASE)


def folded(name: str) -> str:
    """A name as matched: case, accents, spacing and punctuation do not count (Hand Weapon = hand-weapon)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return re.sub(r"[^a-z0-9+]+", " ", plain).strip()


_ERRATUM = re.compile(r"\s*[(\[]\s*(faq|errat|updated|amended|legacy|beta)[^)\]]*[)\]]\s*", re.IGNORECASE)
_NUMBERED = re.compile(r"^\s*(\d{1,3}|[a-z])\s*[-.):\u2013]\s+", re.IGNORECASE)
_PARENTHESIS = re.compile(r"\s*[(\[][^)\]]*[)\]]\s*")


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and re.search(r"(ch|sh|x|ss)es$", word):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def plain(name: str) -> str:
    """The name with its erratum suffix, numbering prefix and plurals set aside, folded."""
    name = _NUMBERED.sub("", _ERRATUM.sub(" ", name))
    return " ".join(_singular(word) for word in folded(name).split())


def variants(name: str) -> list[str]:
    """What a name is tried as, closest first: folded, made plain, then without what it holds in brackets."""
    found = [folded(name), plain(name), plain(_PARENTHESIS.sub(" ", name))]
    return list(dict.fromkeys(item for item in found if item))
