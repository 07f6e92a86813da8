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

from dataclasses import dataclass

from generator.composing import handout as handouts
from generator.model.types import Block, GlossaryBlock, Handout, Section, Sheet

UNIT_SECTIONS = ("handout-units", "handout-equipment")
PROFILE_TABLE = "profiles-"  # the id of a table of the roster's own profiles (generator.composing.handout_profiles)


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
    cards = [Card(block.title or title, (block,), _holding(sheet, section.model_copy(update={"title": None}), [block]),
                  most=None, unit=False) for block in section.blocks]
    return Deck(name=sheet.game, faction=title, cards=tuple(cards), sheet=sheet)


def _unit_card(handout: Handout, unit, sheet: Sheet | None, words: dict[str, str]) -> Card:
    alone = handout.model_copy(update={"units": [unit], "choices": [], "points": None, "include": [],
                                       "exclude": None, "kept": None})
    composed = handouts.compose(alone, sheet, words)
    pieces = [block for section in composed.sections if section.id in UNIT_SECTIONS for block in section.blocks]
    pieces += [block for section in composed.sections if section.id not in UNIT_SECTIONS
               for block in section.blocks if block.id.startswith(PROFILE_TABLE)]  # its abilities
    return Card(unit.name, tuple(pieces), _holding(composed, Section.model_construct(id="card", blocks=[]), pieces))


def _rules_cards(composed: Sheet, words: dict[str, str]) -> list[Card]:
    """The army's choices, rules and chosen sections: a card (or several) for each section of the composed handout
    after its units, without the tables of profiles the unit cards print."""
    cards = []
    for section in composed.sections:
        blocks = [block for block in section.blocks if not block.id.startswith(PROFILE_TABLE)]
        if section.id == "handout-units":
            blocks = [block for block in blocks if block.id == "handout-army"]  # the army's choices
        elif section.id == "handout-equipment":
            blocks = []
        pieces = [piece for block in blocks for piece in _keyword_by_keyword(block, composed)]
        if pieces:
            title = words["army"] if section.id == "handout-units" else section.title or words["special_rules"]
            cards.append(Card(title, tuple(pieces), _holding(composed, Section.model_construct(id="card", blocks=[]), pieces), most=None,
                              unit=False))
    return cards


def _keyword_by_keyword(block: Block, sheet: Sheet) -> list[Block]:
    """A glossary as one piece a keyword, so that it deals out over cards; any other block whole."""
    if not isinstance(block, GlossaryBlock):
        return [block]
    keys = block.keywords if block.keywords is not None else [keyword.id for keyword in sheet.keywords]
    return [block.model_copy(update={"id": f"{block.id}-{key}", "keywords": [key],
                                     "title": block.title if index == 0 else None})
            for index, key in enumerate(keys)]


def _holding(sheet: Sheet, section: Section, blocks: list[Block]) -> Sheet:
    """The sheet the card's blocks print against (its keywords, notes, characteristics), holding those blocks alone."""
    return sheet.model_copy(update={"sections": [section.model_copy(update={"blocks": list(blocks)})]})
