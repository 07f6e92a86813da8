"""Golden HTML, one file per block type, and the fetcher that keeps rendering inside the project.

After an intended template change: `make update-golden`, then review the diff of tests/golden/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from tinycss2.color4 import parse_color

from generator.errors import UserError
from generator.output import pipeline
from generator.project import TEMPLATES, Project
from generator.rendering import pages as pages_module
from generator.rendering import render
from tests.conftest import FIXTURES, block_types

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
UPDATE = os.environ.get("QRS_UPDATE_GOLDEN") == "1"
BLOCK_TYPES = block_types()


@pytest.fixture(scope="module")
def fixture_html():
    project = pipeline.Project.at(FIXTURES)
    figures = pipeline.Project.at(FIXTURES / "figure")  # figures, with their pictures' folder
    return render.html(project, pipeline.check(FIXTURES / "every-block.yaml"), pipeline.BuildOptions()) + render.html(
        figures, pipeline.check(figures.sources / "gauges.yaml"), pipeline.BuildOptions()
    )


@pytest.mark.parametrize("block_type", BLOCK_TYPES)
def test_block_html_matches_golden(fixture_html, block_type):
    found = re.search(rf'<section class="block block-{block_type}".*?</section>', fixture_html, re.S)
    assert found, f"no {block_type} block rendered"
    golden = GOLDEN / f"{block_type}.html"
    if UPDATE:
        golden.write_text(found.group(0) + "\n", encoding="utf-8")
    assert found.group(0) + "\n" == golden.read_text(encoding="utf-8")


def test_dice_tables_print_listed_results_lookups_and_inner_rolls(fixture_html):
    injuries = re.search(r'<section[^>]*data-block="injuries".*?</section>', fixture_html, re.S).group(0)
    assert '<td class="roll">11–15</td>' in injuries and '<td class="roll">16, 21</td>' in injuries
    inner = re.search(r'<div class="inner-roll">.*?</div>', injuries, re.S).group(0)
    assert re.findall(r"<b>(.*?)</b>", inner) == ["1–3", "4–6"]
    assert 'Comme une <em class="result-ref">Commotion</em>, mais pire.' in injuries  # {result:injuries/concussion}
    shards = re.search(r'<section[^>]*data-block="shards".*?</section>', fixture_html, re.S).group(0)
    assert '<th class="roll">Total</th>' in shards and '<td class="roll">12+</td>' in shards


def test_a_dice_table_of_several_result_columns_prints_a_column_each(fixture_html):
    criticals = re.search(r'<section[^>]*data-block="criticals".*?</section>', fixture_html, re.S).group(0)
    assert re.findall(r"<th[^>]*>(.*?)</th>", criticals) == ["D10", "Tranchant", "Contondant", "Perforant"]
    rows = re.findall(r"<tr class=\"u\">(.*?)</tr>", criticals, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    assert cells == [
        ["1–4", "+1 touche", "+2 touches", "Saigne 1 par tour"],
        ["5–8", "Étourdi 1 tour", "", "Saigne 2 par tour"],
        ["9–10", '<em class="result-name">Fatal</em> – Bras tranché', "Crâne fendu", "Cœur percé"],
    ]


def test_markup_is_escaped_and_typography_applied(fixture_html):
    assert "l\u2019unité" in fixture_html  # apostrophe
    assert "passe\u202f!" in fixture_html  # French narrow space before !
    assert "<script" not in fixture_html


def test_fetcher_serves_templates_and_fonts_only(tmp_path):
    fetcher = render.ProjectFetcher(TEMPLATES)
    assert fetcher.fetch((TEMPLATES / "sheet.css").as_uri()).read().startswith(b"/*")
    assert fetcher.fetch((TEMPLATES / "fonts" / "SourceSansPro-Regular.ttf").as_uri()).read()[:4] == b"\x00\x01\x00\x00"
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    for url in [
        secret.as_uri(),
        "http://example.com/x.css",
        (TEMPLATES / ".." / "pyproject.toml").as_uri(),
        (TEMPLATES / "fonts" / ".." / ".." / "README.md").as_uri(),
    ]:
        with pytest.raises(PermissionError):
            fetcher.fetch(url)


def test_a_template_that_reaches_outside_stops_the_render(tmp_path):
    templates = tmp_path / "templates"
    import shutil

    shutil.copytree(TEMPLATES, templates)
    css = templates / "sheet.css"
    css.write_text('@import url("file:///etc/passwd");\n' + css.read_text())
    project = pipeline.Project(sources=FIXTURES, build=tmp_path / "build", templates=templates)
    with pytest.raises(UserError, match="refused to fetch file:///etc/passwd"):
        render.layout(project, pipeline.check(FIXTURES / "every-block.yaml"), pipeline.BuildOptions())


def test_gloss_shows_the_english_original_once(tmp_path):
    source = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    source = source.replace("    term: Savage\n", "    term: Sauvage\n    original: Savage\n")
    (tmp_path / "every-block.yaml").write_text(source, encoding="utf-8")
    project = pipeline.Project.at(tmp_path)
    sheet = pipeline.check(tmp_path / "every-block.yaml")
    plain = render.html(project, sheet, pipeline.BuildOptions())
    glossed = render.html(project, sheet, pipeline.BuildOptions(gloss=True))
    assert "Sauvage (Savage)" not in plain
    assert glossed.count("Sauvage (Savage)") == 1 and glossed.count(">Sauvage<") >= 1


HOSTILE_TEXT = (
    "url(http://example.com/x.png) @import url(file:///etc/passwd); file:///etc/passwd "
    "https://example.com/font.woff //example.com/x.css ../../../etc/passwd"
)


def test_rendering_reads_only_the_projects_templates_and_fonts(tmp_path, monkeypatch):
    """Every sheet in every language, every bad input that gets as far as rendering, and a valid sheet whose texts
    name URLs: each URL WeasyPrint asks for is a file of the templates or of the font package; no socket opens."""
    import shutil
    import socket
    from urllib.parse import unquote, urlsplit

    import weasyprint.urls

    from generator.cli.main import main
    from generator.composing import translate as i18n
    from tests.conftest import LIBRARY, SHEETS
    from tests.test_bad_inputs import cases

    requested: list[str] = []
    elsewhere: list[str] = []

    class Spy(render.ProjectFetcher):
        def fetch(self, url, headers=None):
            requested.append(url)
            return super().fetch(url, headers)

    def default_fetch(self, url, headers=None):  # a fetcher other than the project's: must never be used
        elsewhere.append(url)
        raise PermissionError(f"default fetcher asked for {url}")

    def connect(self, address):
        elsewhere.append(f"socket {address}")
        raise PermissionError(f"network access to {address}")

    monkeypatch.setattr(pages_module, "ProjectFetcher", Spy)
    pages_module._stylesheet.cache_clear()  # parsed again, through the spy: the fonts its @font-face rules load
    monkeypatch.setattr(weasyprint.urls.URLFetcher, "fetch", default_fetch)
    monkeypatch.setattr(socket.socket, "connect", connect)

    # every sheet, every language: laid out (what fetches); writing the PDF fetches nothing, checked below
    write_pdf = render.pdf
    monkeypatch.setattr(render, "pdf", lambda sheet, document, variant=None: b"%PDF-1.7\n")
    for path in [LIBRARY / f"{sheet}.yaml" for sheet in SHEETS]:  # the fixture library's sheets
        project = pipeline.Project.at(LIBRARY, tmp_path / "build")
        for lang in i18n.languages(LIBRARY, pipeline.check(path)):
            pipeline.build(project, pipeline.SheetTarget(path), lang, "pdf")
    sheets_requested = len(requested)
    monkeypatch.setattr(render, "pdf", write_pdf)

    # a valid sheet whose every kind of text names URLs and paths: printed as text, never fetched
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    source = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    source = source.replace("game: Test Game", f'game: "Test Game \\" {HOSTILE_TEXT}"')
    source = source.replace("Lancez 2D6 et comparez au Commandement.", f'"{HOSTILE_TEXT}"')
    (hostile / "every-block.yaml").write_text(source, encoding="utf-8")
    project = pipeline.Project.at(hostile, tmp_path / "build")
    document = render.layout(project, pipeline.check(hostile / "every-block.yaml"), pipeline.BuildOptions()).document
    laid_out = len(requested)
    render.pdf(pipeline.check(hostile / "every-block.yaml"), document)
    assert len(requested) == laid_out, requested[laid_out:]
    assert HOSTILE_TEXT.split()[0] in render.html(
        project, pipeline.check(hostile / "every-block.yaml"), pipeline.BuildOptions()
    )

    # every bad input, run as the user would: those that reach rendering are spied on too
    for param in cases():
        case = param.values[0]
        sources = tmp_path / "bad" / case.name
        for relative in case.files:
            (sources / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(case.root / relative, sources / relative)
        try:
            main(["--sources", str(sources), "--build-dir", str(tmp_path / "bad-build"), *case.run])
        except SystemExit:
            pass

    assert sheets_requested and elsewhere == []
    assert any(url.endswith(".ttf") for url in requested), "the fonts were not fetched through the project's fetcher"
    for url in requested:
        if url.startswith("data:image/"):  # a figure's picture, embedded (the fetcher serves no other data: URI)
            continue
        assert url.startswith("file://"), url
        wanted = Path(unquote(urlsplit(url).path)).resolve()
        served = (
            render.FONTS / wanted.relative_to(TEMPLATES / "fonts")
            if wanted.is_relative_to(TEMPLATES / "fonts")
            else wanted
        )
        assert served.is_file() and (served.is_relative_to(TEMPLATES) or served.is_relative_to(render.FONTS)), url


def _luminance(color) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = color.to("srgb").coordinates
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def _contrast(one, other) -> float:
    lighter, darker = sorted([_luminance(one), _luminance(other)], reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _footnote_marks(box, background, found):
    """(where, the mark's colour, the background it is drawn on) for every footnote mark under `box`."""
    own = box.style["background_color"]
    if own.alpha > 0:
        background = own
    element = getattr(box, "element", None)
    if box.element_tag == "sup" and "fn" in (element.get("class") or "").split():
        found.append((box.element_tag, box.style["color"], background))
    for child in getattr(box, "children", []):
        _footnote_marks(child, background, found)
    return found


def test_footnote_marks_are_readable_on_their_background_headers_included(tmp_path):
    sheet = pipeline.check(FIXTURES / "every-block.yaml")
    laid = render.layout(Project.at(FIXTURES, tmp_path / "build"), sheet, pipeline.BuildOptions())
    paper = parse_color("white")  # a transparent page is the paper's white
    marks = [mark for page in laid.document.pages for mark in _footnote_marks(page._page_box, paper, [])]
    assert len(marks) >= 4  # in body cells, and in a column title ("Cavalier[^1]")
    unreadable = [
        (round(_contrast(color, background), 2), color, background)
        for _, color, background in marks
        if _contrast(color, background) < 3
    ]
    assert not unreadable, f"footnote marks that do not stand out from their background: {unreadable}"


def test_an_edit_lays_out_again_only_the_page_it_changed(tmp_path, monkeypatch):
    """With pages kept (`qrs watch`), a one-cell edit of wab2 lays out its page alone; the PDF is the one a build
    laying out every page writes."""
    import shutil
    from collections import OrderedDict

    from tests.conftest import LIBRARY

    monkeypatch.setattr(pages_module, "_laid_pages", OrderedDict())
    monkeypatch.setattr(pages_module, "_pages_kept", 0)
    shutil.copytree(LIBRARY, tmp_path / "sources")
    project = Project.at(tmp_path / "sources", tmp_path / "build")
    source = project.sources / "wab2.yaml"
    laid_out: list[str] = []
    original = pages_module.render
    monkeypatch.setattr(
        pages_module, "render", lambda project, html, *rest: laid_out.append(html) or original(project, html, *rest)
    )
    render.keep_pages(8)
    pipeline.build(project, pipeline.SheetTarget(source), "fr", "pdf")
    pages = [html for html in laid_out if '<main class="page">' in html]
    assert len(pages) == 2
    text = source.read_text(encoding="utf-8")
    cell = '"Forêts denses, collines escarpées", "¼"]'
    assert text.count(cell) == 1
    source.write_text(text.replace(cell, cell.replace("¼", "½")), encoding="utf-8")
    laid_out.clear()
    kept = pipeline.build(project, pipeline.SheetTarget(source), "fr", "pdf").path.read_bytes()
    again = [html for html in laid_out if '<main class="page">' in html]
    assert len(again) == 1 and "½" in again[0] and again[0] not in pages

    render.keep_pages(0)
    fresh = pipeline.build(
        Project.at(project.sources, tmp_path / "fresh"), pipeline.SheetTarget(source), "fr", "pdf"
    ).path.read_bytes()
    assert kept == fresh


def test_a_rendering_process_collects_garbage_less_often_but_keeps_a_higher_threshold():
    import gc

    from generator.rendering import speedups

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # Python's defaults
        speedups._collect_less_often()
        assert gc.get_threshold() == (speedups.COLLECT_EVERY, 10, 10)
        gc.set_threshold(speedups.COLLECT_EVERY * 5, 20, 30)
        speedups._collect_less_often()
        assert gc.get_threshold() == (speedups.COLLECT_EVERY * 5, 20, 30)
    finally:
        gc.set_threshold(*before)


def test_the_renderer_keeps_the_sheets_names_as_written():
    from generator.model.validate import load
    from generator.rendering.render import Inline
    from tests.conftest import FIXTURES

    _, sheet = load(FIXTURES / "every-block.yaml")
    sheet = sheet.model_copy(update={"untranslatable": ["Waaagh!"]})
    assert str(Inline(sheet, "fr")("Un cri : Waaagh!")) == "Un cri\u00a0: Waaagh!"


# --- what authors of other games reached for (issue #32) ----------------------------------------------------


@pytest.fixture(scope="module")
def delvers_html(tmp_path_factory):
    project = pipeline.Project.at(FIXTURES / "sheets", tmp_path_factory.mktemp("build"))
    return render.html(project, pipeline.check(FIXTURES / "sheets" / "delvers-card.yaml"), pipeline.BuildOptions())


def _block(page: str, ident: str) -> str:
    return re.search(rf'<section[^>]*data-block="{ident}".*?</section>', page, re.S).group(0)


def test_line_breaks_of_the_source_print_in_cells_and_list_items(delvers_html):
    assert "Rough: half move<br>Water: cannot enter</td>" in _block(delvers_html, "moves")
    falling = _block(delvers_html, "falling")
    assert "no effect<br>Falling 3" in falling and "roll for it at once.<br>It lands prone." in falling
    assert "damage per full 3&#34;</li>" in falling  # the block scalar's last line break ends the value


def test_a_qualified_modifier_prints_its_number_aligned_and_its_qualifier_beside_it(delvers_html):
    modifiers = _block(delvers_html, "combat-modifiers")
    assert '<th class="value" colspan="2">Mod</th>' in modifiers
    assert re.search(
        r'<td class="value">\+2</td>\s*<td class="qualifier">&amp; <span class="kw">Quick Kill</span></td>', modifiers
    )
    assert re.search(
        r'<td class="value">−2</td>\s*<td class="qualifier"></td>', modifiers
    )  # its row still has the cell


def test_a_matrix_prints_its_corner_and_its_legend(delvers_html):
    prices = _block(delvers_html, "prices")
    assert '<th class="corner" rowspan="2">x/y</th>' in prices
    assert re.findall(r"<li>(.*?)</li>", prices) == [
        "x = number of delvers in the warband",
        "y = number of shards sold",
    ]


def test_a_dice_table_aligns_its_columns_as_the_author_asked(delvers_html):
    injuries = _block(delvers_html, "injuries")
    assert '<th class="roll align-center">D6</th>' in injuries and '<th class="align-center">Result</th>' in injuries
    assert (
        '<td class="roll align-center">1–2</td>' in injuries and '<td class="align-center">Out of the game' in injuries
    )


def test_an_untitled_section_and_an_untitled_block_print_no_heading(delvers_html):
    assert 'id="section-after-game"' not in delvers_html and "<h3>Special rules</h3>" in _block(
        delvers_html, "glossary"
    )
    moves = _block(delvers_html, "moves")
    assert "<h3>" not in moves and moves.count("<h2") == 1  # its section's heading, then the table


def test_a_heading_in_capitals_keeps_what_is_typed_in_lower_case_in_parentheses(delvers_html):
    assert '<h2 id="section-moving">Moving <span class="as-typed">(p.45)</span></h2>' in delvers_html
    assert '<span class="as-typed">(see p.52)</span>' in delvers_html
    assert ".as-typed { text-transform: none; }" in (TEMPLATES / "sheet.css").read_text(encoding="utf-8")


def test_a_keyword_reference_prints_its_term_as_the_glossary_does_escapes_undone(tmp_path):
    """Issue #49 item 6: a term written `Brave \\{x\\}` printed `The Brave \\{x\\} unit.` where referenced, while the
    glossary printed `Brave {x}`."""
    source = tmp_path / "every-block.yaml"
    text = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    source.write_text(text.replace("    term: Savage\n", "    term: 'Savage \\{x\\}'\n"), encoding="utf-8")
    sheet = pipeline.check(source)
    from generator.rendering.render import Inline

    assert (
        str(Inline(sheet, "fr")("Une unité {savage} charge.")) == 'Une unité <span class="kw">Savage {x}</span> charge.'
    )
    assert Inline(sheet, "fr").plain("{savage}") == "Savage {x}"


# --- headings as typed, dice without a die, minus before a letter (issue #48, items 3, 6 and 8) ---------------

AS_TYPED = FIXTURES / "as-typed-card.yaml"


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


@pytest.fixture(scope="module")
def as_typed_pdf(built) -> str:
    return _pdf_text(built(FIXTURES, "as-typed-card"))


@pytest.fixture(scope="module")
def in_capitals_pdf(tmp_path_factory) -> str:
    """The same card without heading_case: its headings in capitals, as every sheet's before issue #48."""
    folder = tmp_path_factory.mktemp("capitals")
    source = folder / "as-typed-card.yaml"
    text = AS_TYPED.read_text(encoding="utf-8")
    assert "heading_case: as-typed\n" in text
    source.write_text(text.replace("heading_case: as-typed\n", ""), encoding="utf-8")
    return _pdf_text(
        pipeline.build(Project.at(folder, folder / "build"), pipeline.SheetTarget(source), "en", "pdf").path
    )


def test_headings_print_as_typed_when_the_sheet_says_so(as_typed_pdf):
    """A face name's plural after capitals ("SKIDs") and a group typed in lower case on purpose keep their case,
    in the section's and the group's headings and in their repetitions atop a column."""
    lines = as_typed_pdf.splitlines()
    assert "Driving the SKIDs" in lines and "hazards on the track" in lines
    assert "Driving the SKIDs (cont.)" in lines  # the column that continues the section repeats it as typed
    assert "DRIVING" not in as_typed_pdf and "HAZARDS" not in as_typed_pdf


def test_headings_are_set_in_capitals_by_default(in_capitals_pdf):
    lines = in_capitals_pdf.splitlines()
    assert "DRIVING THE SKIDS" in lines and "HAZARDS ON THE TRACK" in lines
    assert "Driving the SKIDs" not in lines


def test_the_web_edition_prints_headings_as_typed_too(tmp_path):
    page = pipeline.build(
        Project.at(FIXTURES, tmp_path / "build"), pipeline.SheetTarget(AS_TYPED), "en", "html"
    ).path.read_text(encoding="utf-8")
    assert '<html lang="en" class="headings-as-typed">' in page
    assert ".headings-as-typed h2, .headings-as-typed h3.group { text-transform: none;" in page
    assert re.search(r"<h2[^>]*>Driving the SKIDs</h2>", page)
    default = pipeline.build(
        Project.at(FIXTURES, tmp_path / "default"), pipeline.SheetTarget(FIXTURES / "undated-card.yaml"), "en", "html"
    ).path
    assert '<html lang="en">' in default.read_text(encoding="utf-8")  # capitals: no class, as before


def test_a_dice_table_without_a_die_prints_no_header_band(tmp_path):
    """`range` alone, or `roll_title: ""`, names no die: no header band (it printed an empty or a "D6" one); a
    dice table with a die keeps its header."""
    sheet = pipeline.check(AS_TYPED)
    page = render.html(Project.at(FIXTURES, tmp_path / "build"), sheet, pipeline.BuildOptions())
    blocks = {block.id: block for block in sheet.blocks()}
    assert blocks["debris"].range and blocks["debris"].roll_title is None
    assert blocks["oil"].die and blocks["oil"].roll_title == ""
    for ident in ("debris", "oil"):
        assert "<thead>" not in _block(page, ident) and "<th" not in _block(page, ident)
        assert not blocks[ident].has_header
    assert '<th class="roll">D6</th>' in _block(page, "skid") and blocks["skid"].has_header


def test_a_dice_table_without_a_die_prints_no_header_words_in_the_pdf(as_typed_pdf):
    lines = as_typed_pdf.splitlines()
    debris, oil = lines.index("Debris"), lines.index("Oil slick")
    assert lines[debris + 1].startswith("1–3") and lines[oil + 1].startswith("1–3")  # no band between
    assert lines[lines.index("Skid table") + 1] == "D6"  # a table with a die keeps its header
    assert as_typed_pdf.count("D6") == 1


def test_a_lookup_with_a_title_keeps_its_header(fixture_html):
    shards = _block(fixture_html, "shards")  # range: 1+, roll_title: Total
    assert "<thead>" in shards and '<th class="roll">Total</th>' in shards


def test_a_letter_standing_for_a_number_and_infinity_take_a_true_minus(as_typed_pdf):
    assert "Turning: \u2212N where N" in as_typed_pdf and "falls to \u2212\u221e," in as_typed_pdf
    assert "-N" not in as_typed_pdf and "-\u221e" not in as_typed_pdf
