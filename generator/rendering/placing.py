"""Pages of one PDF drawn on a new page of another (pypdf): each as a form XObject, its content stream copied once
and never parsed, its links moved with it. pypdf's merge_transformed_page parsed and rewrote the content of both
pages for each page it placed (the side's growing with each): a booklet of wab2 spent 3 of its 10 s there, a deck
of cards more. Used by generator.rendering.impose (two pages to a side) and generator.rendering.card_imposing.
"""

from __future__ import annotations

from pypdf import PageObject, PdfWriter, Transformation
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    StreamObject,
)

# An annotation's own ties, which a copy on another page must not keep (as pypdf's merge leaves them out)
_TIES = ("/P", "/StructParent", "/Parent")


def side(
    writer: PdfWriter, width: float, height: float, placed: list[tuple[PageObject, float, float]], under: bytes = b""
) -> PageObject:
    """A new page of `writer`, `width` × `height` points: `under` (content drawn first: crop marks), then each
    page of `placed` moved by its (x, y) points, over what came before it."""
    page = writer.add_blank_page(width, height)
    forms = DictionaryObject()
    drawn = [under] if under else []
    for number, (one, x, y) in enumerate(placed):
        name = NameObject(f"/Placed{number}")
        forms[name] = _form(writer, one)
        drawn.append(f"q 1 0 0 1 {x:.4f} {y:.4f} cm {name} Do Q\n".encode("ascii"))
        _links(writer, page, one, Transformation().translate(x, y))
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): forms})
    content = DecodedStreamObject()
    content.set_data(b"".join(drawn))
    page.replace_contents(content)
    return page


def _form(writer: PdfWriter, page: PageObject) -> IndirectObject:
    """The page as a form XObject of `writer`: its content (still compressed where it was one stream), its
    resources, its transparency group, bounded by its media box."""
    contents = page.get("/Contents")
    stream = contents.get_object() if contents is not None else None
    if isinstance(stream, StreamObject):
        form = stream.clone(writer, force_duplicate=True)
    else:  # no content, or an array of streams: joined
        form = DecodedStreamObject()
        joined = page.get_contents()
        form.set_data(joined.get_data() if joined is not None else b"")
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject(FloatObject(float(value)) for value in page.mediabox)
    for key in ("/Resources", "/Group"):
        if key in page:
            form[NameObject(key)] = page[key].get_object().clone(writer)
    return _referenced(writer, form)


def _referenced(writer: PdfWriter, made) -> IndirectObject:
    """An object of `writer` as a reference (a stream can only be one): a clone of an indirect object is one
    already; pypdf has no public call for the others."""
    return made.indirect_reference or writer._add_object(made)


def _links(writer: PdfWriter, page: PageObject, placed: PageObject, moved: Transformation) -> None:
    """The annotations of `placed` (its links), copied to `page` and moved with it, as pypdf's merge copies them."""
    if placed.get("/Annots") is None:
        return
    annotations = page.setdefault(NameObject("/Annots"), ArrayObject())
    for reference in placed["/Annots"].get_object():
        original = reference.get_object()
        copy = original.clone(writer, ignore_fields=_TIES, force_duplicate=True)
        left, bottom, right, top = (float(value) for value in original["/Rect"])
        (x1, y1), (x2, y2) = moved.apply_on((left, bottom)), moved.apply_on((right, top))
        copy[NameObject("/Rect")] = ArrayObject(
            FloatObject(value) for value in (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
        )
        if "/QuadPoints" in original:
            points = [float(value) for value in original["/QuadPoints"]]
            copy[NameObject("/QuadPoints")] = ArrayObject(
                FloatObject(value)
                for index in range(0, len(points), 2)
                for value in moved.apply_on((points[index], points[index + 1]))
            )
        copy[NameObject("/P")] = page.indirect_reference
        annotations.append(_referenced(writer, copy))
