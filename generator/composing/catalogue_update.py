"""A sheet's or a handout's catalogue for one language created or refreshed from its source (`qrs i18n update`):
each string's translation carried over, or suggested from another catalogue."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from generator import write
from generator.composing.translate import Entry, Status, entries, previous_messages, status
from generator.model import markup
from generator.model.types import Handout, Sheet
from generator.reading.catalogues import read
from generator.reading.sources import Located


def update(
    located: Located, sheet: Sheet | Handout, lang: str, catalogue_file: Path, memory: list[Catalog] = ()
) -> Status:
    """Create or refresh a catalogue from the source: new strings added, changed ones flagged fuzzy
    with their previous text kept, vanished ones dropped. Existing translations are kept, and follow a
    string whose context changed (a renamed block, a row's new key). A new string whose text is already
    translated elsewhere (in this catalogue or those of `memory`) is offered that translation, flagged fuzzy
    for review. No line numbers and the source's order: an edit of the source changes only its own entries."""
    write.destination(catalogue_file)  # a link out of sources/ is refused before it is read, not only written
    old = read(catalogue_file) if catalogue_file.exists() else Catalog(locale=lang)
    wanted = entries(located, sheet, lang)
    previous = previous_messages(wanted, [message for message in old if message.id and message.context])
    fresh = _empty_catalogue(sheet, lang)
    for entry in wanted:
        string, flags, previous_id = _carried(entry, previous.get(entry.context), (old, *memory))
        addresses = markup.links(entry.source)
        message = fresh.add(
            entry.source,
            string,
            locations=[(located.path.name, None)],
            flags=flags,
            context=entry.context,
            previous_id=previous_id,
            auto_comments=[f"Translate each link's text; keep its address: {', '.join(addresses)}"]
            if addresses
            else (),
        )
        message.flags -= _FORMAT_FLAGS  # qrs markup ({cd|CD}) and "25%" are not format strings
    buffer = io.BytesIO()
    write_po(buffer, fresh, width=100, include_previous=True, sort_output=False, omit_header=False)
    write.atomically(catalogue_file, buffer.getvalue())
    return status(fresh, wanted)


_FORMAT_FLAGS = {"python-format", "python-brace-format"}


def _empty_catalogue(sheet: Sheet | Handout, lang: str) -> Catalog:
    day = sheet.timestamp
    kind, ident = ("handout", sheet.handout) if isinstance(sheet, Handout) else ("sheet", sheet.sheet)
    return Catalog(
        locale=lang,
        project=f"qrs {ident}",
        version=getattr(sheet, "edition", None) or sheet.date or "-",
        creation_date=day,
        revision_date=day,
        fuzzy=False,
        msgid_bugs_address="",
        header_comment=f"# Translation of the qrs {kind} '{ident}' from '{sheet.lang}' to '{lang}'.\n"
        "# Context: the string's place in the source. Refresh with: qrs i18n update",
    )


def _carried(entry: Entry, previous: Message | None, memory: tuple[Catalog, ...]) -> tuple[str, set[str], tuple]:
    """(translation, flags, previous text) of a wanted string: its previous message's, fuzzy when the text
    changed; else the same text translated elsewhere, fuzzy: a suggestion to review."""
    if previous is not None and previous.string:
        if previous.id != entry.source:
            return previous.string, {"fuzzy"}, (previous.id,)
        if previous.fuzzy:
            return previous.string, {"fuzzy"}, tuple(previous.previous_id)
        return previous.string, set(), ()
    remembered = next(
        (
            message.string
            for catalogue in memory
            for message in catalogue
            if message.id == entry.source and message.string and not message.fuzzy
        ),
        "",
    )
    return remembered, {"fuzzy"} if remembered else set(), ()
