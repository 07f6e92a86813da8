"""Documents other people made, read and typed whole, each with the blocks expected of it (their origins, commits
and licences in tests/fixtures/imports/README.md): Cairn's character creation in Markdown and its first edition's
web page (CC BY-SA 4.0, Yochai Gal), two chapters of the d666 RPG System in Markdown (CC BY-SA 4.0, Jeremy
Deram), four chapters of the French Old-School Essentials reference document (Open Game License 1.0a, Gavin
Norman), H. G. Wells' Little Wars in plain text as Project Gutenberg keeps it (public domain), and seven pages of
The Markdown SRD5's magic items printed to PDF (Open Game License 1.0a, Garrett Guillotte, Wizards of the Coast). Their dice tables
are set as such material sets them: in halves side by side under an empty header row, across the page, numbered 1
to the die's size, keyed D66, in French ("2 ou -", "12 ou +")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.composing.drafts import draft, read_document
from generator.composing.drafts.report import Report

FIXTURES = Path(__file__).parents[2] / "fixtures" / "imports"


def drafted(name: str) -> tuple[list[dict], Report]:
    """The draft's blocks, made and checked in memory as `qrs import` makes it (the model refuses a bad one)."""
    report = Report(name, "sources/d.yaml")
    text = draft.make(read_document(FIXTURES / name), Path("sources/d.yaml"), "d", None, None, report)
    sections = yaml.safe_load(text)["sections"]
    return [block for section in sections for block in section["blocks"]], report


def named(blocks: list[dict], name: str, kind: str = "dice") -> dict:
    """The block of this kind titled so (or, where its heading made a group, with this id)."""
    return next(b for b in blocks if b["type"] == kind and (b.get("title") or b["id"]).casefold() == name.casefold())


def dice(blocks: list[dict]) -> list[tuple[str, str]]:
    return [
        (block.get("title", block.get("id", "")), block.get("die") or block["range"])
        for block in blocks
        if block["type"] == "dice"
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # Backgrounds (d20 in halves, its header the first row), eight traits (d10 in halves), bonds, omens
        ("cairn-character-creation.md", {"D20": 3, "D10": 8}),
        # names and backgrounds (d20 in halves), ten traits (d10), armour, helmets, weapons and bonus item set
        # across the page, three d20 item lists, the spellbooks (d100 in four halves), reactions (2d6 across)…
        ("cairn-srd.html", {"D20": 11, "D10": 10, "D100": 2, "2D6": 1}),
        ("d666-magic.md", {"D66": 1}),
        ("d666-optional-rules.md", {"D66": 2}),
        # the monsters' reaction roll, keyed "2 ou -" … "12 ou +"
        ("ose-fr-rencontres.md", {"2D6": 1}),
        # the dungeon's setting and a room's contents (the traps and specials numbered 1 to 6 stay sequences)
        ("ose-fr-creer-un-donjon.md", {"D6": 2}),
        # wandering monsters by dungeon level: a d20, a column of monsters a level
        ("ose-fr-rencontres-des-donjons.md", {"D20": 1}),
        # attack and saving throw tables: no die
        ("ose-fr-tableaux-de-combat.md", {}),
        # a book's rules in prose and numbered paragraphs ("(1)", "(IV)", "(a)"): no die, no table
        ("little-wars.txt", {}),
        # magic items printed from a web page, ruled between rows: damage types (d10), the Bag of Beans (d100, its
        # results wrapping), three bags of tricks (d8), a candle's alignment (d20), a carpet's size (d100 across)
        ("mdsrd5-magic-items.pdf", {"D10": 1, "D100": 2, "D8": 3, "D20": 1}),
    ],
)
def test_the_dice_tables_of_other_authors_documents_are_typed_as_dice(name, expected):
    blocks, report = drafted(name)
    assert Counter(die for _, die in dice(blocks)) == Counter(expected), dice(blocks)
    assert not report.problems


def test_a_d10_in_halves_under_an_empty_header_keeps_every_result_in_order():
    blocks, _ = drafted("cairn-character-creation.md")
    physique = named(blocks, "Physique")
    assert [(row["roll"], row["text"]) for row in physique["rows"]][4:6] == [("5", "Rugged"), ("6", "Scrawny")]
    backgrounds = named(blocks, "backgrounds")
    assert backgrounds["die"] == "D20" and backgrounds["text_title"].strip("*") == "Background"
    assert len(backgrounds["rows"]) == 20


def test_a_web_page_s_table_of_rolls_across_the_page_is_read_down():
    blocks, _ = drafted("cairn-srd.html")
    armour = named(blocks, "Armor")
    assert [row["roll"] for row in armour["rows"]] == ["1-3", "4-14", "15-19", "20"]
    assert armour["rows"][0]["text"] == "None"
    physique = named(blocks, "Physique")
    assert physique["rows"][0] == {"roll": "1", "text": "Athletic"}  # its first row, not a header


def test_a_french_reaction_roll_keyed_2_or_less_to_12_or_more_is_a_2d6_its_or_less_reported():
    blocks, report = drafted("ose-fr-rencontres.md")
    reaction = named(blocks, "test-de-reaction-des-monstres")
    assert reaction["die"] == "2D6"
    assert [row["roll"] for row in reaction["rows"]] == ["2", "3-5", "6-8", "9-11", "12+"]
    assert reaction["rows"][0]["text"] == "Hostile, attaque"
    guess = next(guess for guess in report.guesses if guess.block == reaction["id"])
    assert not guess.confident and "'2 ou -' read as 2, its 'or less' lost" in guess.why


def test_french_combat_tables_keep_their_column_heads_and_the_attack_matrix_its_keys():
    blocks, _ = drafted("ose-fr-tableaux-de-combat.md")
    saves = named(blocks, "jet-de-sauvegarde-des-monstres", "table")  # its first row of numbers no column keys
    assert [column["title"] for column in saves["columns"]] == [
        "Dés de vie",
        "Mort",
        "Baguettes",
        "Paralysie",
        "Souffles",
        "Sorts",
    ]
    assert saves["rows"][0] == ["Humain normal", "14", "15", "16", "17", "18"]
    attack = named(blocks, "matrice-de-valeurs-dattaque-par-le-tac0", "matrix")
    assert attack["column_keys"] == [str(n) for n in range(-3, 10)]
    assert attack["row_keys"][:2] == ["20 [-1]", "19 [0]"] and len(attack["row_keys"]) == 16
    assert attack["cells"][0].split()[:5] == ["20", "20", "20", "20", "19"]
