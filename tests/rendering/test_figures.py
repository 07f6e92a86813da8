"""Figures on the page: a true-size figure measured in the PDF at its declared width (within 0.2 mm) on every paper,
at a scaled type and imposed; across the page where a column is too narrow, refused where the page is; its alternative text in the tagged PDF; its
picture embedded in the web edition; a new drawing builds again and is measured again."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from generator.model.blocks import figure
from generator.model.blocks.figure import PNG_SIGNATURE
from generator.output import pipeline
from generator.project import TEMPLATES, Project
from generator.rendering import chunks as chunking
from generator.rendering import figures, render, templating
from tests.conftest import FIXTURES, run_qrs

FIGURE_FIXTURE = FIXTURES / "figure"
GAUGE_MM = (76.2, 12.7)  # figures/gauge.svg: a black bar 3 inches by half an inch, the whole drawing
BARS_MM = (30.0, 7.5)  # figures/bars.png: 64 × 16 pixels, printed 30 mm wide
TOLERANCE_MM = 0.2
MM_PER_POINT = 25.4 / 72


def sources(tmp_path: Path, **replaced: str) -> Path:
    """A copy of the figure fixture's sources, its sheet's text edited (old text → new)."""
    folder = tmp_path / "sources"
    shutil.copytree(FIGURE_FIXTURE, folder)
    text = (folder / "gauges.yaml").read_text(encoding="utf-8")
    for old, new in replaced.items():
        assert old in text
        text = text.replace(old, new)
    (folder / "gauges.yaml").write_text(text, encoding="utf-8")
    return folder


def printed_sizes(pdf: Path) -> list[tuple[float, float]]:
    """The width and height (mm) of each drawn shape and image of each page, as pdfium places them on the page
    (every transformation of the content stream and of the forms it draws applied)."""
    found = []
    document = pypdfium2.PdfDocument(str(pdf))
    for page in document:
        for shape in page.get_objects(max_depth=10):
            if shape.type in (pypdfium2.raw.FPDF_PAGEOBJ_PATH, pypdfium2.raw.FPDF_PAGEOBJ_IMAGE):
                left, bottom, right, top = shape.get_bounds()
                found.append(((right - left) * MM_PER_POINT, (top - bottom) * MM_PER_POINT))
    document.close()
    return found


def assert_printed_at(pdf: Path, size: tuple[float, float]) -> tuple[float, float]:
    """The shape of about `size` in the PDF, which must be `size` within TOLERANCE_MM; the error, in mm."""
    near = [found for found in printed_sizes(pdf) if abs(found[0] - size[0]) < 5 and abs(found[1] - size[1]) < 5]
    assert near, f"nothing of about {size} mm in {pdf.name}: {printed_sizes(pdf)}"
    error = min(near, key=lambda found: abs(found[0] - size[0]) + abs(found[1] - size[1]))
    assert abs(error[0] - size[0]) <= TOLERANCE_MM and abs(error[1] - size[1]) <= TOLERANCE_MM, (error, size)
    return error[0] - size[0], error[1] - size[1]


@pytest.mark.parametrize(
    "paper, edit, options",
    [
        ("A4", {}, {}),
        ("letter", {}, {"paper": "letter"}),
        (
            "A4 portrait, 11 pt type",
            {"paper: {pages: 1}": "paper: {pages: 1, orientation: portrait, columns: 2, type: 11pt}"},
            {},
        ),
        ("A4 imposed 2up", {}, {"impose": "2up"}),
        ("letter booklet", {}, {"paper": "letter", "impose": "booklet"}),
    ],
)
def test_a_true_size_figure_is_printed_at_its_declared_size(tmp_path, paper, edit, options):
    folder = sources(tmp_path, **edit)
    written = pipeline.build(
        Project.at(folder), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "pdf", pipeline.BuildOptions(**options)
    )
    pdf = written.path
    assert written.layout["scale"] != 1.0 or options  # a short sheet's type is grown: the figure is not
    assert_printed_at(pdf, GAUGE_MM)
    assert_printed_at(pdf, BARS_MM)  # a figure that fits: the width it asks for, its proportions kept


def test_a_figure_without_width_fits_the_column(tmp_path):
    folder = sources(tmp_path, **{"        width: 30mm\n": ""})
    pdf = pipeline.build(Project.at(folder), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "pdf").path
    column = render.page_frame(pipeline.check(folder / "gauges.yaml"), pipeline.BuildOptions()).column_width
    assert_printed_at(pdf, (column, column / 4))


def test_a_true_size_figure_wider_than_a_column_spans_the_page_at_its_size(tmp_path):
    folder = sources(tmp_path, **{"paper: {pages: 1}": "paper: {pages: 1, orientation: portrait, columns: 4}"})
    written = pipeline.build(Project.at(folder), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "pdf")
    pdf = written.path
    assert ["gauge"] in written.layout["bands"]  # 76.2 mm in columns of 44 mm: across the page, above them
    assert_printed_at(pdf, GAUGE_MM)


def test_a_true_size_figure_wider_than_the_page_is_refused(tmp_path):
    folder = sources(
        tmp_path,
        **{"width: 3in": "width: 8in", "paper: {pages: 1}": "paper: {pages: 1, orientation: portrait, columns: 4}"},
    )
    built = run_qrs("--sources", str(folder), "--build-dir", str(tmp_path / "build"), "build", "gauges")
    assert built.returncode == 2 and "Traceback" not in built.stderr
    assert "gauges.yaml:20:16: a true-size figure 8in (203.2 mm) wide does not fit the page" in built.stderr, (
        built.stderr
    )
    assert not (tmp_path / "build" / "gauges.fr.pdf").exists()
    checked = run_qrs("--sources", str(folder), "check", "gauges")  # said before any build: qrs check on its paper
    assert checked.returncode == 2 and re.search(
        r"gauges\.yaml:20:16: a true-size figure 8in \(203\.2 mm\) wide does not fit the page, 194\.0 mm wide inside "
        r"its margins on this paper \(210 × 297 mm, 4 column\(s\)\)",
        checked.stderr,
    ), checked.stderr


def test_a_true_size_figure_taller_than_a_column_is_refused(tmp_path):
    folder = sources(tmp_path)
    gauge = folder / "figures" / "gauge.svg"
    gauge.write_text(
        gauge.read_text(encoding="utf-8").replace(
            'height="12.7mm" viewBox="0 0 76.2 12.7"', 'height="254mm" viewBox="0 0 76.2 254"'
        ),
        encoding="utf-8",
    )
    with pytest.raises(
        pipeline.UserError,
        match=r"a true-size figure 3in \(76\.2 mm\) wide is 254\.0 mm tall: a column "
        r"holds 191\.0 mm",
    ):
        pipeline.build(Project.at(folder), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "pdf")


def test_the_alternative_text_is_the_figure_s_in_the_tagged_pdf(tmp_path):
    folder = sources(tmp_path)
    pdf = pipeline.build(
        Project.at(folder),
        pipeline.SheetTarget(folder / "gauges.yaml"),
        "fr",
        "pdf",
        pipeline.BuildOptions(pdf_variant="pdf/ua-1"),
    ).path
    reader = PdfReader(pdf)
    figures, todo = [], [reader.trailer["/Root"]["/StructTreeRoot"]]
    while todo:
        node = todo.pop()
        node = node.get_object() if hasattr(node, "get_object") else node
        if isinstance(node, dict):
            if node.get("/S") == "/Figure":
                figures.append(str(node.get("/Alt")))
            todo += [value for key, value in node.items() if key in ("/K",)]
        elif isinstance(node, list):
            todo += list(node)
    assert sorted(figures) == [
        "Huit barres noires.",
        "Une réglette de 3\u00a0pouces, graduée tous les pouces.",
    ] or sorted(figure.replace("\u00a0", " ") for figure in figures) == [
        "Huit barres noires.",
        "Une réglette de 3 pouces, graduée tous les pouces.",
    ], figures


def test_the_web_edition_embeds_the_picture_with_its_alternative_text(tmp_path):
    folder = sources(tmp_path)
    page = pipeline.build(
        Project.at(folder), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "html"
    ).path.read_text(encoding="utf-8")
    images = re.findall(r'<img src="([^"]*)" alt="([^"]*)" style="width: ([^"]*)">', page)
    assert [(src.split(",")[0], width) for src, _, width in images] == [
        ("data:image/svg+xml;base64", "3in"),
        ("data:image/png;base64", "30mm"),
    ]
    assert "Huit barres noires." in [alt for _, alt, _ in images]
    assert (
        "<figcaption>La réglette de 3\u00a0pouces, à taille réelle.</figcaption>" in page.replace(" ", "\u00a0")
        or "<figcaption>La réglette de 3 pouces, à taille réelle.</figcaption>" in page
    )
    assert "file:" not in page


def test_the_fetcher_serves_embedded_pictures_only():
    fetcher = render.ProjectFetcher(TEMPLATES)
    assert fetcher.fetch("data:image/png;base64,iVBORw0KGgo=").read() == b"\x89PNG\r\n\x1a\n"
    for url in ("data:text/html;base64,PHNjcmlwdD4=", "data:image/svg+xml,<svg/>", "data:,secret"):
        with pytest.raises(PermissionError):
            fetcher.fetch(url)


def test_a_new_drawing_builds_again_and_is_measured_again(tmp_path):
    folder = sources(tmp_path)
    where = ("--sources", str(folder), "--build-dir", str(tmp_path / "build"))
    assert run_qrs(*where, "build", "gauges").returncode == 0
    pdf = tmp_path / "build" / "gauges.fr.pdf"
    first = pdf.read_bytes()
    assert "1 up to date" in run_qrs(*where, "build", "gauges").stdout
    project, sheet = Project.at(folder, tmp_path / "build"), pipeline.check(folder / "gauges.yaml")
    before = _figure_keys(project, sheet)
    gauge = folder / "figures" / "gauge.svg"
    gauge.write_text(gauge.read_text(encoding="utf-8").replace("12.7", "25.4"), encoding="utf-8")  # twice as tall
    again = run_qrs(*where, "build", "gauges")
    assert again.returncode == 0 and "1 built" in again.stdout, again.stdout
    assert pdf.read_bytes() != first
    assert_printed_at(pdf, (76.2, 25.4))
    after = _figure_keys(project, sheet)
    assert before["gauge"] != after["gauge"] and before["bars"] == after["bars"]  # its height is measured anew


def _figure_keys(project: Project, sheet) -> dict[str, str]:
    """The keys the heights cache keeps each block's measurement under."""
    context = templating.context(project, sheet, pipeline.BuildOptions(), 0, None, 1.0)
    chunks = chunking.Chunks.of(project, context, render.items(sheet))
    return chunks.keys(project, context)[1]


def test_identical_sources_give_identical_bytes(tmp_path):
    folder = sources(tmp_path)
    first = pipeline.build(
        Project.at(folder, tmp_path / "one"), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "pdf"
    ).path.read_bytes()
    second = pipeline.build(
        Project.at(folder, tmp_path / "two"), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "pdf"
    ).path.read_bytes()
    assert first == second


def test_a_handout_drawn_on_a_sheet_prints_its_figure_at_true_size(tmp_path):
    """A band's handout that keeps the section of the delvers card holding its gauge prints the gauge at 3 inches."""
    folder = tmp_path / "sources"
    (folder / "handouts").mkdir(parents=True)
    shutil.copytree(FIXTURES / "sheets" / "figures", folder / "figures")
    card = (FIXTURES / "sheets" / "delvers-card.yaml").read_text(encoding="utf-8")
    (folder / "delvers-card.yaml").write_text(
        card.replace("\nkeywords:\n", "\ncharacteristics: [{id: M, label: M}]\nkeywords:\n", 1), encoding="utf-8"
    )
    handout = folder / "handouts" / "band.yaml"
    handout.write_text(
        "handout: band\nsheet: delvers-card\narmy: The Thursday band\nlang: en\ndate: 2026-11-24\n"
        "include: [moving]\nunits:\n  - {id: leader, name: Band leader, profile: {M: '6'}}\n",
        encoding="utf-8",
    )
    pdf = pipeline.build(Project.at(folder, tmp_path / "build"), pipeline.HandoutTarget(handout), "en", "pdf").path
    assert_printed_at(pdf, (76.2, 12.7))


def test_qrs_check_finds_a_true_size_figure_a_handout_s_paper_cannot_hold(tmp_path):
    """One check path for sheets and handouts (#43): the figure a handout keeps is checked against the handout's
    own paper, as a sheet's is, and the finding is placed at the handout's paper."""
    test_a_handout_drawn_on_a_sheet_prints_its_figure_at_true_size(tmp_path)
    gauge = tmp_path / "sources" / "figures" / "delvers-gauge.svg"
    tall = gauge.read_text(encoding="utf-8").replace(
        'height="12.7mm" viewBox="0 0 76.2 12.7"', 'height="400mm" viewBox="0 0 76.2 400"'
    )
    gauge.write_text(tall, encoding="utf-8")
    handout = tmp_path / "sources" / "handouts" / "band.yaml"
    with pytest.raises(
        pipeline.UserError,
        match=r"band\.yaml:\d+:\d+: .*true-size figure 3in \(76\.2 mm\) wide is "
        r"400\.0 mm tall",
    ):
        pipeline.HandoutTarget(handout).check(Project.at(tmp_path / "sources", tmp_path / "build"))


def thin_png(height: int) -> bytes:
    """A PNG one grey pixel wide and `height` tall: a few dozen kilobytes compressed, whatever its height."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    rows = zlib.compress(b"\x00\x00" * height, 9)  # each row: filter "none", one pixel
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def test_a_fitted_figure_taller_than_its_column_is_scaled_to_fit_with_a_warning(tmp_path):
    """Issue #42: an SVG 100,000 times as tall as wide and a PNG of 1 × 20,000,000 pixels (under the pixel limit)
    printed to fit a column's height, each warned of by block; a PNG of more pixels is still refused unread."""
    folder = sources(
        tmp_path,
        **{
            "      - id: after\n": "      - {id: tall-svg, type: figure, src: figures/tall.svg, alt: Un trait.}\n"
            "      - {id: tall-png, type: figure, src: figures/tall.png, alt: Un trait.}\n"
            "      - id: after\n"
        },
    )
    (folder / "figures" / "tall.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 100000"><rect width="1" height="100000"/></svg>',
        encoding="utf-8",
    )
    (folder / "figures" / "tall.png").write_bytes(thin_png(20_000_000))
    written = pipeline.build(Project.at(folder), pipeline.SheetTarget(folder / "gauges.yaml"), "fr", "pdf")
    pdf = written.path
    column = render.page_frame(pipeline.check(folder / "gauges.yaml"), pipeline.BuildOptions()).column_height
    fitted = [height for _, height in printed_sizes(pdf) if abs(height - figures.FIT_SHARE * column) < TOLERANCE_MM]
    assert fitted and max(height for _, height in printed_sizes(pdf)) < column  # the drawing (pdfium skips the hair)
    warned = [warning for warning in written.layout["warnings"] if "printed less than 0.1 mm wide to fit" in warning]
    assert [warning.split(":")[0] for warning in warned] == ["block 'tall-svg'", "block 'tall-png'"]
    (folder / "figures" / "tall.png").write_bytes(thin_png(figure.MAX_PIXELS + 1))
    with pytest.raises(figure.Refused, match=f"1 × {figure.MAX_PIXELS + 1} pixels"):
        figure.read(folder, "figures/tall.png")
