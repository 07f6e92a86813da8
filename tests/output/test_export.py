"""`qrs export`: sheets' and handouts' pages as PNG or SVG files in build/export/."""

from __future__ import annotations

import shutil
from xml.etree import ElementTree

import pytest
from PIL import Image
from pypdf import PdfReader

from generator.errors import UserError
from generator.output import export
from generator.output.targets import SheetTarget
from generator.project import Project
from tests.conftest import LIBRARY, Ran, run_qrs


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The project's own sources: a two-page sheet (wab2) and a handout drawn from it."""
    root = tmp_path_factory.mktemp("export")
    shutil.copytree(LIBRARY, root / "sources")
    return Project.at(root / "sources")


def qrs(project: Project, *args: str) -> Ran:
    return run_qrs("--sources", str(project.sources), *args)


def test_png_pages_at_the_resolution_asked(project):
    pdf, built, images = export.export(project, SheetTarget(project.sources / "wab2.yaml"), "en", "png", dpi=100)
    assert built and pdf == project.build / "wab2.en.pdf"
    assert [image.relative_to(project.build).as_posix() for image in images] == [
        "export/wab2.en-1.png",
        "export/wab2.en-2.png",
    ]
    with Image.open(images[1]) as page:  # A4 landscape, 297 × 210 mm, at 100 dots an inch
        assert page.format == "PNG" and abs(page.size[0] - 1169) <= 1 and abs(page.size[1] - 827) <= 1


def test_only_the_pages_asked_and_a_page_past_the_end_is_refused(project):
    _, built, images = export.export(
        project, SheetTarget(project.sources / "wab2.yaml"), "en", "png", dpi=50, pages=(2,)
    )
    assert not built and [image.name for image in images] == ["wab2.en-2.png"]  # the PDF above is reused
    with pytest.raises(UserError, match="it has 2 page"):
        export.export(project, SheetTarget(project.sources / "wab2.yaml"), "en", "png", pages=(3,))


def test_pages_are_parsed_strictly():
    assert export.parse_pages("2, 1,2") == (1, 2) and export.parse_pages(None) == ()
    for bad in ("0", "1-2", "a", "1,,2"):
        with pytest.raises(ValueError):
            export.parse_pages(bad)


def test_the_command_exports_a_handout_in_every_language(project):
    result = qrs(project, "export", "wab2-english-hundred-years-war", "--dpi", "40")
    assert result.returncode == 0, result.stderr
    folder = project.build / "export" / "handouts"
    pages = {
        lang: len(PdfReader(project.build / "handouts" / f"wab2-english-hundred-years-war.{lang}.pdf").pages)
        for lang in ("en", "fr")
    }
    assert sorted(path.name for path in folder.glob("*.png")) == [
        f"wab2-english-hundred-years-war.{lang}-{page}.png"
        for lang in ("en", "fr")
        for page in range(1, pages[lang] + 1)
    ]


def test_the_command_says_what_is_wrong_with_the_usage_exit_code(project):
    """A page the PDF does not have is a problem of what was asked of this sheet, exit 2 (#35, point 20); a
    malformed --pages is the command line's, exit 64."""
    past = qrs(project, "export", "wab2", "--lang", "en", "--pages", "5")
    assert past.returncode == 2 and "wab2.en.pdf: it has 2 page(s): no page 5" in past.stderr, past.stderr
    assert "Traceback" not in past.stderr
    bad = qrs(project, "export", "wab2", "--pages", "first")
    assert bad.returncode == 64 and "--pages" in bad.stderr
    unknown = qrs(project, "export", "nope")
    assert unknown.returncode == 64 and "no sheet named nope" in unknown.stderr


@pytest.mark.skipif(export.converter() is None, reason="no pdftocairo: apt-get install poppler-utils")
def test_svg_is_a_vector_drawing_of_the_page(project):
    _, _, images = export.export(project, SheetTarget(project.sources / "wab2.yaml"), "en", "svg", pages=(1,))
    assert [image.name for image in images] == ["wab2.en-1.svg"]
    root = ElementTree.parse(images[0]).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox").split()[2:] == ["841.889764", "595.275591"]  # A4 landscape in points
    assert len(root.findall(".//{http://www.w3.org/2000/svg}use")) > 2000  # each letter placed: drawn, not a picture
    assert not root.findall(".//{http://www.w3.org/2000/svg}image")


def test_svg_without_its_converter_says_how_to_install_it(project, monkeypatch):
    """A missing program is exit 69 (EX_UNAVAILABLE), not a usage error with its banner (#34)."""
    monkeypatch.setattr(export, "converter", lambda: None)
    with pytest.raises(export.MissingTool, match="apt-get install poppler-utils"):
        export.export(project, SheetTarget(project.sources / "wab2.yaml"), "en", "svg")
    missing = qrs(project, "export", "wab2", "--format", "svg")
    assert missing.returncode == 69 and "apt-get install poppler-utils" in missing.stderr
    assert "Usage:" not in missing.stderr


def test_a_language_that_fails_stops_no_other_and_leaves_no_stale_image(tmp_path):
    """`export --pages 2 --dpi 300` stopped at the first failing language and left the other's old image under
    the name it asked for (#45): every language it can is drawn, the one that failed is named, and an earlier
    export's image of that language and page is removed, not passed off as this one's."""
    shutil.copytree(LIBRARY, tmp_path / "sources")
    project = Project.at(tmp_path / "sources")
    catalogue = project.sources / "i18n" / "shadow-war.en.po"
    catalogue.write_text(catalogue.read_text(encoding="utf-8") + '\nmsgid "cut off\n', encoding="utf-8")
    folder = project.build / "export"
    folder.mkdir(parents=True)
    stale = folder / "shadow-war.en-1.png"
    stale.write_bytes(b"an earlier export's page")
    ran = qrs(project, "export", "shadow-war", "--lang", "en", "--lang", "fr", "--pages", "1", "--dpi", "40")
    assert ran.returncode == 2 and "shadow-war.en.po" in ran.stderr and "Traceback" not in ran.stderr, ran.stderr
    assert "shadow-war in 'en': not exported" in ran.stdout and "shadow-war.en-1.png" in ran.stdout, ran.stdout
    assert not stale.exists()
    with Image.open(folder / "shadow-war.fr-1.png") as page:  # the language after the failing one is drawn
        assert page.format == "PNG"
