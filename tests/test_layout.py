"""Page geometry, column packing, and the layout checks that fail a build, measured on WeasyPrint's boxes."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from generator import layout, pipeline, render
from generator.errors import UserError
from generator.project import Project
from tests.conftest import FIXTURES, SHEETS, SOURCES


def test_a4_landscape_in_three_columns():
    frame = layout.frame("A4", "landscape", columns=3, pages=2)
    assert (frame.page_width, frame.page_height) == (297.0, 210.0)
    assert frame.column_height == 210.0 - 9 - 10
    assert frame.column_width == pytest.approx((297 - 16 - 2 * 5.15) / 3, abs=0.01)
    assert layout.frame("letter", "portrait", 2, 1).page_width == 215.9


def test_blocks_are_packed_in_reading_order_and_never_split():
    plan = layout.pack([50, 40, 30, 90, 10, 100], column_height=100, first_page_top=10, columns=2)
    assert plan == [[[0, 1], [2]], [[3, 4], [5]]]  # 10 + 50 + 40 = 100 fits; the header only on page 1


def test_a_block_taller_than_a_column_gets_a_column_of_its_own():
    assert layout.pack([20, 150, 20], column_height=100, first_page_top=0, columns=3) == [[[0], [1], [2]]]


def copy_fixture(tmp_path: Path, replace: tuple[str, str] | None = None) -> Path:
    sources = tmp_path / "sources"
    sources.mkdir()
    text = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    if replace:
        assert replace[0] in text
        text = text.replace(*replace)
    (sources / "every-block.yaml").write_text(text, encoding="utf-8")
    return sources


def build_fixture(tmp_path: Path, replace: tuple[str, str]) -> UserError:
    sources = copy_fixture(tmp_path, replace)
    with pytest.raises(UserError) as caught:
        pipeline.build(Project.at(sources), sources / "every-block.yaml", "fr")
    return caught.value


def test_a_word_too_wide_for_its_column_fails_the_build(tmp_path):
    error = build_fixture(tmp_path, ('[Armure légère, "6+", "5+"]', '[Armure légère, "6+", "5' + "0" * 60 + '"]'))
    assert any("wider than its column" in problem.message and "'saves'" in problem.message
               for problem in error.problems), error.problems


def test_a_character_missing_from_the_font_fails_the_build(tmp_path):
    error = build_fixture(tmp_path, ("Touche de Force 6.", "Touche de Force 6 \u2603."))
    assert [problem.message for problem in error.problems] == [
        "'\u2603' (U+2603) not in the sheet's font (Source Sans Pro): it would print in another font"]


def test_a_block_taller_than_a_column_fails_the_build_and_says_so(tmp_path):
    tall = "\n".join(f"            - Ligne {n} d'une longue liste de règles qui ne tient pas dans une colonne." for n in range(80))
    error = build_fixture(tmp_path, ("          - bullets: [Premier point, Second point]\n",
                                     "          - bullets:\n" + tall + "\n"))
    messages = " ".join(problem.message for problem in error.problems)
    assert "split across" in messages and "a column holds 191 mm" in messages


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("sheet_id", SHEETS)
def test_every_sheet_fits_its_pages_on_both_papers_in_both_languages(tmp_path_factory, sheet_id, paper):
    project = Project.at(SOURCES, tmp_path_factory.mktemp("build"))
    for lang in ("fr", "en"):  # pipeline.build runs every layout check and fails on any
        output = pipeline.build(project, SOURCES / f"{sheet_id}.yaml", lang, pipeline.BuildOptions(paper=paper))
        sheet = pipeline.check(SOURCES / f"{sheet_id}.yaml")
        assert len(pikepdf.open(output).pages) <= sheet.paper.pages


def test_the_pdf_is_clean_tagged_embedded_and_described(built):
    output = built(SOURCES, "wab2", "en")
    pdf = pikepdf.open(output)
    assert pdf.check_pdf_syntax() == []  # qpdf --check
    assert pdf.Root.Lang == "en" and pdf.Root.MarkInfo.Marked
    assert "/StructTreeRoot" in pdf.Root  # tagged: reading order for copy-paste and screen readers
    assert str(pdf.docinfo["/Title"]).startswith("Warhammer Ancient Battles")
    assert str(pdf.docinfo["/Subject"]) == "Warhammer Ancient Battles, edition 2.1"
    assert "/Author" in pdf.docinfo
    sheet = pipeline.check(SOURCES / "wab2.yaml")
    with pdf.open_outline() as outline:
        assert len(outline.root) == len(sheet.sections) + 1  # a bookmark a section, and the changes box
    for page in pdf.pages:
        for font in page.Resources.Font.values():
            descriptor = font.get("/FontDescriptor") or font.DescendantFonts[0].FontDescriptor
            assert "/FontFile2" in descriptor, f"{font.BaseFont} is not embedded"
            assert "Source-Sans" in str(font.BaseFont) and "+" in str(font.BaseFont)  # subset


def test_crop_marks_add_bleed_and_ink_saver_drops_the_fills(tmp_path):
    project = Project.at(SOURCES, tmp_path)
    plain = pikepdf.open(pipeline.build(project, SOURCES / "shadow-war.yaml", "fr"))
    marked = pipeline.build(project, SOURCES / "shadow-war.yaml", "fr", pipeline.BuildOptions(crop_marks=True, ink_saver=True))
    assert marked.name == "shadow-war.marks.ink-saver.fr.pdf"
    width = lambda pdf: float(pdf.pages[0].MediaBox[2] - pdf.pages[0].MediaBox[0])
    assert width(pikepdf.open(marked)) > width(plain)
    sheet = pipeline.check(SOURCES / "shadow-war.yaml")
    html = render.html(project, sheet, pipeline.BuildOptions(ink_saver=True))
    assert '<html lang="fr" class="ink-saver">' in html
