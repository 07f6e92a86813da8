"""End to end: every fact of every source is printed in its PDF, in order within each block."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli.main import main
from generator.composing import translate as i18n
from generator.output import completeness, content_checks, pipeline
from generator.output.plan import Output
from generator.output.targets import SheetTarget
from generator.project import Project
from tests.conftest import FIXTURES, LIBRARY, ROOT, SHEETS, run_qrs


def squeeze(text: str) -> str:
    """Compare text as printed, whatever the line breaks: drop white space and hyphenation."""
    return completeness.squeeze(text)


def assert_complete(pdf_path, sheet):
    assert_text_complete(completeness.pdf_text(pdf_path), sheet)


def assert_text_complete(text: str, sheet):
    """Every fact of the sheet is in `text` (a PDF's or a web page's), in order within each block; the credits once
    (generator.output.completeness, which `qrs test` runs on the user's library)."""
    lacking = completeness.missing(text, sheet)
    assert not lacking, f"{sheet.sheet}: " + "; ".join(
        f"{lack.block or 'credits'}: {lack.text!r} is missing or out of order" for lack in lacking
    )


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
    output = Output(SheetTarget(LIBRARY / f"{sheet_id}.yaml"), lang)
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


def test_a_block_type_without_a_reader_of_its_own_is_checked_by_what_its_model_prints(built):
    """Sequences, text and preformatted blocks print their fields' texts in order: the completeness check reads
    them through the model (BlockBase.printed), as it would a new block type, and still notices a lacking one."""
    sheet = pipeline.check(FIXTURES / "every-block.yaml")
    pdf = built(FIXTURES, "every-block")
    assert_complete(pdf, sheet)
    for kind in ("sequence", "text", "preformatted"):
        block = next(block for block in sheet.blocks() if block.type == kind)
        assert kind not in completeness._BY_TYPE and list(block.printed(sheet))
        loc, text = list(block.printed(sheet))[-1]
        lacking = completeness.missing(completeness.pdf_text(pdf).replace(text.split()[-1], "«gone»"), sheet)
        assert any(found.block == block.id for found in lacking), (kind, text)


def test_a_failed_build_keeps_the_previous_pdf(tmp_path, own_heights):
    source = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "every-block.yaml").write_text(source, encoding="utf-8")
    project = pipeline.Project.at(sources)
    good = pipeline.build(project, pipeline.SheetTarget(sources / "every-block.yaml"), "fr", "pdf").path
    before = good.read_bytes()
    (sources / "every-block.yaml").write_text(source.replace("roll: 3-6", "roll: 3-5"), encoding="utf-8")
    with pytest.raises(pipeline.UserError):
        pipeline.build(project, pipeline.SheetTarget(sources / "every-block.yaml"), "fr", "pdf")
    assert good.read_bytes() == before
    # no temporary file left behind; .cache holds the measured heights of the good build
    assert sorted(path.name for path in good.parent.iterdir()) == [".cache", good.name]


def test_two_builds_of_the_same_source_are_byte_identical(tmp_path, built):
    first = built(FIXTURES, "every-block").read_bytes()
    project = pipeline.Project.at(FIXTURES, tmp_path)
    second = pipeline.build(project, pipeline.SheetTarget(FIXTURES / "every-block.yaml"), "fr", "pdf").path.read_bytes()
    assert first == second


# --- SHEET@REVISION ----------------------------------------------------------------------------------------


def _committed(tmp_path: Path, *fixtures: Path) -> Path:
    """A git repository whose sources/ holds these files, committed; its sources folder."""
    sources = tmp_path / "sources"
    sources.mkdir()
    for fixture in fixtures:
        shutil.copy(fixture, sources)
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "sheets"],
    ):
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
    assert exit.value.code == 2 and f"sources:1:1: '{sheet}' is not a sheet id" in err, err
    assert list(tmp_path.rglob("*.pdf")) == []


def test_a_problem_at_a_revision_names_the_file_as_the_author_knows_it(tmp_path, capsys):
    sources = _committed(tmp_path, ROOT / "tests" / "bad_inputs" / "dice-gap.yaml")
    with pytest.raises(SystemExit) as exit:
        main(["--sources", str(sources), "--build-dir", str(tmp_path / "build"), "build", "dice-gap@HEAD"])
    err = capsys.readouterr().err
    assert exit.value.code == 2
    assert err.splitlines()[0] == "sources/dice-gap.yaml@HEAD:16:11: D6 can roll 4, which no row covers", err


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
    written = pipeline.build(project, pipeline.SheetTarget(source), "en", "pdf")
    pdf = written.path
    assert len(PdfReader(pdf).pages) == 1 and written.layout["warnings"] == []
    assert_complete(pdf, sheet)
    assert_one_font(pdf)
    text = squeeze(PdfReader(pdf).pages[0].extract_text())
    assert squeeze(sheet.credits) in text and "(p.45)" in text and "(seep.52)" in text
    assert "edition" not in text.lower()  # the footer prints what the sheet has: the game
    assert_printed_at(pdf, (76.2, 12.7))  # the gauge: 3 inches by half an inch, within 0.2 mm
    page = parsed(pipeline.build(project, pipeline.SheetTarget(source), "en", "html").path)
    assert_text_complete(read_text(page), sheet)
    assert squeeze(sheet.credits) in squeeze(read_text(page))


def printed_in_parts(text: str, printed: str, parts: int) -> bool:
    """Whether `text` is printed whole in `printed` (both squeezed), or in at most `parts` pieces in order: a row
    cut between its lines, the next column's heading, header and repeated item between its pieces."""
    position = 0
    for _ in range(parts):
        low, high = 0, len(text)  # the longest head of `text` printed from `position` on
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if printed.find(text[:middle], position) >= 0 else (low, middle - 1)
        if low == 0:
            return False
        position = printed.find(text[:low], position) + low
        text = text[low:]
        if not text:
            return True
    return False


def pdf_squeezed(path) -> str:
    return squeeze(" ".join(page.extract_text() for page in PdfReader(path).pages))


def test_rows_taller_than_a_third_of_a_column_continue_between_their_lines(tmp_path):
    """Issue #42: tests/fixtures/sheets/tall-rows.yaml has a table whose rows are each over a third of a column and
    a two-row table taller than a column. The packer found no plan for it (an internal error), then broke it between
    single rows with a warning; each tall row now continues into the next column between two of its lines, its item
    repeated "(cont.)", every word printed in order, with no warning."""
    import json

    ran = run_qrs(
        "--json", "--sources", str(FIXTURES / "sheets"), "--build-dir", str(tmp_path / "build"), "build", "tall-rows"
    )
    assert ran.returncode == 0, ran.stderr
    (wrote,) = [event for event in map(json.loads, ran.stdout.splitlines()) if event["event"] == "wrote"]
    assert wrote["layout"]["warnings"] == []
    printed = pdf_squeezed(wrote["path"])
    sheet = pipeline.check(FIXTURES / "sheets" / "tall-rows.yaml")
    for block in sheet.blocks():
        for row in block.rows:
            cut = printed.count(squeeze(row.cells[0].text) + "(cont.)")  # each cut repeats the item: one piece more
            assert printed_in_parts(squeeze(row.cells[1].text), printed, 1 + cut), (block.id, row.cells[0].text)
    assert "Mithrilcoat(cont.)" in printed and len(PdfReader(wrote["path"]).pages) == 2


def test_a_real_rosters_tall_wargear_row_continues_between_its_lines_and_the_page_is_balanced(tmp_path):
    """Issue #42, from real catalogue data (tests/fixtures/rosters/bsdata/mesbg-warband.ros, BSData/middle-earth):
    the Shield's rule, 1,515 characters, is a row taller than a third of a column. Kept whole it went to the third
    column and left the first two 40 % and 55 % empty; cut between its lines, the one page is balanced: its columns
    within 16 % of each other (the units' table and the bows fill the first to 55 %; the Heavy Armour row, naming
    both warbands that wear it, leaves the others at 69 % and 70 %)."""
    import json

    library = tmp_path / "sources"
    library.mkdir()
    shutil.copy(FIXTURES / "sheets" / "tiny-card.yaml", library)
    roster = FIXTURES / "rosters" / "bsdata" / "mesbg-warband.ros"
    assert run_qrs("--sources", str(library), "handout", "import", str(roster)).returncode == 0
    ran = run_qrs(
        "--json", "--sources", str(library), "--build-dir", str(tmp_path / "build"), "handout", "mesbg-warband"
    )
    assert ran.returncode == 0, ran.stderr
    (wrote,) = [event for event in map(json.loads, ran.stdout.splitlines()) if event["event"] == "wrote"]
    used = [column["used"] for column in wrote["layout"]["pages"][-1]]
    assert len(wrote["layout"]["pages"]) == 1 and max(used) - min(used) <= 0.16, used
    assert wrote["layout"]["warnings"] == []
    printed = pdf_squeezed(wrote["path"]).replace("\u2019", "'")  # the sheet's typography: a typographic apostrophe
    shield = (
        "A Shield increases the Defence characteristic of its bearer by 1.",
        "Cavalry models cannot use the Shieding rule.",
    )  # the catalogue's own words, its typo kept
    assert "Shield(cont.)" in printed
    assert printed_in_parts(squeeze(roster_rule(roster, "Shield")), printed, 2) and all(
        squeeze(words) in printed for words in shield
    )


def test_a_real_rosters_long_rule_is_printed_whole_and_leaves_no_hole(tmp_path):
    """Issue #42 item 3, from real catalogue data (tests/fixtures/rosters/bsdata/wh40k-10e-battlescribe.ros,
    BSData/wh40k-10e): the army's rules are a glossary of texts up to 2,122 characters. "Leader" no longer goes
    whole to the next page leaving a hole: it is printed where it falls, continued between two of its lines or
    paragraphs where the column ends, every word printed once, in order, and no column is left with a hole."""
    import json
    import re
    from html import unescape

    library = tmp_path / "sources"
    library.mkdir()
    shutil.copy(FIXTURES / "sheets" / "tiny-card.yaml", library)
    roster = FIXTURES / "rosters" / "bsdata" / "wh40k-10e-battlescribe.ros"
    assert run_qrs("--sources", str(library), "handout", "import", str(roster)).returncode == 0
    ran = run_qrs(
        "--json",
        "--sources",
        str(library),
        "--build-dir",
        str(tmp_path / "build"),
        "handout",
        "wh40k-10e-battlescribe",
        "--lang",
        "en",
    )
    assert ran.returncode == 0, ran.stderr
    (wrote,) = [event for event in map(json.loads, ran.stdout.splitlines()) if event["event"] == "wrote"]
    printed = pdf_squeezed(wrote["path"]).replace("\u2019", "'")
    text = roster.read_text(encoding="utf-8")
    leader = unescape(re.search(r'<rule [^>]*name="Leader"[^>]*>\s*<description>([^<]*)</description>', text).group(1))
    leader = squeeze(leader).replace("\u2019", "'")
    assert len(leader) > 1200
    assert printed_in_parts(leader, printed, 2)
    assert wrote["layout"]["warnings"] == []


def roster_rule(roster: Path, name: str) -> str:
    """The text of the roster's Wargear profile `name`, as the catalogue writes it."""
    import re
    from html import unescape

    found = re.search(
        rf'<profile[^>]*name="{name}"[^>]*>.*?<characteristic[^>]*>([^<]*)</characteristic>',
        roster.read_text(encoding="utf-8"),
        re.S,
    )
    return unescape(found.group(1))


def _key_positions(page, keys: set[str]) -> dict[str, list[float]]:
    """The x (mm from the page's left edge) of each of these texts where the page prints it alone."""
    found: dict[str, list[float]] = {}

    def visit(text, cm, tm, font, size):
        if text.strip() in keys:
            found.setdefault(text.strip(), []).append((cm[4] + tm[4] * cm[0]) * 25.4 / 72)

    page.extract_text(visitor_text=visit)
    return found


def _line_tops(page) -> dict[str, float]:
    """The height (mm from the page's foot) of each text the page prints, its first time."""
    found: dict[str, float] = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.setdefault(text.strip(), (cm[5] + tm[5] * cm[3]) * 25.4 / 72)

    page.extract_text(visitor_text=visit)
    return found


def test_a_band_that_would_leave_a_blank_column_above_it_goes_across_the_page_foot(tmp_path):
    """Issue #42 item 2: two tables that never split (an army, its units) before a wound track set across the page:
    under their balanced columns the band would leave the third column blank. It goes across the page's foot, the
    rules after it filling the three columns above it, none blank, in reading order."""
    folder = FIXTURES / "sheets"
    source = folder / "band-sinks.yaml"
    sheet = pipeline.check(source)
    written = pipeline.build(Project.at(folder, tmp_path / "build"), pipeline.SheetTarget(source), "en", "pdf")
    report = written.layout
    assert report["warnings"] == [] and report["feet"] == [["wound-track"]] and report["bands"] == [[]], report
    columns = report["pages"][0]
    assert len(columns) == 3 and all(column["blocks"] for column in columns)
    assert [ident for column in columns for ident in column["blocks"]][:3] == ["army", "roster", "airborne"]
    tops = _line_tops(PdfReader(written.path).pages[0])
    assert tops["Gunship 3"] < min(tops["Transport"], tops["Combat squads"], tops["Supersonic"])  # under the columns
    assert_complete(written.path, sheet)


def test_a_block_the_author_makes_wide_spans_the_page_in_the_pdf_and_on_the_web(tmp_path):
    """Issue #42 item 2: `wide: all` on a paragraph that fits a column sets it across the page: under the balanced
    columns of what comes before it, what follows going on in columns under it, on the same page (the sheet keeps
    its two pages: set across the top of a new page, it took three, the first a third full)."""
    folder = tmp_path / "sources"
    folder.mkdir()
    source = folder / "wide-matrix.yaml"
    text = (FIXTURES / "sheets" / "wide-matrix.yaml").read_text(encoding="utf-8")
    assert "      - id: rule-3\n" in text
    source.write_text(text.replace("      - id: rule-3\n", "      - id: rule-3\n        wide: all\n"), encoding="utf-8")
    written = pipeline.build(Project.at(folder, tmp_path / "build"), pipeline.SheetTarget(source), "en", "pdf")
    report = written.layout
    assert report["feet"][0] == ["rule-3"] and len(report["pages"]) == 2, report
    assert not [warning for warning in report["warnings"] if "blank" in warning or "continued" in warning], report
    above, below = report["pages"][0][:3], report["pages"][0][3:]
    assert [column["blocks"][0] for column in above] == ["rule-1", "rule-2", "rule-2-cont-1"]
    assert below[0]["blocks"][0] == "rule-4" and len(below) == 3  # what follows the band, under it
    assert all("rule-3" not in column["blocks"] for page in report["pages"] for column in page)
    page = pipeline.build(
        Project.at(folder, tmp_path / "build"), pipeline.SheetTarget(source), "en", "html"
    ).path.read_text(encoding="utf-8")
    assert re.search(r'<section class="[^"]*\bwide\b[^"]*" id="rule-3"', page), "the web page sets it across too"


def test_a_matrix_wider_than_a_column_spans_the_page_above_its_columns(tmp_path):
    """Issue #42: on A4 landscape in three columns, a 16×16 matrix of troop types (wider than a column) is set
    across the top of a page, not clipped. It does not fit under the prose before it, which would then end its page
    a third empty: it floats to the top of the next page, as a figure does, and the text after it fills the first
    page, printing the section's heading the matrix would have. A 6×6 matrix stays in its column, at its own width."""
    from generator.rendering import layout

    folder = FIXTURES / "sheets"
    source = folder / "wide-matrix.yaml"
    sheet = pipeline.check(source)
    blocks = {block.id: block for block in sheet.blocks()}
    assert blocks["outcomes"].wide is None and len(blocks["outcomes"].row_keys) == 16  # made wide without asking
    written = pipeline.build(
        Project.at(folder, tmp_path / "build"), pipeline.SheetTarget(source), "en", "pdf"
    )  # no finding
    pdf = written.path
    report = written.layout
    assert report["columns"] == 3 and report["warnings"] == [], report
    banded = [number for number, band in enumerate(report["bands"]) if "outcomes" in band]
    assert banded == [1], report["bands"]
    first = [ident for column in report["pages"][0] for ident in column["blocks"]]
    assert "after-8" in first and "dice" in first and min(column["used"] for column in report["pages"][0]) > 0.75
    page_text = squeeze(PdfReader(pdf).pages[0].extract_text())
    assert "COMBATOUTCOMES" in page_text and "COMBATOUTCOMES(cont.)" not in page_text  # the heading, once, by its text
    assert_complete(pdf, sheet)
    frame = layout.page_frame(sheet, pipeline.BuildOptions())
    keys = set(blocks["outcomes"].column_keys) | {"Enemy die", "Your die"}
    printed = _key_positions(PdfReader(pdf).pages[1], keys)
    spread = [x for key in blocks["outcomes"].column_keys for x in printed[key][:1]]
    assert max(spread) - min(spread) > frame.column_width  # wider than a column: it spans the page
    assert max(spread) < frame.page_width - frame.margins[1]  # and ends inside it
    printed = _key_positions(PdfReader(pdf).pages[0], keys)
    die = printed["Enemy die"][0]
    third = frame.margins[3] + 2 * (frame.column_width + layout.COLUMN_GAP_MM)  # the 6×6 is in the third column
    assert third - 1 <= printed["Your die"][0] < die < frame.page_width - frame.margins[1]
    assert printed["Your die"][0] - third > 10  # at its own width, centred: not stretched from the column's edge
