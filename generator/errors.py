"""User-facing errors: every problem names file:line:column and what was expected."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

# What a terminal would act upon rather than print: C0 and C1 controls (an escape sequence sets the window's title
# or clears the screen; a newline forges a problem line) and the marks that reorder text on screen.
_UNSHOWN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # a tab is shown


def printable(text: str) -> str:
    """`text` as a terminal may show it: its control characters escaped (\\x1b, \\n), never acted upon."""
    return _UNSHOWN.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), str(text))


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one input, at one place in it (line and column are 1-based)."""

    path: str
    line: int
    column: int
    message: str
    # Problems of one kind that are reported as one line unless --verbose: "299 strings have no 'de' translation"
    # (the one-line summary of the group, said when it is folded).
    folded: str = field(default="", compare=False)

    def __str__(self) -> str:
        if not self.line:  # about a whole folder or file, no place in it
            return f"{printable(self.path)}: {printable(self.message)}"
        return f"{printable(self.path)}:{self.line}:{self.column}: {printable(self.message)}"


class UserError(Exception):
    """Bad input: reported to the user as a list of problems, exit code 2, no traceback."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(cls, path: Path | str, line: int, column: int, message: str) -> "UserError":
        return cls([Problem(str(path), line, column, message)])


class MissingInput(UserError):
    """A file named on the command line that is not there (a roster, a document to import, a source given by its
    path): exit code 66, as sysexits' EX_NOINPUT, for every kind of input."""

    @classmethod
    def of(cls, path: Path | str, what: str) -> "MissingInput":
        return cls([Problem(str(path), 0, 0, f"no such file: expected {what}")])


class Interrupted(Exception):
    """Ctrl-C stopped a command: its message says what was finished (kept) and what was not; exit code 130."""


class WorkerDied(Exception):
    """The system killed a build's worker process (out of memory, most often): said with the outputs it was
    building, which were not written; exit code 74, as for any refusal of the machine."""


class UnknownName(Exception):
    """A sheet or handout named on the command line that the sources do not have: a slip of the command line
    (exit code 64), said with the nearest names."""


def environment_missing(module: str | None) -> str:
    """What to say when the Python running qrs lacks a library qrs needs (qrs run outside its environment)."""
    return (
        f"error: this Python ({sys.executable}) lacks the library '{module}' that qrs needs: run qrs from the "
        "environment it was installed in (.venv/bin/qrs, or .venv/bin/python -m generator), or run `make` to "
        "install it there"
    )
