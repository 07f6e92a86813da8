"""Only regular files are read (generator.source.files): a folder or a FIFO named like a source or a catalogue is named
as a problem, at once; a FIFO read would block `qrs check` forever."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from generator.source import files
from generator.errors import UserError
from tests.conftest import FIXTURES, ROOT

NOT_FILES = {"folder": (os.mkdir, "this is a folder, not a file"),
             "fifo": (os.mkfifo, "this is a named pipe (FIFO), not a file")}


def qrs(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", "--sources", str(tmp_path / "sources"),
                           "--build-dir", str(tmp_path / "build"), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)  # a hang fails, not waits


@pytest.mark.parametrize("kind", sorted(NOT_FILES))
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_source_that_is_not_a_regular_file_is_named(tmp_path, kind, command):
    make, message = NOT_FILES[kind]
    (tmp_path / "sources").mkdir()
    make(tmp_path / "sources" / "x.yaml")
    result = qrs(tmp_path, command)
    assert result.returncode == 2, result.stderr
    assert f"{tmp_path / 'sources' / 'x.yaml'}:1:1: {message}: a source must be a regular file" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


@pytest.mark.parametrize("kind", sorted(NOT_FILES))
def test_a_catalogue_that_is_not_a_regular_file_is_named(tmp_path, kind):
    make, message = NOT_FILES[kind]
    (tmp_path / "sources" / "i18n").mkdir(parents=True)
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "sources")
    catalogue = tmp_path / "sources" / "i18n" / "every-block.en.po"
    make(catalogue)
    result = qrs(tmp_path, "check")
    assert result.returncode == 2 and f"{catalogue}:1:1: {message}: a catalogue must be a regular file" in result.stderr


def test_a_file_over_the_limit_is_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 11)
    with pytest.raises(UserError, match=r"big.yaml:1:1: the file is 11 bytes; a source may be at most 10 bytes"):
        files.read_regular(big, 10)
    assert files.read_regular(big, 11) == b"x" * 11
