"""The typing: an intermediate document → a sheet's sections and blocks, as a person would choose them.

A table keyed by rolls is a dice table (its die inferred, its coverage checked); by signed numbers, a modifiers
block; a grid with numeric column keys, a matrix (its rule named only when every cell agrees); a numbered list, a
sequence; "Term: definition" lines, terms of a text block; the rest, tables and text. Level-2 headings make
sections, level-3 groups, deeper ones a block's title. Nothing is dropped: what fits no block type is kept as text
where it stood, and the report says so."""

from __future__ import annotations

import re

from generator.composing.drafts import glossary, kinds, pieces
from generator.composing.drafts.report import Report, note
from generator.composing.drafts.tables import TableTyping
from generator.model.types import MAX_ROWS
from generator.reading.documents.document import Document, Heading, ListBlock, ListItem, Paragraph, Table, plain

_TERM = re.compile(r"^(?P<term>(?:\*\*)?[^:*\n]{1,40}?(?:\*\*)?)\s*:\s+(?P<text>\S.*)$", re.S)
_NUMBERED = re.compile(r"^\s*(\d{1,2}|[A-Za-z])\s*[.)]\s+(\S.*)$", re.S)


class Typing(TableTyping):
    """The document's nodes typed in reading order: headings into sections, groups and titles; paragraphs, lists and
    tables into blocks (tables: TableTyping)."""

    def __init__(self, document: Document, report: Report, narrow: dict[str, int] | None = None):
        """`narrow`: the most columns a table may keep, by its origin, where the layout found it too wide."""
        self.document, self.report = document, report
        self.narrow = narrow or {}
        self.ids, self.section_ids, self.group_ids = pieces.Ids(), pieces.Ids(), pieces.Ids()  # unique among their kind
        self.title: str | None = None
        self.subtitle: str | None = None
        self.top: list[str] = []  # the headings above the first section: the game's name, title, subtitle
        self.sections: list[dict] = []
        self.origins: dict[str, str] = {}  # a block's id → where it stood in the original
        self.pending_title: tuple[str, str] | None = None  # a heading that titles the next block
        self.pending_intro: str | None = None  # a sentence between that heading and its table: the block's intro
        self.levels = pieces.levels(document)
        self.marked: list[tuple[dict, set[str], list[list[str]]]] = []  # matrices with marks: block, marks, rows
        self.notes: list[dict] = []  # the sheet's notes: what the marks of matrices' cells refer to

    # --- structure -----------------------------------------------------------------------------------------------
    def run(self) -> list[dict]:
        nodes = list(self.document.nodes)
        for index, node in enumerate(nodes):
            if isinstance(node, Heading) and not self.subheading(node):
                self.heading(node)
            else:
                self.content(node, nodes[index + 1] if index + 1 < len(nodes) else None)
        self.flush_title()
        for section in self.sections:
            self.close_groups(section)
            self.glossaries(section)
        self.notes = self.matrix_notes()
        return self.sections

    def glossaries(self, section: dict) -> None:
        """In each text block, names each over its paragraph, three or more in a row: terms."""
        for block in section["blocks"]:
            if block["type"] != "text":
                continue
            block["content"], made = glossary.glossary(block["content"])
            if made:
                for guess in self.report.guesses:
                    if guess.block == block["id"]:
                        guess.why += f"; {made} names each on a line over its paragraph: terms"

    def heading(self, node: Heading) -> None:
        level = self.levels.get(node.level, 4)
        if level == 1 and not self.sections and len(self.top) < 4:
            self.top.append(node.text)
            self.title, self.subtitle = self.top[0], (self.top[1] if len(self.top) > 1 else None)
            return
        self.flush_title()
        if level <= 2:
            self.sections.append(
                {
                    "id": self.section_ids.make(node.text, "section"),
                    "title": node.text,
                    "groups": [],
                    "blocks": [],
                    "_origin": node.origin,
                    "_group": None,
                }
            )
        elif level == 3:
            section = self.section(node.origin)
            group = {
                "id": self.group_ids.make(node.text, "group"),
                "title": node.text,
                "_origin": node.origin,
                "_at": len(section["blocks"]),
            }
            section["groups"].append(group)
            section["_group"] = group["id"]
        else:
            self.pending_title = (node.text, node.origin)

    def subheading(self, node: Heading) -> bool:
        """A block title right under another (a table's title, then the words over its columns): the block's intro."""
        if self.levels.get(node.level, 4) >= 4 and self.pending_title and not self.pending_intro:
            self.pending_intro = node.text
            return True
        return False

    def flush_title(self) -> None:
        """A block title that no block followed: kept as a text block with the heading in bold."""
        if self.pending_intro:  # no block came: the sentence is a paragraph again
            intro, self.pending_intro = self.pending_intro, None
            self.add({"type": "text", "content": [{"p": intro}]}, self.pending_title[1], "paragraphs: a text block")
            return
        if self.pending_title:
            text, origin = self.pending_title
            self.pending_title = None
            self.add(
                {"type": "text", "content": [{"p": f"**{text}**"}]},
                origin,
                "a heading with nothing under it",
                False,
                text,
            )

    def section(self, origin: str) -> dict:
        if not self.sections:  # content before the first section heading: a section named after the sheet
            title = self.title or "Introduction"
            self.sections.append(
                {
                    "id": self.section_ids.make(title, "section"),
                    "title": title,
                    "groups": [],
                    "blocks": [],
                    "_origin": origin,
                    "_group": None,
                }
            )
        return self.sections[-1]

    def close_groups(self, section: dict) -> None:
        """A group without blocks keeps its heading as a text block; the helper keys go."""
        used = {block.get("group") for block in section["blocks"]}
        for group in reversed([g for g in section["groups"] if g["id"] not in used]):  # its heading, as text
            block = {
                "id": self.ids.make(group["title"], "text"),
                "type": "text",
                "group": group["id"],
                "content": [{"p": f"**{group['title']}**"}],
            }
            section["blocks"].insert(group["_at"], block)
            self.origins[block["id"]] = group["_origin"]
            self.report.guess(
                block["id"], "text", "a group heading with nothing under it, kept as text", group["_origin"], False
            )
            self.report.untyped.append(note(group["_origin"], group["title"], "a heading with nothing under it"))
        if not section["blocks"]:
            block = {
                "id": self.ids.make(section["title"], "text"),
                "type": "text",
                "content": [{"p": f"**{section['title']}**"}],
            }
            section["blocks"].append(block)
            self.origins[block["id"]] = section["_origin"]
            self.report.guess(
                block["id"], "text", "a section heading with nothing under it, kept as text", section["_origin"], False
            )
            self.report.untyped.append(note(section["_origin"], section["title"], "a heading with nothing under it"))
        for group in section["groups"]:
            group.pop("_origin", None)
            group.pop("_at", None)
        section.pop("_origin", None)
        section.pop("_group", None)
        if not section["groups"]:
            del section["groups"]

    def add(self, block: dict, origin: str, why: str, confident: bool = True, name: str | None = None) -> None:
        for key in ("rows", "items", "steps", "content"):  # longer than a list of a source may be: cut in blocks
            if block["type"] != "dice" and len(block.get(key, [])) > MAX_ROWS:
                rest = {**block, key: block[key][MAX_ROWS:]}
                self.add({**block, key: block[key][:MAX_ROWS]}, origin, why, confident, name)
                self.report.untyped.append(
                    note(
                        origin,
                        block["type"],
                        f"{len(block[key])} {key}: cut into blocks of {MAX_ROWS}, the most a list holds",
                    )
                )
                return self.add(rest, origin, why + " (continued)", confident, name)
        for item in block.get("content", []):
            for key in ("bullets", "numbered", "terms"):
                if len(item.get(key) or []) > MAX_ROWS:
                    whole = item.pop(key)
                    block["content"] = [part for part in block["content"] if part is not item] + [
                        {key: whole[i : i + MAX_ROWS]} for i in range(0, len(whole), MAX_ROWS)
                    ]
                    return self.add(block, origin, why, confident, name)
        section = self.section(origin)
        title = None
        if self.pending_title and block["type"] != "text" or self.pending_title and name is None:
            title, _ = self.pending_title
            self.pending_title = None
        group = next((g["title"] for g in section["groups"] if g["id"] == section["_group"]), None)
        ident = self.ids.make(
            title or block.get("title") or name or group or section["title"] or pieces.first_words(block), block["type"]
        )
        ordered = {"id": ident, "type": block.pop("type")}
        if title:
            ordered["title"] = title
            if self.pending_intro:
                ordered["intro"], self.pending_intro = self.pending_intro, None
        if section["_group"]:
            ordered["group"] = section["_group"]
        ordered.update(block)
        section["blocks"].append(ordered)
        self.origins[ident] = origin
        self.report.guess(ident, ordered["type"], why, origin, confident)

    # --- content -------------------------------------------------------------------------------------------------
    def content(self, node, following) -> None:
        if isinstance(node, Table):
            self.table(node)
        elif isinstance(node, ListBlock):
            self.list_(node)
        elif (
            isinstance(node, Paragraph)
            and self.pending_title
            and not self.pending_intro
            and isinstance(following, Table)
            and len(plain(node.text)) <= 300
            and not _TERM.match(node.text)
            and not any(kinds.leading_modifier(line) for line in node.text.split("\n"))
        ):
            self.pending_intro = " ".join(line.strip() for line in node.text.split("\n") if line.strip())
        elif isinstance(node, Paragraph):
            self.paragraph(node)

    def last_block(self, kind: str) -> dict | None:
        """The section's last block if it is of this kind, titled by no pending heading (text runs on in it)."""
        if self.pending_title or self.pending_intro or not self.sections or not self.sections[-1]["blocks"]:
            return None
        block = self.sections[-1]["blocks"][-1]
        return block if block["type"] == kind and block.get("group") == self.sections[-1]["_group"] else None

    def text_items(self, items: list[dict], origin: str, why: str) -> None:
        block = self.last_block("text")
        if block is not None and len(block["content"]) + len(items) <= MAX_ROWS:
            block["content"].extend(items)
            return
        self.add({"type": "text", "content": items}, origin, why)

    def paragraph(self, node: Paragraph) -> None:
        lines = [line.strip() for line in node.text.split("\n") if line.strip()]
        if self.typed_lines(lines, node.origin):
            return
        if lines and _TERM.match(lines[0]) and sum(1 for line in lines if _TERM.match(line)) >= 2:
            merged = []  # "Term: definition" lines, a definition's next lines joined to it
            for line in lines:
                if _TERM.match(line) or not merged:
                    merged.append(line)
                else:
                    merged[-1] += " " + line
            lines = merged
        if lines and all(_TERM.match(line) for line in lines) and (len(lines) > 1 or self._after_terms()):
            terms = [_term(line) for line in lines]
            block = self.last_block("text")
            if block is not None and block["content"] and "terms" in block["content"][-1]:
                block["content"][-1]["terms"].extend(terms)
            else:
                self.text_items([{"terms": terms}], node.origin, '"Term: definition" lines: terms of a text block')
            return
        if len(lines) == 1 and _TERM.match(lines[0]) and len(lines[0]) < 300:
            self.text_items(
                [{"terms": [_term(lines[0])]}], node.origin, 'a "Term: definition" line: terms of a text block'
            )
            return
        text = " ".join(lines)
        self.text_items([{"p": part} for part in pieces.split_long(text)], node.origin, "paragraphs: a text block")

    def typed_lines(self, lines: list[str], origin: str) -> bool:
        """Two or more lines that each open with a signed value, anywhere in a paragraph: a modifiers block (the
        short line just before them its title), the lines around them paragraphs as before."""
        at = next(
            (
                i
                for i in range(len(lines) - 1)
                if kinds.leading_modifier(lines[i]) and kinds.leading_modifier(lines[i + 1])
            ),
            None,
        )
        if at is None:
            return self.roll_lines(lines, origin)
        end = at
        while end < len(lines) and kinds.leading_modifier(lines[end]):
            end += 1
        before, title = lines[:at], None
        if before and len(plain(before[-1])) <= 60 and not plain(before[-1]).rstrip().endswith((".", ":", ";", ",")):
            title = before.pop()
        if before:
            self.paragraph(Paragraph("\n".join(before), origin))
        titles = None
        if title and self.pending_title:  # the block has its title: this line was its header
            titles = ["", title]
        else:
            self.flush_title()
            if title:
                self.pending_title = (title, origin)
        self.modifiers(
            [list(kinds.leading_modifier(line)) for line in lines[at:end]],
            titles,
            origin,
            "lines opening with a signed value: a modifiers block",
        )
        if lines[end:]:
            self.paragraph(Paragraph("\n".join(lines[end:]), origin))
        return True

    def roll_lines(self, lines: list[str], origin: str) -> bool:
        """A paragraph whose lines (after perhaps a header naming the die: "D6 Result") each open with a roll, and
        cover a die exactly once: a dice table."""
        first = 1 if lines and kinds.die_named(lines[0].split(" ")[0]) else 0
        body = [kinds.leading_roll(line) for line in lines[first:]]
        if len(body) < 2 or not all(body):
            return False
        header = None
        if first:
            die, _, rest = lines[0].partition(" ")
            header = [die, rest]
        return self.dice(
            [[roll, text] for roll, text in body], header, origin, "lines opening with a roll: ", quiet=True
        )

    def _after_terms(self) -> bool:
        block = self.last_block("text")
        return bool(block and block["content"] and "terms" in block["content"][-1])

    def list_(self, node: ListBlock) -> None:
        items = node.items
        texts = [item.text for item in items]
        if not node.ordered and len(items) >= 2 and all(_NUMBERED.match(plain(text)) for text in texts):
            node = ListBlock(
                [
                    ListItem(
                        _NUMBERED.match(item.text).group(2)
                        if _NUMBERED.match(item.text)
                        else kinds.strip_prefix(item.text, _NUMBERED.match(plain(item.text)).group(1)),
                        item.children,
                        item.title,
                    )
                    for item in items
                ],
                True,
                pieces.numbering(_NUMBERED.match(plain(texts[0])).group(1)),
                node.origin,
            )
            return self.sequence(node, "items numbered 1), 2)…: a sequence")
        if node.ordered:
            return self.sequence(node, "a numbered list: a sequence")
        if len(items) >= 2 and not any(item.children for item in items):
            if all(kinds.leading_modifier(text) for text in texts):
                return self.modifiers(
                    [list(kinds.leading_modifier(text)) for text in texts],
                    None,
                    node.origin,
                    "lines opening with a signed value: a modifiers block",
                )
            rolls = [kinds.leading_roll(text) for text in texts]
            if all(rolls) and self.dice(
                [[roll, text] for roll, text in rolls], None, node.origin, "lines opening with a roll: ", quiet=True
            ):
                return
            if all(_TERM.match(text) for text in texts):
                return self.text_items(
                    [{"terms": [_term(text) for text in texts]}],
                    node.origin,
                    'a list of "Term: definition" items: terms of a text block',
                )
        flat = [text for text in pieces.flatten(items)]
        self.text_items([{"bullets": flat}], node.origin, "a bulleted list: a text block")

    def sequence(self, node: ListBlock, why: str) -> None:
        if node.start > 1 and self.continue_sequence(node):
            return
        block = {"type": "sequence"}
        if node.numbering != "1":
            block["numbering"] = node.numbering
        block["steps"] = [pieces.step(item) for item in node.items]
        self.add(block, node.origin, why)

    def continue_sequence(self, node: ListBlock) -> bool:
        """A numbered list that takes up the count of the section's last sequence ("2." after "1." and its
        paragraphs): its steps join it, the paragraphs between become the previous step's text."""
        if self.pending_title or not self.sections:
            return False
        blocks = self.sections[-1]["blocks"]
        between = []
        while (
            blocks
            and blocks[-1]["type"] == "text"
            and all("p" in item for item in blocks[-1]["content"])
            and len(blocks) >= 2
            and blocks[-2]["type"] == "sequence"
            and "title" not in blocks[-1]
        ):
            between = blocks[-1]["content"]
            break
        sequence = blocks[-2] if between else blocks[-1] if blocks else None
        if sequence is None or sequence["type"] != "sequence" or len(sequence["steps"]) != node.start - 1:
            return False
        if between:
            last = sequence["steps"][-1]
            last["text"] = " ".join([last.get("text", ""), *[item["p"] for item in between]]).strip()
            removed = blocks.pop()
            self.report.guesses = [g for g in self.report.guesses if g.block != removed["id"]]
        sequence["steps"] += [pieces.step(item) for item in node.items]
        for guess in self.report.guesses:
            if guess.block == sequence["id"]:
                guess.why = (
                    "numbered items with paragraphs between them: one sequence, the paragraphs their steps' text"
                )
        return True

    # --- tables --------------------------------------------------------------------------------------------------


def _term(line: str) -> dict:
    match = _TERM.match(line)
    return {"term": match.group("term").strip(), "text": match.group("text").strip()}
