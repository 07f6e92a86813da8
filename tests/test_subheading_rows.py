"""Sub-heading rows built (issue #42 item 4): the fixture's 43-row to-hit table with nine sub-headings, set in the
four narrow columns of tests/fixtures/sheets/subheadings-card.yaml, read back from the PDF column by column; and
its web edition."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from generator.composing import translate as i18n
from generator.model.types import Subheading
from generator.model.validate import validate
from generator.output import pipeline
from generator.project import Project
from generator.reading.sources import load_file
from generator.rendering import layout
from generator.rendering.inline import Inline
from tests.conftest import FIXTURES
from tests.test_pipeline import assert_complete, assert_text_complete, squeeze

FOLDER = FIXTURES / "sheets"
SOURCE = FOLDER / "subheadings-card.yaml"
MM = 72 / 25.4  # PDF points in a millimetre


def columns_of(pdf, frame: layout.Frame) -> list[list[list[str]]]:
    """Each column's lines, top to bottom, each line's pieces of text left to right, squeezed (the footer left
    out; the sheet's header, across the columns, counted in the first)."""
    pitch = frame.column_width + layout.COLUMN_GAP_MM + layout.RULE_MM
    found: dict[int, dict[float, list[tuple[float, str]]]] = {}

    def visit(text, cm, tm, font, size):
        x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        if text.strip() and y > frame.margins[2] * MM:
            column = int((x / MM - frame.margins[3] + 1) // pitch)  # 1 mm: text set at a column's left edge
            found.setdefault(column, {}).setdefault(round(y, 1), []).append((x, squeeze(text)))

    PdfReader(pdf).pages[0].extract_text(visitor_text=visit)
    return [
        [[text for _, text in sorted(line)] for _, line in sorted(found[column].items(), reverse=True)]
        for column in sorted(found)
    ]


def label_row(rows: list, label: str, printed) -> int:
    """The row whose first cell starts with `label` (the first line of a label wrapped in its cell)."""
    return next(
        index
        for index, row in enumerate(rows)
        if not isinstance(row, Subheading) and printed(row.cells[0].text).startswith(label)
    )


def is_subheading(line: list[str], subheadings: dict) -> bool:
    return len(line) == 1 and line[0] in subheadings


@pytest.mark.parametrize("lang, continued", [("en", "(cont.)"), ("fr", "(suite)")])
def test_no_sub_heading_ends_a_column_and_a_continuation_repeats_its_sub_heading(tmp_path, lang, continued):
    located = load_file(SOURCE)
    sheet = validate(located)
    if lang != sheet.lang:
        sheet, _ = i18n.translate(located, sheet, lang, i18n.catalogue_path(FOLDER, sheet.sheet, lang), False)
    table = next(block for block in sheet.blocks() if block.type == "table")
    written = pipeline.build(Project.at(FOLDER, tmp_path), pipeline.SheetTarget(SOURCE), lang, "pdf")
    pdf = written.path
    columns = columns_of(pdf, layout.page_frame(sheet, pipeline.BuildOptions()))
    assert len(columns) == sheet.paper.columns and written.layout["warnings"] == []
    inline = Inline(sheet, lang)

    def printed(text: str) -> str:
        return squeeze(inline.plain(text))

    subheadings = {printed(table.rows[position].subheading): position for position in table.subheadings()}
    title = printed(table.header[0].title)
    repeated = 0
    for number, lines in enumerate(columns):
        assert not is_subheading(lines[-1], subheadings), f"column {number + 1} ends with {lines[-1]}"
        for at, line in enumerate(lines):  # each sub-heading is followed in its column by its first two rows
            if is_subheading(line, subheadings):
                position, after = subheadings[line[0]], [following[0] for following in lines[at + 1 :]]
                for row in table.rows[position + 1 : position + 3]:
                    assert any(printed(row.cells[0].text).startswith(text) for text in after), (
                        f"{row} left {line[0]} alone"
                    )
        header = next(at for at, line in enumerate(lines) if line[0] == title)
        first, second = lines[header + 1], lines[header + 2]
        if number == 0 or is_subheading(first, subheadings):
            continue  # the table's start, or a column that starts at a sub-heading: nothing to repeat
        over = table.subheading_over(label_row(table.rows, second[0], printed))
        assert "".join(first) == printed(over.subheading) + continued, f"column {number + 1} starts with {first}"
        repeated += 1
    assert repeated, "the fixture's layout should continue the table inside a sub-heading's rows"
    assert_complete(pdf, sheet)  # every sub-heading and cell, in order
    assert_web_prints_the_sub_headings(Project.at(FOLDER, tmp_path), lang, sheet, table)


def assert_web_prints_the_sub_headings(project: Project, lang: str, sheet, table) -> None:
    """The web edition prints the table whole: each sub-heading once, a row across the table's columns."""
    from tests.rendering.test_web import parsed, read_text

    page = parsed(pipeline.build(project, pipeline.SheetTarget(SOURCE), lang, "html").path)
    assert_text_complete(read_text(page), sheet)
    cells = [row[0] for row in page.iter("{http://www.w3.org/1999/xhtml}tr") if "subheading" in row.get("class", "")]
    assert [cell.get("colspan") for cell in cells] == [str(len(table.header))] * len(table.subheadings())
