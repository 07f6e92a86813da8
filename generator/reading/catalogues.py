"""Translation catalogues read as strictly as sources: `sources/i18n/<sheet>.<lang>.po` and the templates' words,
checked for their own syntax before Babel reads them, with the line and column of each entry's strings."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from generator import files
from generator.errors import Problem, UserError
from generator.reading import sources as load


def read(path: Path) -> Catalog:
    return read_located(path)[0]


def read_located(path: Path) -> tuple[Catalog, "Places"]:
    """A catalogue, read as strictly as a source, and where each of its entries is written. Its size is checked
    before a byte is read; it must be UTF-8 (the header may say no other charset: nothing is converted), its syntax
    whole (a file cut off mid-string is an error at its line, not a string gone missing), each context given once,
    and its strings may hold no character a source may not (a control character, typed or as the escape \\r)."""
    try:
        raw = files.read_regular(path, files.MAX_CATALOGUE_BYTES, "a catalogue", confined=True)
        text = load.decode(path, raw)
        load.refuse_unprintable(path, text)  # the sources' rule, at the catalogue's line
        places = _lexed(path, text)
        # Babel is given text, not bytes: it never decodes through the header's charset
        return read_po(io.StringIO(text, newline="\n"), abort_invalid=True), places
    except UserError:
        raise
    except FileNotFoundError:
        document, _, lang = Path(path).name.removesuffix(".po").rpartition(".")
        raise UserError.at(
            path, 1, 1, f"no such catalogue: run 'qrs i18n update {document} --lang {lang}' to create it"
        ) from None
    except Exception as error:  # Babel's PoFileError and decoding errors carry their own words
        line = (getattr(error, "lineno", 0) or 0) + 1  # Babel counts lines from 0
        raise UserError.at(path, line, 1, f"unreadable catalogue: {error}") from None


# --- the catalogue's own syntax, checked before Babel reads it (Babel reads a string cut off mid-way, or a context
# given twice, without a word) ------------------------------------------------------------------------------------

_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)( +)(.*)")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}  # what Babel reads; msgfmt's others it would not
_CHARSET = re.compile(r"charset=([^\s;\\]*)", re.IGNORECASE)
_UTF8 = ("utf-8", "utf8")
_EXPECTED = (
    "expected msgctxt, msgid or msgstr followed by a quoted string, a quoted string continuing one, or a # comment"
)


@dataclass
class Field:
    """One keyword's string in a catalogue (msgstr "…", maybe continued over the lines after it)."""

    keyword: str
    line: int
    segments: list[tuple[int, int, str]] = field(
        default_factory=list
    )  # (line, column of the quote, text between quotes)

    @property
    def text(self) -> str:
        return "".join(_unescaped(raw) for _, _, raw in self.segments)

    def position(self, offset: int) -> tuple[int, int]:
        """The line and column, in the file, of the `offset`th character of the string."""
        for line, column, raw in self.segments:
            position = 0  # in raw
            while position < len(raw):
                if offset == 0:
                    return line, column + 1 + position
                position += 2 if raw[position] == "\\" else 1
                offset -= 1
        last_line, last_column, last_raw = self.segments[-1] if self.segments else (self.line, 1, "")
        return last_line, last_column + 1 + len(last_raw)


@dataclass
class Places:
    """Where each entry of a catalogue is written: its fields, by context."""

    fields: dict[str, dict[str, Field]] = field(default_factory=dict)

    def position(self, context: str, keyword: str, offset: int) -> tuple[int, int]:
        found = self.fields.get(context, {}).get(keyword)
        return found.position(offset) if found else (1, 1)


def _unescaped(raw: str) -> str:
    return _ESCAPE.sub(lambda match: _ESCAPED.get(match.group(1), match.group()), raw)


def _lexed(path: Path, text: str) -> Places:
    """Every syntax problem of a catalogue at once (UserError), or where its entries are."""
    problems: list[Problem] = []
    entries: list[dict[str, Field]] = []
    entry: dict[str, Field] = {}
    current: Field | None = None  # the field a quoted line continues

    def problem(line: int, column: int, message: str) -> None:
        problems.append(Problem(str(path), line, column, message))

    def close() -> None:
        nonlocal entry
        if "msgid" in entry:
            if not any(keyword.startswith("msgstr") for keyword in entry):
                problem(
                    entry["msgid"].line,
                    1,
                    "unreadable catalogue: this msgid has no msgstr after it (is the catalogue cut off?)",
                )
            entries.append(entry)
            entry = {}

    for number, line in enumerate(text.split("\n"), 1):
        content = line.removesuffix("\r").strip(" \t")
        indent = len(line) - len(line.lstrip(" \t"))
        if not content:
            continue
        if content.startswith("#"):  # a comment (translator's, flags, the previous text, an obsolete entry)
            close()
            current = None
            continue
        if content.startswith('"'):
            if current is None:
                problem(number, indent + 1, f"unreadable catalogue: a string outside an entry: {_EXPECTED}")
            else:
                _segment(current, number, indent + 1, content, problem)
            continue
        keyword = _KEYWORD.fullmatch(content)
        if keyword is None:
            problem(number, indent + 1, f"unreadable catalogue: {_EXPECTED}")
            current = None
            continue
        name = keyword.group(1)
        if name in ("msgctxt", "msgid"):
            close()
        if name in entry:
            problem(
                number,
                indent + 1,
                f"unreadable catalogue: a second {name} in one entry (the first at line "
                f"{entry[name].line}): an entry has one {name}",
            )
            current = None
            continue
        if name.startswith("msgstr") or name == "msgid_plural":
            if "msgid" not in entry:
                problem(number, indent + 1, f"unreadable catalogue: {name} without a msgid before it")
                current = None
                continue
        current = entry[name] = Field(name, number)
        _segment(current, number, indent + 1 + keyword.start(3), keyword.group(3), problem)
    close()
    if entry:  # a context with no message after it
        problem(
            entry["msgctxt"].line,
            1,
            "unreadable catalogue: this msgctxt has no msgid and msgstr after it (is the catalogue cut off?)",
        )
    return _places(path, entries, problems)


def _segment(into: Field, line: int, column: int, content: str, problem) -> None:
    """One quoted string of a line (column: where it starts), checked and added to `into`."""
    quoted = _QUOTED.fullmatch(content)
    if quoted is None:
        if not content.startswith('"'):
            problem(line, column, f"unreadable catalogue: expected a quoted string after {into.keyword}")
        elif _QUOTED.match(content):
            end = _QUOTED.match(content).end()
            problem(line, column + end, "unreadable catalogue: expected the end of the line after the closing quote")
        else:
            problem(
                line,
                column,
                'unreadable catalogue: this string is not closed: expected a closing quote (") on '
                "its line (is the catalogue cut off?)",
            )
        return
    raw = quoted.group(1)
    for escape in _ESCAPE.finditer(raw):
        if escape.group(1) not in _ESCAPED:
            problem(
                line,
                column + 1 + escape.start(),
                f"unreadable catalogue: unknown escape '{escape.group()}': "
                'expected \\n, \\t, \\" or \\\\ (a backslash)',
            )
            return
    into.segments.append((line, column, raw))
    unprintable = load.unprintable_in_value(_unescaped(raw))  # the sources' rule for a value
    if unprintable:
        offset, what = unprintable
        segment = Field(into.keyword, line, [(line, column, raw)])
        problem(*segment.position(offset), f"the string contains {what}: remove it")


def _places(path: Path, entries: list[dict[str, Field]], problems: list[Problem]) -> Places:
    """Each context given once (msgfmt refuses a message given twice; Babel keeps the last), and a header that
    names no charset but UTF-8: the catalogue's problems (UserError), or where each entry is."""
    places = Places()
    seen: dict[tuple, int] = {}
    for entry in entries:
        context = entry.get("msgctxt")
        key = ("msgctxt", context.text) if context else ("msgid", entry["msgid"].text)
        first = context or entry["msgid"]
        if key in seen:
            what = f"the context '{key[1][:80]}'" if context else f"the msgid '{key[1][:80]}' (without a context)"
            problems.append(
                Problem(
                    str(path),
                    first.line,
                    1,
                    f"unreadable catalogue: {what} is already given at line "
                    f"{seen[key]}: a catalogue gives each message once",
                )
            )
            continue
        seen[key] = first.line
        if context:
            places.fields[context.text] = entry
        elif not entry["msgid"].text and "msgstr" in entry:  # the header
            for line, column, raw in entry["msgstr"].segments:
                charset = _CHARSET.search(raw)
                if charset and charset.group(1).lower() not in _UTF8:
                    problems.append(
                        Problem(
                            str(path),
                            line,
                            column + 1 + charset.start(1),
                            f"the catalogue says charset={charset.group(1)}: a catalogue is read as UTF-8 "
                            "and nothing else, never converted; save it as UTF-8 and say charset=UTF-8",
                        )
                    )
    if problems:
        raise UserError(problems)
    return places
