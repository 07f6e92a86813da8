"""Ctrl-C during a real build: the workers stop, no partial file is left, the manifest records only what was
finished, and the command says so with exit code 130."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import LIBRARY, ROOT, ctrl_c_heard

HANG_GUARD_SECONDS = 120  # only so that a broken interrupt fails the test instead of hanging the suite


def parallel_build(tmp_path: Path) -> subprocess.Popen:
    """`qrs --json build --all --rebuild --jobs 2` of the shipped sheets, its temporary files in tmp_path/tmp."""
    shutil.copytree(LIBRARY, tmp_path / "sources")
    (tmp_path / "tmp").mkdir()
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "--json",
            "--sources",
            str(tmp_path / "sources"),
            "--build-dir",
            str(tmp_path / "build"),
            "build",
            "--all",
            "--rebuild",
            "--jobs",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp_path / "tmp")},
        preexec_fn=ctrl_c_heard,
    )


def test_sigint_stops_a_build_keeping_only_finished_outputs(tmp_path):
    build = tmp_path / "build"
    command = parallel_build(tmp_path)
    first = command.stdout.readline()  # the first output written: the build is well under way
    assert json.loads(first)["event"] == "wrote", first + command.stderr.read()
    command.send_signal(signal.SIGINT)
    rest, errors = command.communicate(timeout=HANG_GUARD_SECONDS)

    assert command.returncode == 130, errors
    *wrote, stopped = [json.loads(line) for line in [first, *rest.splitlines()]]
    reported = [event["path"] for event in wrote if event["event"] == "wrote"]
    recorded = json.loads((build / ".qrs-manifest.json").read_text())["outputs"]
    assert set(reported) <= {str(build / key) for key in recorded}
    assert len(reported) == len(set(reported)), "an output was reported twice"
    for key, entry in recorded.items():  # each recorded output is the whole file its digest names
        assert hashlib.sha256((build / key).read_bytes()).hexdigest() == entry["pdf"], key
    total = sum(1 for _ in (tmp_path / "sources").glob("*.yaml")) * 2
    assert len(recorded) < total, "the build went on to the end after Ctrl-C"
    assert stopped["event"] == "interrupted" and stopped["message"].startswith(f"interrupted: {len(recorded)} of ")
    assert "Traceback" not in errors, errors
    assert [path.name for path in build.rglob("*.tmp")] == []
    assert list((tmp_path / "tmp").iterdir()) == []  # nor WeasyPrint's font folders (#35, point 5)


def workers_of(pid: int) -> list[int]:
    """The pool's worker processes of a command (Linux: /proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [
        int(child)
        for child in children
        if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
        and b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


def test_a_worker_killed_by_the_system_is_said_and_loses_nothing(tmp_path):
    """The OOM killer sends SIGKILL to a worker: the command says so, with the output(s) lost (#35, point 10)."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("finding a command's workers needs Linux's /proc")
    build = tmp_path / "build"
    command = parallel_build(tmp_path)
    first = command.stdout.readline()
    assert json.loads(first)["event"] == "wrote", first + command.stderr.read()
    os.kill(workers_of(command.pid)[0], signal.SIGKILL)
    rest, errors = command.communicate(timeout=HANG_GUARD_SECONDS)

    assert command.returncode == 74, errors
    died = [json.loads(line) for line in rest.splitlines() if '"environment"' in line]
    assert died and died[0]["message"].startswith("error: a worker process was killed while building "), rest
    assert "nothing of" in died[0]["message"] and "Traceback" not in errors and "bug" not in errors, errors
    recorded = json.loads((build / ".qrs-manifest.json").read_text())["outputs"]
    for key, entry in recorded.items():
        assert hashlib.sha256((build / key).read_bytes()).hexdigest() == entry["pdf"], key
    assert [path.name for path in build.rglob("*.tmp")] == []
    assert list((tmp_path / "tmp").iterdir()) == []


def test_the_temporary_folders_of_a_killed_build_are_removed_by_the_next(tmp_path, monkeypatch):
    import tempfile

    from generator.output import workers

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = tmp_path / f"qrs-build-{dead.pid}-x1y2"
    (left / "weasyprint-abc").mkdir(parents=True)
    mine = tmp_path / f"qrs-build-{os.getpid()}-a1b2"  # a build of a process still running: not touched
    mine.mkdir()
    made = Path(workers.scratch_folder())
    assert not left.exists() and mine.is_dir() and made.is_dir() and made.parent == tmp_path


def test_ctrl_c_while_one_output_measures_in_two_processes_stops_both_and_writes_nothing(tmp_path):
    """A build of one output shares its measuring passes with a forked process (generator.rendering.forks): Ctrl-C
    (SIGINT to the command alone, as `kill -INT`) stops the command and its measuring child, and writes no PDF."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("finding a command's children needs Linux's /proc")
    shutil.copytree(LIBRARY, tmp_path / "sources")
    command = subprocess.Popen(
        [sys.executable, "-m", "generator", "--sources", str(tmp_path / "sources"), "--build-dir", str(tmp_path / "b")]
        + ["build", "wab2", "--lang", "fr", "--rebuild", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "QRS_CACHE_DIR": str(tmp_path / "cache")},  # measured now, not read from the session's
        preexec_fn=ctrl_c_heard,
    )
    children = Path(f"/proc/{command.pid}/task/{command.pid}/children")
    forked: list[str] = []
    while command.poll() is None and not forked:  # the measuring child: a fork, so the command's own command line
        forked = [child for child in children.read_text().split() if _cmdline(child) == _cmdline(command.pid)]
        time.sleep(0.005)
    assert forked, "the build ended without forking: " + command.communicate()[1]
    command.send_signal(signal.SIGINT)
    _, errors = command.communicate(timeout=HANG_GUARD_SECONDS)

    assert command.returncode == 130 and "Traceback" not in errors, errors
    assert not Path(f"/proc/{forked[0]}").exists() or b"Z" in _state(forked[0])
    assert list((tmp_path / "b").rglob("*.pdf")) == []


def _cmdline(pid) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _state(pid) -> bytes:
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().split(b") ")[1][:1]
    except (OSError, IndexError):
        return b""
