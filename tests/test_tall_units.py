"""Long list items and dice results built (issue #42 item 3): tests/fixtures/sheets/tall-steps.yaml's bullets, numbered
line, steps (one with sub-steps and bullets) and dice results, each taller than a third of a column, may continue
into the next column between two of their lines. The sheet is laid out once; its plan, boxes and PDF text are read."""

from __future__ import annotations

import io
from functools import partial

import pytest
from pypdf import PdfReader

from generator.output import pipeline
from generator.project import Project
from generator.rendering import chunks, cuts, heights, layout, planned, render
from generator.rendering.inline import Inline
from generator.rendering.items import items
from generator.rendering.templating import context
from tests.conftest import FIXTURES, run_qrs, source_head, written_source
from tests.test_pipeline import printed_in_parts, squeeze

SOURCE = FIXTURES / "sheets" / "tall-steps.yaml"


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory):
    """(the sheet, its layout, the PDF's text squeezed)."""
    project = Project.at(SOURCE.parent, tmp_path_factory.mktemp("build"))
    sheet = pipeline.check(SOURCE)
    laid = render.layout(project, sheet, pipeline.BuildOptions())
    reader = PdfReader(io.BytesIO(render.pdf(sheet, laid.document)))
    return sheet, laid, squeeze("".join(page.extract_text() for page in reader.pages)), project


def test_the_sheet_keeps_two_pages_at_full_size_and_no_column_but_the_last_page_s_has_a_hole(laid_out):
    # Kept whole, the long units left the first column half empty and took a third page at 100 % (the sheet was
    # set at 95 % to keep two).
    _, laid, _, _ = laid_out
    report = laid.report()
    *before, _ = report["pages"]
    assert report["scale"] == 1.0 and len(report["pages"]) == 2, report
    assert all(1 - column["used"] <= layout.MAX_HOLE for page in before for column in page), report["pages"]
    assert report["warnings"] == [] and report["defects"] == [] and laid.holds()


def test_every_long_unit_is_told_to_the_packer_as_its_lines_and_the_plan_cuts_steps_lines_and_dice_rows(laid_out):
    sheet, laid, _, project = laid_out
    options = pipeline.BuildOptions()
    frame = layout.page_frame(sheet, options)
    whole = items(sheet)
    normal = partial(context, project, sheet, options, 0, None)(1.0)
    cache = heights.Cache(heights.folder(project.build) / "tall-steps.en.json")
    measured, _ = chunks.measured(project, normal, chunks.Chunks.of(project, normal, whole), cache)
    tall = planned.tall(frame)
    for item in whole:
        found = measured[item.id]
        rows = cuts.told(item, found, tall)
        cut = sorted({row for row, part in rows.units if part is not None})
        assert cut == sorted({found_cut.unit for found_cut in found.cuts}), item.id  # every row that may be cut
        softly = sorted({rows.units[unit][0] for unit in rows.soft})
        assert softly == [row for row in cut if found.units[row] <= tall], item.id
    long_units = {"overview", "turn-sequence", "mishaps", "weather", "recovery", "between-games", "trading-post"}
    assert {item.id for item in whole if any(cut.unit for cut in measured[item.id].cuts)} >= long_units
    continued = {item.block.type for page in laid.plan for column in page for item in column if item.start_cut}
    assert continued == {"sequence", "dice", "text"}, continued


def test_a_continued_item_prints_no_number_or_bullet_and_the_items_after_it_keep_theirs(laid_out):
    sheet, laid, printed, _ = laid_out
    continued = [
        box
        for page in laid.document.pages
        for box in page._page_box.descendants()
        if getattr(box, "element_tag", None) == "li" and cuts.CONTINUED in box.element.get("class", "")
    ]
    assert continued  # each starts a column: its number or bullet was printed at the foot of the column before
    assert not [
        box
        for item in continued
        for box in item.descendants()
        if getattr(box, "element_tag", "") in ("li::before", "li::marker")
    ]
    numbers = [
        "1.Initiative",
        "3.Activation",
        "4.Shooting",
        "5.Combat",
        "a.Strike",
        "b.Wound",
        "c.Pushback",
        "6.Endphase",
        "A.Renown",
        "B.Injuries",
        "1.Roll",
        "2.Heal",
        "3.Record",
        "C.Experience",
        "D.Trading",
        "E.Muster",
        "1.Amodeltakenout",
        "2.Ghostsignore",
        "3.Amodelthatrecovers",
    ]
    assert [number for number in numbers if printed.count(number) != 1] == []


def test_every_long_text_is_printed_once_in_order_its_roll_repeated_where_its_row_continues(laid_out):
    sheet, _, printed, _ = laid_out
    plain = Inline(sheet, sheet.lang).plain
    blocks = {block.id: block for block in sheet.blocks()}
    texts = [
        blocks["overview"].content[1].bullets[2],
        blocks["recovery"].content[0].numbered[1],
        blocks["turn-sequence"].steps[2].text,
        blocks["turn-sequence"].steps[4].steps[1].text,
        blocks["between-games"].steps[1].steps[1].text,
        blocks["between-games"].steps[3].text,
        blocks["trading-post"].content[0].bullets[2],
    ]
    assert [text for text in texts if not printed_in_parts(squeeze(plain(text)), printed, 2)] == []
    for block in (blocks["mishaps"], blocks["weather"], blocks["injuries"]):
        for row in block.rows:
            cut = printed.count(squeeze(plain(row.roll)) + "(cont.)")
            assert printed_in_parts(squeeze(plain(row.text)), printed, 1 + cut), (block.id, row.roll)
    assert "3–4(cont.)" in printed


def test_the_content_suite_finds_every_text_of_a_unit_cut_between_its_lines(tmp_path):
    ran = run_qrs("--sources", str(SOURCE.parent), "--build-dir", str(tmp_path), "test", "tall-steps", "tall-rows")
    assert ran.returncode == 0, ran.stdout + ran.stderr


def test_a_block_of_one_step_or_one_dice_result_taller_than_a_column_continues_between_its_lines(tmp_path):
    """A block of a single unit was never split: a sequence of one step (its sub-steps under it) taller than a
    column ran off its column. Its one unit is now cut between its lines like any other."""
    rule = " ".join(
        step.text
        for block in pipeline.check(SOURCE).blocks()
        if block.type == "sequence"
        for step in block.steps
        if step.text and len(step.text) > 1000
    )  # 3,000 characters
    text = (
        source_head("one-step") + "paper: {size: A4, orientation: landscape, pages: 2, columns: 3}\n"
        "sections:\n  - id: s\n    title: Tour\n    blocks:\n"
        f"      - {{id: only, type: sequence, steps: [{{title: Tout, text: {rule!r}, steps: "
        f"[{{title: Encore, text: {rule!r}}}]}}]}}\n"
        f"      - {{id: roll, type: dice, die: D6, rows: [{{roll: 1-6, text: {rule!r}, then: {{die: D3, rows: "
        f"[{{roll: 1-2, text: {rule!r}}}, {{roll: '3', text: {rule!r}}}]}}}}]}}\n"
    )
    written_source(tmp_path, "one-step", text)
    report = pipeline.build(
        Project.at(tmp_path, tmp_path / "build"), pipeline.SheetTarget(tmp_path / "one-step.yaml"), "fr", "pdf"
    ).layout
    assert len(report["pages"]) == 2 and report["warnings"] == [], report
    # the step, then the dice result and the roll on it, each taller than a column, continued between its lines
    placed = [block.split("-cont-0-")[0] for page in report["pages"] for column in page for block in column["blocks"]]
    assert placed == ["only"] * placed.count("only") + ["roll"] * placed.count("roll"), placed
    assert placed.count("only") >= 2 and placed.count("roll") >= 2, placed
