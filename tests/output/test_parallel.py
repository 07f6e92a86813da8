"""Parallel builds (generator.output.parallel): the same PDFs, the same report and the same problems as one by one."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.options import BuildOptions
from generator.output import parallel, pipeline, workers
from generator.output.plan import Output
from generator.output.targets import SheetTarget
from generator.project import Project
from tests.conftest import run_qrs

TESTS = Path(__file__).resolve().parent.parent
FIXTURE = TESTS / "fixtures" / "every-block.yaml"


def test_a_parallel_build_equals_a_sequential_one_byte_for_byte(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copyfile(FIXTURE, sources / "every-block.yaml")
    text = FIXTURE.read_text(encoding="utf-8")
    assert text.startswith("sheet: every-block\n")
    (sources / "second.yaml").write_text(text.replace("sheet: every-block\n", "sheet: second\n", 1), encoding="utf-8")
    shutil.copyfile(TESTS / "bad_inputs" / "dice-gap.yaml", sources / "dice-gap.yaml")  # a problem, found by a worker

    runs = {}
    for jobs in ("2", "1"):
        build = tmp_path / f"build-{jobs}"
        ran = run_qrs("--sources", str(sources), "--build-dir", str(build), "build", "--jobs", jobs)
        code, out, err = ran.returncode, ran.stdout, ran.stderr
        out = re.sub(r"\d+\.\d s$", "N s", out.replace(build.name, "BUILD"), flags=re.M)  # the summary's time
        runs[jobs] = (
            code,
            out,
            err.replace(build.name, "BUILD"),
            {path.name: path.read_bytes() for path in sorted(build.glob("*.pdf"))},
        )
    assert runs["2"] == runs["1"]
    code, out, err, pdfs = runs["2"]
    assert code == 2
    problems = [line for line in err.splitlines() if not line.startswith("  ")]  # the indented lines: layout warnings
    assert problems == ["sources/dice-gap.yaml:16:11: D6 can roll 4, which no row covers", "1 problem(s) found"]
    written = [line.split(" (type at ")[0] for line in out.splitlines()]  # a line may end with the type scale used
    assert written == [
        "wrote BUILD/every-block.fr.pdf",
        "wrote BUILD/second.fr.pdf",  # in the order of the sources
        "3 output(s): 2 built, 0 up to date, 1 failed, N s",
    ]
    assert sorted(pdfs) == ["every-block.fr.pdf", "second.fr.pdf"]


def test_a_bug_in_a_worker_says_where_it_happened(monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise TypeError("something is None")

    monkeypatch.setattr(pipeline, "build", broken)
    project = Project.at(tmp_path, tmp_path / "build")
    output = Output(SheetTarget(FIXTURE), "fr")
    with pytest.raises(TypeError):  # in this process: the exception itself, with its traceback
        parallel.build_one(project, output, BuildOptions())
    monkeypatch.setattr(workers, "in_worker", True)
    done = parallel.build_one(project, output, BuildOptions())
    assert done.path is None and done.failure.startswith("TypeError: something is None (at test_parallel.py:")


def test_jobs_default_to_the_cores():
    assert parallel.cores() >= 1
    assert parallel.parse_shard("2/4") == (2, 4) and parallel.parse_shard(None) is None


# --- a build killed with kill -9 ---------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    """Every living descendant of a process, read from /proc (the parent of each process is in its stat line)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _alive(int(entry.name)):
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # ended meanwhile
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    """Running, not ended nor a zombie waiting for a parent that no longer reaps it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_for(condition, seconds: float) -> bool:
    """Poll until the condition holds or the time is up; whether it holds (a deadline, not a measurement)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _snapshot(folder: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in folder.rglob("*") if path.is_file()}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_kill_9_of_a_parallel_build_leaves_no_worker_and_writes_nothing_after(tmp_path):
    sources, build = tmp_path / "sources", tmp_path / "build"
    sources.mkdir()
    text = FIXTURE.read_text(encoding="utf-8")
    for number in range(8):  # more work than two workers finish before the kill
        (sources / f"copy-{number}.yaml").write_text(
            text.replace("sheet: every-block\n", f"sheet: copy-{number}\n", 1), encoding="utf-8"
        )
    command = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "--sources",
            str(sources),
            "--build-dir",
            str(build),
            "build",
            "--jobs",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    try:
        assert _wait_for(lambda: len(_children(command.pid)) >= 2, 60), "the workers never started"
        time.sleep(3)  # the workers are importing WeasyPrint or building
        workers = _children(command.pid)
        os.kill(command.pid, signal.SIGKILL)
        command.wait()
        before = _snapshot(build) if build.exists() else {}
        assert _wait_for(lambda: not any(_alive(pid) for pid in workers), 10), (
            f"workers left running after their parent died: {sorted(pid for pid in workers if _alive(pid))}"
        )
        after = _snapshot(build) if build.exists() else {}
        assert after == before, f"written after the kill: {sorted(set(after.items()) - set(before.items()))}"
    finally:
        for pid in [command.pid, *workers]:  # those this test started, by pid, should the assertions fail
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_where_the_kernel_cannot_kill_a_worker_with_its_parent_the_worker_exits_by_itself():
    script = "import os; from generator.output import workers; workers._exit_when_orphaned(os.getppid() + 1)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=TESTS.parent, timeout=60)
    assert done.returncode == 1, done.stderr


def test_a_worker_ends_without_its_interpreters_finalization_and_loses_no_output(tmp_path):
    """A worker set up (workers.start) prints what it printed and exits 0 at once at its end: what would run at the
    interpreter's end after it (an exit handler registered before the worker's, the teardown of every module) never
    does (half a second a build, where a worker tore its heap down)."""
    code = f"""
import atexit, os, sys
atexit.register(lambda: open({str(tmp_path / "finalized")!r}, "w").close())
from generator.output import workers
workers.start(os.getppid(), {str(tmp_path)!r})
print("built", end="")  # left in the buffer: flushed at the end
sys.stderr.write("warned")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=TESTS.parent)
    assert (done.returncode, done.stdout, done.stderr) == (0, "built", "warned")
    assert not (tmp_path / "finalized").exists()
    plain = subprocess.run(
        [sys.executable, "-c", code.replace("workers.start(", "(lambda *_: None)(")], cwd=TESTS.parent, timeout=60
    )
    assert plain.returncode == 0 and (tmp_path / "finalized").exists()  # the same handler, run without it
