"""Decks as outputs of the build (generator.output.formats.cards): planned beside a handout that names its `cards:`,
named by their size, kept in the manifest as any output is (up to date on a second build, rebuilt when their handout
changes) and listed by the web pages' index. Rendering is replaced by test_manifest's stand-in: what is tested here
is what is built when; tests/output/test_card_decks.py reads real decks."""

from __future__ import annotations

import json

import click
import pytest

from generator.digests import Digests
from generator.options import BuildOptions
from generator.output import formats, manifest
from generator.output import plan as plans
from generator.output.targets import HandoutTarget, named
from generator.rendering.card_sheets import card_size
from tests.output import test_manifest
from tests.output.test_manifest import edit, run

project, built = test_manifest.project, test_manifest.built  # its library, and its stand-in for the rendering

DWARFS = "handouts/warhammer-dwarfs"
DECK = {f"{DWARFS}.cards-tarot.fr.pdf", f"{DWARFS}.cards-tarot.en.pdf"}


@pytest.fixture
def declaring(project):
    """The library with its Dwarf handout naming its cards: tarot."""
    source = project.sources / "handouts" / "warhammer-dwarfs.yaml"
    source.write_text(source.read_text(encoding="utf-8") + "cards: tarot\n", encoding="utf-8")
    return project


def test_build_all_builds_a_handouts_declared_deck_once_then_finds_it_up_to_date(declaring, built):
    first = run(declaring, built)
    assert DECK <= first and {f"{DWARFS}.fr.pdf", f"{DWARFS}.en.pdf"} <= first  # beside its pages, not instead
    assert not any("cards" in name for name in first - DECK)  # no other handout names cards, no sheet has any
    recorded = json.loads((declaring.build / manifest.NAME).read_text(encoding="utf-8"))
    assert DECK <= set(recorded["outputs"])
    assert recorded["plans"]["handouts/warhammer-dwarfs.yaml"]["declared"] == {"cards": "tarot", "cards-html": "tarot"}
    assert run(declaring, built) == set()


def test_a_changed_handout_rebuilds_its_deck_and_a_changed_size_names_a_new_one(declaring, built):
    run(declaring, built)
    edit(declaring.sources / "handouts" / "warhammer-dwarfs.yaml", "cards: tarot", "cards: tarot  # sleeved")
    assert run(declaring, built) == DECK | {f"{DWARFS}.fr.pdf", f"{DWARFS}.en.pdf"}
    edit(declaring.sources / "handouts" / "warhammer-dwarfs.yaml", "cards: tarot  # sleeved", "cards: poker")
    assert {name for name in run(declaring, built) if "cards" in name} == {
        f"{DWARFS}.cards-poker.fr.pdf",
        f"{DWARFS}.cards-poker.en.pdf",
    }


def test_a_declared_deck_has_its_page_beside_the_web_page_and_the_index_lists_it(declaring, built):
    both = run(declaring, built, forms=("pdf", "html"))
    assert {f"html/{DWARFS}.cards-tarot.fr.html", f"html/{DWARFS}.cards-tarot.en.html"} <= both
    index = (declaring.build / "html" / "index.html").read_text(encoding="utf-8")
    assert f'href="{DWARFS}.cards-tarot.en.html"' in index and f'href="../{DWARFS}.cards-tarot.en.pdf"' in index


def test_the_size_given_wins_over_the_handouts_own_and_names_the_deck(declaring):
    target = HandoutTarget(declaring.sources / "handouts" / "warhammer-dwarfs.yaml")
    found = plans.plan(
        declaring, [target], ("en",), manifest.Manifest(declaring.build / manifest.NAME), Digests(), forms=("cards",)
    )
    given = BuildOptions(own=(("cards", formats.writer("cards").DeckOptions(card_size("poker"), "long-edge")),))
    assert [output.key(declaring) for output in plans.named(found.outputs, given)] == [
        f"{DWARFS}.cards-poker.backs-long-edge.en.pdf"
    ]
    assert [output.key(declaring) for output in plans.named(found.outputs, BuildOptions())] == [
        f"{DWARFS}.cards-tarot.en.pdf"
    ]  # --format cards alone: the handout's own size


def test_cards_stand_in_for_the_formats_named_only_when_asked_for():
    size = card_size("poker")
    assert formats.chosen(("pdf", "html"), {"cards": size}) == ("cards", "cards-html")
    assert formats.chosen(("pdf", "html"), {}) == ("pdf", "html")
    with pytest.raises(click.UsageError, match="--backs goes with --cards"):
        formats.chosen(("pdf",), {"backs": "long-edge"})


def test_what_a_deck_cannot_be_made_of_is_said_before_building(project):
    sheet, handout = named(project, ("warhammer", "warhammer-dwarfs"))
    deck = formats.writer("cards").DeckOptions(card_size("poker"), section="magic")
    with_section = BuildOptions(own=(("cards", deck),))
    assert "qrs handout ID --cards" in formats.refusals(("cards",), [handout], with_section)[0]
    assert formats.refusals(("cards",), [sheet], with_section) == []
    assert "--section ID" in formats.refusals(("cards-html",), [sheet], BuildOptions())[0]
    assert "--impose" in formats.refusals(("cards",), [handout], BuildOptions(impose="2up"))[0]


def test_a_manifest_plan_declaring_a_size_no_card_has_is_not_trusted():
    plan = {"source": "0" * 64, "sheet": "warhammer", "languages": ["fr"]}
    assert manifest._plan_flaw({**plan, "declared": {"cards": "poker"}}) is None
    assert "between 30 and 200 mm" in manifest._plan_flaw({**plan, "declared": {"cards": "20x300"}})
    assert "not a format" in manifest._plan_flaw({**plan, "declared": {"pdf": "poker"}})
