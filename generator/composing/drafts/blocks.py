"""The typing: an intermediate document → a sheet's sections and blocks, as a person would choose them.

A table keyed by rolls is a dice table (its die inferred, its coverage checked); by signed numbers, a modifiers
block; a grid with numeric column keys, a matrix (its rule named only when every cell agrees); a numbered list, a
sequence; "Term: definition" lines, terms of a text block; the rest, tables and text. Level-2 headings make
sections, level-3 groups, deeper ones a block's title. Nothing is dropped: what fits no block type is kept as text
where it stood, and the report says so."""

from __future__ import annotations

from generator.composing.drafts import glossary, kinds, pieces
from generator.composing.drafts.lines import TERM, LineTyping, term
from generator.composing.drafts.report import Report, note
from generator.composing.drafts.tables import TableTyping
from generator.model.types import MAX_ROWS
from generator.reading.documents.document import Document, Heading, ListBlock, Paragraph, Table, plain


class Typing(TableTyping, LineTyping):
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
            and not TERM.match(node.text)
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
        if lines and TERM.match(lines[0]) and sum(1 for line in lines if TERM.match(line)) >= 2:
            merged = []  # "Term: definition" lines, a definition's next lines joined to it
            for line in lines:
                if TERM.match(line) or not merged:
                    merged.append(line)
                else:
                    merged[-1] += " " + line
            lines = merged
        if lines and all(TERM.match(line) for line in lines) and (len(lines) > 1 or self._after_terms()):
            terms = [term(line) for line in lines]
            block = self.last_block("text")
            if block is not None and block["content"] and "terms" in block["content"][-1]:
                block["content"][-1]["terms"].extend(terms)
            else:
                self.text_items([{"terms": terms}], node.origin, '"Term: definition" lines: terms of a text block')
            return
        if len(lines) == 1 and TERM.match(lines[0]) and len(lines[0]) < 300:
            self.text_items(
                [{"terms": [term(lines[0])]}], node.origin, 'a "Term: definition" line: terms of a text block'
            )
            return
        text = " ".join(lines)
        self.text_items([{"p": part} for part in pieces.split_long(text)], node.origin, "paragraphs: a text block")
