"""Font subsets kept in a process, where WeasyPrint subsets fonts with fontTools.

Without HarfBuzz's subsetter (libharfbuzz-subset), WeasyPrint subsets each font of each PDF it writes with
fontTools: about a quarter of a second for a sheet's faces, at every write, although `qrs watch` after a one-cell
edit, or a test session writing a sheet again, asks for the same glyphs of the same fonts. A subset depends only on
the font's bytes, the glyphs kept, the options and SOURCE_DATE_EPOCH (the time fontTools stamps the font with): kept
by all of these, the bytes fontTools made the first time are given again.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections import OrderedDict

KEPT = 32  # subsets (a few tens of kB each): the faces of a few sheets
_kept: OrderedDict[tuple, bytes] = OrderedDict()


def keep() -> None:
    """From now on, WeasyPrint's fontTools subsetting gives a subset made before again (once a process)."""
    from weasyprint.pdf import fonts

    subset = getattr(fonts.Font, "_fonttools_subset", None)
    if subset is None or getattr(subset, "kept", False):  # another WeasyPrint, or done already
        return

    @functools.wraps(subset)
    def kept_subset(font, to_unicode, hinting):
        key = (
            hashlib.sha256(font.file_content).digest(),
            font.index,
            tuple(sorted(to_unicode)),
            bool(hinting),
            bool(font.missing),
            os.environ.get("SOURCE_DATE_EPOCH"),
        )
        if key in _kept:
            _kept.move_to_end(key)
        else:
            subset(font, to_unicode, hinting)
            _kept[key] = font.file_content
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
        font.file_content = _kept[key]

    kept_subset.kept = True
    fonts.Font._fonttools_subset = kept_subset
