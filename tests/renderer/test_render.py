"""Golden HTML, one file per block type, and the fetcher that keeps rendering inside the project.

After an intended template change: `make update-golden`, then review the diff of tests/golden/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from tinycss2.color4 import parse_color

from generator import pipeline

from generator.renderer import render
from generator.project import TEMPLATES, Project
from generator.errors import UserError
from tests.conftest import FIXTURES, block_types

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
UPDATE = os.environ.get("QRS_UPDATE_GOLDEN") == "1"
BLOCK_TYPES = block_types()


@pytest.fixture(scope="module")
def fixture_html():
    project = pipeline.Project.at(FIXTURES)
    figures = pipeline.Project.at(FIXTURES / "figure")  # figures, with their pictures' folder
    return render.html(project, pipeline.check(FIXTURES / "every-block.yaml"), pipeline.BuildOptions()) + \
        render.html(figures, pipeline.check(figures.sources / "gauges.yaml"), pipeline.BuildOptions())


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
    for url in [secret.as_uri(), "http://example.com/x.css", (TEMPLATES / ".." / "pyproject.toml").as_uri(),
                (TEMPLATES / "fonts" / ".." / ".." / "README.md").as_uri()]:
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


HOSTILE_TEXT = ("url(http://example.com/x.png) @import url(file:///etc/passwd); file:///etc/passwd "
                "https://example.com/font.woff //example.com/x.css ../../../etc/passwd")


def test_rendering_reads_only_the_projects_templates_and_fonts(tmp_path, monkeypatch):
    """Every sheet in every language, every bad input that gets as far as rendering, and a valid sheet whose texts
    name URLs: each URL WeasyPrint asks for is a file of the templates or of the font package; no socket opens."""
    import shutil
    import socket
    from urllib.parse import unquote, urlsplit

    import weasyprint.urls

    from generator.source import i18n
    from generator.cli.main import main
    from tests.conftest import SOURCES
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

    monkeypatch.setattr(render, "ProjectFetcher", Spy)
    render._stylesheet.cache_clear()  # parsed again, through the spy: the fonts its @font-face rules load
    monkeypatch.setattr(weasyprint.urls.URLFetcher, "fetch", default_fetch)
    monkeypatch.setattr(socket.socket, "connect", connect)

    # every sheet, every language: laid out (what fetches); writing the PDF fetches nothing, checked below
    write_pdf = render.pdf
    monkeypatch.setattr(render, "pdf", lambda sheet, document, variant=None: b"%PDF-1.7\n")
    for path in sorted(SOURCES.glob("*.yaml")):
        project = pipeline.Project.at(SOURCES, tmp_path / "build")
        for lang in i18n.languages(SOURCES, pipeline.check(path)):
            pipeline.build(project, path, lang)
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
    assert HOSTILE_TEXT.split()[0] in render.html(project, pipeline.check(hostile / "every-block.yaml"), pipeline.BuildOptions())

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
        assert url.startswith("file://"), url
        wanted = Path(unquote(urlsplit(url).path)).resolve()
        served = render.FONTS / wanted.relative_to(TEMPLATES / "fonts") if wanted.is_relative_to(TEMPLATES / "fonts") else wanted
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
    unreadable = [(round(_contrast(color, background), 2), color, background) for _, color, background in marks
                  if _contrast(color, background) < 3]
    assert not unreadable, f"footnote marks that do not stand out from their background: {unreadable}"


def test_an_edit_lays_out_again_only_the_page_it_changed(tmp_path, monkeypatch):
    """With pages kept (`qrs watch`), a one-cell edit of wab2 lays out its page alone; the PDF is the one a build
    laying out every page writes."""
    import shutil
    from collections import OrderedDict

    from tests.conftest import SOURCES

    monkeypatch.setattr(render, "_laid_pages", OrderedDict())
    monkeypatch.setattr(render, "_pages_kept", 0)
    shutil.copytree(SOURCES, tmp_path / "sources")
    project = Project.at(tmp_path / "sources", tmp_path / "build")
    source = project.sources / "wab2.yaml"
    laid_out: list[str] = []
    original = render._render
    monkeypatch.setattr(render, "_render",
                        lambda project, html, *rest: laid_out.append(html) or original(project, html, *rest))
    render.keep_pages(8)
    pipeline.build(project, source, "fr")
    pages = [html for html in laid_out if '<main class="page">' in html]
    assert len(pages) == 2
    text = source.read_text(encoding="utf-8")
    cell = '"Forêts denses, collines escarpées", "¼"]'
    assert text.count(cell) == 1
    source.write_text(text.replace(cell, cell.replace("¼", "½")), encoding="utf-8")
    laid_out.clear()
    kept = pipeline.build(project, source, "fr").read_bytes()
    again = [html for html in laid_out if '<main class="page">' in html]
    assert len(again) == 1 and "½" in again[0] and again[0] not in pages

    render.keep_pages(0)
    fresh = pipeline.build(Project.at(project.sources, tmp_path / "fresh"), source, "fr").read_bytes()
    assert kept == fresh


def test_a_rendering_process_collects_garbage_less_often_but_keeps_a_higher_threshold():
    import gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # Python's defaults
        render.collect_less_often()
        assert gc.get_threshold() == (render.COLLECT_EVERY, 10, 10)
        gc.set_threshold(render.COLLECT_EVERY * 5, 20, 30)
        render.collect_less_often()
        assert gc.get_threshold() == (render.COLLECT_EVERY * 5, 20, 30)
    finally:
        gc.set_threshold(*before)


def test_the_renderer_keeps_the_sheets_names_as_written():
    from generator.renderer.render import Inline
    from generator.schema.validate import load
    from tests.conftest import FIXTURES

    _, sheet = load(FIXTURES / "every-block.yaml")
    sheet = sheet.model_copy(update={"untranslatable": ["Waaagh!"]})
    assert str(Inline(sheet, "fr")("Un cri : Waaagh!")) == "Un cri\u00a0: Waaagh!"
