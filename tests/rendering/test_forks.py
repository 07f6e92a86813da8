"""A measuring pass shared among forked processes (generator.rendering.forks): the parts it makes, where it forks,
what a failing child costs, and a build of one output measured in two processes printing the bytes of one."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import threading

import pytest

from generator.rendering import chunks, forks
from tests.conftest import FIXTURES, run_qrs

HEAVY = forks.MIN_WEIGHT  # an item this heavy makes a part worth a fork


def pids_of(items: list[int]) -> tuple[int, list[int]]:
    return os.getpid(), items


@pytest.fixture
def forked(monkeypatch) -> list[int]:
    """The pids of the children forked while a test runs."""
    pids: list[int] = []
    real_fork = forks._fork

    def fork(work, part):
        child = real_fork(work, part)
        pids.extend(child[:1] if child else [])
        return child

    monkeypatch.setattr(forks, "_fork", fork)
    return pids


def reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_without_leave_a_pass_is_one_part_measured_here():
    assert forks.in_parts(pids_of, [1, 2, 3], lambda item: HEAVY) == [(os.getpid(), [1, 2, 3])]


def test_with_two_processes_allowed_the_second_part_is_measured_in_a_child_and_every_item_comes_back_once():
    with forks.allowed(2):
        parts = forks.in_parts(pids_of, list(range(6)), lambda item: HEAVY)
    assert [pid == os.getpid() for pid, _ in parts] == [True, False]
    assert sorted(item for _, items in parts for item in items) == list(range(6))
    assert all(items == sorted(items) for _, items in parts)  # each part in the items' order


@pytest.mark.parametrize("failure", ["raises", "exits", "killed"])
def test_a_part_whose_child_fails_is_measured_here(failure, forked):
    parent = os.getpid()

    def work(items: list[int]) -> tuple[int, list[int]]:
        if os.getpid() != parent:
            if failure == "raises":
                raise RuntimeError("a child's error")
            if failure == "exits":
                os._exit(3)
            os.kill(os.getpid(), 9)
        return pids_of(items)

    with forks.allowed(2):
        parts = forks.in_parts(work, [1, 2], lambda item: HEAVY)
    assert parts == [(parent, [1]), (parent, [2])]
    assert len(forked) == 1 and reaped(forked[0])  # no child left unreaped


def test_a_fork_the_system_refuses_leaves_the_part_to_this_process(monkeypatch, forked):
    def refused():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forks.os, "fork", refused)
    with forks.allowed(2):
        assert forks.in_parts(pids_of, [1, 2], lambda item: HEAVY) == [(os.getpid(), [1]), (os.getpid(), [2])]
    assert forked == []


def test_an_error_here_is_raised_and_leaves_no_child(forked):
    parent = os.getpid()

    def work(items: list[int]) -> list[int]:
        if os.getpid() == parent:
            raise ValueError("the sheet's own error")
        return items

    with forks.allowed(2), pytest.raises(ValueError, match="the sheet's own error"):
        forks.in_parts(work, [1, 2], lambda item: HEAVY)
    assert len(forked) == 1 and reaped(forked[0])


def test_no_fork_for_a_short_pass_or_beside_another_thread():
    with forks.allowed(2):
        assert forks.in_parts(pids_of, [1, 2], lambda item: HEAVY // 4) == [(os.getpid(), [1, 2])]
        stop = threading.Event()
        other = threading.Thread(target=stop.wait)
        other.start()
        try:
            assert forks.in_parts(pids_of, [1, 2], lambda item: HEAVY) == [(os.getpid(), [1, 2])]
        finally:
            stop.set()
            other.join()


def test_parts_hold_every_item_once_in_order_and_are_balanced():
    chance = random.Random(45)
    for _ in range(500):
        weights = [chance.randint(1, 100) for _ in range(chance.randint(1, 30))]
        count = chance.randint(1, 6)
        parts = forks._split(list(range(len(weights))), weights, count)
        assert sorted(item for part in parts for item in part) == list(range(len(weights)))
        assert all(part and part == sorted(part) for part in parts)
        assert len(parts) == (min(count, len(weights)) if count > 1 else 1)
        loads = [sum(weights[item] for item in part) for part in parts]
        assert max(loads) - min(loads) <= max(weights)  # the heaviest first, each to the lightest part


def test_a_chunks_cost_counts_its_elements_above_its_characters():
    cells = "<table>" + "<tr><td>1</td><td>2</td></tr>" * 50 + "</table>"
    prose = "<p>" + "word " * 400 + "</p>"  # longer than the table, and a fifth of its cost at most
    assert len(prose) > len(cells) and chunks.layout_cost(cells) > 5 * chunks.layout_cost(prose)


def test_one_output_built_with_two_jobs_measures_in_two_processes_and_prints_the_bytes_of_one(tmp_path, monkeypatch):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copyfile(FIXTURES / "every-block.yaml", sources / "every-block.yaml")
    forked = []
    real_fork = forks._fork
    monkeypatch.setattr(forks, "_fork", lambda work, part: forked.append(len(part)) or real_fork(work, part))
    pdfs = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("QRS_CACHE_DIR", str(tmp_path / f"cache-{jobs}"))  # measured cold, each
        ran = run_qrs("--sources", str(sources), "--build-dir", str(tmp_path / jobs), "build", "--jobs", jobs)
        assert ran.returncode == 0, ran.stderr
        pdfs[jobs] = (tmp_path / jobs / "every-block.fr.pdf").read_bytes()
        assert bool(forked) == (jobs == "2")
    assert pdfs["1"] == pdfs["2"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_build_of_one_output_leaves_no_font_folder_behind(tmp_path, jobs):
    """WeasyPrint removes its font folder when its FontConfiguration is collected: a command whose imports are set
    aside from the collector (speedups), and the processes it forks to measure, leave none in the temporary folder."""
    sources, temporary = tmp_path / "sources", tmp_path / "tmp"
    sources.mkdir()
    temporary.mkdir()
    shutil.copyfile(FIXTURES / "every-block.yaml", sources / "every-block.yaml")
    command = [sys.executable, "-m", "generator", "--sources", str(sources), "--build-dir", str(tmp_path / "b")]
    environment = {**os.environ, "TMPDIR": str(temporary)}
    if jobs != "1":  # measured now, so that the pass forks (one job: the session's heights, its pages laid out)
        environment["QRS_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run(
        [*command, "build", "--jobs", jobs], capture_output=True, text=True, env=environment, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "b" / "every-block.fr.pdf").is_file() and list(temporary.iterdir()) == []
