"""A deck's cards through WeasyPrint: each card's content measured, its type fitted (generator.rendering.card_fitting)
and, when it does not fit at the smallest type, dealt out over several cards marked 1/2, 2/2; the cards and their
backs laid out one a page of the card's size, then imposed on paper (generator.rendering.card_imposing).

A card's document is laid out at one scale of the type (the stylesheet's spacing is in rem, the root's size): the
cards are measured and printed in one document a scale.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from math import isfinite

from markupsafe import Markup

from generator import __version__
from generator.composing.cards import Card, Deck, halved
from generator.model.geometry import PX_PER_MM, Frame
from generator.project import Project
from generator.rendering import card_fitting, card_imposing, heights, pages
from generator.rendering.card_sheets import BLEED_MM, CardSize, grid
from generator.rendering.items import items
from generator.rendering.measure import MAX_MM, Measured, overflow
from generator.rendering.templating import TYPE_SIZES, context, environment

PADDING_MM = 2.5  # the card's margin inside its trim (cards.css)
MEASURE_HEIGHT_MM = 3000  # the measuring page: no card's content is cut by its foot
ROUNDS = 6  # measuring rounds a deck's fitting takes at most (each narrows every card's scale)
FITS_MM = 0.05  # what a card's content may exceed its room by: less than WeasyPrint's rounding


class CardRefused(ValueError):
    """A card no number of cards of the size holds: what it is, and why."""


@dataclass(frozen=True)
class CardOptions:
    """How a deck is printed: the card's size, the paper it is imposed on, backs for a duplex flip (long-edge,
    short-edge or None), bleed and crop marks' room for a print shop, no solid fills."""

    size: CardSize
    paper: str = "A4"
    backs: str | None = None
    bleed: bool = False
    ink_saver: bool = False
    allow_fallback: bool = False
    gloss: bool = False
    crop_marks: bool = False  # the sheets' option, read by the templates' context: cards draw their own marks
    impose: None = None


@dataclass(frozen=True)
class Printed:
    """One card as printed: which of the deck's cards, its pieces, its part of them (1 of 1 for most) and its type."""

    card: Card
    pieces: tuple
    part: int = 1
    parts: int = 1
    scale: float = card_fitting.SMALLEST_SCALE


def deck_pdf(project: Project, deck: Deck, options: CardOptions) -> bytes:
    """The deck's cards, fitted and imposed on `options.paper` with crop marks (and backs): the PDF's bytes."""
    printed = fitted(project, deck, options)
    fronts, metadata = _laid(project, deck, options, printed)
    backs = _backs(project, deck, options, printed) if options.backs else None
    return card_imposing.imposed(
        fronts, backs, grid(options.size, options.paper, options.bleed), options.backs, metadata
    )


def deck_page(project: Project, deck: Deck, options: CardOptions) -> str:
    """The deck's web page: each card fitted as for the PDF, at its true size on a grid, one self-contained HTML
    document (its styles and fonts inside it) that a home printer prints at 100 %."""
    from generator.rendering import web

    printed = fitted(project, deck, options)
    # set at 100 %: the page scales each card to its own type (its second item)
    html = _cards_html(project, options, printed, 1.0, measuring=False)
    cards = [(Markup(one_html), round(one.scale, 4)) for one_html, one in zip(html, printed)]
    stylesheet = "\n".join(
        line
        for line in pages.stylesheet_text(project).decode("utf-8").splitlines()
        if not line.startswith("@font-face")
    )  # the fonts are embedded below, not fetched
    stylesheet += (project.templates / "cards" / "cards.css").read_text(encoding="utf-8")
    document = (
        environment(project.templates)
        .get_template("cards/web.html.j2")
        .render(
            dict(
                _context(project, deck.sheet, options, 1.0),
                cards=cards,
                title=deck.name,
                accent=deck.sheet.accent,
                card_width=options.size.width,
                card_height=options.size.height,
                paper=options.paper,
                fonts=Markup(web.FONTS_HERE),
                stylesheet=Markup(stylesheet),
            )
        )
    )
    faces = web.font_faces(frozenset(document), heights.folder(project.build), web.body_faces(project))
    return document.replace(web.FONTS_HERE, faces, 1)


def fitted(project: Project, deck: Deck, options: CardOptions) -> list[Printed]:
    """Each card at the largest type its content fits at (down to the smallest), dealt out over several when it fits
    none; UserError naming the card when a piece alone, or the pieces over MOST_PARTS cards, fit no card."""
    cache = heights.Cache(heights.folder(project.build) / f"cards-{deck.sheet.sheet}.{deck.sheet.lang}.json")
    smallest = [Printed(card, card.pieces) for card in deck.cards]
    measured = _measured(project, deck, options, cache, smallest)
    room = _room(options)
    dealt: list[Printed] = []
    known: list[dict[float, float]] = []
    for one, (total, head, pieces) in zip(smallest, measured):
        if total <= room:
            dealt.append(one)
            known.append({one.scale: total})
            continue
        one, parts, pieces = _dealt(project, deck, options, cache, one, head, pieces)
        for number, indices in enumerate(parts, start=1):
            chosen = tuple(one.pieces[index] for index in indices)
            dealt.append(Printed(one.card, chosen, number, len(parts)))
            known.append({one.scale: head + sum(pieces[index] for index in indices)})
    chosen = _scaled(project, deck, options, cache, dealt, known)
    cache.save()
    return chosen


def _dealt(
    project: Project,
    deck: Deck,
    options: CardOptions,
    cache: heights.Cache,
    one: Printed,
    head: float,
    pieces: list[float],
) -> tuple[Printed, list[list[int]], list[float]]:
    """A card too full for one dealt out over several: a piece taller than a card alone cut in two (a table between
    its rows, a rule between its sentences) and measured again, until each piece fits a card."""
    while True:
        try:
            return one, card_fitting.dealt(pieces, head, _room(options), one.card.most), pieces
        except card_fitting.TooTall as refused:
            cut = None if refused.piece is None else halved(one.card, refused.piece, _continued(project, deck, options))
            if cut is None:
                raise CardRefused(_refusal(one.card, refused, options)) from None
            one = Printed(cut, cut.pieces)
            _, head, pieces = _measured(project, deck, options, cache, [one])[0]


def _continued(project: Project, deck: Deck, options: CardOptions) -> str:
    return _context(project, deck.sheet, options, 1.0)["words"]["continued"]


def _scaled(
    project: Project,
    deck: Deck,
    options: CardOptions,
    cache: heights.Cache,
    cards: list[Printed],
    known: list[dict[float, float]],
) -> list[Printed]:
    """Each card's scale: measured in rounds, every card still undecided at the scale its heights so far point to."""
    scales = card_fitting.ladder(card_fitting.largest_scale(options.size.width))
    room = _room(options)
    for _ in range(ROUNDS):
        steps = [card_fitting.next_step(heights, room, scales) for heights in known]
        wanted = [index for index, step in enumerate(steps) if not step.done]
        if not wanted:
            break
        trial = [replace(cards[index], scale=steps[index].measure) for index in wanted]
        for index, one, (total, _, _) in zip(wanted, trial, _measured(project, deck, options, cache, trial)):
            known[index][one.scale] = total
    chosen = []
    for one, measured in zip(cards, known):
        fitting = [scale for scale, height in measured.items() if height <= room]
        chosen.append(replace(one, scale=max(fitting, default=card_fitting.SMALLEST_SCALE)))
    return chosen


def _room(options: CardOptions) -> float:
    """How far down the card's page its content may reach: the bleed, then the card less its foot's margin."""
    return (BLEED_MM if options.bleed else 0.0) + options.size.height - PADDING_MM


def _refusal(card: Card, refused: card_fitting.TooTall, options: CardOptions) -> str:
    size = f"a {options.size.name} card ({options.size.width:g} × {options.size.height:g} mm)"
    smallest = f"{card_fitting.SMALLEST_POINTS:g} pt"
    if refused.piece is not None:
        piece = card.pieces[refused.piece]
        named = f"'{card.title}'" if piece.title in (None, card.title) else f"'{card.title}' ('{piece.title}')"
        return (
            f"{named} does not fit on {size} at {smallest}, and has no place to be cut between cards "
            f"(a larger --cards size holds it)"
        )
    return (
        f"'{card.title}' does not fit on {card.most} cards of {size[2:]} at {smallest}: it needs "
        f"{refused.needed} (a larger --cards size holds it)"
    )


def _measured(
    project: Project, deck: Deck, options: CardOptions, cache: heights.Cache, cards: list[Printed]
) -> list[tuple[float, float, list[float]]]:
    """Each card's content as laid out at its scale on a page of the card's width: (its height from the card's top to
    its last block's foot, its strip's, each piece's), in mm; a card whose content is wider than the card counts as
    taller than any card. What `cache` holds for a card's measuring page (keyed by all of it: its HTML, the
    styles) is read, not laid out again."""
    found: dict[int, tuple[float, float, list[float]]] = {}
    styles = _styles(project)
    for scale, indices in _by_scale(cards).items():
        html = _cards_html(project, options, [cards[index] for index in indices], scale, measuring=True)
        keys = [
            heights.key("card", *styles, _deck_html(project, deck, options, [one], scale, measuring=True))
            for one in html
        ]
        for index, name in zip(indices, keys):
            if (kept := cache.get(name)) is not None:
                found[index] = (kept.height, kept.head, list(kept.units))
        missing = [number for number, index in enumerate(indices) if index not in found]
        if not missing:
            continue
        document = _rendered(project, deck, options, [html[number] for number in missing], scale, measuring=True)
        for number, page in zip(missing, document.pages):
            found[indices[number]] = _card_heights(page)
            if (kept := _keepable(*found[indices[number]])) is not None:
                cache.put(keys[number], kept)
    return [found[index] for index in range(len(cards))]


def _styles(project: Project) -> tuple[str, str]:
    """The styles a card's measuring page reads: with its whole document (the card alone in it), all that decides
    its measurement (its key in the heights cache)."""
    return (
        pages.stylesheet_text(project).decode("utf-8"),
        (project.templates / "cards" / "cards.css").read_text(encoding="utf-8"),
    )


def _keepable(total: float, head: float, pieces: list[float]) -> Measured | None:
    """A card's measurement as the heights cache keeps one (its pieces as units); None where it cannot be one
    (content wider than the card: measured as infinitely tall; margins between pieces that overlap)."""
    tail = total - head - sum(pieces)
    tail = 0.0 if -0.01 < tail < 0 else tail  # the sum's rounding: a hundredth of a millimetre at most is read back
    if not all(isfinite(value) and 0 <= value <= MAX_MM for value in (total, head, tail, *pieces)):
        return None
    return Measured(height=total, units=tuple(pieces), head=head, tail=tail)


def _card_heights(page) -> tuple[float, float, list[float]]:
    boxes = list(page._page_box.descendants())
    strip = next(box for box in boxes if getattr(box, "element_tag", None) == "header")
    blocks = [
        box
        for box in boxes
        if getattr(box, "element_tag", None) == "section" and "block" in box.element.get("class", "").split()
    ]
    card_top = strip.position_y
    head = (strip.position_y + strip.margin_height() - card_top) / PX_PER_MM
    pieces = [box.margin_height() / PX_PER_MM for box in blocks]
    bottom = max((box.position_y + box.margin_height() for box in blocks), default=strip.position_y)
    total = (bottom - card_top) / PX_PER_MM
    if any(overflow(box) > FITS_MM for box in blocks):
        total = float("inf")
    return total, head, pieces


def _by_scale(cards: list[Printed]) -> dict[float, list[int]]:
    grouped: dict[float, list[int]] = defaultdict(list)
    for index, one in enumerate(cards):
        grouped[one.scale].append(index)
    return grouped


def _laid(project: Project, deck: Deck, options: CardOptions, cards: list[Printed]) -> tuple[list, dict[str, str]]:
    """The cards laid out, one a page of the card's size (and bleed), in the deck's order: the pages (pypdf's) of
    a PDF a scale; and the document information WeasyPrint wrote (its title: the deck's name)."""
    laid: dict[int, object] = {}
    metadata: dict[str, str] = {}
    for scale, indices in _by_scale(cards).items():
        document = _document(project, deck, options, [cards[index] for index in indices], scale)
        if len(document.pages) != len(indices):  # a card's content carried onto a page of its own: never printed
            raise AssertionError(f"{len(indices)} cards at scale {scale} laid out on {len(document.pages)} pages")
        pdf = pages.pdf(deck.sheet, document)
        metadata = metadata or card_imposing.metadata_of(pdf)
        for index, page in zip(indices, card_imposing.pages_of(pdf)):
            laid[index] = page
    return [laid[index] for index in range(len(cards))], metadata


def _backs(project: Project, deck: Deck, options: CardOptions, cards: list[Printed]) -> list:
    words = _context(project, deck.sheet, options, 1.0)
    backs = [
        environment(project.templates)
        .get_template("cards/back.html.j2")
        .render(dict(words, name=deck.name, faction=deck.faction, title=one.card.title))
        for one in cards
    ]
    return card_imposing.pages_of(pages.pdf(deck.sheet, _rendered(project, deck, options, backs, 1.0)))


def _document(
    project: Project, deck: Deck, options: CardOptions, cards: list[Printed], scale: float, measuring: bool = False
):
    return _rendered(project, deck, options, _cards_html(project, options, cards, scale, measuring), scale, measuring)


def _cards_html(
    project: Project, options: CardOptions, cards: list[Printed], scale: float, measuring: bool
) -> list[str]:
    template = environment(project.templates).get_template("cards/card.html.j2")
    return [
        template.render(
            dict(
                _context(project, one.card.sheet, options, scale),
                title=one.card.title,
                part=one.part,
                parts=one.parts,
                measuring=measuring,
                plan=_plan(one),
            )
        )
        for one in cards
    ]


def _plan(one: Printed) -> list:
    """The items the card prints: its pieces, whole."""
    return [item for item in items(one.card.sheet) if item.block in one.pieces]


def _rendered(
    project: Project, deck: Deck, options: CardOptions, cards: list[str], scale: float, measuring: bool = False
):
    document = _deck_html(project, deck, options, cards, scale, measuring)
    return pages.render(project, document, pages.stylesheet_text(project))


def _deck_html(
    project: Project, deck: Deck, options: CardOptions, cards: list[str], scale: float, measuring: bool
) -> str:
    bleed = BLEED_MM if options.bleed else 0.0
    width, height = options.size.width + 2 * bleed, options.size.height + 2 * bleed
    given = _context(project, deck.sheet, options, scale)
    return (
        environment(project.templates)
        .get_template("cards/deck.html.j2")
        .render(
            dict(
                given,
                cards=[Markup(card) for card in cards],
                title=" — ".join(filter(None, [deck.name, deck.faction])),
                accent=deck.sheet.accent,
                bleed=bleed,
                card_width=options.size.width,
                card_height=options.size.height,
                page_width=width,
                page_height=MEASURE_HEIGHT_MM if measuring else height,
            )
        )
    )


def _context(project: Project, sheet, options: CardOptions, scale: float) -> dict:
    """What the sheets' templates are given, on a card: one column of the card's width, the type at `scale`."""
    given = context(project, sheet, options, 0, None, scale)
    inner = options.size.width - 2 * PADDING_MM
    given["frame"] = Frame(inner + 2 * PADDING_MM, options.size.height, 1, 1, (0.0, PADDING_MM, PADDING_MM, PADDING_MM))
    given["type_sizes"] = {name: round(points * scale, 3) for name, points in TYPE_SIZES.items()}
    given["generator"] = f"qrs {__version__}"
    return given
