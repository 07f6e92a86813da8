"""What `qrs import` tells its user: each block's guessed type and why, the guesses made with low confidence, what
could not be typed (kept as text where it stood), the placeholders to fill, the words offered as keywords, and each
problem `qrs check` finds in the draft, with its line in the draft and its place in the original."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Guess:
    block: str  # the block's id
    type: str  # its type in the draft
    why: str
    origin: str  # where it stood in the original
    confident: bool = True
    line: int = 0  # its line in the draft, once written


@dataclass
class Note:
    origin: str
    text: str
    why: str


@dataclass
class DraftProblem:
    line: int
    column: int
    message: str
    origin: str


@dataclass
class Report:
    original: str
    draft: str
    reader: str = ""
    guesses: list[Guess] = field(default_factory=list)
    untyped: list[Note] = field(default_factory=list)  # kept as text where it stood
    dropped: list[Note] = field(default_factory=list)  # left out by the reader: running headers, page numbers
    placeholders: list[Note] = field(default_factory=list)  # values the original does not state
    keywords: list[str] = field(default_factory=list)  # bold terms repeated across the sheet
    problems: list[DraftProblem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what may be wrong without being a problem: --lang and the words

    def guess(self, block: str, type_: str, why: str, origin: str, confident: bool = True) -> None:
        self.guesses.append(Guess(block, type_, why, origin, confident))

    def as_dict(self) -> dict:
        return asdict(self)

    def lines(self, problems: bool = True) -> list[str]:
        """The report as a terminal shows it; its problems too unless `problems` is False (the command line then
        reports them once, as problems)."""
        counts: dict[str, int] = {}
        for guess in self.guesses:
            counts[guess.type] = counts.get(guess.type, 0) + 1
        summary = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()))
        out = [f"{self.original} ({self.reader}) → {self.draft}: {len(self.guesses)} block(s): {summary}"]
        for guess in self.guesses:
            mark = "  " if guess.confident else "? "
            out.append(f"{mark}{self.draft}:{guess.line}: {guess.block}: {guess.type}, {guess.why} ({guess.origin})")
        for title, notes in (
            ("not typed, kept as text where it stood", self.untyped),
            ("left out by the reader", self.dropped),
            ("the sheet's metadata: read, guessed, or to fill in", self.placeholders),
        ):
            if notes:
                out.append(f"{title}:")
                out += [f"  {note.origin}: {note.why}: {_short(note.text)}" for note in notes]
        if self.keywords:
            out.append("offered as keywords (bold, repeated): " + ", ".join(self.keywords))
        for problem in self.problems if problems else ():
            out.append(f"{self.draft}:{problem.line}:{problem.column}: {problem.message} (original: {problem.origin})")
        return out


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def note(origin: str, text: str, why: str) -> Note:
    """What the report says of a part of the original: where it stood, its text (without markup), and why."""
    from generator.reading.documents.document import plain

    return Note(origin, plain(text), why)
