"""Visual regression: every page of every sheet, in every language, drawn (pypdfium2) and compared
with the committed reference image within a tolerance.

After an intended change of the design or a sheet: `make update-golden`, then look at the new
images in tests/visual/ before committing them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from tests.conftest import LIBRARY, SHEETS

REFERENCES = Path(__file__).resolve().parent / "visual"
UPDATE = os.environ.get("QRS_UPDATE_GOLDEN") == "1"
SCALE = 0.4  # 29 dpi: the layout, not the glyphs
TOLERANCE = 0.01  # mean difference of the grey levels, as a fraction of black on white


def pages(pdf_path: Path) -> list[Image.Image]:
    return [page.render(scale=SCALE).to_pil().convert("L") for page in pdfium.PdfDocument(pdf_path)]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("sheet_id", SHEETS)
def test_every_page_looks_as_its_reference(built, sheet_id, lang):
    drawn = pages(built(LIBRARY, sheet_id, lang))
    references = sorted(REFERENCES.glob(f"{sheet_id}.{lang}-*.png"))
    if UPDATE:
        for stale in references:
            stale.unlink()
        for number, image in enumerate(drawn, start=1):
            image.save(REFERENCES / f"{sheet_id}.{lang}-{number}.png", optimize=True)
        references = sorted(REFERENCES.glob(f"{sheet_id}.{lang}-*.png"))
    assert len(drawn) == len(references), f"{len(drawn)} pages, {len(references)} reference images"
    for number, (image, reference) in enumerate(zip(drawn, map(Image.open, references)), start=1):
        assert image.size == reference.size, f"page {number}: {image.size}, reference {reference.size}"
        difference = ImageStat.Stat(ImageChops.difference(image, reference.convert("L"))).mean[0] / 255
        assert difference <= TOLERANCE, (
            f"page {number} differs from {references[number - 1].name} by {difference:.1%}: "
            "if the change is intended, run 'make update-golden' and look at the images"
        )
