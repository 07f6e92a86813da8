"""The web edition: every sheet and handout as one self-contained page that parses cleanly, holds every fact of the
sheet, links its keywords to their definitions, and fits a phone's width in a real browser."""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import html5lib
import pytest

from generator.composing import languages as translations
from generator.errors import UserError
from generator.output import pipeline
from generator.project import Project
from generator.rendering import web
from tests.conftest import FIXTURES, LIBRARY, Ran, run_qrs
from tests.test_pipeline import assert_text_complete, editions

XHTML = "{http://www.w3.org/1999/xhtml}"
PROJECT_HANDOUTS = sorted((LIBRARY / "handouts").glob("*.yaml"))


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Every sheet and handout built as web pages once: (id, lang) → the page."""
    project = Project.at(LIBRARY, tmp_path_factory.mktemp("web-build"))
    built = {
        (sheet_id, lang): pipeline.build(project, pipeline.SheetTarget(LIBRARY / f"{sheet_id}.yaml"), lang, "html").path
        for sheet_id, lang in editions()
    }
    for path in PROJECT_HANDOUTS:
        for lang in pipeline.load_handout(project, path)[1].outputs:
            built[(path.stem, lang)] = pipeline.build(project, pipeline.HandoutTarget(path), lang, "html").path
    return built


def parsed(page: Path) -> ElementTree.Element:
    """The page as a browser reads it; html5lib's strict parser raises at the first error it meets."""
    return html5lib.HTMLParser(strict=True).parse(page.read_text(encoding="utf-8"))


def read_text(document: ElementTree.Element) -> str:
    """What a reader reads: the header and the blocks (not the table of contents, which repeats section titles)."""
    main = document.find(f".//{XHTML}main")
    header = document.find(f".//{XHTML}header")
    return " ".join(" ".join(part.itertext()) for part in (header, main))


def test_every_sheet_and_handout_has_a_page_in_every_language(pages):
    wanted = set(editions()) | {(path.stem, lang) for path in PROJECT_HANDOUTS for lang in ("fr", "en")}
    assert set(pages) == wanted
    assert all(page.is_file() for page in pages.values())


@pytest.mark.parametrize("sheet_id, lang", list(editions()))
def test_every_fact_of_the_source_is_on_the_page(pages, sheet_id, lang):
    sheet = translations.translated(Project.at(LIBRARY), LIBRARY / f"{sheet_id}.yaml", lang)
    assert_text_complete(read_text(parsed(pages[(sheet_id, lang)])), sheet)


def test_the_completeness_check_notices_a_missing_row(pages):
    sheet = translations.translated(Project.at(LIBRARY), LIBRARY / "wab2.yaml", "fr")
    text = read_text(parsed(pages[("wab2", "fr")]))
    table = next(block for block in sheet.blocks() if block.type == "table" and len(block.rows) > 2)
    table.rows[1].cells[0].text = "Une ligne que la page n'a pas"
    with pytest.raises(AssertionError, match="missing or out of order"):
        assert_text_complete(text, sheet)


def test_pages_parse_without_errors_and_name_their_language(pages):
    for (ident, lang), page in pages.items():
        document = parsed(page)
        assert document.get("lang") == lang, page
        assert document.find(f".//{XHTML}title").text.strip(), page


def test_a_page_requests_nothing(pages):
    """Styles and fonts are inside: no stylesheet, script or image to fetch, every url() a data: URL, every link
    a place on the page."""
    for page in pages.values():
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"<(link|script|img|iframe|object|embed)\b", text), page
        assert re.findall(r"url\(", text) and all(
            url.startswith("data:") for url in re.findall(r'url\("?([^")]*)', text)
        )
        assert all(href.startswith("#") for href in re.findall(r'href="([^"]*)"', text)), page
        assert len(re.findall(r"@font-face", text)) == len(FACES) == 5  # Source Sans's five, as sheet.css declares


def test_links_lead_to_a_place_on_the_page_and_ids_are_unique(pages):
    for page in pages.values():
        document = parsed(page)
        ids = [element.get("id") for element in document.iter() if element.get("id")]
        assert len(ids) == len(set(ids)), [ident for ident in ids if ids.count(ident) > 1]
        targets = [a.get("href")[1:] for a in document.iter(f"{XHTML}a")]
        assert targets and not set(targets) - set(ids), (page, set(targets) - set(ids))


def test_the_contents_list_every_section(pages):
    sheet = pipeline.check(LIBRARY / "wab2.yaml")
    document = parsed(pages[("wab2", "fr")])
    listed = [a.get("href") for a in document.find(f".//{XHTML}nav").iter(f"{XHTML}a")]
    assert listed[: len(sheet.sections)] == [f"#section-{section.id}" for section in sheet.sections]


def test_keyword_references_link_to_their_definitions(tmp_path):
    """In the fixture, Pious's definition names Savage: the reference links to Savage's entry in the glossary."""
    project = Project.at(FIXTURES, tmp_path / "build")
    page = pipeline.build(project, pipeline.SheetTarget(FIXTURES / "every-block.yaml"), "fr", "html").path.read_text(
        encoding="utf-8"
    )
    assert '<a class="kw" href="#kw-savage">Savage</a>' in page
    assert 'id="kw-savage"' in page


def test_a_keyword_links_to_its_glossary_entry_else_to_the_block_it_names_else_nowhere():
    sheet = pipeline.check(LIBRARY / "wab2.yaml")
    fear = next(keyword for keyword in sheet.keywords if keyword.see == "fear")
    assert web.definition_anchors(sheet)[fear.id] == "fear"  # its long definition: the block 'fear'
    fear.see = None
    glossary = any(block.type == "glossary" for block in sheet.blocks())
    assert web.definition_anchors(sheet).get(fear.id) == (f"kw-{fear.id}" if glossary and fear.text else None)
    fear.text = None
    assert fear.id not in web.definition_anchors(sheet)
    fear.see = "a-block-this-page-does-not-print"
    assert fear.id not in web.definition_anchors(sheet)


def test_fonts_are_cut_to_the_page_and_the_same_page_gives_the_same_bytes(tmp_path):
    import io

    from fontTools.ttLib import TTFont

    project = Project.at(FIXTURES, tmp_path / "build")
    first = pipeline.build(project, pipeline.SheetTarget(FIXTURES / "every-block.yaml"), "fr", "html").path.read_bytes()
    shutil.rmtree(tmp_path / "build" / ".cache", ignore_errors=True)
    assert (
        pipeline.build(project, pipeline.SheetTarget(FIXTURES / "every-block.yaml"), "fr", "html").path.read_bytes()
        == first
    )
    data = re.search(rb"base64,([A-Za-z0-9+/=]+)", first).group(1)
    import base64

    font = TTFont(io.BytesIO(base64.b64decode(data)))
    characters = set(map(chr, font.getBestCmap()))
    assert "é" in characters and "\u202f" in characters  # French text and its thin spaces
    assert "\u4e2d" not in characters and len(characters) < 600  # a cut, not the whole face


# --- in a real browser -------------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium on this machine: `apt-get install chromium` "
    "(Debian) or see docs/commands.md, 'The web edition'",
)
PHONE = (390, 844)  # CSS pixels: a phone held upright

# One frame a page, each PHONE wide: a frame's width is its page's viewport (media queries and all), which a headless
# window cannot be (its windows are at least 500 pixels wide). Each page says how wide it is once its fonts are in.
HARNESS = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>probe</title></head><body>
<script>
const pages = %s, found = {};
for (const page of pages) {
  const frame = document.createElement("iframe");
  frame.style.cssText = "width: %dpx; height: %dpx; border: 0; display: block";
  frame.addEventListener("load", () => {
    const page_document = frame.contentDocument;
    page_document.fonts.ready.then(() => {
      const root = page_document.documentElement;
      const boxes = Array.from(page_document.querySelectorAll(".scroll"), box => box.scrollWidth - box.clientWidth);
      found[page] = {scroll: root.scrollWidth, width: root.clientWidth, boxes: Math.max(0, ...boxes),
                     background: getComputedStyle(root).backgroundColor};
      if (Object.keys(found).length === pages.length) document.body.dataset.found = JSON.stringify(found);
    });
  });
  frame.src = page;
  document.body.appendChild(frame);
}
</script></body></html>"""


def in_browser(folder: Path, names: list[str], dark: bool = False) -> dict[str, dict]:
    """Open the pages (files in `folder`) in headless Chromium, each in a PHONE-sized frame: per page, its scroll
    width, its width, how far its widest table box scrolls sideways, and its background colour."""
    (folder / "probe.html").write_text(HARNESS % (json.dumps(names), *PHONE), encoding="utf-8")
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        f"--user-data-dir={folder / 'profile'}",
        "--allow-file-access-from-files",
        "--virtual-time-budget=20000",
        "--dump-dom",
        (folder / "probe.html").as_uri(),
    ]
    if dark:
        command[1:1] = ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180)
    found = re.search(r'data-found="([^"]*)"', result.stdout)
    assert found, f"Chromium measured nothing: {result.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture(scope="module")
def browsed(pages, tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    names = []
    for (ident, lang), page in sorted(pages.items()):
        names.append(f"{ident}.{lang}.html")
        shutil.copy(page, folder / names[-1])
    return folder, names


@needs_chromium
def test_a_phone_never_scrolls_the_page_sideways(browsed):
    folder, names = browsed
    found = in_browser(folder, names)
    assert set(found) == set(names)
    wide = {name: sizes for name, sizes in found.items() if sizes["scroll"] > sizes["width"]}
    assert not wide, f"wider than a {PHONE[0]}-pixel phone: {wide}"
    assert all(300 < sizes["width"] <= PHONE[0] for sizes in found.values()), found


@needs_chromium
def test_the_browser_check_notices_a_page_wider_than_the_phone(browsed):
    folder, names = browsed
    page = (folder / names[0]).read_text(encoding="utf-8")
    (folder / "wide.html").write_text(
        page.replace("</main>", '<p style="width: 800px">wide</p></main>'), encoding="utf-8"
    )
    sizes = in_browser(folder, ["wide.html"])["wide.html"]
    assert sizes["scroll"] > sizes["width"]


@needs_chromium
def test_a_table_too_wide_for_a_phone_scrolls_in_its_box_not_the_page(browsed):
    folder, names = browsed
    page = (folder / names[0]).read_text(encoding="utf-8")
    wide_row = "".join(f"<td>cell{number}</td>" for number in range(40))
    wide = page.replace(
        '<div class="scroll">', f'<div class="scroll"><table class="data"><tr>{wide_row}</tr></table>', 1
    )
    (folder / "wide-table.html").write_text(wide, encoding="utf-8")
    sizes = in_browser(folder, ["wide-table.html"])["wide-table.html"]
    assert sizes["boxes"] > 1000 and sizes["scroll"] <= sizes["width"], sizes


@needs_chromium
def test_dark_mode_follows_the_system(browsed):
    folder, names = browsed
    light = in_browser(folder, names[:1])[names[0]]["background"]
    dark = in_browser(folder, names[:1], dark=True)[names[0]]["background"]
    assert light == "rgb(255, 255, 255)"
    assert dark != light and sum(map(int, re.findall(r"\d+", dark))) < 150, dark


def qrs(*args: str) -> Ran:
    return run_qrs(*args)


def test_the_command_writes_the_page_and_the_index(tmp_path):
    build = tmp_path / "build"
    result = qrs("--sources", str(FIXTURES), "--build-dir", str(build), "build", "every-block", "--format", "html")
    assert result.returncode == 0, result.stderr
    assert (build / "html" / "every-block.fr.html").is_file() and not (build / "every-block.fr.pdf").exists()
    assert 'href="every-block.fr.html"' in (build / "html" / "index.html").read_text(encoding="utf-8")
    assert "wrote build/html/every-block.fr.html" in result.stdout.replace(str(tmp_path) + "/", "")


def test_bad_input_stops_the_page_with_file_line_column_and_keeps_the_previous_one(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(FIXTURES, sources)
    assert qrs("--sources", str(sources), "build", "every-block", "--format", "html").returncode == 0
    page = tmp_path / "build" / "html" / "every-block.fr.html"
    good = page.read_bytes()
    source = sources / "every-block.yaml"
    source.write_text(source.read_text(encoding="utf-8").replace("die: 2D6", "die: 2D0", 1), encoding="utf-8")
    result = qrs("--sources", str(sources), "build", "every-block", "--format", "html")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert re.search(r"every-block\.yaml:\d+:\d+: ", result.stderr), result.stderr
    assert page.read_bytes() == good


# --- the cut fonts kept in build/.cache/web-fonts are input (#35, point 4) -----------------------------------------

FACES = web.body_faces(Project.at(LIBRARY))


def test_the_pages_faces_are_those_sheet_css_declares_for_the_pdf():
    stylesheet = (Project.at(LIBRARY).templates / "sheet.css").read_text(encoding="utf-8")
    declared = re.findall(
        r'font-family: "Source Sans"; font-weight: (\d+); font-style: (\w+); src: url\("fonts/([^"]+)"', stylesheet
    )
    assert FACES == [(int(weight), style, name) for weight, style, name in declared] and len(FACES) == 5
    assert "SourceSansPro-Semibold.ttf" in {name for _, _, name in FACES}


def test_a_file_put_in_the_font_cache_is_not_embedded_in_a_page(tmp_path):
    cache = tmp_path / "cache"
    faces = web.font_faces(frozenset("Abc"), cache, FACES)
    secret = b"-----BEGIN OPENSSH PRIVATE KEY----- not a font"
    for kept in (cache / "web-fonts").glob("*.woff2"):
        kept.write_bytes(secret)  # what a planted file or an earlier bug left
    again = web.font_faces(frozenset("Abc"), cache, FACES)
    assert again == faces and base64.b64encode(secret).decode() not in again
    assert all(kept.read_bytes().startswith(b"wOF2") for kept in (cache / "web-fonts").glob("*.woff2"))


def test_a_link_in_the_font_cache_is_refused_and_its_target_left_alone(tmp_path):
    cache = tmp_path / "cache"
    web.font_faces(frozenset("Abc"), cache, FACES)
    secret = tmp_path / "id_rsa"
    secret.write_bytes(b"a key")
    for kept in (cache / "web-fonts").glob("*.woff2"):
        kept.unlink()
        kept.symlink_to(secret)
    with pytest.raises(UserError, match="this is a symbolic link"):
        web.font_faces(frozenset("Abc"), cache, FACES)
    assert secret.read_bytes() == b"a key"


def test_a_kept_cut_lacking_a_character_asked_for_is_cut_again(tmp_path):
    cache = tmp_path / "cache"
    web.font_faces(frozenset("Abc"), cache, FACES)
    kept = sorted((cache / "web-fonts").glob("*.woff2"))
    wanted_elsewhere = [ord("é"), 0x1E9E]  # ẞ is not in the common set the cut was made for
    assert all(web._kept_font(path, wanted_elsewhere) is None for path in kept)
    assert all(web._kept_font(path, [ord("A")]) is not None for path in kept)


def test_every_class_the_print_styles_gives_the_block_templates_is_styled_on_the_web():
    """A follow-up roll (`then:`) ran on one line on the web, its results unstyled there (#34): what the print
    stylesheet shapes in a block, the web's shapes too."""
    templates = Path(web.__file__).resolve().parents[2] / "templates"
    classes = {
        name
        for path in (templates / "blocks").glob("*.j2")
        for found in re.findall(r'class="([^"{]*)', path.read_text(encoding="utf-8"))
        for name in found.split()
        if re.fullmatch(r"[a-z][\w-]*", name)
    }
    sheet_css, web_css = ((templates / name).read_text(encoding="utf-8") for name in ("sheet.css", "web.css"))
    styled = {name for name in classes if re.search(rf"\.{re.escape(name)}\b", sheet_css)}
    assert "inner-result" in styled
    assert sorted(name for name in styled if not re.search(rf"\.{re.escape(name)}\b", web_css)) == []


def test_the_other_corrections_the_printed_box_counts_are_listed_in_the_web_edition(tmp_path):
    """The errata box ends "Other corrections …: N, listed in the web edition", which listed none (#45): the web
    edition lists them under the same line; the PDF's box keeps the count."""
    project = Project.at(FIXTURES / "sheets", tmp_path / "build")
    source = project.sources / "campaign-long.yaml"
    sheet = pipeline.check(source)
    others = sheet.other_changes()
    assert sheet.boxed_changes() and len(others) == 1
    page = pipeline.build(project, pipeline.SheetTarget(source), sheet.lang, "html").path.read_text(encoding="utf-8")
    box = page[page.index('data-block="errata"') :]
    listed = re.search(r'<p class="more">[^<]*: 1, [^<]*</p>\s*<ul class="more">\s*<li>([^<]*)', box)
    assert listed and listed.group(1).startswith(html.escape(others[0].text[:30], quote=False)), box[:1200]
