"""Documents made in the tests' own memory, of any size: a PDF of text lines (no library writes one as simply),
a Word file of many paragraphs, and the time a reader takes on one input and on ten times it."""

from __future__ import annotations

import io
import time


def pdf(
    pages: list[list[tuple[float, float, str]]],
    size: tuple[str, str] = ("595", "842"),
    rules: list[list[tuple[float, float, float]]] | None = None,
) -> bytes:
    """A PDF whose pages show words at (x, y) in Helvetica 7 pt: [[(x, y, text), …], …]; and, where given, each
    page's horizontal rules, stroked from (left, y) to (right, y): [[(left, right, y), …], …]."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", None, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for at, words in enumerate(pages):
        stream = b"".join(
            b"BT /F1 7 Tf 1 0 0 1 %.1f %.1f Tm (%s) Tj ET\n" % (x, y, text.encode("latin-1")) for x, y, text in words
        )
        stream += b"".join(
            b"0.5 w %.1f %.1f m %.1f %.1f l S\n" % (left, y, right, y)
            for left, right, y in (rules or [[]] * len(pages))[at]
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>" % (size[0].encode(), size[1].encode(), len(objects))
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(kids)
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


def word(build) -> bytes:
    """A Word file python-docx makes, `build(document)` filling it."""
    import docx

    made = docx.Document()
    build(made)
    stream = io.BytesIO()
    made.save(stream)
    return stream.getvalue()


def growth(make, read, small: int) -> float:
    """How many times longer `read` takes on `make(10 * small)` than on `make(small)`, each the best of five runs,
    measured side by side, in turn (a linear reader: about 10; a quadratic one: about 100): on a shared machine, a
    burst of other work then slows one run of each size, not every run of one."""
    inputs = {size: make(size) for size in (small, 10 * small)}
    times: dict[int, list[float]] = {size: [] for size in inputs}
    for _ in range(5):  # five: under a full suite's load, the best of three still went over a linear reader's bound
        for size, data in inputs.items():
            start = time.perf_counter()
            read(data)
            times[size].append(time.perf_counter() - start)
    return min(times[10 * small]) / min(times[small])
