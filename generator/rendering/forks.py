"""A measuring pass shared among the cores a build leaves idle: its blocks split into parts, each part laid out in a
forked copy of this process, the measurements sent back (`in_parts`).

A block's measurement depends only on its own chunk (generator.rendering.heights keys it so, and reuses it across
sheets), so the parts measure what one document would. Only where the command allows more than one process
(`allowed`: a build of one output with `--jobs` above 1, the default on a machine of several cores), where this
process can fork (POSIX) and runs no other thread (a forked thread-holding process can deadlock), and where the pass
is long enough to repay a fork. A part whose process fails in any way is measured here, so that a failure is
raised as the single pass raises it."""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

MIN_WEIGHT = 40_000  # a part's weight at least (chunks.layout_cost: about 0.1 s of layout; a fork costs ~5 ms)

_processes = 1


@contextlib.contextmanager
def allowed(processes: int) -> Iterator[None]:
    """Within the block, measuring passes may use up to `processes` processes (this one included)."""
    global _processes
    before, _processes = _processes, max(1, processes)
    try:
        yield
    finally:
        _processes = before


def in_parts(
    work: Callable[[list[Item]], Result], items: Sequence[Item], weight: Callable[[Item], int]
) -> list[Result]:
    """`work` of each part of `items` (balanced by `weight`), the parts but the first in forked processes;
    one part (`[work(items)]`) where forking is not allowed or would not pay."""
    items = list(items)
    if not _may_fork():  # a pool's worker, the test suite: nothing weighed
        return [work(items)]
    weights = [weight(item) for item in items]
    parts = _split(items, weights, min(_processes, sum(weights) // MIN_WEIGHT))
    if len(parts) == 1:
        return [work(parts[0])]
    children = [_fork(work, part) for part in parts[1:]]  # None where the system refused a fork
    try:
        first = work(parts[0])
    except BaseException:  # Ctrl-C or an error of the sheet's: the children's parts are not waited for
        for child in filter(None, children):
            os.kill(child[0], signal.SIGKILL)
        raise
    finally:  # every child reaped, whatever happened here
        results = [_collect(child) if child else (False, None) for child in children]
    return [first, *(result if ok else work(part) for (ok, result), part in zip(results, parts[1:]))]


def _may_fork() -> bool:
    return _processes > 1 and hasattr(os, "fork") and threading.active_count() == 1


def _split(items: list, weights: list[int], count: int) -> list[list]:
    """`count` parts of about equal weight (none empty), each in the items' order: the heaviest items first, each
    to the lightest part (blocks are few and uneven: a roster's handout has seven, one a third of the pass)."""
    if count <= 1 or len(items) < 2:
        return [items]
    parts: list[list[int]] = [[] for _ in range(min(count, len(items)))]
    loads = [0] * len(parts)
    for index in sorted(range(len(items)), key=lambda index: -weights[index]):
        lightest = loads.index(min(loads))
        parts[lightest].append(index)
        loads[lightest] += weights[index]
    return [[items[index] for index in sorted(part)] for part in parts]


def _fork(work: Callable, part: list) -> tuple[int, int] | None:
    """A child process computing `work(part)` and writing its pickle to a pipe: (its pid, the pipe's reading end);
    None where the system refuses (too many processes, no memory): the part is measured here."""
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # the child: never returns, never runs the parent's exit handlers or flushes its buffers
        code = 1
        try:
            for number in (signal.SIGINT, signal.SIGTERM):  # the command's handlers clean up after the command
                signal.signal(number, signal.SIG_DFL)
            os.close(read)
            data = pickle.dumps(work(part), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
            code = 0
        except BaseException:  # noqa: BLE001 - the parent measures this part itself and raises what it raises
            pass
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def _collect(child: tuple[int, int]) -> tuple[bool, object]:
    """(whether the child succeeded, what it sent); the child reaped."""
    pid, read = child
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
        return False, None
    try:
        return True, pickle.loads(data)
    except Exception:  # noqa: BLE001 - a truncated message: measured here
        return False, None
