"""What every block has: an id, a title, notes, and how it may break across columns."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Iterator, Literal, Union

from pydantic import BaseModel, Discriminator, Field, StringConstraints, Tag

from generator.model import markup
from generator.model.base import Fact, Finding, Id, Model, OptionalText, Text, prose


class Footnote(Model):
    """A note under a block, referenced from its cells as [^id]."""

    id: Annotated[str, StringConstraints(pattern=r"^[^\s\]]{1,4}$")] = Field(
        description="The note's mark, referenced in a text as [^id] (1, a, *).", examples=["1", "a"]
    )
    text: Text = Field(description="The note's text.")


class Subheading(Model):
    """A row of a table or of a modifiers list that heads the rows after it, up to the next sub-heading."""

    subheading: Text = Field(
        description="A sub-heading printed across the columns (Terrain): the rows after it, up "
        "to the next sub-heading, are its. It never ends a column, and a column that "
        "starts among its rows repeats it, marked continued."
    )


# The sub-heading's tag in an error's path: no key of the source (the positions are found by leaving out what is not),
# so that an error inside a sub-heading row is placed at its key, not at the `subheading` beside it.
SUBHEADING_TAG = "sub-heading row"


def or_subheading(row: type, tag: str) -> Any:
    """A list's entry: a `row`, or a mapping holding `subheading`. `tag` is the list's own field name: pydantic puts
    the tag in an error's path, where the messages expect the list's name (validate.describe_error)."""

    def kind(value: Any) -> str:
        return (
            SUBHEADING_TAG
            if isinstance(value, Subheading) or isinstance(value, dict) and "subheading" in value
            else tag
        )

    return Annotated[Union[Annotated[row, Tag(tag)], Annotated[Subheading, Tag(SUBHEADING_TAG)]], Discriminator(kind)]


class Subheaded:
    """A block whose rows (`lines`) may hold sub-headings: the packer keeps one with the rows after it."""

    @property
    def lines(self) -> list:
        raise NotImplementedError

    def subheadings(self) -> list[int]:
        """The positions of the sub-heading rows."""
        return [index for index, line in enumerate(self.lines) if isinstance(line, Subheading)]

    def under_rows(self) -> list[int]:
        """The positions of the rows printed under the row above them, as part of it (a table's `under`)."""
        return [index for index, line in enumerate(self.lines) if getattr(line, "under", False)]

    def subheading_over(self, index: int) -> Subheading | None:
        """The sub-heading whose rows hold row `index`: repeated atop a column that starts there. None for a
        sub-heading row itself, or a row before any."""
        position = self._subheading_position(index)
        return None if position is None else self.lines[position]

    def _subheading_position(self, index: int) -> int | None:
        if isinstance(self.lines[index], Subheading):
            return None
        return next(
            (position for position in range(index - 1, -1, -1) if isinstance(self.lines[position], Subheading)), None
        )

    def lines_kept(self, kept: set[int]) -> list:
        """The rows at positions `kept`, with the sub-headings over them (a handout's cut of the block): a sub-heading
        none of whose rows is kept would head nothing; and the rows printed under a kept one (`under`), part of it."""
        heads = {self._subheading_position(index) for index in kept} - {None}
        kept = set(kept)
        for index in self.under_rows():
            if index - 1 in kept:
                kept.add(index)
        return [line for index, line in enumerate(self.lines) if index in kept or index in heads]


class TitledColumns:
    """One field of a block's rows in one column, or in several (`<field>_titles` names each, every row's field a
    list of one a column): a modifier's values, a dice row's texts. What the two forms share: the count, the
    problems, each column's name in a fact."""

    def __init__(self, field: str, things: str, titles: list[str] | None, one_title: str | None):
        self.field, self.things, self.titles, self.one_title = field, things, titles, one_title

    @property
    def count(self) -> int:
        """How many columns each row has: one, or one a title."""
        return len(self.titles) if self.titles else 1

    @staticmethod
    def listed(value: str | list[str]) -> list[str]:
        """A row's field, one a column."""
        return value if isinstance(value, list) else [value]

    def both_titles(self) -> Iterator[Finding]:
        """The block's single title and its titles given at once: one or the other."""
        if self.one_title is not None and self.titles:
            field = self.field
            yield (
                (f"{field}_titles",),
                f"'{field}_title' or '{field}_titles', not both: {field}_titles names each column of {self.things}",
            )

    def count_problem(self, given: str, unit: str, single: str, titles: str, example: str | None = None) -> str:
        """A row giving `given` (3 values) where the block has another count of columns: what to write, a single
        `unit` (such as `single`) without titles, and how to name the columns (such as `titles`); else as many
        `unit`s as the titles (such as `example`)."""
        field = self.field
        if not self.titles:
            return (
                f"{given} where the block has one column of {self.things}: write a single {unit} ({field}: {single}), "
                f"or name each column with the block's {field}_titles: [{titles}]"
            )
        such = f", such as {field}: [{example}]" if example else ""
        return (
            f"{given} where the block's {field}_titles name {self.count} columns ({', '.join(self.titles)}): expected "
            f'a list of {self.count} {unit}s, one a column{such} ("" leaves a column empty)'
        )

    def title(self, column: int) -> str:
        """A column's name in a fact: its title, or its number where it has none."""
        titles = self.titles or []
        return titles[column] if column < len(titles) and titles[column] else str(column + 1)


class Lead(Model):
    """A block's intro or after sentence with how it is set: {text: …, style: plain}."""

    text: Text
    style: Literal["italic", "plain"] = Field(
        "italic",
        description="italic (the default, as a sentence written alone), or plain: upright, as the block's text.",
    )


def sentence(name: str) -> Any:
    """A block's `intro` or `after`: a sentence, or a mapping that says how it is set. The sentence's tag is the
    field's name: pydantic puts it in an error's path, where the messages expect the field's name."""

    def kind(value: Any) -> str:
        return "set" if isinstance(value, (dict, Lead)) else name

    return Annotated[Union[Annotated[OptionalText, Tag(name)], Annotated[Lead, Tag("set")]], Discriminator(kind)]


class BlockBase(Model):
    """A block type: its fields (a subclass adds its own and `type: Literal["<type>"]`), how the packer may break it
    (its fitting kind, the class variables below), and what it prints (`printed`), beside its template
    templates/blocks/<type>.html.j2."""

    # Its fitting kind. Whether the block may continue into the next column between two rows, steps or paragraphs.
    may_continue: ClassVar[bool] = True
    # Whether a unit (a table's or dice table's row, a paragraph, a term, a bullet, a step) taller than a third of a
    # column may be cut between its lines: its template prints the parts (generator.rendering.items.Item.part, .cell).
    cuts_units: ClassVar[bool] = False
    # Whether its units are paragraphs, steps or terms: a break leaves three lines' height on each side; a table's
    # rows, layout.MIN_UNITS of them, or two as tall as four lines (generator.rendering.told.side_rule).
    text_units: ClassVar[bool] = False
    # Whether templates/block.html.j2 frames it (its section's heading, title, intro, notes, after) around its own
    # template; a block that is not framed prints its own <section> (the changes box).
    framed: ClassVar[bool] = True

    id: Id
    title: OptionalText | None = None
    intro: sentence("intro") | None = Field(
        None,
        description="A sentence printed before the block's content, in italics; "
        "{text: …, style: plain} prints it upright.",
    )
    after: sentence("after") | None = Field(
        None,
        description="A sentence printed after the block's content, in italics; "
        "{text: …, style: plain} prints it upright.",
    )
    notes: list[Footnote] = Field(default_factory=list, description="Footnotes, referenced as [^id].")
    keep: Literal["together"] | None = Field(
        None,
        description="together: do not continue the block into the next column, unless keeping it whole would "
        "leave more than 15 % of a column empty (matrices, saves and figures never are).",
    )
    break_before: Literal["column", "page"] | None = Field(
        None, alias="break", description="Start the block at the top of a new column or page: a rare manual decision."
    )
    group: Id | None = Field(
        None,
        description="The id of one of its section's groups: the group's blocks follow "
        "one another under the group's heading.",
    )
    concerns: list[Annotated[str, StringConstraints(min_length=1, max_length=60)]] = Field(
        default_factory=list,
        description="What the whole block is about, when an army may have none of it (a "
        "keyword, by id or term: sorcier): a roster's import leaves the block out "
        "of the handout of an army that has none of them.",
    )
    # The packer sets it as a band (generator/rendering/bands.py).
    wide: Literal[2, "all"] | None = Field(
        None,
        description="Span the page's columns (2 or all: both take the whole width today): the block starts a new "
        "page, across its top, and the columns go on under it. A block too wide for a column spans "
        "the page without it.",
    )

    def lead(self, name: str) -> str | None:
        """The text of the block's `intro` or `after`, however it is written."""
        value = getattr(self, name)
        return value.text if isinstance(value, Lead) else value

    def plain(self, name: str) -> bool:
        """Whether the block's `intro` or `after` is set upright."""
        return isinstance(getattr(self, name), Lead) and getattr(self, name).style == "plain"

    @property
    def splits(self) -> bool:
        return self.may_continue and self.keep is None

    @property
    def named(self) -> str:
        """The block as a finding names it."""
        return f"block '{self.id}'"

    def printed(self, sheet) -> Iterator[tuple[tuple, str]]:
        """The texts its template prints between its intro and its notes, in reading order, each with its place in
        the block: its own texts in the order of its fields. What the content suite finds on the page
        (generator.output.completeness), which reads a block type whose template prints otherwise on its own terms."""
        for loc, text in prose(self, verbatim=True):
            if loc[0] not in ("title", "intro", "after", "notes"):
                yield loc, text

    def footnote_refs(self) -> Iterator[tuple[tuple, str]]:
        """Every footnote the block references, with where: [^id] marks in its prose (its notes aside),
        and, in blocks that have them, footnote fields."""
        for loc, text in prose(self):
            if loc[0] != "notes" and "[^" in text:  # a mark is written [^id]
                for token in markup.walk(markup.parse(text)):
                    if isinstance(token, markup.FootnoteRef):
                        yield loc, token.key

    def facts(self) -> Iterator[Fact]:
        """What a diff between editions compares: (stable key, where in the sheet's words, value, row, cell).

        Blocks with rows override `row_facts`; the rest are compared string by string, keyed by
        the ids or titles on the way to each string."""
        for name, text in (("title", self.title), ("intro", self.lead("intro")), ("after", self.lead("after"))):
            if text:
                yield (name,), "", text, None, None
        for note in self.notes:
            yield ("note", note.id), f"note {note.id}", note.text, None, None
        yield from self.row_facts()

    def row_facts(self) -> Iterator[Fact]:
        for loc, text in prose(self, verbatim=True):
            if loc[0] in ("title", "intro", "after", "notes"):
                continue
            key, words, node = [], [], self
            for part in loc:
                node = node[part] if isinstance(part, int) or isinstance(node, dict) else getattr(node, part)
                ident = (
                    (node.id if "id" in type(node).model_fields else getattr(node, "title", None))
                    if isinstance(part, int) and isinstance(node, BaseModel)
                    else None
                )
                key.append(ident or part)
                words += [ident] if ident else []
            yield tuple(key), " › ".join(words), text, None, None
