"""`qrs preview`: PNG images of each page, drawn from the built PDF (reused while it is fresh)."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image

from generator.output import preview
from generator.output.targets import SheetTarget
from generator.project import Project
from tests.conftest import FIXTURES, LIBRARY, run_qrs


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("preview")
    shutil.copytree(FIXTURES, root / "sources")
    return Project.at(root / "sources")


def test_preview_builds_then_draws_every_page(project):
    source = project.sources / "every-block.yaml"
    pdf, built, images = preview.preview(project, SheetTarget(source), "fr", scale=1.0)
    assert built and pdf == project.build / "every-block.fr.pdf"
    assert [image.name for image in images] == [f"every-block.fr-{n}.png" for n in range(1, len(images) + 1)]
    assert images and all(image.parent == project.build / "preview" for image in images)
    with Image.open(images[0]) as first:
        assert first.format == "PNG"
        width, height = first.size  # A4 landscape is 842 × 595.3 points: 1 pixel a point at scale 1
        assert (width, round(height / 10)) == (842, 60)


def test_preview_reuses_a_fresh_pdf_and_rebuilds_a_stale_one(project):
    source = project.sources / "every-block.yaml"
    _, built, images = preview.preview(project, SheetTarget(source), "fr", project.build / "elsewhere", scale=0.5)
    assert not built and images[0].parent == project.build / "elsewhere"  # built by the test above
    with Image.open(images[0]) as small:
        assert small.size[0] == 421
    source.write_text(source.read_text(encoding="utf-8") + "# saved again, with an edit\n", encoding="utf-8")
    _, built, _ = preview.preview(project, SheetTarget(source), "fr", project.build / "elsewhere", scale=0.5)
    assert built


def test_pages_the_pdf_no_longer_has_are_removed(project, tmp_path):
    pdf = project.build / "every-block.fr.pdf"  # built by the tests above
    (tmp_path / "every-block.fr-9.png").write_bytes(b"old")
    (tmp_path / "every-block.fr-CA-9.png").write_bytes(b"another language")
    images = preview.pages(pdf, tmp_path, "every-block.fr", scale=0.2)
    assert not (tmp_path / "every-block.fr-9.png").exists()
    assert (tmp_path / "every-block.fr-CA-9.png").exists()
    assert sorted(path.name for path in tmp_path.glob("every-block.fr-?.png")) == [image.name for image in images]


def test_qrs_preview_draws_a_handout(tmp_path):
    shutil.copytree(LIBRARY, tmp_path / "sources", ignore=shutil.ignore_patterns("irregular*", "wab2*"))
    result = run_qrs(
        "--sources", str(tmp_path / "sources"), "preview", "warhammer-dwarfs", "--lang", "en", "--scale", "0.3"
    )  # a handout's id, as a sheet's (--handout ID names one too)
    assert result.returncode == 0, result.stderr
    drawn = sorted((tmp_path / "build" / "preview").glob("warhammer-dwarfs.en-*.png"))
    assert drawn and f"wrote {drawn[0].relative_to(tmp_path)}" in result.stdout
    assert (tmp_path / "build" / "handouts" / "warhammer-dwarfs.en.pdf").is_file()


def test_a_page_drawn_again_unchanged_is_not_written_again(project, tmp_path):
    pdf = project.build / "every-block.fr.pdf"  # built by the tests above
    [image] = preview.pages(pdf, tmp_path, "every-block.fr", scale=0.2)
    written = (image.stat().st_ino, image.stat().st_mtime_ns)  # a new file each time it is written
    with Image.open(image) as drawn:
        size = drawn.size
    assert preview.pages(pdf, tmp_path, "every-block.fr", scale=0.2) == [image]
    assert (image.stat().st_ino, image.stat().st_mtime_ns) == written  # the same pixels: left alone
    image.write_bytes(b"changed by hand since")
    preview.pages(pdf, tmp_path, "every-block.fr", scale=0.2)
    with Image.open(image) as redrawn:  # a file changed since this process wrote it is drawn again
        assert redrawn.size == size
    preview.pages(pdf, tmp_path, "every-block.fr", scale=0.3)
    with Image.open(image) as larger:  # other pixels: written again
        assert larger.size[0] > size[0]
