"""What each card of a deck holds: a handout's units, one card each, then its army's rules; or a sheet's section,
one card a block.

A unit's card is the handout composed with that unit alone (generator.composing.handout.compose): its row of the
roster with each model's stat line, its equipment, the rows of the sheet's tables its weapons name, its own
profiles' tables (weapons, abilities) and its wound track, so that a card prints exactly what the handout prints of
the unit. The rules that several units share (the sheet's keywords, the army's glossary, its choices, the sections
the handout chooses) print once, as cards after the units, one keyword a piece so that a long glossary deals out
over several cards.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.composing import handout as handouts
from generator.model.types import Block, GlossaryBlock, Handout, RosterBlock, Section, Sheet, TextBlock

UNIT_SECTIONS = ("handout-units", "handout-equipment")
PROFILE_TABLE = "profiles-"  # the id of a table of the roster's own profiles (generator.composing.handout_profiles)
CUT_BETWEEN = ("rows", "items")  # the lines a block too tall for a card is cut between: a table's, a dice table's, a
# list of modifiers' or saves' (a sequence's steps are not: its second part would count from 1 again)


@dataclass(frozen=True)
class Card:
    """One card's content: `pieces` (blocks, in order, each kept whole) under the `title` its strip prints, on the
    `sheet` they resolve their keywords, notes and characteristics against. `most` is how many cards it may take
    when it does not fit one (None: as many as it needs)."""

    title: str
    pieces: tuple[Block, ...]
    sheet: Sheet
    most: int | None = 4
    unit: bool = True  # a unit's card (its back names it); else a card of rules


@dataclass(frozen=True)
class Deck:
    """The cards of one handout or section, in order, with what their backs print: `name` (the army, or the game)
    and `faction` (the game, or the section)."""

    name: str
    faction: str
    cards: tuple[Card, ...]
    sheet: Sheet  # the whole composed document: its language, accent, date and imprint


def handout_deck(handout: Handout, sheet: Sheet | None, composed: Sheet, words: dict[str, str]) -> Deck:
    """A card per unit of `handout` (drawn on `sheet`, both in the language printed), then the cards of the rules and
    sections `composed` (the handout composed whole) prints beside its units."""
    cards = [_unit_card(handout, unit, sheet, words) for unit in handout.units]
    cards += _rules_cards(composed, words)
    faction = sheet.game if sheet else (handout.game or "")
    return Deck(name=handout.army, faction=faction, cards=tuple(cards), sheet=composed)


def section_deck(sheet: Sheet, section_id: str) -> Deck:
    """A card per block of the sheet's section `section_id`, titled with the block's title, else the section's.
    KeyError when the sheet has no such section."""
    section = next((section for section in sheet.sections if section.id == section_id), None)
    if section is None:
        raise KeyError(section_id)
    title = section.title or section.id
    untitled = section.model_copy(update={"title": None})
    cards = []
    for block in section.blocks:
        piece = block.model_copy(update={"title": None})  # its title is the card's strip
        cards.append(Card(block.title or title, (piece,), _holding(sheet, untitled, [piece]), most=None, unit=False))
    return Deck(name=sheet.game, faction=title, cards=tuple(cards), sheet=sheet)


def _unit_card(handout: Handout, unit, sheet: Sheet | None, words: dict[str, str]) -> Card:
    alone = handout.model_copy(
        update={"units": [unit], "choices": [], "points": None, "include": [], "exclude": None, "kept": None}
    )
    composed = handouts.compose(alone, sheet, words)
    pieces = [block for section in composed.sections if section.id in UNIT_SECTIONS for block in section.blocks]
    pieces += [
        block
        for section in composed.sections
        if section.id not in UNIT_SECTIONS
        for block in section.blocks
        if block.id.startswith(PROFILE_TABLE)
    ]  # its abilities
    return Card(unit.name, tuple(pieces), _holding(composed, Section.model_construct(id="card", blocks=[]), pieces))


def _rules_cards(composed: Sheet, words: dict[str, str]) -> list[Card]:
    """The army's choices, rules and chosen sections: a card (or several) for each section of the composed handout
    after its units, without the tables of profiles the unit cards print."""
    cards = []
    for section in composed.sections:
        blocks = [block for block in section.blocks if not block.id.startswith(PROFILE_TABLE)]
        if section.id == "handout-units":  # the army's choices and its total
            blocks = [block for block in blocks if block.id == "handout-army"] + _army_total(section, words)
        elif section.id == "handout-equipment":
            blocks = []
        pieces = [piece for block in blocks for piece in _keyword_by_keyword(block, composed)]
        if pieces:
            title = words["army"] if section.id == "handout-units" else section.title or words["special_rules"]
            card = Section.model_construct(id="card", blocks=[])
            cards.append(Card(title, tuple(pieces), _holding(composed, card, pieces), most=None, unit=False))
    return cards


def halved(card: Card, index: int, continued: str) -> Card | None:
    """The card with its piece `index` cut in two, for a piece too tall for a card alone: a table, a dice table, a
    list of modifiers or saves between its rows, a glossary's one keyword between its sentences (the second part's
    term marked `continued`); None when the piece has no such cut."""
    piece = card.pieces[index]
    lines = next((name for name in CUT_BETWEEN if len(getattr(piece, name, None) or ()) > 1), None)
    if lines is not None:
        kept = getattr(piece, lines)
        middle = len(kept) // 2
        first = piece.model_copy(update={lines: kept[:middle], "notes": [], "after": None, "id": f"{piece.id}-1"})
        second = piece.model_copy(update={lines: kept[middle:], "intro": None, "id": f"{piece.id}-2"})
        return _replaced(card, index, [first, second], [])
    if isinstance(piece, GlossaryBlock) and len(piece.keywords or ()) == 1:
        keyword = next(keyword for keyword in card.sheet.keywords if keyword.id == piece.keywords[0])
        cut = _sentence_cut(keyword.text or "")
        if cut is None:
            return None
        head = keyword.model_copy(update={"text": keyword.text[:cut].rstrip()})
        tail = keyword.model_copy(
            update={
                "id": f"{keyword.id}-cont",
                "text": keyword.text[cut:].lstrip(),
                "term": f"{keyword.term} {continued}",
                "see": None,
            }
        )
        pieces = [
            piece.model_copy(update={"keywords": [head.id]}),
            piece.model_copy(update={"id": f"{piece.id}-cont", "keywords": [tail.id], "title": None}),
        ]
        return _replaced(card, index, pieces, [head, tail])
    return None


def _sentence_cut(text: str) -> int | None:
    """Where a text is cut in two nearest its middle: after a paragraph, else a sentence, else a word."""
    for stop in ("\n\n", ". ", " "):
        cuts = [position + len(stop) for position in range(len(text)) if text.startswith(stop, position)]
        cuts = [cut for cut in cuts if 0 < cut < len(text)]
        if cuts:
            return min(cuts, key=lambda cut: abs(cut - len(text) / 2))
    return None


def _replaced(card: Card, index: int, pieces: list[Block], keywords: list) -> Card:
    """The card with its piece `index` replaced by `pieces`, and its sheet's keywords by `keywords` of the same ids."""
    replacing = {keyword.id.removesuffix("-cont") for keyword in keywords}
    all_pieces = [*card.pieces[:index], *pieces, *card.pieces[index + 1 :]]
    sheet = card.sheet
    if keywords:
        kept = [keyword for keyword in sheet.keywords if keyword.id not in replacing]
        sheet = sheet.model_copy(update={"keywords": kept + keywords})
    section = sheet.sections[0]
    return replace(card, pieces=tuple(all_pieces), sheet=_holding(sheet, section, all_pieces))


def _army_total(section: Section, words: dict[str, str]) -> list[Block]:
    """What the roster's foot prints, the army's total, as a line of its own: no unit's card prints it."""
    roster = next((block for block in section.blocks if isinstance(block, RosterBlock)), None)
    if roster is None or not roster.points:
        return []
    total = words["army_total"].format(points=f"{roster.points}\u00a0{roster.cost or words['points']}")
    return [TextBlock(id="handout-army-total", type="text", content=[{"p": f"**{total}**"}])]


def _keyword_by_keyword(block: Block, sheet: Sheet) -> list[Block]:
    """A glossary as one piece a keyword, so that it deals out over cards; any other block whole."""
    if not isinstance(block, GlossaryBlock):
        return [block]
    keys = block.keywords if block.keywords is not None else [keyword.id for keyword in sheet.keywords]
    return [
        block.model_copy(
            update={"id": f"{block.id}-{key}", "keywords": [key], "title": block.title if index == 0 else None}
        )
        for index, key in enumerate(keys)
    ]


def _holding(sheet: Sheet, section: Section, blocks: list[Block]) -> Sheet:
    """The sheet the card's blocks print against (its keywords, notes, characteristics), holding those blocks alone."""
    return sheet.model_copy(update={"sections": [section.model_copy(update={"blocks": list(blocks)})]})
