"""What each card holds (generator.composing.cards): a handout's units a card each, as the handout prints them, then
its rules; a sheet's section a block a card; a piece too tall for a card cut in two."""

from __future__ import annotations

import pytest

from generator.composing import cards, words
from generator.composing import handout as handouts
from generator.composing.handout import load_handout
from generator.model.types import GlossaryBlock, RosterBlock, TableBlock
from generator.model.validate import load
from generator.project import Project
from tests.conftest import LIBRARY


@pytest.fixture(scope="module")
def dwarfs():
    project = Project.at(LIBRARY)
    _, handout, _, sheet = load_handout(project, LIBRARY / "handouts" / "warhammer-dwarfs.yaml")
    ui = words.ui_words(project, handout.lang, False)
    composed = handouts.compose(handout, sheet, ui)
    return handout, composed, cards.handout_deck(handout, sheet, composed, ui)


def test_each_unit_has_a_card_holding_its_own_row_and_no_other(dwarfs):
    handout, _, deck = dwarfs
    unit_cards = [card for card in deck.cards if card.unit]
    assert [card.title for card in unit_cards] == [unit.name for unit in handout.units]
    for card, unit in zip(unit_cards, handout.units):
        roster = next(piece for piece in card.pieces if isinstance(piece, RosterBlock))
        assert [row.id for row in roster.units] == [unit.id] and roster.points is None
        assert card.most == 4


def test_a_unit_card_prints_what_the_handout_prints_of_the_unit(dwarfs):
    handout, composed, deck = dwarfs
    whole = next(block for block in composed.blocks() if isinstance(block, RosterBlock))
    for card in (card for card in deck.cards if card.unit):
        row = next(piece for piece in card.pieces if isinstance(piece, RosterBlock)).units[0]
        assert row == next(unit for unit in whole.units if unit.id == row.id)


def test_the_armys_rules_and_chosen_sections_follow_the_units_once(dwarfs):
    _, composed, deck = dwarfs
    rules = [card for card in deck.cards if not card.unit]
    assert deck.cards[-len(rules) :] == tuple(rules) and all(card.most is None for card in rules)
    chosen = [section for section in composed.sections if section.id != "handout-units"]
    assert [card.title for card in rules] == [section.title for section in chosen]
    assert deck.name == "Armée naine" and deck.faction == composed.game


def test_a_glossary_is_dealt_a_keyword_a_piece():
    sheet = load(LIBRARY / "warhammer.yaml")[1]
    glossary = GlossaryBlock(id="rules", type="glossary", keywords=[keyword.id for keyword in sheet.keywords[:3]])
    pieces = cards._keyword_by_keyword(glossary, sheet)
    assert [piece.keywords for piece in pieces] == [[keyword.id] for keyword in sheet.keywords[:3]]


def test_a_sheets_section_is_a_card_a_block():
    sheet = load(LIBRARY / "warhammer.yaml")[1]
    section = sheet.sections[0]
    deck = cards.section_deck(sheet, section.id)
    assert [card.pieces for card in deck.cards] == [
        (block.model_copy(update={"title": None}),) for block in section.blocks
    ]
    assert [card.title for card in deck.cards] == [block.title or section.title for block in section.blocks]
    assert deck.faction == section.title and deck.name == sheet.game
    with pytest.raises(KeyError):
        cards.section_deck(sheet, "no-such-section")


def test_a_table_too_tall_is_cut_between_its_rows_and_a_rule_between_its_sentences():
    sheet = load(LIBRARY / "warhammer.yaml")[1]
    table = next(block for block in sheet.blocks() if isinstance(block, TableBlock) and len(block.rows) > 3)
    card = cards.Card("t", (table,), sheet)
    cut = cards.halved(card, 0, "(cont.)")
    first, second = cut.pieces
    assert [*first.rows, *second.rows] == list(table.rows) and first.rows and second.rows
    keyword = max(sheet.keywords, key=lambda keyword: len(keyword.text or ""))
    card = cards.Card("k", (GlossaryBlock(id="g", type="glossary", keywords=[keyword.id]),), sheet)
    cut = cards.halved(card, 0, "(cont.)")
    head, tail = (next(known for known in cut.sheet.keywords if known.id == piece.keywords[0]) for piece in cut.pieces)
    assert " ".join(f"{head.text} {tail.text}".split()) == " ".join(keyword.text.split()) and head.text
    assert tail.term == f"{keyword.term} (cont.)" and head.term == keyword.term
