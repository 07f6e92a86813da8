"""Reading a roster as hostile input: a .ros (XML) or a .rosz (a zip holding one .ros), bounded before it is read.

The XML is parsed by defusedxml (no DTD, no entity, no external reference); a .rosz must hold exactly one member
of bounded size and compression ratio, stored or deflated, unencrypted, whose bytes match its CRC. Every refusal is
a UserError naming ROSTER[:member]:line:column (a member's name quoted when it holds anything a terminal would
act on), never an internal error."""

from __future__ import annotations

import io
import re
import unicodedata
import zipfile
import zlib
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree

from generator.errors import MissingInput, UserError
from generator.files import read_regular

NAMESPACE = "{http://www.battlescribe.net/schema/rosterSchema}"
MAX_ROSTER_BYTES = 4 * 1024 * 1024  # the file as given: a large army's roster is some hundred kilobytes
MAX_UNZIPPED_BYTES = 16 * 1024 * 1024
MAX_COMPRESSION_RATIO = 100  # XML compresses ten to twenty times; a zip bomb, thousands of times
COMPRESSIONS = {
    zipfile.ZIP_STORED: "stored",
    zipfile.ZIP_DEFLATED: "deflate",
}  # what BattleScribe and New Recruit write
ENCODINGS = ("utf-8", "utf-16", "iso-8859-1", "us-ascii")  # what expat reads itself (a roster is UTF-8)


def quoted(name: str) -> str:
    """A name from the input as the terminal may show it: quoted with its control characters escaped when it holds
    any (a newline, an escape sequence, a bidirectional override), as written otherwise."""
    if all(unicodedata.category(char)[0] != "C" and char not in "\u2028\u2029" for char in name):
        return name
    return (
        "'"
        + "".join(
            char
            if unicodedata.category(char)[0] != "C" and char not in "\u2028\u2029"
            else f"\\u{ord(char):04x}"
            if ord(char) > 0xFF
            else f"\\x{ord(char):02x}"
            for char in name
        ).replace("'", "\\'")
        + "'"
    )


def read(path: Path) -> tuple[Element, str]:
    """The roster's root element and the name its problems are reported under (ROSTER or ROSTER:member)."""
    try:
        content = read_regular(path, MAX_ROSTER_BYTES, "a roster")
    except FileNotFoundError:
        raise MissingInput.of(path, "a roster (.ros or .rosz)") from None
    label = str(path)
    if zipfile.is_zipfile(io.BytesIO(content)):
        member, content = _only_member(path, content)
        label = f"{path}:{quoted(member)}"
    root = _parsed(content, label)
    if root.tag != f"{NAMESPACE}roster":
        raise UserError.at(
            label,
            1,
            1,
            f"the root element is <{local(root.tag)}>: expected <roster> in the "
            f"namespace {NAMESPACE.strip('{}')} (a BattleScribe or New Recruit roster)",
        )
    return root, label


def _only_member(path: Path, content: bytes) -> tuple[str, bytes]:
    """The one file a .rosz holds, refused if there are several, or if it would unpack too large or cannot be read."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        members = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, ValueError, EOFError, NotImplementedError, OSError) as error:
        raise UserError.at(path, 1, 1, f"not a readable zip archive ({error}): expected a .rosz roster") from None
    if len(members) != 1:
        names = ", ".join(quoted(info.filename) for info in members) or "none"
        raise UserError.at(
            path,
            1,
            1,
            f"the archive holds {len(members)} files ({names}): expected exactly one roster (.ros) in a .rosz",
        )
    info = members[0]
    where = f"{path}:{quoted(info.filename)}"
    _refuse_unreadable(where, info)
    try:
        with archive.open(info) as stream:
            unpacked = stream.read(MAX_UNZIPPED_BYTES + 1)  # the size the archive declares may lie
    except zipfile.BadZipFile as error:  # a bad CRC, a truncated member
        raise UserError.at(
            where,
            1,
            1,
            f"the archive's member is damaged ({error}): expected a .rosz as BattleScribe or New Recruit writes it",
        ) from None
    except (zlib.error, EOFError, ValueError, OSError, NotImplementedError, RuntimeError) as error:
        raise UserError.at(
            where,
            1,
            1,
            f"the archive's member cannot be unpacked ({type(error).__name__}: {error}): "
            "expected a .rosz as BattleScribe or New Recruit writes it",
        ) from None
    if len(unpacked) > MAX_UNZIPPED_BYTES:
        raise UserError.at(
            where,
            1,
            1,
            f"the roster unpacks to more than {MAX_UNZIPPED_BYTES} bytes: expected a roster of a few hundred kilobytes",
        )
    if len(unpacked) != info.file_size:
        raise UserError.at(
            where,
            1,
            1,
            f"the archive says the roster is {info.file_size} bytes; it unpacks to "
            f"{len(unpacked)}: expected a .rosz whose sizes are true",
        )
    return info.filename, unpacked


def _refuse_unreadable(where: str, info: zipfile.ZipInfo) -> None:
    """What is refused before a byte is unpacked: encryption, an unknown compression, a declared bomb."""
    if info.flag_bits & 0x1:
        raise UserError.at(where, 1, 1, "the roster in the archive is encrypted: expected a .rosz without a password")
    if info.compress_type not in COMPRESSIONS:
        raise UserError.at(
            where,
            1,
            1,
            f"the roster is compressed with method {info.compress_type}: expected "
            f"{' or '.join(COMPRESSIONS.values())}, as BattleScribe and New Recruit write",
        )
    if info.file_size > MAX_UNZIPPED_BYTES:
        raise UserError.at(
            where,
            1,
            1,
            f"the roster unpacks to {info.file_size} bytes: a roster may be at most {MAX_UNZIPPED_BYTES} bytes",
        )
    ratio = info.file_size / max(info.compress_size, 1)
    if ratio > MAX_COMPRESSION_RATIO:
        raise UserError.at(
            where,
            1,
            1,
            f"the roster is compressed {ratio:.0f} times: expected at most "
            f"{MAX_COMPRESSION_RATIO} times (a zip bomb is refused unread)",
        )


_DECLARED = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']{0,40})["']""")


def _refuse_encoding(content: bytes, label: str) -> None:
    """An XML declaration naming an encoding expat does not read itself (a multi-byte one, or none at all)."""
    declared = _DECLARED.match(content[:200])
    if not declared:
        return
    name = declared.group(1).decode("ascii", "replace")
    if name.lower().replace("_", "-") not in {*ENCODINGS, "utf8", "latin-1", "latin1", "ascii", "iso8859-1"}:
        column = declared.start(1) + 1
        raise UserError.at(
            label,
            1,
            column,
            f"the roster declares the encoding {quoted(name)!s}: expected "
            "UTF-8 (as BattleScribe and New Recruit write), UTF-16, ISO-8859-1 "
            "or US-ASCII",
        )


def _parsed(content: bytes, label: str) -> Element:
    _refuse_encoding(content, label)
    opened: list[str] = []  # the elements open where parsing stopped: what a malformed roster should close
    root = None
    try:
        for event, element in defusedxml.ElementTree.iterparse(
            io.BytesIO(content), events=("start", "end"), forbid_dtd=True, forbid_entities=True, forbid_external=True
        ):
            if event == "start":
                opened.append(local(element.tag))
            else:
                opened.pop()
                root = element
        if root is None:
            raise UserError.at(label, 1, 1, "no element: expected a BattleScribe roster")
        return root
    except ParseError as error:
        line, column = error.position
        raise UserError.at(label, line, column + 1, _malformed(error, content, opened)) from None
    except defusedxml.DTDForbidden:
        raise UserError.at(
            label,
            *_position_of(content, b"<!DOCTYPE"),
            "a document type declaration (<!DOCTYPE>): "
            "expected none; a roster is refused with a DTD, which could define entities",
        ) from None
    except defusedxml.EntitiesForbidden:
        raise UserError.at(
            label,
            *_position_of(content, b"<!ENTITY"),
            "an entity declaration (<!ENTITY>): "
            "expected none; a roster is refused with entities (a billion-laughs bomb)",
        ) from None
    except defusedxml.ExternalReferenceForbidden:
        raise UserError.at(
            label,
            *_position_of(content, b"SYSTEM"),
            "a reference to an external resource: expected none; a roster never reads other files",
        ) from None
    except (LookupError, ValueError, UnicodeError) as error:  # an encoding expat or Python cannot read
        raise UserError.at(label, 1, 1, f"unreadable text ({error}): expected a roster in UTF-8") from None


def _malformed(error: ParseError, content: bytes, opened: list[str]) -> str:
    reason = re.sub(r": line \d+, column \d+$", "", str(error))
    if not opened:
        return f"malformed XML ({reason}): expected a well-formed BattleScribe roster"
    line, column = error.position
    lines = content.decode("utf-8", "replace").splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    found = re.compile(r"</?[\w:.-]+>?").match(text, max(column - 2, 0))  # expat points past the "</"
    found_text = f", found {found.group(0)}" if found else ""
    return f"malformed XML ({reason}): expected </{opened[-1]}> to close <{opened[-1]}>{found_text}"


def _position_of(content: bytes, marker: bytes) -> tuple[int, int]:
    offset = max(content.find(marker), 0)
    before = content[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def children(element: Element, name: str) -> list[Element]:
    """The elements <name> directly inside <names>, as the roster schema wraps every list."""
    wrapper = element.find(f"{NAMESPACE}{name}s")
    return [] if wrapper is None else wrapper.findall(f"{NAMESPACE}{name}")
