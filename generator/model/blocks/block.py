"""What every block has: an id, a title, notes, and how it may break across columns."""

from __future__ import annotations

from typing import Annotated, ClassVar, Iterator, Literal

from pydantic import BaseModel, Field, StringConstraints

from generator.model import markup
from generator.model.base import Fact, Id, Model, OptionalText, Text, prose


class Footnote(Model):
    """A note under a block, referenced from its cells as [^id]."""

    id: Annotated[str, StringConstraints(pattern=r"^[^\s\]]{1,4}$")]
    text: Text



class BlockBase(Model):
    # Whether the block may continue into the next column between two rows, steps or paragraphs.
    may_continue: ClassVar[bool] = True

    id: Id
    title: OptionalText | None = None
    intro: OptionalText | None = Field(None, description="A sentence printed before the block's content.")
    after: OptionalText | None = Field(None, description="A sentence printed after the block's content.")
    notes: list[Footnote] = Field(default_factory=list, description="Footnotes, referenced as [^id].")
    keep: Literal["together"] | None = Field(
        None, description="together: never continue the block into the next column (matrices and saves never are).")
    break_before: Literal["column", "page"] | None = Field(
        None, alias="break", description="Start the block at the top of a new column or page: a rare manual decision.")
    group: Id | None = Field(None, description="The id of one of its section's groups: the group's blocks follow "
                                               "one another under the group's heading.")
    # Described in generator/model/descriptions.py (COMMON["wide"]); the packer sets it as a band (layout.py).
    wide: Literal[2, "all"] | None = None

    @property
    def splits(self) -> bool:
        return self.may_continue and self.keep is None

    def footnote_refs(self) -> Iterator[tuple[tuple, str]]:
        """Every footnote the block references, with where: [^id] marks in its prose (its notes aside),
        and, in blocks that have them, footnote fields."""
        for loc, text in prose(self):
            if loc[0] != "notes":
                for token in markup.walk(markup.parse(text)):
                    if isinstance(token, markup.FootnoteRef):
                        yield loc, token.key

    def facts(self) -> Iterator[Fact]:
        """What a diff between editions compares: (stable key, where in the sheet's words, value, row, cell).

        Blocks with rows override `row_facts`; the rest are compared string by string, keyed by
        the ids or titles on the way to each string."""
        for name in ("title", "intro", "after"):
            if getattr(self, name):
                yield (name,), "", getattr(self, name), None, None
        for note in self.notes:
            yield ("note", note.id), f"note {note.id}", note.text, None, None
        yield from self.row_facts()

    def row_facts(self) -> Iterator[Fact]:
        for loc, text in prose(self):
            if loc[0] in ("title", "intro", "after", "notes"):
                continue
            key, words, node = [], [], self
            for part in loc:
                node = node[part] if isinstance(part, int) or isinstance(node, dict) else getattr(node, part)
                ident = (node.id if "id" in type(node).model_fields else getattr(node, "title", None)) \
                    if isinstance(part, int) and isinstance(node, BaseModel) else None
                key.append(ident or part)
                words += [ident] if ident else []
            yield tuple(key), " › ".join(words), text, None, None


