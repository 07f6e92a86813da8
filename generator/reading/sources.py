"""Reading a source: YAML text → plain data, with the file:line:column of every value.

PyYAML's defaults lose data silently on hand-edited files (duplicate keys, `no` read as
False, `1:30` read as 90). This loader keeps every scalar as the exact string its author
typed and refuses what would be misread, naming where.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator import files
from generator.errors import MissingInput, Problem, UserError

MAX_SOURCE_BYTES = files.MAX_SOURCE_BYTES
MAX_NESTING = 30  # lists and mappings inside one another; the sheets use about 12
# Counted while composing, so that a huge source is refused in a moment instead of validated for seconds.
MAX_LIST_ITEMS = 500  # the items of one list: model.MAX_ROWS, the longest list the model accepts
MAX_SOURCE_ITEMS = 10_000  # the items of every list of a file together; the sheets use at most about 450

# YAML 1.1 plain scalars that PyYAML would turn into something other than the typed text.
_IMPLICIT_BOOL = re.compile(r"^(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|True|TRUE|False|FALSE)$")
_SEXAGESIMAL = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
_OCTAL = re.compile(r"^[-+]?0[0-7_]+$")
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
# Characters that do not print, or change how the text around them prints: refused in the file (PyYAML refuses
# the first kind) and in values typed as escapes ("\a", "\u2028"). A line or paragraph separator breaks a one-line
# title with a missing-glyph box; a bidirectional control (U+202E) makes the printed text read otherwise.
_SEPARATORS = "\u2028\u2029"
_BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
_UNPRINTABLE = re.compile(f"{yaml.reader.Reader.NON_PRINTABLE.pattern}|[{_SEPARATORS}{_BIDI_CONTROLS}]")
_CONTROL = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_SEPARATORS}{_BIDI_CONTROLS}]")
# PyYAML's words for a syntax error, and what the author should do about it.
_YAML_HINTS = (
    ("mapping values are not allowed here", "if this ': ' is part of a text, put the whole text in quotes"),
    ("cannot start any token", "put the value in quotes"),
    ("expected <block end>", "check the indentation of this line"),
    ("could not find expected ':'", "a line of a mapping needs 'key: value', or a quote is not closed"),
    ("found unexpected end of stream", "a quote or bracket is not closed"),
    ("expected ',' or '}', but got", "a comma inside {…} ends a value: put a text that holds a comma in quotes"),
)
# A value that opens with a {keyword} reference: YAML reads the braces as a mapping unless the text is quoted.
_STARTS_WITH_BRACE = re.compile(r"(?:^|[:,\[]\s)\s*\{[\w|-]+\}\s*[^\s,}]")
_QUOTE_BRACE = 'a text that starts with a {keyword} must be put in quotes ("{savage} flee"), or YAML reads a mapping'


@dataclass
class Located:
    """Loaded data with a way back from any path inside it to the place in the file."""

    path: Path
    data: Any
    root: Node

    def position(self, loc: tuple) -> tuple[int, int]:
        """Line and column (1-based) of the deepest node that `loc` reaches.

        Path elements that are not in the data (such as pydantic's union tags) are skipped.
        """
        node = self.root
        for key in loc:
            child = _child(node, key)
            if child is not None:
                node = child
        return node.start_mark.line + 1, node.start_mark.column + 1

    def problem(self, loc: tuple, message: str) -> Problem:
        line, column = self.position(loc)
        return Problem(str(self.path), line, column, message)


def _child(node: Node, key: Any) -> Node | None:
    if isinstance(node, MappingNode):
        for key_node, value_node in node.value:
            if key_node.value == key:
                return value_node
    elif isinstance(node, SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
        return node.value[key]
    return None


class _Strict:
    """A composer that refuses anchors and aliases (shared references, alias bombs), tags, and deep nesting."""

    depth = 0
    items = 0  # list items composed so far in the whole file

    def compose_node(self, parent, index):  # noqa: D401 - PyYAML hook
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise _Refused(event.start_mark, "anchors and aliases (*name) are not allowed: repeat the value instead")
        event = self.peek_event()
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Refused(event.start_mark, f"anchors (&{anchor}) are not allowed: repeat the value instead")
        tag = getattr(event, "tag", None)
        if tag is not None:  # !!python/object, !!int…: the loader reads text, nothing else
            tag = tag.replace("tag:yaml.org,2002:", "!!")
            raise _Refused(
                event.start_mark, f"tags ({tag}) are not allowed: write the plain value, in quotes for a text"
            )
        if self.depth >= MAX_NESTING:  # PyYAML composes recursively: refuse before Python's stack runs out
            raise _Refused(event.start_mark, f"lists and mappings are nested more than {MAX_NESTING} deep here")
        if isinstance(index, int):  # an item of a list (a mapping's values are indexed by their key node)
            self._count_item(index, event.start_mark)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def _count_item(self, index: int, mark) -> None:
        if index >= MAX_LIST_ITEMS:
            raise _Refused(
                mark,
                f"this list has more than {MAX_LIST_ITEMS} items: a list of a source holds at most "
                f"{MAX_LIST_ITEMS} (rows, steps, units…)",
            )
        self.items += 1
        if self.items > MAX_SOURCE_ITEMS:
            raise _Refused(
                mark,
                f"the file has more than {MAX_SOURCE_ITEMS} list items (rows, steps, units…) in all: "
                f"a source holds at most {MAX_SOURCE_ITEMS}",
            )


class _StrictComposer(_Strict, yaml.SafeLoader):
    """PyYAML's own reader, scanner and parser: its error messages are the ones the hints above match."""


if yaml.__with_libyaml__:

    class _FastComposer(_Strict, yaml.composer.Composer, yaml.cyaml.CParser, yaml.resolver.Resolver):
        """LibYAML's scanner and parser (about ten times faster) under the same strict composer. Its nodes carry
        the same values, tags and marks as PyYAML's, and plain scalars the style '' rather than None."""

        def __init__(self, text: str):
            yaml.cyaml.CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)
else:  # a PyYAML built without LibYAML
    _FastComposer = None


class _Refused(Exception):
    def __init__(self, mark, message: str):
        self.mark = mark
        self.message = message


def load_file(path: Path) -> Located:
    """Read and compose one YAML source; raise UserError with every problem found."""
    return load_text(path, decode(path, _read_bytes(path)))


def load_text(path: Path, text: str) -> Located:
    """A source's text composed as if read from `path` (a draft checked before it is written: qrs import)."""
    root = _compose(path, text)
    problems: list[Problem] = []
    data = _to_data(path, root, problems)
    if problems:
        raise UserError(problems)
    return Located(path=path, data=data, root=root)


def _read_bytes(path: Path) -> bytes:
    try:
        return files.read_regular(path, MAX_SOURCE_BYTES, confined=True)
    except FileNotFoundError:
        raise MissingInput.of(path, "a source (.yaml)") from None


def decode(path: Path, raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raise UserError.at(path, 1, 1, "the file starts with a byte-order mark: save it as UTF-8 without BOM")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        line_start = raw.rfind(b"\n", 0, error.start) + 1
        column = len(raw[line_start : error.start].decode("utf-8")) + 1  # in characters, as editors count
        raise UserError.at(
            path, line, column, f"byte 0x{raw[error.start]:02x} is not UTF-8: save the file as UTF-8"
        ) from None


def refuse_unprintable(path: Path, text: str) -> None:
    """UserError at the first character of the file that does not print or reorders the text (see _UNPRINTABLE)."""
    unprintable = _UNPRINTABLE.search(text)
    if unprintable:
        line, column = _line_column(text, unprintable.start())
        what, effect = _kind_of(unprintable.group())
        what = "character" if what == "control character" else what  # U+FFFE and the like are not controls
        raise UserError.at(
            path, line, column, f"the {what} U+{ord(unprintable.group()):04X} {effect} and is not allowed: delete it"
        )


def unprintable_in_value(text: str) -> tuple[int, str] | None:
    """The offset of the first character a value may not hold, even typed as an escape ("\\a", "\\u2028"), and what
    it is ("the control character U+0007, which does not print"); None if every character may be printed."""
    control = _CONTROL.search(text)
    if control is None:
        return None
    what, effect = _kind_of(control.group())
    return control.start(), f"the {what} U+{ord(control.group()):04X}, which {effect}"


def _kind_of(char: str) -> tuple[str, str]:
    """What a refused character is, and why it is refused."""
    if char in _SEPARATORS:
        return "line or paragraph separator", "does not print"
    if re.match(f"[{_BIDI_CONTROLS}]", char):
        return "bidirectional control", "reorders the printed text"
    return "control character", "does not print"


# A source up to this many characters is composed once a process (the largest shipped sheet: 34,000 characters,
# whose nodes take 0.6 MB): at most 32 files of at most about 5 MB of nodes each are kept.
KEPT_TEXT = 1 << 18


def _compose(path: Path, text: str) -> Node:
    return _composed(path, text) if len(text) <= KEPT_TEXT else _compose_now(path, text)


@lru_cache(maxsize=32)
def _composed(path: Path, text: str) -> Node:
    """A source composed once a process for the same path and text: a build reads a sheet to plan its outputs, to
    build each, and again for each handout drawn from it. The nodes are only read (Located.position); a file
    that fails is composed again, to raise its problem again."""
    return _compose_now(path, text)


def _compose_now(path: Path, text: str) -> Node:
    refuse_unprintable(path, text)
    if _FastComposer is not None:
        loader = _FastComposer(text)
        try:
            root = loader.get_single_node()
        except (_Refused, yaml.YAMLError):
            pass  # composed again below, so that the problem is told in PyYAML's words, with its hints
        else:
            if root is not None:
                return root
        finally:
            loader.dispose()
    loader = _StrictComposer(text)
    try:
        root = loader.get_single_node()
    except _Refused as refused:
        raise UserError.at(path, refused.mark.line + 1, refused.mark.column + 1, refused.message) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = error.problem or "invalid YAML"
        if "'\\t'" in message or "\t" in message:
            message = "a tab character is not allowed here: indent with spaces"
        else:
            lines = text.splitlines()
            line = lines[mark.line] if mark.line < len(lines) else ""
            if _STARTS_WITH_BRACE.search(line[: mark.column + 1]):
                message += f": {_QUOTE_BRACE}"
            elif "but got '{'" in message:  # a {keyword} inside a flow value: not a comma's doing
                message += (
                    ": a {keyword} inside {…} or […] opens another mapping: put the whole text in quotes "
                    '("Attacks {swarm}")'
                )
            else:
                message += "".join(f": {hint}" for words, hint in _YAML_HINTS if words in message)
            start = error.context_mark
            if error.context and error.context.startswith("while ") and start is not None and start is not mark:
                message += f" ({error.context} started at line {start.line + 1}, column {start.column + 1})"
            elif error.context:
                message = f"{error.context}, {message}"
        raise UserError.at(path, mark.line + 1, mark.column + 1, f"invalid YAML: {message}") from None
    finally:
        loader.dispose()
    if root is None:
        raise UserError.at(path, 1, 1, "the file is empty: expected a mapping of sheet fields")
    return root


def _line_column(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _to_data(path: Path, node: Node, problems: list[Problem]) -> Any:
    """Turn composed nodes into dicts, lists and strings; None for an explicit null."""

    def here(n: Node, message: str) -> None:
        problems.append(Problem(str(path), n.start_mark.line + 1, n.start_mark.column + 1, message))

    if isinstance(node, MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                here(key_node, "a key must be a plain name")
                continue
            key = key_node.value
            if key == "<<":
                here(key_node, "merge keys (<<) are not allowed: repeat the fields instead")
                continue
            if key in result:
                here(key_node, f"duplicate key '{key}': it is already set in this mapping")
                continue
            result[key] = _to_data(path, value_node, problems)
        return result
    if isinstance(node, SequenceNode):
        return [_to_data(path, item, problems) for item in node.value]
    return _scalar(node, here)


def _scalar(node: ScalarNode, here) -> Any:
    text = node.value
    unprintable = unprintable_in_value(text)
    if unprintable:  # typed as an escape in a quoted value ("\a", "\x1b", "\0"): it would not print
        here(node, f"the value contains {unprintable[1]}: remove it")
    if node.style:  # quoted or block scalar: exactly what was typed (plain is None, or '' from LibYAML)
        return text
    if _NULL.match(text):
        return None
    if text in ("true", "false"):
        return text == "true"
    if _IMPLICIT_BOOL.match(text):
        here(
            node,
            f"'{text}' is ambiguous (YAML reads it as a yes/no value): write \"{text}\" in quotes for the text, or true/false",
        )
    elif _SEXAGESIMAL.match(text):
        here(node, f"'{text}' is ambiguous (YAML 1.1 reads it as a number in base 60): write \"{text}\" in quotes")
    elif _OCTAL.match(text) and text.lstrip("+-") != "0":
        here(node, f"'{text}' is ambiguous (YAML 1.1 reads it as an octal number): write \"{text}\" in quotes")
    return text
