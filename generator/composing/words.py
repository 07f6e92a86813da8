"""The words the templates print (headings of the changes box, "page", "(cont.)"…), in the sheet's language.

English here; other languages in sources/i18n/ui.<lang>.po or templates/i18n/<lang>.po, keyed by the same names
(msgctxt).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from generator.composing import translate as i18n
from generator.errors import Problem, UserError
from generator.project import Project
from generator.reading import catalogues

UI_WORDS = {
    "page": "page",
    "edition": "edition",
    "errata": "Errata in this edition",
    "partly_untranslated": "partly untranslated",
    "or": "or",
    "units": "Units",
    "army": "Army",
    "unit": "Unit",
    "save": "Sv",
    "equipment": "Equipment",
    "special_rules": "Special rules",
    "abilities": "Abilities",
    "results": "Results named above",
    "move_derived": "Move less the armour's move penalties.",
    "saves_split": "Against shooting / in close combat with a two-handed weapon, no shield.",
    "save_from_profiles": "The roster's armour: {profiles} ({unknown}: not in the sheet's saves table).",
    "save_worn_with": "{unknown}: not in the sheet's saves table, worn with {worn_with}, whose save the roster "
    "does not give.",
    "save_unreadable": "{unknown}: not in the sheet's saves table, and the roster's profile reads '{reads}'.",
    "save_unknown": "{unknown}: not in the sheet's saves table, nor a save in the roster's profiles.",
    "continued": "(cont.)",
    "other_changes": "Other corrections (spelling, layout): {count}, listed in the web edition",
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
    "army_total": "Army total: {points}",
    # a roster's headings (generator.composing.handout_headings): its profiles' columns, its units' labels
    "weapon": "Weapon",
    "armour": "Armour",
    "range": "Range",
    "save_modifier": "Save modifier",
    "troop_type": "Type",
    "carried_by": "Carried by {carriers}",  # under a weapon's name: the models of a unit that carry it
    "whole_unit": "{unit} (whole unit)",  # among a weapon's carriers: a unit named like one of the models listed
    "whole_warband": "{unit} (whole warband)",  # the same in the Middle-earth game, whose units are warbands
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
    old = (
        {message.context: message.string for message in catalogues.read(beside_sources)}
        if beside_sources.is_file()
        else {}
    )
    catalogue = Catalog(
        locale=lang,
        project="qrs templates",
        fuzzy=False,
        header_comment=f"# The words the qrs templates print, in '{lang}'. Refresh with: "
        f"qrs i18n update SHEET --lang {lang}",
    )
    found = i18n.Status()
    for key, english in UI_WORDS.items():
        catalogue.add(
            english, old.get(key, ""), context=key
        )  # "{count}" is a placeholder: msgfmt checks the msgstr keeps it
        (found.translated if old.get(key) else found.missing).append(i18n.Entry((key,), key, english, 1))
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, sort_output=False)
    write.atomically(beside_sources, buffer.getvalue())
    return beside_sources, found


def status(project: Project, lang: str) -> i18n.Status | None:
    """How many of the templates' words a language translates; None for English, which they are written in."""
    if lang == "en":
        return None
    catalogue_file = _catalogue_file(project, lang)
    translated = _read_words(catalogue_file)[0] if catalogue_file else {}
    found = i18n.Status()
    for key, english in UI_WORDS.items():
        (found.translated if translated.get(key) else found.missing).append(i18n.Entry((key,), key, english, 1))
    return found


def ui_words(project: Project, lang: str, allow_fallback: bool) -> dict[str, str]:
    """The templates' words in a language. A word with placeholders ({count}) is a format string the templates fill
    (`words.other_changes.format(count=…, sheet=…)`): its translation may hold only the placeholders of its English,
    each a name in braces, which makes that substitution of named fields and nothing else."""
    if lang == "en":
        return dict(UI_WORDS)
    catalogue_file = _catalogue_file(project, lang)
    if catalogue_file is None:
        if allow_fallback:
            return dict(UI_WORDS)
        beside_sources = project.ui_catalogues(lang)[0]
        raise UserError.at(
            beside_sources,
            1,
            1,
            f"the templates have no '{lang}' words: 'qrs i18n update SHEET --lang "
            f"{lang}' (SHEET: one of your sheets' ids) writes this catalogue of "
            "them; translate it, or build with --allow-fallback",
        )
    translated, problems = _read_words(catalogue_file)
    words = {}
    for key, english in UI_WORDS.items():
        if key not in translated and not allow_fallback:
            problems.append(
                Problem(str(catalogue_file), 1, 1, f"no '{lang}' translation of the template word '{english}' ({key})")
            )
        words[key] = translated.get(key) or english  # a word whose translation is refused is no fallback: problems
    if problems:
        raise UserError(problems)
    return words


def catalogue_problems(project: Project, lang: str) -> list[Problem]:
    """What `qrs check` reports of the templates' words in a language: the problems of their catalogue, if there is
    one (unreadable, a placeholder its English does not have); a missing word or catalogue is the build's to report."""
    catalogue_file = None if lang == "en" else _catalogue_file(project, lang)
    if catalogue_file is None:
        return []
    try:
        return _read_words(catalogue_file)[1]
    except UserError as error:
        return list(error.problems)


def _catalogue_file(project: Project, lang: str) -> Path | None:
    return next((path for path in project.ui_catalogues(lang) if path.is_file()), None)


def _read_words(catalogue_file: Path) -> tuple[dict[str, str], list[Problem]]:
    """The words a catalogue translates, by key (an empty string for one whose translation is refused), and the
    problems of its translations, each at its place."""
    catalogue, places = catalogues.read_located(catalogue_file)
    translated, problems = {}, []
    for message in catalogue:
        if message.context not in UI_WORDS or not message.string:
            continue
        wrong = placeholder_problems(UI_WORDS[message.context], message.string)
        translated[message.context] = "" if wrong else message.string
        for offset, why in wrong:
            line, column = places.position(message.context, "msgstr", offset)
            problems.append(Problem(str(catalogue_file), line, column, f"the template word '{message.context}': {why}"))
    return translated, problems


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_BRACES = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")  # as str.format reads braces, left to right


def placeholder_problems(english: str, translation: str) -> list[tuple[int, str]]:
    """Where the translation of a word with placeholders holds anything str.format would read but a placeholder of the
    English ({count}): an attribute or an index ({count.__class__}, {0}), a format spec or conversion ({count:>9999},
    {count!r}), an unknown name ({nope}), a lone brace ({count); and why. Nothing for a word without placeholders
    (never formatted) or a sound translation."""
    names = _PLACEHOLDER.findall(english)
    if not names:
        return []
    expected = ", ".join(f"{{{name}}}" for name in dict.fromkeys(names))
    found = []
    for brace in _BRACES.finditer(translation):
        if brace.group() in ("{{", "}}"):
            continue
        if brace.group(1) is None:
            found.append(
                (
                    brace.start(),
                    f"a lone '{brace.group()}': expected a placeholder ({expected}), "
                    f"or '{brace.group() * 2}' for a brace",
                )
            )
        elif brace.group(1) not in names:
            found.append(
                (
                    brace.start(),
                    f"'{brace.group()[:40]}' is not a placeholder of this word: expected {expected}, "
                    "a name in braces with nothing else (no attribute, index or format)",
                )
            )
    return found
