"""The words the templates print (headings of the changes box, "page", "(cont.)"…), in the sheet's language.

English here; other languages in templates/i18n/<lang>.po, keyed by the same names (msgctxt).
"""

from __future__ import annotations

from pathlib import Path

from generator.source import i18n
from generator.errors import UserError

UI_WORDS = {
    "page": "page",
    "edition": "edition",
    "errata": "Errata in this edition",
    "partly_untranslated": "partly untranslated",
    "or": "or",
    "units": "Units",
    "unit": "Unit",
    "save": "Sv",
    "equipment": "Equipment",
    "special_rules": "Special rules",
    "move_derived": "Move less the armour's move penalties.",
    "saves_split": "Against shooting / in close combat with a two-handed weapon, no shield.",
    "continued": "(cont.)",
    "other_changes": "Other corrections (spelling, layout): {count}, listed by qrs changelog {sheet}",
    "kind_rules": "Rules",
    "kind_clarification": "Clarifications",
    "kind_layout": "Layout",
    "kind_typo": "Spelling and typography",
    "errata_since": "Errata since edition {edition}",
    "errata_of": "Edition",
    "errata_where": "Where",
    "errata_before": "Was",
    "errata_now": "Now",
    "contents": "Contents",
}



def ui_words(templates: Path, lang: str, allow_fallback: bool) -> dict[str, str]:
    if lang == "en":
        return dict(UI_WORDS)
    catalogue_file = templates / "i18n" / f"{lang}.po"
    if not catalogue_file.exists():
        if allow_fallback:
            return dict(UI_WORDS)
        raise UserError.at(catalogue_file, 1, 1, f"the templates have no '{lang}' catalogue: copy templates/i18n/fr.po and translate it")
    translated = {message.context: message.string for message in i18n.read(catalogue_file) if message.context}
    words = {}
    for key, english in UI_WORDS.items():
        if not translated.get(key) and not allow_fallback:
            raise UserError.at(catalogue_file, 1, 1, f"no '{lang}' translation of the template word '{english}' ({key})")
        words[key] = translated.get(key) or english
    return words
