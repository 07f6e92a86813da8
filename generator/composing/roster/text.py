"""A roster's words as a handout's source text, and the report of what the sheet could not name.

The roster is hostile input: its control characters print as spaces, a character no font has prints as its nearest
that does (else its name in brackets), its markup characters are escaped, and New Recruit's ^^keywords^^ and
**bold** print as its app shows them. Each substitution, like each name the sheet has not, is reported once."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from generator.composing.roster.marks import marked
from generator.model import glyphs

MAX_VALUE = 20  # a stat line's value (the handout's limit): longer ones are cut, with an ellipsis
MAX_TEXT = 3900  # a text of the roster (an ability's): the model's limit, less room for escaping
SUBSTITUTES = {"\u2011": "-"}  # a character no font of the sheet has, given its nearest that prints
BULLET = re.compile(r"^[-\u2013\u25a0\u25aa\u25cf\u2022*]\s+")  # a list's item, as catalogues mark it: - ■ ▪ ● • *
BLANK = " \u2800"  # a line of nothing but Braille blanks (Warcry's texts end in one) is no paragraph
STRAY_APOSTROPHE = re.compile(r"^['\u2018\u2019](?=[-+\u2212]?\d)")  # '+2, '4: a spreadsheet's text mark


@dataclass
class Unmatched:
    """One name of the roster the sheet has no name for, with every unit that has it, and what was tried."""

    kind: str  # characteristic, equipment, rule, character…
    name: str
    tried: str
    units: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        units = ", ".join(f"'{unit}'" for unit in self.units[:6]) + (
            f" and {len(self.units) - 6} more" if len(self.units) > 6 else ""
        )
        return f"{self.kind} '{self.name}' ({units}): {self.tried}"


class Report:
    """What the sheet could not name, grouped by kind and name (listed once, with the units that have it)."""

    def __init__(self):
        self.items: dict[tuple[str, str], Unmatched] = {}

    def add(self, unit: str, kind: str, name: str, tried: str) -> None:
        item = self.items.setdefault((kind, name), Unmatched(kind, name, tried))
        if unit not in item.units:
            item.units.append(unit)

    def list(self) -> list[Unmatched]:
        return list(self.items.values())


class Text:
    """The roster's words made source text that prints as written: control characters made spaces, characters the
    font lacks given their nearest the font has (each reported), markup escaped."""

    def __init__(self, report: Report):
        self.report = report
        self.font = glyphs.printable_characters()

    def __call__(self, text: str, limit: int = MAX_TEXT, where: str = "", lines: bool = False) -> str:
        """`lines`: a rule's or an ability's text, its paragraphs kept as lines and its "- " or "■ " lists as
        bullets; else one line."""
        text = unicodedata.normalize("NFC", text)
        kept = [self._line(line, where) for line in (text.splitlines() if lines else [text])]
        text = "\n".join(BULLET.sub("\u2022 ", line) for line in kept if line.strip(BLANK))
        if len(text) > limit:
            text = text[: limit - 1].rstrip() + "\u2026"
        return marked(text, literal)  # New Recruit's ^^keywords^^ and **bold**, as its app shows them

    def _line(self, text: str, where: str) -> str:
        text = "".join(" " if unicodedata.category(char)[0] in "CZ" and char != " " else char for char in text)
        text = " ".join(text.split())
        return "".join(char if ord(char) in self.font else self._substitute(char, where) for char in text)

    def value(self, text: str, limit: int = MAX_VALUE, where: str = "", lines: bool = False) -> str:
        """A characteristic's value: as a text, less the apostrophe a spreadsheet leaves before a number or a sign
        (BSData's WHFB Great Weapon: S '+2), reported."""
        cleaned = STRAY_APOSTROPHE.sub("", text.strip())
        if cleaned != text.strip():
            self.report.add(where or "roster", "value", text.strip(), f"a stray apostrophe: printed as '{cleaned}'")
        return self(cleaned, limit, where, lines)

    def _substitute(self, char: str, where: str) -> str:
        """A character no font of the sheet has: its nearest that prints, else its Unicode name in brackets (never a
        '?', which would read as a value), reported either way."""
        substitute = SUBSTITUTES.get(char) or unicodedata.normalize("NFKC", char)
        if not substitute or not all(ord(c) in self.font for c in substitute):
            substitute = f"[{unicodedata.name(char, f'U+{ord(char):04X}').lower()}]"
        self.report.add(
            where or "roster",
            "character",
            f"U+{ord(char):04X} {char}",
            f"no font of the sheet has it: printed as '{substitute}'",
        )
        return substitute


def literal(text: str) -> str:
    """A roster's name as source text that prints as written: the markup's characters escaped, and a '<' that
    would open an HTML tag (40k's <HIVE FLEET>) too."""
    return re.sub(r"<(?=[/!?a-zA-Z])", r"\\<", re.sub(r"([*{}\[\]\\])", r"\\\1", text))
