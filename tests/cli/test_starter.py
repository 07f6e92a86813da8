"""`qrs init DIR` (#45): a starter library outside the checkout, where qrs builds, checks and tests as it is; never
into a folder that holds anything."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT, run_qrs


def qrs_in(folder, *args: str) -> subprocess.CompletedProcess:
    """`python -m generator ARGS` in a process of its own, from `folder`, as a user runs it there (this checkout's
    generator, whatever the virtualenv has installed)."""
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_init_writes_a_library_that_checks_builds_and_tests(tmp_path):
    folder = tmp_path / "my-library"
    folder.mkdir()  # empty: accepted, as a new one is
    done = run_qrs("init", str(folder), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())
    assert written == [
        ".gitignore",
        "README.md",
        "schema/handout.schema.json",
        "schema/sheet.schema.json",
        "sources/figures/my-game-blast.svg",
        "sources/my-game.yaml",
    ]
    assert (folder / ".gitignore").read_text(encoding="utf-8") == "/build/\n"
    assert "qrs build" in (folder / "README.md").read_text(encoding="utf-8")
    for command in (["check"], ["build"], ["test"]):
        ran = qrs_in(folder, *command)
        assert ran.returncode == 0, f"qrs {command[0]}: {ran.stdout}{ran.stderr}"
    assert (folder / "build" / "my-game.en.pdf").is_file()


def test_init_names_the_sheet_after_the_game_in_its_language(tmp_path):
    done = run_qrs("init", "new-folder", "--game", "Mon Jeu", "--lang", "fr", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    source = tmp_path / "new-folder" / "sources" / "mon-jeu.yaml"
    assert 'game: "Mon Jeu"' in source.read_text(encoding="utf-8") and "lang: fr" in source.read_text(encoding="utf-8")


def test_init_refuses_a_folder_that_is_not_empty_or_not_a_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    for target in (tmp_path, tmp_path / "notes.txt"):
        done = run_qrs("init", str(target), cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert (
            f"{target.name}: " in done.stderr and "qrs init writes a library into a new or empty folder" in done.stderr
        )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]  # nothing written
