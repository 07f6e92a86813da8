"""Figures on the page: each picture embedded in the HTML as a data: URI (so that a page, a measured block and
the web edition carry the picture's bytes: a new drawing changes their keys and digests), served to WeasyPrint
by the project's fetcher, and true-size figures checked against the column before anything is laid out.

A true-size figure's width is set in millimetres, which the type scale (sizes in pt and rem) never touches; the
imposed variants put the half pages on the paper at 100 % (generator.rendering.impose), so they keep it too."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Iterator

from generator.errors import UserError
from generator.model.blocks import figure
from generator.rendering.layout import Frame

# What the fetcher serves from a data: URI: a figure, or a raster image inside an SVG figure (generator.model.blocks
# .figure refuses an SVG that names anything else).
_DATA = re.compile(r"^data:(image/(?:svg\+xml|png|jpeg|gif));base64,([A-Za-z0-9+/=\s]*)\Z")


def data_uri(sources: Path, block: figure.FigureBlock) -> str:
    """The figure's picture, read and checked again (validate read it first), as a data: URI."""
    try:
        picture = figure.read(sources, block.src)
    except figure.Refused as why:  # the file changed since the sheet was checked
        raise UserError.at(sources / block.src, 1, 1, f"figure '{block.id}': {why}") from None
    return f"data:{picture.media_type};base64,{base64.b64encode(picture.data).decode('ascii')}"


def served(url: str):
    """WeasyPrint's response for an embedded picture; PermissionError for any other data: URI."""
    from weasyprint.urls import URLFetcherResponse

    found = _DATA.match(url)
    if not found:
        raise PermissionError(f"refused to fetch {url[:60]}: only the figures' pictures are embedded")
    return URLFetcherResponse(url[:60], base64.b64decode(found.group(2)), {"Content-Type": found.group(1)})


# A fit figure too tall for any column at its width is printed this share of a column tall: what is left holds its
# title, its caption and the first page's header, so that it stands in a column wherever it falls.
FIT_SHARE = 0.75


def printed_width(sources: Path, frame: Frame, block: figure.FigureBlock) -> str:
    """The CSS width a figure's picture is printed at: the width it declares (the column's if none), or, for a fit
    figure that would be taller than a column, the width at which it stands in FIT_SHARE of one (`fitted` warns)."""
    declared = block.width or "100%"
    fitted_mm = _fitted_width(sources, frame, block)
    return declared if fitted_mm is None else f"{fitted_mm:.9f}mm"  # a hair-thin drawing keeps its height


def _fitted_width(sources: Path, frame: Frame, block: figure.FigureBlock) -> float | None:
    """The width (mm) a fit figure taller than a column is set at to fit one; None for any other figure (a
    true-size figure is never scaled: `findings` refuses it)."""
    if block.scale == "true-size":
        return None
    try:
        aspect = figure.read(sources, block.src).aspect
    except figure.Refused:
        return None  # the check of the sources says why
    width = min(block.width_mm or frame.column_width, frame.column_width)
    if width * aspect <= frame.column_height:
        return None
    return FIT_SHARE * frame.column_height / aspect


def fitted(sheet, frame: Frame, sources: Path) -> list[str]:
    """A warning for each fit figure printed smaller than its width so as to fit a column's height."""
    found = []
    for block in (block for section in sheet.sections for block in section.blocks if block.type == "figure"):
        fitted_mm = _fitted_width(sources, frame, block)
        if fitted_mm is not None:
            tall = (
                min(block.width_mm or frame.column_width, frame.column_width) * figure.read(sources, block.src).aspect
            )
            found.append(
                f"block '{block.id}': the figure would be {tall:.0f} mm tall, and a column holds "
                f"{frame.column_height:.0f} mm: printed {_narrow(fitted_mm)} wide to fit (crop the drawing, or "
                "give it a smaller width)"
            )
    return found


def _narrow(mm: float) -> str:
    return f"{mm:.1f} mm" if mm >= 0.1 else "less than 0.1 mm"  # a hair's width is told as such, not as 7.2e-06


def spans(block, column_width: float) -> bool:
    """Whether a block is a figure at true size wider than a column: it spans the page, never shrunk."""
    return block.type == "figure" and block.scale == "true-size" and block.width_mm > column_width + 0.01


def findings(sheet, frame: Frame, sources: Path) -> Iterator[tuple[tuple, str]]:
    """A true-size figure wider than the page, or taller than a column of it: refused, since shrinking it would make a
    template or a gauge lie. (One wider than a column spans the page: too wide for the column it was measured in.)"""
    for place, block in sheet.placed_blocks():
        if block.type != "figure" or block.scale != "true-size":
            continue
        here, width = place + ("width",), block.width_mm
        paper = f"{frame.page_width:.0f} × {frame.page_height:.0f} mm, {frame.columns} column(s)"
        shown = block.width if block.width.endswith("mm") else f"{block.width} ({width:.1f} mm)"
        if width > frame.content_width + 0.01:  # wider than a column only, it spans the page (`wide`)
            yield (
                here,
                (
                    f"a true-size figure {shown} wide does not fit the page, {frame.content_width:.1f} mm "
                    f"wide inside its margins on this paper ({paper}): make it narrower"
                ),
            )
            continue
        try:
            height = width * figure.read(sources, block.src).aspect
        except figure.Refused:
            continue  # the check of the sources says why
        if height > frame.column_height:
            yield (
                here,
                (
                    f"a true-size figure {shown} wide is {height:.1f} mm tall: a column holds "
                    f"{frame.column_height:.1f} mm on this paper ({paper}); make it smaller"
                ),
            )
