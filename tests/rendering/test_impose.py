"""`--impose 2up|booklet`: half-size pages, two on each side of the paper, in reading or folding order."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys

import pytest
import weasyprint
from pypdf import PdfReader

from generator.output import pipeline
from generator.project import Project
from generator.rendering import impose
from tests.conftest import FIXTURES, ROOT

A4_LANDSCAPE = (841.89, 595.28)  # points
LETTER_LANDSCAPE = (792.0, 612.0)


def numbered_pages(count: int) -> bytes:
    """A PDF of `count` A5 portrait pages, each saying its number: P1, P2…"""
    pages = "".join(f'<p style="break-after: page">P{number}</p>' for number in range(1, count + 1))
    return weasyprint.HTML(string=f"<style>@page {{ size: A5 portrait }}</style>{pages}").write_pdf()


def sides(pdf: bytes) -> list[list[str]]:
    """The page numbers printed on each side, left to right."""
    return [page.extract_text().split() for page in PdfReader(io.BytesIO(pdf)).pages]


def sizes(pdf: bytes) -> set[tuple[float, float]]:
    return {
        (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2))
        for page in PdfReader(io.BytesIO(pdf)).pages
    }


def test_2up_puts_the_pages_in_order_two_a_side():
    assert impose.order(5, "2up") == [(1, 2), (3, 4), (5, None)]
    assert impose.order(2, "2up") == [(1, 2)]


def test_a_booklet_is_ordered_for_folding_with_blanks_to_a_multiple_of_four():
    assert impose.order(8, "booklet") == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert impose.order(5, "booklet") == [(None, 1), (2, None), (None, 3), (4, 5)]
    assert impose.order(1, "booklet") == [(None, 1), (None, None)]
    with pytest.raises(ValueError):
        impose.order(4, "4up")


def test_2up_on_a4_landscape():
    pdf = impose.imposed(numbered_pages(5), "2up", "A4")
    assert sides(pdf) == [["P1", "P2"], ["P3", "P4"], ["P5"]]
    assert sizes(pdf) == {A4_LANDSCAPE}


def test_a_booklet_on_letter_reads_in_order_once_folded():
    pdf = impose.imposed(numbered_pages(8), "booklet", "letter")
    assert sides(pdf) == [["P8", "P1"], ["P2", "P7"], ["P6", "P3"], ["P4", "P5"]]
    assert sizes(pdf) == {LETTER_LANDSCAPE}


def test_each_half_page_is_centred_in_its_half_and_clipped_to_it():
    """An A5 page is 419.5 points wide, half of A4 landscape 420.9: 0.7 point either side, and nothing of it drawn
    outside its box (each page is a form XObject, which its bounding box clips)."""
    reader = PdfReader(io.BytesIO(impose.imposed(numbered_pages(2), "2up", "A4")))
    side = reader.pages[0]
    content = side.get_contents().get_data().decode("latin-1")
    moves = re.findall(r"^q 1 0 0 1 (\S+) (\S+) cm (/\w+) Do Q$", content, re.M)
    assert [(round(float(x), 1), round(float(y), 1)) for x, y, _ in moves] == [(0.7, 0.0), (421.7, 0.0)]
    forms = side["/Resources"]["/XObject"]
    boxes = [[round(float(value), 1) for value in forms[name].get_object()["/BBox"]] for _, _, name in moves]
    assert boxes == [[0.0, 0.0, 419.5, 595.3]] * 2


def test_a_link_is_moved_with_its_page_and_still_leads_to_its_address():
    linked = weasyprint.HTML(
        string="<style>@page { size: A5 portrait; margin: 20mm }</style><p>P1</p>"
        '<p style="break-before: page"><a href="https://example.org/rules">P2</a></p>'
    ).write_pdf()
    original = PdfReader(io.BytesIO(linked)).pages[1]["/Annots"][0].get_object()
    side = PdfReader(io.BytesIO(impose.imposed(linked, "2up", "A4"))).pages[0]
    (link,) = (annotation.get_object() for annotation in side["/Annots"])
    assert link["/A"]["/URI"] == "https://example.org/rules"
    x1, y1, x2, y2 = (float(value) for value in original["/Rect"])  # its corners, in either order
    before = [min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)]
    moved = [float(after) - before for after, before in zip(link["/Rect"], before)]
    assert moved == pytest.approx([421.7, 0.0, 421.7, 0.0], abs=0.05)  # the right half, as the page it is on
    assert link["/P"].get_object() == side


@pytest.fixture(scope="module")
def imposed_build(tmp_path_factory):
    """The fixture sheet laid out on A5 and imposed 2up, and its plain PDF."""
    root = tmp_path_factory.mktemp("impose")
    shutil.copytree(FIXTURES, root / "sources")
    project = Project.at(root / "sources")
    source = project.sources / "every-block.yaml"
    plain = pipeline.build(project, pipeline.SheetTarget(source), "fr", "pdf").path
    written = pipeline.build(project, pipeline.SheetTarget(source), "fr", "pdf", pipeline.BuildOptions(impose="2up"))
    two_up = written.path
    return plain, two_up, written.layout


def test_a_sheet_is_laid_out_on_a5_in_two_columns_and_printed_two_a_side(imposed_build):
    plain, two_up, layout = imposed_build
    assert two_up.name == "every-block.2up.fr.pdf" and plain.is_file()  # a variant never overwrites the plain PDF
    assert layout["columns"] == 2
    half_pages = len(layout["pages"])
    assert len(PdfReader(two_up).pages) == -(-half_pages // 2)
    assert sizes(two_up.read_bytes()) == {A4_LANDSCAPE}
    text = "".join(page.extract_text() for page in PdfReader(two_up).pages)
    assert f"1 / {half_pages}" in text  # each half page keeps its footer, numbered among the A5 pages


@pytest.mark.parametrize(
    "other, named",
    [(["--marks"], "--marks and --impose"), (["--pdf-variant", "pdf/ua-1"], "--pdf-variant and --impose")],
)
def test_crop_marks_or_a_standard_and_imposition_are_refused_together(tmp_path, other, named):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "--sources",
            str(FIXTURES),
            "--build-dir",
            str(tmp_path),
            "build",
            "every-block",
            "--impose",
            "2up",
            *other,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 64 and named in result.stderr  # a usage error
