"""Ctrl-C during a real build: the workers stop, no partial file is left, the manifest records only what was
finished, and the command says so with exit code 130."""

from __future__ import annotations

import hashlib
import json
import shutil
import signal
import subprocess
import sys

from tests.conftest import ROOT, SOURCES

HANG_GUARD_SECONDS = 120  # only so that a broken interrupt fails the test instead of hanging the suite


def test_sigint_stops_a_build_keeping_only_finished_outputs(tmp_path):
    shutil.copytree(SOURCES, tmp_path / "sources")
    build = tmp_path / "build"
    command = subprocess.Popen([sys.executable, "-m", "generator", "--json", "--sources", str(tmp_path / "sources"),
                                "--build-dir", str(build), "build", "--all", "--rebuild", "--jobs", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
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
