"""Cards: a handout's units, or a sheet's section, as a deck of cards imposed for print (docs/handouts.md, "Cards"):
build/handouts/<id>.cards-<size>.<lang>.pdf, build/<sheet>.cards-<size>.<section>.<lang>.pdf, their variants named
after the size (paper, marks, ink saver, backs).

`--cards SIZE` prints the formats asked for as cards: the PDF as this format, the web page as `cards-html`
(generator.output.formats.cards_page, which shares this module's options and rendering). A handout naming
`cards: SIZE` asks for its deck beside its pages (`declared`), which `qrs handout` and `qrs build --all` build."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from generator.errors import UserError
from generator.output.formats import Rendered, file_path, joined

HELP = "a deck of cards in build/ (--cards SIZE, or a handout's cards:), imposed with crop marks"
FOLDER = ""  # under the build folder, beside the PDFs
INSTEAD_OF = "pdf"  # --cards SIZE prints the PDF as cards


def _size(context: click.Context, parameter: click.Parameter, value: str | None):
    """--cards poker|tarot|a6|WxH: a card size the renderer prints."""
    from generator.rendering.card_sheets import card_size  # geometry alone: no WeasyPrint

    if value is None:
        return None
    try:
        return card_size(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


OPTIONS = (
    click.option(
        "--cards",
        "cards",
        default=None,
        callback=_size,
        metavar="SIZE",
        help="Print as cards instead (a unit, or a section's block, a card), nine poker cards to an A4 "
        "page with crop marks: poker (63x88 mm), tarot (70x120), a6 (105x148) or WxH in mm.",
    ),
    click.option(
        "--backs",
        type=click.Choice(["long-edge", "short-edge"]),
        default=None,
        help="With --cards: a back page after each page of cards, for a duplex print flipped on that edge.",
    ),
    click.option(
        "--section",
        default=None,
        metavar="ID",
        help="With --cards: a sheet's section printed as a deck, a card a block (build/SHEET.cards-SIZE.ID.LANG.pdf).",
    ),
)


@dataclass(frozen=True)
class DeckOptions:
    """The cards' own options: the card's size (generator.rendering.card_sheets.CardSize), the backs' flip, and
    the section of a sheet printed as a deck."""

    size: object  # CardSize
    backs: str | None = None
    section: str | None = None


def own_options(params: dict) -> DeckOptions | None:
    """The deck the command line asks for (None: no --cards); --backs and --section without --cards refused."""
    size = params.get("cards")
    if size is None:
        if params.get("section"):
            raise click.UsageError("a deck of a sheet's section takes the sheet, --cards SIZE and --section ID")
        if params.get("backs"):
            raise click.UsageError("--backs goes with --cards: the backs of the cards")
        return None
    return DeckOptions(size, params.get("backs"), params.get("section"))


def refused(targets: list, options, name: str | None = None) -> str | None:
    """What a deck cannot be made of or with, said before anything is built (a usage error); `name`: the format's
    whose options are read (this one's, or the web page's)."""
    own = options.of(name or NAME)
    if options.impose or options.pdf_variant:
        return "--cards does not go with --impose or --pdf-variant: cards are imposed on the paper their own way"
    if options.changes_since or options.errata_only:
        return "--cards prints the current edition: give no --changes-since nor --errata-only with it"
    section = own.section if own else None
    if section and any(target.kind == "handout" for target in targets):
        return "--section names a sheet's section: a handout's cards are `qrs handout ID --cards`"
    if not section and any(target.kind == "sheet" for target in targets):
        return "a deck of a sheet's section takes the sheet, --cards SIZE and --section ID"
    return None


def declared(located, handout) -> str | None:
    """The size a handout's `cards:` names, checked (a size no card has is placed at it), or None."""
    if handout.cards is None:
        return None
    try:
        from_declared(handout.cards)
    except ValueError as error:
        raise UserError([located.problem(("cards",), str(error))]) from None
    return handout.cards


def from_declared(size: str) -> DeckOptions:
    """The deck a handout's `cards:` asks for: ValueError when no card has that size."""
    from generator.rendering.card_sheets import card_size

    return DeckOptions(card_size(size))


NAME = "cards"  # the registry's name of this format, which its options are read back by


def named(own: DeckOptions | None, options, backs: bool = True) -> str | None:
    """What a deck's file name says after its id: cards-poker, the section, the paper, marks, ink and backs."""
    if own is None:
        return None
    return joined(
        f"cards-{own.size.name}",
        own.section,
        (options.paper or "").lower(),
        "marks" if options.crop_marks else None,
        "ink-saver" if options.ink_saver else None,
        "gloss" if options.gloss else None,
        f"backs-{own.backs}" if backs and own.backs else None,
    )


def variant(options) -> str | None:
    return named(options.of(NAME), options)


def path(project, target, lang: str, variant: str | None = None) -> Path:
    return file_path(project, FOLDER, target, lang, variant, "pdf")


def render(project, prepared, options) -> Rendered:
    return Rendered(deck_bytes(project, prepared, options, options.of(NAME)))


def deck_bytes(project, prepared, options, own: DeckOptions | None, page: bool = False) -> bytes:
    """The deck's PDF, or its web page (`page`); a card no number of cards holds is a problem of the source,
    placed at the handout's `cards` (if it names them), else at its top."""
    from generator.rendering import cards as rendering  # WeasyPrint: only when a deck is printed

    if own is None:
        raise UserError(
            [
                _placed(
                    prepared,
                    "no card size to print the deck at: give --cards SIZE, or name one in the handout's cards: field",
                )
            ]
        )
    printed = rendering.CardOptions(
        size=own.size,
        paper=options.paper or prepared.sheet.paper.size,
        backs=None if page else own.backs,
        bleed=options.crop_marks,
        ink_saver=options.ink_saver,
        allow_fallback=options.allow_fallback,
        gloss=options.gloss,
    )
    deck = _deck(project, prepared, options, own)
    try:
        return (
            rendering.deck_page(project, deck, printed).encode("utf-8")
            if page
            else rendering.deck_pdf(project, deck, printed)
        )
    except rendering.CardRefused as refused:
        raise UserError([_placed(prepared, str(refused))]) from None


def _deck(project, prepared, options, own: DeckOptions):
    """A card per unit of a handout then its rules; or, of a sheet, a card per block of the section asked for."""
    from generator.composing import cards, words

    if prepared.parts is not None:
        _, handout, sheet = prepared.parts
        return cards.handout_deck(
            handout, sheet, prepared.sheet, words.ui_words(project, prepared.sheet.lang, options.allow_fallback)
        )
    try:
        return cards.section_deck(prepared.sheet, own.section)
    except KeyError:
        known = ", ".join(part.id for part in prepared.sheet.sections)
        raise UserError(
            [
                prepared.problem(
                    ("sections",), f"no section '{own.section}' to print as cards: the sheet's sections are {known}"
                )
            ]
        ) from None


def _placed(prepared, message: str):
    """A deck's problem in its source: a handout's at its `cards` where it names them, else at its top (as a
    sheet's)."""
    located = prepared.parts[0] if prepared.parts is not None else None
    if located is None:
        return prepared.problem((), message)
    return located.problem(("cards",) if isinstance(located.data, dict) and "cards" in located.data else (), message)
