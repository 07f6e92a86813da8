"""Only regular files are read (generator.files): a folder or a FIFO named like a source or a catalogue is named
as a problem, at once; a FIFO read would block `qrs check` forever."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator import files
from generator.errors import UserError
from tests.conftest import FIXTURES, LIBRARY, ROOT

NOT_FILES = {
    "folder": (os.mkdir, "this is a folder, not a file"),
    "fifo": (os.mkfifo, "this is a named pipe (FIFO), not a file"),
}


def qrs(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "--sources",
            str(tmp_path / "sources"),
            "--build-dir",
            str(tmp_path / "build"),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )  # a hang fails, not waits


@pytest.mark.parametrize("kind", sorted(NOT_FILES))
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_source_that_is_not_a_regular_file_is_named(tmp_path, kind, command):
    make, message = NOT_FILES[kind]
    (tmp_path / "sources").mkdir()
    make(tmp_path / "sources" / "x.yaml")
    result = qrs(tmp_path, command)
    assert result.returncode == 2, result.stderr
    assert f"{Path('sources') / 'x.yaml'}:1:1: {message}: a source must be a regular file" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


@pytest.mark.parametrize("kind", sorted(NOT_FILES))
def test_a_catalogue_that_is_not_a_regular_file_is_named(tmp_path, kind):
    make, message = NOT_FILES[kind]
    (tmp_path / "sources" / "i18n").mkdir(parents=True)
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "sources")
    catalogue = tmp_path / "sources" / "i18n" / "every-block.en.po"
    make(catalogue)
    result = qrs(tmp_path, "check")
    assert (
        result.returncode == 2
        and f"{catalogue.relative_to(tmp_path)}:1:1: {message}: a catalogue must be a regular file" in result.stderr
    )


def test_a_file_over_the_limit_is_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 11)
    with pytest.raises(UserError, match=r"big.yaml:1:1: the file is 11 bytes; a source may be at most 10 bytes"):
        files.read_regular(big, 10)
    assert files.read_regular(big, 11) == b"x" * 11


def _plant_source(tmp_path):
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "outside")
    return tmp_path / "sources" / "every-block.yaml", tmp_path / "outside" / "every-block.yaml"


def _plant_catalogue(tmp_path):
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "sources")
    (tmp_path / "outside" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    return tmp_path / "sources" / "i18n" / "every-block.en.po", tmp_path / "outside" / "passwd"


def _plant_handout(tmp_path):
    shutil.copy(LIBRARY / "wab2.yaml", tmp_path / "sources")
    shutil.copy(LIBRARY / "handouts" / "wab2-english-hundred-years-war.yaml", tmp_path / "outside")
    return (
        tmp_path / "sources" / "handouts" / "english.yaml",
        tmp_path / "outside" / "wab2-english-hundred-years-war.yaml",
    )


@pytest.mark.parametrize(
    "plant", [_plant_source, _plant_catalogue, _plant_handout], ids=["source", "catalogue", "handout"]
)
def test_a_link_that_leads_out_of_its_folder_is_not_read(tmp_path, plant):
    (tmp_path / "sources").mkdir()
    (tmp_path / "outside").mkdir()
    link, target = plant(tmp_path)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)
    result = qrs(tmp_path, "check")
    assert result.returncode == 2, result.stdout + result.stderr
    inside = link.relative_to(
        tmp_path
    )  # every path inside the library printed relative to it, in a message's words too
    assert (
        f"{inside}:1:1: this is a symbolic link to {target.relative_to(tmp_path)}, outside {inside.parent}"
        in result.stderr
    ), result.stderr
    assert "root:x" not in result.stdout + result.stderr


def test_a_link_within_its_folder_is_read(tmp_path):
    (tmp_path / "sources").mkdir()
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "sources" / "original.yaml.txt")
    (tmp_path / "sources" / "every-block.yaml").symlink_to("original.yaml.txt")
    result = qrs(tmp_path, "check")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("ident", ["con", "NUL", "aux", "prn", "com1", "lpt9"])
def test_an_id_naming_a_windows_device_is_refused_by_new_import_and_the_model(tmp_path, ident):
    """Issue #49 item 8: sources/con.yaml can be neither written nor read on Windows."""
    from tests.conftest import run_qrs

    assert files.device_problem(ident) and not files.device_problem("console")
    (tmp_path / "sources").mkdir()
    new = run_qrs("--sources", str(tmp_path / "sources"), "new", ident.lower(), "--game", "G", "--lang", "en")
    assert new.returncode == 2 and "names a device on Windows" in new.stderr and "Traceback" not in new.stderr
    document = tmp_path / "notes.md"
    document.write_text("# Notes\n\nA line.\n", encoding="utf-8")
    imported = run_qrs("--sources", str(tmp_path / "sources"), "import", str(document), "--id", ident.lower())
    assert imported.returncode == 2 and "names a device on Windows" in imported.stderr
    assert not list((tmp_path / "sources").glob("*.yaml"))


def test_an_id_made_from_a_file_named_as_a_device_is_made_another():
    from generator.composing.drafts import sheet_id_for

    assert sheet_id_for(Path("con.md"), None) == "con-sheet" and sheet_id_for(Path("console.md"), None) == "console"
