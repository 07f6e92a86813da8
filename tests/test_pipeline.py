"""End to end: every fact of every source is printed in its PDF, in order within each block."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.composing import translate as i18n

from generator import pipeline
from generator.cli.main import main
from generator.project import Project
from generator.output import completeness, content_checks
from generator.output.manifest import Output
from tests.conftest import block_types, FIXTURES, LIBRARY, ROOT, SHEETS, run_qrs


def squeeze(text: str) -> str:
    """Compare text as printed, whatever the line breaks: drop white space and hyphenation."""
    return completeness.squeeze(text)


def assert_complete(pdf_path, sheet):
    assert_text_complete(completeness.pdf_text(pdf_path), sheet)


def assert_text_complete(text: str, sheet):
    """Every fact of the sheet is in `text` (a PDF's or a web page's), in order within each block; the credits once
    (generator.output.completeness, which `qrs test` runs on the user's library)."""
    lacking = completeness.missing(text, sheet)
    assert not lacking, f"{sheet.sheet}: " + "; ".join(f"{lack.block or 'credits'}: {lack.text!r} is missing or out of "
                                                       "order" for lack in lacking)


def editions():
    for sheet_id in SHEETS:
        for lang in i18n.languages(LIBRARY, pipeline.check(LIBRARY / f"{sheet_id}.yaml")):
            yield sheet_id, lang


@pytest.mark.parametrize("sheet_id, lang", list(editions()))
def test_every_fact_of_the_source_is_printed(built, sheet_id, lang):
    """The content suite's checks of one output (generator.output.content_checks), on the fixture library: its pages
    within those declared, every fact of the source in order, the sheet's font alone."""
    pdf = built(LIBRARY, sheet_id, lang)
    project = Project.at(LIBRARY, pdf.parent)
    output = Output("sheet", sheet_id, lang, LIBRARY / f"{sheet_id}.yaml")
    assert output.path(project) == pdf
    assert content_checks.output_problems(project, output) == []
    assert_one_font(pdf)


def assert_one_font(pdf_path):
    """A glyph missing from the sheet's font makes the renderer fall back to another one: refuse that."""
    fonts = {
        str(font.get_object()["/BaseFont"]).split("+")[-1]
        for page in PdfReader(pdf_path).pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert fonts and all(name.startswith("Source-Sans") for name in fonts), fonts


def test_completeness_check_notices_a_missing_row(built):
    sheet = pipeline.check(FIXTURES / "every-block.yaml")
    pdf = built(FIXTURES, "every-block")
    assert_complete(pdf, sheet)
    dice = next(block for block in sheet.blocks() if block.type == "dice")
    dice.rows[1].text = "Une ligne que le PDF n'a pas"
    with pytest.raises(AssertionError, match="missing or out of order"):
        assert_complete(pdf, sheet)


def test_the_completeness_check_knows_every_block_type():
    """A new block type's texts would go unchecked: the check refuses a type it does not know."""
    assert all(completeness.known(kind) for kind in block_types())


def test_a_failed_build_keeps_the_previous_pdf(tmp_path, own_heights):
    source = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "every-block.yaml").write_text(source, encoding="utf-8")
    project = pipeline.Project.at(sources)
    good = pipeline.build(project, sources / "every-block.yaml", "fr")
    before = good.read_bytes()
    (sources / "every-block.yaml").write_text(source.replace("roll: 3-6", "roll: 3-5"), encoding="utf-8")
    with pytest.raises(pipeline.UserError):
        pipeline.build(project, sources / "every-block.yaml", "fr")
    assert good.read_bytes() == before
    # no temporary file left behind; .cache holds the measured heights of the good build
    assert sorted(path.name for path in good.parent.iterdir()) == [".cache", good.name]


def test_two_builds_of_the_same_source_are_byte_identical(tmp_path, built):
    first = built(FIXTURES, "every-block").read_bytes()
    project = pipeline.Project.at(FIXTURES, tmp_path)
    second = pipeline.build(project, FIXTURES / "every-block.yaml", "fr").read_bytes()
    assert first == second


# --- SHEET@REVISION ----------------------------------------------------------------------------------------


def _committed(tmp_path: Path, *fixtures: Path) -> Path:
    """A git repository whose sources/ holds these files, committed; its sources folder."""
    sources = tmp_path / "sources"
    sources.mkdir()
    for fixture in fixtures:
        shutil.copy(fixture, sources)
    for args in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "sheets"]):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    return sources


@pytest.mark.parametrize("sheet", ["../tests/fixtures/every-block", "sub/every-block", "..", "Every-Block"])
def test_sheet_at_revision_takes_an_id_never_a_path(tmp_path, capsys, sheet):
    outside = tmp_path / "tests" / "fixtures"  # a sheet outside sources/, committed too, as in a checkout of qrs
    outside.mkdir(parents=True)
    shutil.copy(FIXTURES / "every-block.yaml", outside)
    sources = _committed(tmp_path, FIXTURES / "every-block.yaml")
    with pytest.raises(SystemExit) as exit:
        main(["--sources", str(sources), "--build-dir", str(tmp_path / "build"), "build", f"{sheet}@HEAD"])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and f"{sources}:1:1: '{sheet}' is not a sheet id" in err, err
    assert list(tmp_path.rglob("*.pdf")) == []


def test_a_problem_at_a_revision_names_the_file_as_the_author_knows_it(tmp_path, capsys):
    sources = _committed(tmp_path, ROOT / "tests" / "bad_inputs" / "dice-gap.yaml")
    with pytest.raises(SystemExit) as exit:
        main(["--sources", str(sources), "--build-dir", str(tmp_path / "build"), "build", "dice-gap@HEAD"])
    err = capsys.readouterr().err
    assert exit.value.code == 2
    assert err.splitlines()[0] == f"{sources / 'dice-gap.yaml'}@HEAD:16:11: D6 can roll 4, which no row covers", err


def test_a_sheet_using_all_that_authors_of_other_games_reached_for_builds_complete_in_pdf_and_web(tmp_path):
    """Issue #32: the delvers card (an invented game's card, tests/fixtures/sheets/) has credits, a true-size
    figure, line breaks, qualified modifiers, an untitled block and section, a matrix's corner and legend, a dice
    table's alignment, no edition nor date, and headings that cite pages in lower case."""
    from tests.rendering.test_figures import assert_printed_at
    from tests.rendering.test_web import parsed, read_text

    folder = FIXTURES / "sheets"
    source = folder / "delvers-card.yaml"
    sheet = pipeline.check(source)
    blocks = {block.id: block for block in sheet.blocks()}
    assert sheet.credits and sheet.edition is None and sheet.date is None
    assert blocks["gauge"].scale == "true-size" and blocks["moves"].title is None
    assert any(section.title is None for section in sheet.sections)
    assert blocks["combat-modifiers"].qualified and blocks["prices"].corner and blocks["prices"].legend
    assert blocks["injuries"].align == "center" and "\n" in blocks["falling"].content[0].bullets[0]
    project = Project.at(folder, tmp_path / "build")
    layouts: list[dict] = []
    pdf = pipeline.build(project, source, "en", layouts=layouts)
    assert len(PdfReader(pdf).pages) == 1 and layouts[0]["warnings"] == []
    assert_complete(pdf, sheet)
    assert_one_font(pdf)
    text = squeeze(PdfReader(pdf).pages[0].extract_text())
    assert squeeze(sheet.credits) in text and "(p.45)" in text and "(seep.52)" in text
    assert "edition" not in text.lower()  # the footer prints what the sheet has: the game
    assert_printed_at(pdf, (76.2, 12.7))  # the gauge: 3 inches by half an inch, within 0.2 mm
    page = parsed(pipeline.build_web(project, source, "en"))
    assert_text_complete(read_text(page), sheet)
    assert squeeze(sheet.credits) in squeeze(read_text(page))


def test_a_sheet_of_rows_too_tall_to_keep_three_a_column_builds_and_warns_by_block(tmp_path):
    """Issue #42: tests/fixtures/sheets/tall-rows.yaml has a table whose rows are each over a third of a column
    (no break keeps three rows on each side) and a two-row table taller than a column. The packer found no plan
    for it and the build stopped on an internal error; it now breaks both between single rows and says so."""
    import json

    ran = run_qrs("--json", "--sources", str(FIXTURES / "sheets"), "--build-dir", str(tmp_path / "build"),
                  "build", "tall-rows")
    assert ran.returncode == 0, ran.stderr
    (wrote,) = [event for event in map(json.loads, ran.stdout.splitlines()) if event["event"] == "wrote"]
    assert PdfReader(wrote["path"]).pages
    warned = " ".join(wrote["layout"]["warnings"])
    assert "block 'wargear' continued with" in warned and "block 'oaths' continued with 1 row(s)" in warned


def _key_positions(page, keys: set[str]) -> dict[str, list[float]]:
    """The x (mm from the page's left edge) of each of these texts where the page prints it alone."""
    found: dict[str, list[float]] = {}

    def visit(text, cm, tm, font, size):
        if text.strip() in keys:
            found.setdefault(text.strip(), []).append((cm[4] + tm[4] * cm[0]) * 25.4 / 72)

    page.extract_text(visitor_text=visit)
    return found


def test_a_matrix_wider_than_a_column_spans_the_page_above_its_columns(tmp_path):
    """Issue #42: on A4 landscape in three columns, a 16×16 matrix of troop types (wider than a column) is set
    across the top of a page, not clipped, with prose before it (ending the page before) and under it; a 6×6
    matrix stays in its column, at its own width."""
    from generator.rendering import layout

    folder = FIXTURES / "sheets"
    source = folder / "wide-matrix.yaml"
    sheet = pipeline.check(source)
    blocks = {block.id: block for block in sheet.blocks()}
    assert blocks["outcomes"].wide is None and len(blocks["outcomes"].row_keys) == 16  # made wide without asking
    layouts: list[dict] = []
    pdf = pipeline.build(Project.at(folder, tmp_path / "build"), source, "en", layouts=layouts)  # no finding
    report = layouts[0]
    assert report["columns"] == 3 and report["warnings"] == [], report
    banded = [number for number, band in enumerate(report["bands"]) if "outcomes" in band]
    assert len(banded) == 1 and banded[0] > 0, report["bands"]  # the content before it ends the page before
    page = report["pages"][banded[0]]
    assert len(page) == 3 and "dice" in [ident for column in page for ident in column["blocks"]]
    assert_complete(pdf, sheet)
    frame = layout.page_frame(sheet, pipeline.BuildOptions())
    keys = set(blocks["outcomes"].column_keys) | {"Enemy die", "Your die"}
    printed = _key_positions(PdfReader(pdf).pages[banded[0]], keys)
    spread = [x for key in blocks["outcomes"].column_keys for x in printed[key][:1]]
    assert max(spread) - min(spread) > frame.column_width  # wider than a column: it spans the page
    assert max(spread) < frame.page_width - frame.margins[1]  # and ends inside it
    die = printed["Enemy die"][0]
    third = frame.margins[3] + 2 * (frame.column_width + layout.COLUMN_GAP_MM)  # the 6×6 is in the third column
    assert third - 1 <= printed["Your die"][0] < die < frame.page_width - frame.margins[1]
