"""What a sheet says of its own edition, printed and written into the PDF: the footer's edition and date, the PDF's
identifier, and the moment its fonts are stamped with. A sheet may leave its edition or its date out: what it has
is printed, nothing stands for what it lacks, and the same source still gives the same bytes."""

from __future__ import annotations

import hashlib

from babel.dates import format_date

from generator.model.types import Sheet


def footer(sheet: Sheet, lang: str, words: dict[str, str]) -> list[str]:
    """What the footer prints after the game's name: the edition and its date, each when the sheet gives it."""
    printed = [f"{words['edition']} {sheet.edition}"] if sheet.edition else []
    if sheet.date:
        printed.append(format_date(sheet.timestamp.date(), format="long", locale=lang.replace("-", "_")))
    return printed


def identifier(sheet: Sheet) -> bytes:
    """The PDF's identifier: the same for the same sheet, language and edition (its date, when it has no edition)."""
    named = "/".join(filter(None, [sheet.sheet, sheet.lang, sheet.edition or sheet.date]))
    return hashlib.sha256(named.encode()).hexdigest()[:32].encode()


def source_date_epoch(sheet: Sheet) -> str:
    """What SOURCE_DATE_EPOCH is set to while the PDF is written, for fontTools stamps the font subsets with the current
    time otherwise: the sheet's date, or a fixed day when it has none."""
    return str(int(sheet.timestamp.timestamp()))
