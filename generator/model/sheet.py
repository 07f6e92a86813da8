"""The root of a source file: the sheet, its metadata, keywords, changelog, sections and groups."""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

from pydantic import Field, PrivateAttr, StringConstraints, model_validator

from generator.model.base import (
    EARLIEST_DATE,
    MAX_ROWS,
    Accent,
    Aliases,
    CharacteristicId,
    Date,
    EditionNumber,
    Id,
    LanguageCode,
    Model,
    OptionalText,
    Text,
    edition_key,
)
from generator.model.blocks import Block
from generator.model.blocks.block import Footnote
from generator.model.blocks.table import Columns
from generator.model.changes import PLAYERS_KINDS, Change, ChangeKind


class Document(Model):
    """A sheet or a handout. A translated one knows which of its texts are still in the canonical language
    (printed where the translation lacked, with --allow-fallback), to print them in that language's typography."""

    _fallback_texts: frozenset[str] = PrivateAttr(default=frozenset())
    _fallback_lang: str | None = PrivateAttr(default=None)

    def mark_fallback(self, texts: set[str], lang: str) -> None:
        self._fallback_texts, self._fallback_lang = frozenset(texts), lang

    def mark_fallback_of(self, *documents: "Document") -> None:
        """This document prints the texts of others (a handout, its sheet's): their fallback texts too."""
        langs = [document._fallback_lang for document in documents if document._fallback_lang]
        if langs:
            self.mark_fallback(set().union(*(document._fallback_texts for document in documents)), langs[0])

    def language_of(self, text: str) -> str:
        """The language a text of this document is written in."""
        return self._fallback_lang if text in self._fallback_texts and self._fallback_lang else self.lang

    @property
    def timestamp(self) -> datetime.datetime:
        """When its outputs are dated (the PDF, its fonts, a new catalogue): its date at midnight UTC; without a
        date, the earliest day a date may be, so that the same source always gives the same bytes."""
        day = datetime.date.fromisoformat(self.date) if getattr(self, "date", None) else EARLIEST_DATE
        return datetime.datetime.combine(day, datetime.time(), datetime.timezone.utc)


class Keyword(Model):
    """A special rule of the game, defined once, referenced from any text as {id} or {term}."""

    id: Id
    term: Text
    text: OptionalText | None = Field(None, description="Its definition, printed by glossary blocks.")
    original: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = Field(
        None, description="The game's English term, shown with --gloss."
    )
    see: Id | None = Field(None, description="The block that defines it at length; handouts print that block.")


class Characteristic(Model):
    """One characteristic of the game's unit profiles (M, WS, Ld…), as handouts and rosters print it."""

    id: CharacteristicId
    label: Text = Field(description="The abbreviation printed above the column: CC.")
    name: OptionalText | None = Field(None, description="The full name: Capacité de combat.")
    aliases: Aliases = Field(
        default_factory=list,
        description="What army lists call it (WS, Weapon Skill): qrs handout import matches these too.",
    )


class Edition(Model):
    """One edition of the sheet: its number, its date, and what it changed (the errata it fixed)."""

    edition: EditionNumber
    date: Date
    changes: Annotated[list[Change], Field(min_length=1, max_length=MAX_ROWS)]


HeadingCase = Literal["upper", "as-typed"]


class Paper(Model):
    size: Literal["A4", "letter"] = "A4"
    orientation: Literal["portrait", "landscape"] = "landscape"
    pages: Annotated[int | None, Field(ge=1, le=20)] = None  # a most: without it, as few as the content takes
    columns: Annotated[int, Field(ge=1, le=4)] = 3
    type: Annotated[str, StringConstraints(pattern=r"^(6(\.[0-9]+)?|[7-9](\.[0-9]+)?|1[01](\.[0-9]+)?|12)pt$")] = Field(
        "7.6pt",
        description="The body type's size at 100 %, from 6pt to 12pt (headings and small print in proportion); "
        "the type is set smaller from there to fit fewer pages, or larger to fill those it takes.",
    )

    @property
    def type_points(self) -> float:
        return float(self.type.removesuffix("pt"))


class Group(Model):
    """A heading between a section's and its blocks' (Price charts › Missile weapons › Upgrades)."""

    id: Id
    title: Text


class Section(Model):
    id: Id
    title: OptionalText | None = Field(
        None,
        description="Its heading; without one, its blocks follow the previous "
        "section's last block with no heading between them.",
    )
    groups: list[Group] = Field(
        default_factory=list,
        description="Headings that gather some of the section's blocks (those whose group names them), a third level.",
    )
    blocks: Annotated[list[Block], Field(min_length=1)]

    def group_of(self, block) -> Group | None:
        return next((group for group in self.groups if group.id == block.group), None)


class Sheet(Document):
    """A quick-reference sheet: the root of a source file."""

    sheet: Id
    game: Text
    game_names: Aliases = Field(
        default_factory=list,
        description="The game names rosters give this sheet's game "
        "(gameSystemName: Warhammer Fantasy 8th ed): qrs "
        "handout import picks the sheet by them.",
    )
    title: Text | None = None
    subtitle: OptionalText | None = None
    lang: LanguageCode
    edition: EditionNumber | None = Field(
        None,
        description="The edition's number, printed in the footer; optional (a sheet that has none leaves it "
        "out), but a changelog and the editions commands need it.",
    )
    date: Date | None = Field(
        None,
        description="The edition's date, printed in the footer and dating the PDF; optional, but a changelog needs it.",
    )
    credits: OptionalText | None = Field(
        None,
        description="Who made the sheet and what it is drawn from: printed "
        "once, small, at the right of the header (on the first "
        "page; in the web edition, at the top).",
    )
    accent: Accent = "#7a1f1f"
    paper: Paper = Field(default_factory=Paper)
    heading_case: HeadingCase = Field(
        "upper",
        description="How section and group headings print: upper sets them in capitals (the default); "
        "as-typed prints them as they are typed (a plural after a name in capitals, a word "
        "in lower case on purpose).",
    )
    keywords: list[Keyword] = Field(default_factory=list)
    characteristics: list[Characteristic] = Field(
        default_factory=list, description="The game's unit profile, for handouts."
    )
    column_sets: dict[Id, Columns] = Field(
        default_factory=dict,
        description="Named sets of table columns that tables share by name (columns: price); "
        "their titles are translated once.",
    )
    untranslatable: list[Annotated[str, StringConstraints(min_length=1, max_length=200)]] = Field(
        default_factory=list,
        description="Names printed as they are in every language (the game's name, a faction): "
        "not offered for translation.",
    )
    notes: list[Footnote] = Field(
        default_factory=list,
        description="Footnotes several blocks share (the marks *, ** of two matrices), "
        "referenced as [^id] as a block's own: each is printed once, under the last "
        "block that references it. A block's own note wins on the same mark.",
    )
    changelog: list[Edition] = Field(default_factory=list, description="Newest first; the first is this edition.")
    changes_box: bool | list[ChangeKind] = Field(
        True,
        description="The box of this edition's changes: true lists rules and clarifications, a list of kinds "
        "lists those, false prints no box.",
    )
    sections: Annotated[list[Section], Field(min_length=1)]
    # where each of the sheet's notes prints (notes_under), by mark: the id of its block, found for these blocks
    _placed_notes: tuple[tuple, dict[str, str]] | None = PrivateAttr(default=None)

    def blocks(self):
        for section in self.sections:
            yield from section.blocks

    def placed_blocks(self):
        """Each block with where it stands in the source: (("sections", s, "blocks", b), block)."""
        for s, section in enumerate(self.sections):
            for b, block in enumerate(section.blocks):
                yield ("sections", s, "blocks", b), block

    def shared_refs(self, block) -> set[str]:
        """The marks of the sheet's notes that `block` references: those it has no note of its own for."""
        own = {note.id for note in block.notes}
        return {key for _, key in block.footnote_refs() if key not in own}

    def notes_under(self, block) -> list[Footnote]:
        """The notes printed under a block: its own, then the sheet's notes it is the last block to reference (in
        reading order), in the order of the sheet's notes."""
        if not self.notes:
            return list(block.notes)
        blocks = tuple(self.blocks())
        placed = self._placed_notes
        if placed is None or len(placed[0]) != len(blocks) or any(a is not b for a, b in zip(placed[0], blocks)):
            last: dict[str, str] = {}
            for each in blocks:
                last.update((key, each.id) for key in self.shared_refs(each))
            placed = self._placed_notes = (blocks, last)
        last = placed[1]
        return [*block.notes, *(note for note in self.notes if last.get(note.id) == block.id)]

    @model_validator(mode="after")
    def _shared_columns(self):
        """Tables that name a column set print its columns (a name the sheet lacks is a finding of validate)."""
        for block in self.blocks():
            if block.type == "table" and isinstance(block.columns, str):
                block._shared = self.column_sets.get(block.columns)
        return self

    @property
    def current_changes(self) -> list[Change]:
        return self.changelog[0].changes if self.changelog else []

    @property
    def box_kinds(self) -> tuple[str, ...]:
        if self.changes_box is True:
            return PLAYERS_KINDS
        return tuple(self.changes_box or ())

    def boxed_changes(self) -> list[Change]:
        """This edition's changes the printed box lists: of its kinds, in the sheet's language."""
        return [
            change for change in self.current_changes if change.kind in self.box_kinds and change.concerns(self.lang)
        ]

    def row_refs(self) -> dict[str, tuple[str, int]]:
        """Table rows and saves items with an id, by BLOCK/ROW: (the block's id, the row's position in it)."""
        return {
            f"{block.id}/{row.id}": (block.id, index)
            for block in self.blocks()
            for index, row in enumerate([*getattr(block, "rows", []), *getattr(block, "items", [])])
            if getattr(row, "id", None)
        }

    def result_names(self) -> dict[str, str]:
        """The named results of the dice tables, by BLOCK/ROW: what a {result:BLOCK/ROW} reference prints."""
        return {
            f"{block.id}/{row.id}": row.name
            for block in self.blocks()
            if block.type == "dice"
            for row in block.rows
            if row.id and row.name
        }

    def changes_after(self, edition: str) -> list[tuple[Edition, list[Change]]]:
        """What changes play since `edition`: each newer edition's rules and clarifications in the sheet's
        language, newest first. These name the blocks and rows they touch (validate checks it)."""
        newer = [entry for entry in self.changelog if edition_key(entry.edition) > edition_key(edition)]
        return [
            (entry, [change for change in entry.changes if change.kind in PLAYERS_KINDS and change.concerns(self.lang)])
            for entry in newer
        ]

    def other_changes(self) -> list[Change]:
        """This edition's other changes in the sheet's language: counted under the box, listed by `qrs changelog`."""
        return [
            change
            for change in self.current_changes
            if change.kind not in self.box_kinds and change.concerns(self.lang)
        ]
