"""The words the templates print (headings of the changes box, "page", "(cont.)"…), in the sheet's language.

English here; other languages in sources/i18n/ui.<lang>.po or templates/i18n/<lang>.po, keyed by the same names
(msgctxt).
"""

from __future__ import annotations

import io
from pathlib import Path

from generator.source import i18n
from generator.errors import UserError
from generator.project import Project

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
    "results": "Results named above",
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
    "points": "pts",
    "army_total": "Army total: {points} pts",
}



def update_catalogue(project: Project, lang: str) -> tuple[Path, i18n.Status] | None:
    """Create or refresh sources/i18n/ui.<lang>.po, the templates' words for a language the templates do not
    carry: each word's English as msgid, the translations kept. Returns the catalogue and what is translated;
    None for English and for a language the templates carry."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    from generator import write

    beside_sources, in_templates = project.ui_catalogues(lang)
    if lang == "en" or (in_templates.is_file() and not beside_sources.is_file()):
        return None
    old = {message.context: message.string for message in i18n.read(beside_sources)} if beside_sources.is_file() else {}
    catalogue = Catalog(locale=lang, project="qrs templates", fuzzy=False,
                        header_comment=f"# The words the qrs templates print, in '{lang}'. Refresh with: qrs i18n update")
    found = i18n.Status()
    for key, english in UI_WORDS.items():
        catalogue.add(english, old.get(key, ""), context=key)  # "{count}" is a placeholder: msgfmt checks the msgstr keeps it
        (found.translated if old.get(key) else found.missing).append(i18n.Entry((key,), key, english, 1))
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, sort_output=False)
    write.atomically(beside_sources, buffer.getvalue())
    return beside_sources, found


def ui_words(project: Project, lang: str, allow_fallback: bool) -> dict[str, str]:
    if lang == "en":
        return dict(UI_WORDS)
    catalogue_file = next((path for path in project.ui_catalogues(lang) if path.is_file()), None)
    if catalogue_file is None:
        if allow_fallback:
            return dict(UI_WORDS)
        beside_sources = project.ui_catalogues(lang)[0]
        raise UserError.at(beside_sources, 1, 1, f"the templates have no '{lang}' words: copy templates/i18n/fr.po to "
                                                 f"{beside_sources} and translate it")
    translated = {message.context: message.string for message in i18n.read(catalogue_file) if message.context}
    words = {}
    for key, english in UI_WORDS.items():
        if not translated.get(key) and not allow_fallback:
            raise UserError.at(catalogue_file, 1, 1, f"no '{lang}' translation of the template word '{english}' ({key})")
        words[key] = translated.get(key) or english
    return words
