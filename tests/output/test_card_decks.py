"""Decks of cards built end to end (`qrs handout ID --cards SIZE`), read back from the PDF with pypdfium2: each card's
size and place on the page (to 0.2 mm), its back behind it for the duplex flip, nothing printed outside a card, and
every fact of a real roster on a card."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from generator.rendering.card_sheets import card_size, grid
from tests.composing.roster.facts import count, pdf_text
from tests.conftest import LIBRARY, ROOT, run_qrs

MM = 72 / 25.4
TOLERANCE_MM = 0.2
ROSTERS = ROOT / "tests" / "fixtures" / "rosters" / "bsdata"
DECKS = ["killteam-2021.rosz", "wh40k-10e-newrecruit.rosz"]


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    sources = tmp_path_factory.mktemp("cards") / "sources"
    shutil.copytree(LIBRARY, sources)
    for roster in DECKS:
        result = run_qrs(
            "--sources", str(sources), "handout", "import", str(ROSTERS / roster), "--id", roster.split(".")[0]
        )
        assert result.returncode == 0, result.stderr
    return sources


DWARF_DECK = ("handout", "warhammer-dwarfs", "--lang", "en", "--cards", "poker", "--backs", "long-edge")


@pytest.fixture(scope="module")
def dwarfs(library) -> Path:
    result = run_qrs("--sources", str(library), *DWARF_DECK)
    assert result.returncode == 0, result.stderr
    return library.parent / "build" / "handouts" / "warhammer-dwarfs.cards-poker.backs-long-edge.en.pdf"


def _rects(page, width: float) -> list[tuple[float, float, float, float]]:
    """The filled paths `width` mm wide, as (left, top, width, height) in mm from the page's top left."""
    _, height = page.get_size()
    found = []
    for shape in page.get_objects(max_depth=5):
        if shape.type == raw.FPDF_PAGEOBJ_PATH:
            left, bottom, right, top = _on_page(shape)
            if abs((right - left) / MM - width) <= TOLERANCE_MM:
                found.append((left / MM, (height - top) / MM, (right - left) / MM, (top - bottom) / MM))
    return sorted(found, key=lambda rect: (round(rect[1]), rect[0]))


def _on_page(shape) -> tuple[float, float, float, float]:
    """A shape's bounds (left, bottom, right, top) in the page's points: a card is drawn on the sheet as a form
    XObject, whose shapes PDFium bounds in the form's own space, moved by each form's matrix to the page."""
    left, bottom, right, top = shape.get_bounds()
    form = shape.container
    while form is not None:
        left, bottom, right, top = form.get_matrix().on_rect(left, bottom, right, top)
        form = form.container
    return left, bottom, right, top


def _text_in(page, rect) -> str:
    left, top, width, height = rect
    _, page_height = page.get_size()
    return page.get_textpage().get_text_bounded(
        left * MM, page_height - (top + height) * MM, (left + width) * MM, page_height - top * MM
    )


def _near(one: tuple[float, float], other: tuple[float, float]) -> bool:
    return all(abs(a - b) <= TOLERANCE_MM for a, b in zip(one, other))


def test_nine_poker_cards_an_a4_page_each_in_its_place_and_true_size(dwarfs):
    pdf = pdfium.PdfDocument(dwarfs)
    layout = grid(card_size("poker"), "A4")
    assert len(pdf) % 2 == 0 and len(pdf) >= 4
    strips = [_rects(pdf[number], 63.0) for number in range(0, len(pdf), 2)]
    assert [len(page) for page in strips[:-1]] == [9] * (len(strips) - 1) and strips[-1]
    for page in strips:
        for place, (left, top, _, height) in enumerate(page):  # each card's strip: its top edge, its width
            assert _near((left, top), layout.slot(place)) and height < 12
    for number in range(len(pdf)):
        width, height = pdf[number].get_size()
        assert _near((width / MM, height / MM), (210, 297))


def test_each_back_is_a_card_behind_its_front_naming_the_army_and_the_unit(dwarfs):
    pdf = pdfium.PdfDocument(dwarfs)
    layout = grid(card_size("poker"), "A4")
    for number in range(0, len(pdf), 2):
        front, back = pdf[number], pdf[number + 1]
        strips, backs = _rects(front, 63.0), [rect for rect in _rects(back, 63.0) if rect[3] > 80]
        assert len(backs) == len(strips)
        for place, strip in enumerate(strips):
            behind = next(rect for rect in backs if _near(rect[:2], layout.back_slot(place, "long-edge")))
            assert abs(behind[3] - 88.0) <= TOLERANCE_MM  # its height: the card's
            title = re.sub(r"\s+\d/\d$", "", " ".join(_text_in(front, strip).split()))  # its part aside: 1/3
            printed = " ".join(_text_in(back, behind).split())
            assert "Dwarf army" in printed and "Warhammer" in printed and title in printed


def test_nothing_is_printed_outside_a_card(dwarfs):
    pdf = pdfium.PdfDocument(dwarfs)
    layout = grid(card_size("poker"), "A4")
    for number in range(0, len(pdf), 2):
        page = pdf[number]
        _, height = page.get_size()
        cards = [(x, y, x + 63, y + 88) for x, y in map(layout.slot, range(len(_rects(page, 63.0))))]
        texts = [shape for shape in page.get_objects(max_depth=5) if shape.type == raw.FPDF_PAGEOBJ_TEXT]
        assert texts
        for shape in texts:
            left, bottom, right, top = (value / MM for value in _on_page(shape))
            top, bottom = height / MM - top, height / MM - bottom
            assert any(x1 <= left and right <= x2 and y1 <= top and bottom <= y2 - 1.0 for x1, y1, x2, y2 in cards), (
                number,
                left,
                top,
                right,
                bottom,
            )


@pytest.mark.parametrize("roster", DECKS)
def test_every_fact_of_a_real_roster_is_on_a_card(library, roster):
    ident = roster.split(".")[0]
    result = run_qrs("--sources", str(library), "handout", ident, "--cards", "poker")
    assert result.returncode == 0, result.stderr
    counted = count(ROSTERS / roster, pdf_text(library.parent / "build" / "handouts" / f"{ident}.cards-poker.en.pdf"))
    assert counted.total > 20 and counted.share >= 0.95, f"{counted}; missing: {counted.missing[:12]}"


def test_a_unit_too_long_for_one_card_continues_marked(library):
    built = library.parent / "build" / "handouts" / "wh40k-10e-newrecruit.cards-poker.en.pdf"
    if not built.exists():
        assert run_qrs("--sources", str(library), "handout", "wh40k-10e-newrecruit", "--cards", "poker").returncode == 0
    text = " ".join(pdf_text(built).split())
    assert "Overlord 1/2" in text and "Overlord 2/2" in text


def test_a_unit_no_four_cards_hold_is_refused_naming_it(library):
    result = run_qrs("--sources", str(library), "handout", "wh40k-10e-newrecruit", "--cards", "40x45")
    assert result.returncode == 2
    assert "does not fit" in result.stderr and "wh40k-10e-newrecruit.yaml" in result.stderr


def test_a_handout_naming_its_cards_prints_them_with_its_pages_in_a_variant(library):
    source = library / "handouts" / "warhammer-dwarfs.yaml"
    source.write_text(source.read_text(encoding="utf-8") + "cards: tarot\n", encoding="utf-8")
    result = run_qrs(
        "--sources", str(library), "handout", "warhammer-dwarfs", "--lang", "fr", "--paper", "letter", "--ink-saver"
    )
    assert result.returncode == 0, result.stderr
    built = library.parent / "build" / "handouts"
    assert (built / "warhammer-dwarfs.letter.ink-saver.fr.pdf").exists()
    pdf = pdfium.PdfDocument(built / "warhammer-dwarfs.cards-tarot.letter.ink-saver.fr.pdf")
    layout = grid(card_size("tarot"), "letter")
    assert _near(tuple(size / MM for size in pdf[0].get_size()), (layout.page_width, layout.page_height))


def test_a_sheets_section_builds_as_a_deck_a_block_a_card_in_each_language(library):
    result = run_qrs(
        "--sources",
        str(library),
        "build",
        "warhammer",
        "--cards",
        "poker",
        "--section",
        "shooting",
        "--backs",
        "short-edge",
    )
    assert result.returncode == 0, result.stderr
    from generator.model.validate import load

    blocks = next(section for section in load(library / "warhammer.yaml")[1].sections if section.id == "shooting")
    for lang in ("fr", "en"):
        built = library.parent / "build" / f"warhammer.cards-poker.shooting.backs-short-edge.{lang}.pdf"
        pdf = pdfium.PdfDocument(built)
        assert len(pdf) == 2 and len(_rects(pdf[1], 63.0)) == len(blocks.blocks)  # a back a card
    refused = run_qrs("--sources", str(library), "build", "warhammer", "--cards", "poker", "--section", "nope")
    assert refused.returncode == 2 and "no section 'nope'" in refused.stderr and "shooting" in refused.stderr


def test_the_web_edition_sets_each_card_at_its_true_size_and_fetches_nothing(library):
    result = run_qrs("--sources", str(library), "handout", "killteam-2021", "--cards", "poker", "--format", "html")
    assert result.returncode == 0, result.stderr
    page = (library.parent / "build" / "html" / "handouts" / "killteam-2021.cards-poker.en.html").read_text()
    import html5lib

    tree = html5lib.parse(page, namespaceHTMLElements=False)
    boxes = [element for element in tree.iter("div") if element.get("class") == "true-size"]
    cards = [element for element in tree.iter("div") if element.get("class") == "card"]
    assert boxes and len(boxes) == len(cards)
    assert ".true-size { width: 63.0mm; height: 88.0mm;" in page
    scales = [float(re.search(r"scale\(([\d.]+)\)", box[0].get("style"))[1]) for box in boxes]
    assert all(6 / 7.6 - 0.001 <= scale <= 1.25 for scale in scales)
    for box, scale in zip(boxes, scales):  # laid out at the design's size, as wide as the card once scaled
        width = float(re.search(r"--card-width: ([\d.]+)mm", box[0].get("style"))[1])
        assert abs(width * scale - 63.0) <= 0.01
    assert not re.findall(r"url\((?!\"?data:)", page) and "<link" not in page and "src=" not in page  # self-contained


def test_a6_cards_with_bleed_and_short_edge_backs(library):
    result = run_qrs(
        "--sources",
        str(library),
        "handout",
        "warhammer-dwarfs",
        "--lang",
        "en",
        "--cards",
        "a6",
        "--marks",
        "--backs",
        "short-edge",
    )
    assert result.returncode == 0, result.stderr
    pdf = pdfium.PdfDocument(
        library.parent / "build" / "handouts" / "warhammer-dwarfs.cards-a6.marks.backs-short-edge.en.pdf"
    )
    layout = grid(card_size("a6"), "A4", bleed=True)
    assert layout.bleed == 3.0 and layout.per_page == 2
    for number in range(0, len(pdf), 2):
        strips = _rects(pdf[number], 105.0 + 6)  # the strip runs into the bleed on either side
        backs = [rect for rect in _rects(pdf[number + 1], 105.0 + 6) if rect[3] > 148]
        assert strips and len(backs) == len(strips)
        for place, strip in enumerate(strips):
            x, y = layout.slot(place)
            assert _near(strip[:2], (x - 3, y - 3))
            back_x, back_y = layout.back_slot(place, "short-edge")
            assert any(_near(rect, (back_x - 3, back_y - 3, 111.0, 154.0)) for rect in backs)


def test_two_builds_of_a_deck_are_byte_identical_and_titled(library, tmp_path):
    built = []
    for run in ("one", "two"):
        result = run_qrs(
            "--sources",
            str(library),
            "--build-dir",
            str(tmp_path / run),
            "build",
            "warhammer",
            "--cards",
            "poker",
            "--section",
            "magic",
            "--lang",
            "en",
        )
        assert result.returncode == 0, result.stderr
        built.append((tmp_path / run / "warhammer.cards-poker.magic.en.pdf").read_bytes())
    assert built[0] == built[1]
    import io

    import pypdf

    assert pypdf.PdfReader(io.BytesIO(built[0])).metadata.title == "Warhammer — Magic phase"


def test_a_deck_is_up_to_date_on_a_second_build_and_rebuilt_after_its_handout_changes(library, dwarfs):
    again = ["--sources", str(library), *DWARF_DECK]
    run_qrs(*again)  # the module's library is shared: another test may have edited the handout since `dwarfs`
    result = run_qrs(*again)
    assert result.returncode == 0 and "1 output(s): 0 built, 1 up to date" in result.stdout, result.stdout
    source = library / "handouts" / "warhammer-dwarfs.yaml"
    source.write_text(source.read_text(encoding="utf-8") + "# sleeved for the club's league\n", encoding="utf-8")
    result = run_qrs(*again)
    assert result.returncode == 0 and "1 output(s): 1 built, 0 up to date" in result.stdout, result.stdout


def test_a_deck_built_again_measures_no_card_and_prints_the_same_bytes(library, tmp_path, own_heights, monkeypatch):
    """Each card's measurement is kept in the heights cache (keyed by its measuring page and the styles): a deck
    built again lays out only its printed cards, and prints what the build that measured them printed."""
    from generator.rendering import cards

    measured, card_heights = [], cards._card_heights
    monkeypatch.setattr(cards, "_card_heights", lambda page: measured.append(page) or card_heights(page))
    deck = ("build", "warhammer", "--cards", "poker", "--section", "magic", "--lang", "en")
    built = []
    for _ in range(2):
        result = run_qrs("--sources", str(library), "--build-dir", str(tmp_path), *deck, "--rebuild")
        assert result.returncode == 0, result.stderr
        built.append(((tmp_path / "warhammer.cards-poker.magic.en.pdf").read_bytes(), len(measured)))
    (first, cold), (again, warm) = built
    assert cold > 0 and warm == cold  # the second build measured no card
    assert again == first
    assert any(path.name.startswith("cards-warhammer.") for path in (tmp_path / ".cache").iterdir())
