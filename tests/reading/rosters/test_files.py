"""A roster read as hostile input (#35, points 8 and 19): archives and encodings qrs cannot or will not read are
refused with a message, exit code 2 and nothing written, never an internal error; a member's name that holds
control characters is shown quoted, never raw to the terminal."""

from __future__ import annotations

import io
import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from tests.conftest import LIBRARY, ROOT, run_qrs

MINERS = (ROOT / "tests" / "fixtures" / "rosters" / "dwarf-miners.ros").read_bytes()


@pytest.fixture
def sources(tmp_path) -> Path:
    copied = tmp_path / "sources"
    shutil.copytree(LIBRARY, copied)
    return copied


def zipped(content: bytes = MINERS, name: str = "army.ros", method: int = zipfile.ZIP_DEFLATED) -> bytearray:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        archive.writestr(name, content)
    return bytearray(buffer.getvalue())


def patched(data: bytearray, local: int | None, central: int, fmt: str, value: int) -> bytearray:
    """The archive with a field of its member's local header and of its central directory entry changed."""
    if local is not None:
        struct.pack_into(fmt, data, data.find(b"PK\x03\x04") + local, value)
    struct.pack_into(fmt, data, data.find(b"PK\x01\x02") + central, value)
    return data


def encrypted() -> bytearray:
    return patched(zipped(), 6, 8, "<H", 0x1)


def unknown_method() -> bytearray:
    return patched(zipped(), 8, 10, "<H", 99)


def bad_crc() -> bytearray:
    return patched(zipped(), 14, 16, "<I", 0xDEADBEEF)


def corrupt_deflate() -> bytearray:
    data = zipped()
    start = data.find(b"PK\x03\x04") + 30 + len("army.ros")
    data[start : start + 40] = b"\xff" * 40
    return data


def smaller_than_it_is() -> bytearray:
    return patched(zipped(), 22, 24, "<I", 100)


def larger_than_it_is() -> bytearray:
    return patched(zipped(), 22, 24, "<I", len(MINERS) + 5000)


ARCHIVES = {
    "encrypted": (encrypted, "the roster in the archive is encrypted: expected a .rosz without a password"),
    "unknown-method": (unknown_method, "the roster is compressed with method 99: expected stored or deflate"),
    "bad-crc": (bad_crc, "the archive's member is damaged (Bad CRC-32 for file 'army.ros')"),
    "corrupt-deflate": (
        corrupt_deflate,
        "the archive's member cannot be unpacked (error: Error -3 while decompressing",
    ),
    "smaller-than-it-is": (smaller_than_it_is, "army.ros:1:1: the archive's member is damaged (Bad CRC-32"),
    "larger-than-it-is": (
        larger_than_it_is,
        "army.ros:1:1: the archive says the roster is 9579 bytes; it unpacks "
        "to 4579: expected a .rosz whose sizes are true",
    ),
}


@pytest.mark.parametrize("case", sorted(ARCHIVES))
def test_an_archive_qrs_cannot_read_is_refused_with_a_message_and_nothing_written(sources, tmp_path, case):
    make, message = ARCHIVES[case]
    roster = tmp_path / "army.rosz"
    roster.write_bytes(bytes(make()))
    before = sorted((sources / "handouts").rglob("*"))
    result = run_qrs("--sources", str(sources), "handout", "import", str(roster), "--sheet", "warhammer")
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr and "bug in qrs" not in result.stderr
    assert sorted((sources / "handouts").rglob("*")) == before


@pytest.mark.parametrize("encoding", ["x-bogus-42", "shift_jis", "utf-7", "euc-jp"])
def test_an_encoding_expat_does_not_read_is_refused_with_its_name(sources, tmp_path, encoding):
    roster = tmp_path / "army.ros"
    roster.write_bytes(MINERS.replace(b'encoding="UTF-8"', f'encoding="{encoding}"'.encode()))
    result = run_qrs("--sources", str(sources), "handout", "import", str(roster), "--sheet", "warhammer")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"army.ros:1:31: the roster declares the encoding {encoding}: expected UTF-8" in result.stderr


def test_a_latin_1_roster_is_read():
    from generator.reading.rosters.files import _parsed

    root = _parsed('<?xml version="1.0" encoding="ISO-8859-1"?><roster name="Arm\xe9e"/>'.encode("latin-1"), "x")
    assert root.get("name") == "Arm\u00e9e"


def test_a_members_name_with_control_characters_is_shown_quoted(sources, tmp_path):
    roster = tmp_path / "army.rosz"
    roster.write_bytes(bytes(zipped(b"<roster", name="army\n\x1b[31mred\u202e.ros")))
    result = run_qrs("--sources", str(sources), "handout", "import", str(roster), "--sheet", "warhammer")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr and "army\n" not in result.stderr
    assert "army.rosz:'army\\x0a\\x1b[31mred\\u202e.ros':" in result.stderr
