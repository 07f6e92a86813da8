"""The cards format: a handout's units, or a sheet's section, as a deck of cards imposed for print.

`handout_cards` and `section_cards` are its entries: a handout (or a sheet and a section id), a language, the build's
options and the card's size; each writes its PDF atomically and returns its path:
build/handouts/<id>.cards-<size>[.<variant>].<lang>.pdf, build/<sheet>.cards-<size>.<section>[.<variant>].<lang>.pdf.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from generator import write
from generator.composing import cards, handout as handouts, languages as translations, words
from generator.composing.handout import load_handout
from generator.errors import UserError
from generator.project import Project, variant_of
from generator.model.types import Handout
from generator.model.validate import load, parse
from generator.reading.sources import load_file
from generator.rendering.card_sheets import BACKS, CardSize, card_size

CARDS_OPTION = "cards"  # what a handout's YAML names its default card size by


def variant(size: CardSize, options, backs: str | None, section: str | None = None) -> str:
    """What a deck's file name says after its id: cards-poker, the section, then the paper, marks, ink and backs."""
    settings = {**asdict(options), "impose": None, "pdf_variant": None}
    return ".".join(filter(None, [f"cards-{size.name}", section, variant_of(settings),
                                  f"backs-{backs}" if backs else None]))


def handout_decks(project: Project, paths: list[Path], languages: tuple[str, ...], options, size: CardSize | None,
                  backs: str | None = None, forms: tuple[str, ...] = ("pdf",)) -> list[Path]:
    """The decks of the handouts at `paths`, in `languages` (default: each one's own): at `size` (poker, tarot, a6,
    WxH), else at the size a handout's `cards` names (a handout naming none has no deck but at a size given)."""
    written = []
    for path in paths:
        located = load_file(path)
        handout = parse(located, Handout)
        if size is None and handout.cards is None:
            continue
        try:
            chosen = size or card_size(handout.cards)
        except ValueError as error:
            raise UserError([located.problem(("cards",), str(error))]) from None
        for lang in languages or handout.languages or [handout.lang]:
            written += [handout_cards(project, path, lang, options, chosen, backs, form) for form in forms]
    return written


def section_decks(project: Project, paths: list[Path], languages: tuple[str, ...], options, size: CardSize,
                  section: str, backs: str | None = None, forms: tuple[str, ...] = ("pdf",)) -> list[Path]:
    """The section `section` of each sheet at `paths` as a deck, in `languages` (default: every one the sheet has)."""
    from generator.composing.translate import languages as sheet_languages

    written = []
    for path in paths:
        for lang in languages or sheet_languages(project.sources, load(path)[1]):
            written += [section_cards(project, path, lang, options, size, section, backs, form) for form in forms]
    return written


def handout_cards(project: Project, path: Path, lang: str, options, size: CardSize, backs: str | None = None,
                  form: str = "pdf") -> Path:
    """A card per unit of the handout at `path`, then its rules, in `lang`."""
    located, handout, sheet_located, sheet = load_handout(project, path)
    handout, sheet, _ = translations.translated_pair(project, located, handout, sheet_located, sheet, lang,
                                                     options.allow_fallback)
    ui = words.ui_words(project, lang, options.allow_fallback)
    composed = handouts.compose(handout, sheet, ui)
    composed.mark_fallback_of(*(document for document in (handout, sheet) if document))
    deck = cards.handout_deck(handout, sheet, composed, ui)
    named = variant(size, options, None if form == "html" else backs)
    output = (project.handout_html_path if form == "html" else project.handout_pdf_path)(located.path.stem, lang, named)
    write.atomically(output, _deck_bytes(project, deck, options, size, backs, located, form))
    return output


def section_cards(project: Project, path: Path, lang: str, options, size: CardSize, section: str,
                  backs: str | None = None, form: str = "pdf") -> Path:
    """A card per block of the sheet's section `section`, in `lang`."""
    from generator.pipeline import prepared_sheet

    located, sheet = prepared_sheet(project, path, lang, options)
    try:
        deck = cards.section_deck(sheet, section)
    except KeyError:
        known = ", ".join(part.id for part in sheet.sections)
        raise UserError([located.problem(("sections",), f"no section '{section}' to print as cards: the sheet's "
                                                        f"sections are {known}")]) from None
    named = variant(size, options, None if form == "html" else backs, section)
    output = (project.html_path if form == "html" else project.pdf_path)(sheet.sheet, lang, named)
    write.atomically(output, _deck_bytes(project, deck, options, size, backs, located, form))
    return output


def _deck_bytes(project: Project, deck: cards.Deck, options, size: CardSize, backs: str | None, located,
         form: str = "pdf") -> bytes:
    """The deck's PDF, or its web page (`form` html); a card no number of cards holds is a problem of the source,
    placed at its `cards` (if it names them), else at its top."""
    from generator.rendering import cards as rendering  # WeasyPrint: only when a deck is printed

    if backs is not None and backs not in BACKS:
        raise ValueError(f"backs: one of {', '.join(BACKS)}")
    printed = rendering.CardOptions(size=size, paper=options.paper or "A4", backs=backs, bleed=options.crop_marks,
                                    ink_saver=options.ink_saver, allow_fallback=options.allow_fallback)
    try:
        if form == "html":
            return rendering.deck_page(project, deck, printed).encode("utf-8")
        return rendering.deck_pdf(project, deck, printed)
    except rendering.CardRefused as refused:
        where = ("cards",) if isinstance(located.data, dict) and "cards" in located.data else ()
        raise UserError([located.problem(where, str(refused))]) from None

