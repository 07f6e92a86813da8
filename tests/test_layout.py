"""Page geometry, column packing, and the layout checks that fail a build, measured on WeasyPrint's boxes."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

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


def whole(*heights: float, **fields) -> list[layout.Piece]:
    return [layout.Piece(height, **fields) for height in heights]


def rows(count: int, height: float = 5.0, **fields) -> layout.Piece:
    """A table of `count` rows: a 6 mm title and header, 2 mm below, 4 mm repeated above a continuation."""
    return layout.Piece(6 + count * height + 2, units=(height,) * count, head=6, tail=2, cont_head=4,
                        cont_tail=1, **fields)


def fragments(packing: layout.Packing) -> list[list[list[tuple]]]:
    return [[[(f.index, f.start, f.stop) for f in column] for column in page] for page in packing.plan]


def test_whole_blocks_go_in_reading_order_on_the_fewest_pages():
    packing = layout.pack(whole(50, 40, 30, 90, 10, 100), layout.Capacity(100, 10, 2, safety=0))
    assert packing.pages == 2
    assert fragments(packing) == [[[(0, 0, None)], [(1, 0, None), (2, 0, None)]], [[(3, 0, None), (4, 0, None)], [(5, 0, None)]]]


def test_the_packer_chooses_the_smallest_largest_hole_not_the_first_fit():
    # Next-fit would give [60, 30] [30] [80]: a 70 mm hole in the second column; the plan gives [60] [30, 30] [80].
    packing = layout.pack(whole(60, 30, 30, 80), layout.Capacity(100, 0, 3, safety=0))
    assert fragments(packing) == [[[(0, 0, None)], [(1, 0, None), (2, 0, None)], [(3, 0, None)]]]


def test_a_long_table_continues_between_rows_and_fills_its_columns():
    packing = layout.pack([*whole(60), rows(20)], layout.Capacity(100, 0, 2, safety=0))
    (first, second), = fragments(packing)
    assert first == [(0, 0, None), (1, 0, 6)] and second == [(1, 6, None)]  # 60 + 6 + 30 + 1 = 97
    assert packing.used == [[97.0, 4 + 14 * 5 + 2]]


def test_a_continuation_keeps_three_rows_on_each_side():
    positions = layout._positions([rows(7)])
    assert [unit for _, unit in positions[1:-1]] == [3, 4]  # 3 | 4 or 4 | 3, never 1 | 6
    assert layout._positions([rows(5)]) == [(0, 0), (1, 0)]  # too short to continue


def test_a_column_starting_inside_a_section_counts_the_repeated_heading():
    opening, following = rows(4), layout.Piece(30, heading=7, opens_section=False)
    assert layout.column_height([opening, following], (1, 0), (2, 0)) == 37
    assert layout.column_height([opening, following], (0, 0), (2, 0)) == opening.height + 30


def test_break_before_column_and_page_are_obeyed():
    column = layout.pack([*whole(20), layout.Piece(20, breaks_before="column")], layout.Capacity(100, 0, 3, safety=0))
    assert fragments(column) == [[[(0, 0, None)], [(1, 0, None)]]]
    page = layout.pack([*whole(20), layout.Piece(20, breaks_before="page")], layout.Capacity(100, 0, 3, safety=0))
    assert fragments(page) == [[[(0, 0, None)], [], []], [[(1, 0, None)]]]


def test_a_block_taller_than_a_column_that_cannot_continue_is_named():
    packing = layout.pack(whole(20, 150, 20), layout.Capacity(100, 0, 3, safety=0))
    assert packing.overfull == [1]


def test_the_layout_report_warns_of_holes_and_unused_pages():
    report = {"scale": 1.0, "columns": 3, "declared_pages": 3,
              "pages": [[{"used": 0.95}, {"used": 0.7}, {"used": 0.9}], [{"used": 0.4}]]}
    assert layout.layout_warnings(report) == ["page 1 column 2: 30% of its height left empty",
                                             "1.1 of 3 pages used: declare fewer"]
    assert layout.pages_used(report) == pytest.approx(1 + 0.4 / 3)


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


def test_a_block_that_may_not_continue_and_is_taller_than_a_column_fails_the_build(tmp_path):
    tall = "\n".join(f"            - Ligne {n} d'une longue liste de règles qui ne tient pas dans une colonne." for n in range(80))
    error = build_fixture(tmp_path, ("        title: Règles\n        content:\n          - p: Lancez 2D6 et comparez au Commandement.\n"
                                     "          - bullets: [Premier point, Second point]\n",
                                     "        title: Règles\n        keep: together\n        content:\n          - bullets:\n" + tall + "\n"))
    messages = " ".join(problem.message for problem in error.problems)
    assert "split across" in messages and "a column holds 191 mm" in messages and "never continued" in messages


def test_an_84_row_table_continues_over_columns_with_its_title_and_header_repeated(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    table = "\n".join(f"          - [Objet {n}, \"{n * 5} co\", Rare {n % 9}]" for n in range(84))
    text = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    marker = "  - id: "  # before the first section
    long_section = ("  - id: prices\n    title: Tarifs\n    blocks:\n      - id: beasts\n        type: table\n"
                    "        title: Bêtes et montures\n        columns: [{title: Objet}, {title: Coût}, {title: Rareté}]\n"
                    "        rows:\n" + table + "\n")
    index = text.index(marker, text.index("sections:"))
    text = text[:index] + long_section + text[index:]
    assert "pages: 1," in text
    (sources / "every-block.yaml").write_text(text.replace("pages: 1,", "pages: 2,"), encoding="utf-8")
    project = Project.at(sources, tmp_path / "build")
    layouts: list[dict] = []
    output = pipeline.build(project, sources / "every-block.yaml", "fr", layouts=layouts)
    holding = [column for page in layouts[0]["pages"] for column in page if any(
        block.startswith("beasts") for block in column["blocks"])]
    assert len(holding) >= 2 and all("beasts" in column["continued"] for column in holding[1:])
    text = "".join(page.extract_text() for page in PdfReader(output).pages)
    assert text.count("Bêtes et montures (suite)") == len(holding) - 1
    assert text.count("Objet Coût Rareté") == len(holding)  # the header on every column
    assert all(f"Objet {n} " in text for n in range(84))


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
