"""Lists written as a name on its own line, then its paragraph ("Climbing [St,Ag,Co]" over "This skill allows
you to climb…"), three times or more in a row: terms of a text block, as an author would type a glossary. A name
is a short line without a sentence's ending; what follows it, a paragraph that reads as a sentence."""

from __future__ import annotations

import re

from generator.model.types import MAX_TEXT
from generator.reading.documents.document import plain

MIN_TERMS = 3  # fewer pairs in a row read as a subheading over its paragraph, not a list
_NAME_LENGTH = 60
_ENDS_A_SENTENCE = re.compile(r"[.!?:;,…][)»\"”]?$")


def _is_name(item: dict) -> bool:
    text = plain(item.get("p") or "").strip()
    return 0 < len(text) <= _NAME_LENGTH and not _ENDS_A_SENTENCE.search(text) and not text[:1].islower()


def _is_description(item: dict) -> bool:
    text = plain(item.get("p") or "").strip()
    return bool(text) and (len(text) > _NAME_LENGTH or bool(_ENDS_A_SENTENCE.search(text)))


def _opens_term(content: list[dict], at: int) -> bool:
    return at + 1 < len(content) and _is_name(content[at]) and _is_description(content[at + 1])


def _term_at(content: list[dict], at: int) -> tuple[dict, int]:
    """The term a name opens at `at`, its paragraph and the paragraphs after it up to the next name (joined while
    they fit a text), and where the next item starts."""
    term = {"term": content[at]["p"], "text": content[at + 1]["p"]}
    end = at + 2
    while (
        end < len(content)
        and _is_description(content[end])
        and not _opens_term(content, end)
        and len(term["text"]) + len(content[end]["p"]) < MAX_TEXT
    ):
        term["text"] += " " + content[end]["p"]
        end += 1
    return term, end


def glossary(content: list[dict]) -> tuple[list[dict], int]:
    """A text block's content with each run of three names or more, each over its paragraph, made terms; and how
    many terms it made."""
    out: list[dict] = []
    made, at = 0, 0
    while at < len(content):
        terms, end = [], at
        while _opens_term(content, end):
            term, end = _term_at(content, end)
            terms.append(term)
        if len(terms) >= MIN_TERMS:
            out.append({"terms": terms})
            made += len(terms)
            at = end
        else:
            out.append(content[at])
            at += 1
    return out, made
