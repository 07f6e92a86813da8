"""The typing of lines and lists (generator.composing.drafts.blocks): a list as a sequence, bullets or terms; lines
that each open with a signed value, a modifiers block; lines that each open with a roll, a dice table."""

from __future__ import annotations

import re

from generator.composing.drafts import kinds, pieces
from generator.reading.documents.document import ListBlock, ListItem, Paragraph, plain

TERM = re.compile(r"^(?P<term>(?:\*\*)?[^:*\n]{1,40}?(?:\*\*)?)\s*:\s+(?P<text>\S.*)$", re.S)
NUMBERED = re.compile(r"^\s*(\d{1,2}|[A-Za-z])\s*[.)]\s+(\S.*)$", re.S)


class LineTyping:
    """Lines and lists typed, for Typing (its blocks, report and the sections it builds)."""

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
        if not node.ordered and len(items) >= 2 and all(NUMBERED.match(plain(text)) for text in texts):
            node = ListBlock(
                [
                    ListItem(
                        NUMBERED.match(item.text).group(2)
                        if NUMBERED.match(item.text)
                        else kinds.strip_prefix(item.text, NUMBERED.match(plain(item.text)).group(1)),
                        item.children,
                        item.title,
                    )
                    for item in items
                ],
                True,
                pieces.numbering(NUMBERED.match(plain(texts[0])).group(1)),
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
            if all(TERM.match(text) for text in texts):
                return self.text_items(
                    [{"terms": [term(text) for text in texts]}],
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


def term(line: str) -> dict:
    match = TERM.match(line)
    return {"term": match.group("term").strip(), "text": match.group("text").strip()}
