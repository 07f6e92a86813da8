"""Building many outputs: only the stale ones (generator.output.manifest), in a pool of worker processes.

`build` plans the outputs (sheets × languages, handouts × languages), keeps a shard of them if asked, skips
those the manifest says are up to date, and builds the rest: in this process with one job (or one output),
otherwise in a `ProcessPoolExecutor` of spawned workers, one per core by default. Only the process that
renders imports WeasyPrint; with several jobs, that is never the command's own process.

Outputs are reported in the planned order whatever order the workers finish in, and the problems a worker
finds come back as the same `Problem`s (file:line:column) a build in this process raises.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

from generator.output import manifest as manifests
from generator import write
from generator.errors import Interrupted, Problem, UserError, WorkerDied
from generator.digests import Digests
from generator.output.manifest import Manifest, Output
from generator.project import Project
from generator.rendering import speedups
from generator.report import Reporter, columns_line


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Done:
    """What became of one output: the PDF written and its digest, or the problems found."""

    output: Output
    path: Path | None
    problems: list[Problem]
    pdf: str | None = None
    seconds: float = 0.0
    failure: str | None = None  # a bug met in a worker: "TypeError: … (at render.py:12)"
    layout: dict | None = None  # the layout's report (generator.rendering.render.Laid.report)
    untranslated: int = 0  # strings printed in the canonical language (--allow-fallback)


class WorkerError(Exception):
    """A bug met while building in a worker process (reported as an internal error, exit code 1)."""


_worker = False  # set in the pool's worker processes
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
ORPHAN_POLL_SECONDS = 0.5  # where the kernel cannot kill a worker with its parent, how often it looks
TICK_SECONDS = 0.5  # how often a progress line is refreshed while a build runs


def _worker_start(parent: int, scratch: str) -> None:
    global _worker
    _worker = True
    tempfile.tempdir = scratch  # WeasyPrint's font folders too: the command removes them, however a worker ends
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the command, which stops the workers (SIGTERM)
    signal.signal(signal.SIGTERM, _stop_now)
    _die_with(parent)
    write.only_while_alive(parent)  # a worker whose command was killed writes nothing more
    speedups.enable()


def _stop_now(signum: int, frame) -> None:
    """SIGTERM in a worker: leave no half-written file, and go (skipping the pool's clean-up, which would wait)."""
    write.abandon()
    os._exit(128 + signum)


def _die_with(parent: int) -> None:
    """Exit when the command's process dies, even by kill -9 (which runs none of its clean-up): an orphan
    worker would go on writing PDFs, then wait for tasks forever."""
    if not _kill_me_with_my_parent():
        threading.Thread(target=_exit_when_orphaned, args=(parent,), name="qrs-orphan-check", daemon=True).start()
    if os.getppid() != parent:  # died before the line above took effect
        os._exit(1)


def _kill_me_with_my_parent() -> bool:
    """Linux: ask the kernel to send SIGKILL to this process when its parent dies; False where it cannot."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux (no prctl in the C library)
        return False


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL_SECONDS)
    os._exit(1)


def build_one(project: Project, output: Output, settings: dict) -> Done:
    """Build one output (in a worker, or in this process). `settings` are pipeline.BuildOptions' fields."""
    from generator import pipeline  # in a worker: the first build imports the pipeline and WeasyPrint

    options = pipeline.BuildOptions(**manifests.settings_of(output, settings))
    started = time.perf_counter()
    layouts: list[dict] = []
    try:
        if output.form == "html":
            web = pipeline.build_web if output.kind == "sheet" else pipeline.build_handout_web
            path = web(project, output.source, output.lang, options)
        elif output.kind == "sheet":
            path = pipeline.build(project, output.source, output.lang, options, layouts=layouts)
        else:
            path = pipeline.build_handout(project, output.source, output.lang, options, layouts=layouts)
    except UserError as error:
        return Done(output, None, list(error.problems), seconds=time.perf_counter() - started)
    except OSError:  # the machine refused (a full disk…): raised again in the command, which names the file
        raise
    except Exception as error:  # noqa: BLE001 - a bug: said where it happened, since the worker's traceback stays there
        if not _worker:
            raise
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return Done(output, None, [], failure=f"{type(error).__name__}: {error} (at {Path(frame.filename).name}:{frame.lineno})")
    layout = layouts[0] if layouts else {}
    untranslated = layout.pop(pipeline.UNTRANSLATED, 0)
    return Done(output, path, [], hashlib.sha256(path.read_bytes()).hexdigest(), time.perf_counter() - started,
                layout=layout or None, untranslated=untranslated)


def run(project: Project, outputs: list[Output], settings: dict, jobs: int, on_done: Callable[[Done], None],
        cost: Callable[[Output], float] | None = None,
        waiting: Callable[[int, list[Output]], None] = lambda finished, building: None) -> None:
    """Build the outputs, handing each result to `on_done` in the order of `outputs`; `waiting(finished, building)`
    is called with the outputs being built (every half second with workers), for a progress line. With several
    jobs, the costliest outputs (by `cost`, the last build's time) are started first, so the last one to finish is
    a short one.

    Ctrl-C (KeyboardInterrupt) stops the workers at once, leaving no partial file; the outputs already finished
    are still handed to `on_done`, so that the manifest records them, and the interrupt goes on."""
    if jobs <= 1 or len(outputs) <= 1:
        for finished, output in enumerate(outputs):
            waiting(finished, [output])
            on_done(build_one(project, output, settings))
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    order = sorted(range(len(outputs)), key=lambda index: -cost(outputs[index])) if cost else range(len(outputs))
    scratch = _scratch_folder()
    executor = ProcessPoolExecutor(max_workers=min(jobs, len(outputs)), mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(), scratch))
    futures: dict = {}
    handed: set[int] = set()
    running: set[int] = set()  # the outputs the workers were building at the last look

    def tick(index: int) -> None:
        running.clear()
        running.update(other for other, future in futures.items() if future.running())
        building = [outputs[other] for other in sorted(running)] or [outputs[index]]
        waiting(sum(future.done() for future in futures.values()), building)

    def hand_finished() -> None:
        for index in sorted(set(futures) - handed):
            future = futures[index]
            if future.done() and not future.cancelled() and future.exception() is None and not future.result().failure:
                on_done(future.result())

    try:
        futures = {index: executor.submit(build_one, project, outputs[index], settings) for index in order}
        for index in range(len(outputs)):
            done = _result(futures, index, lambda: tick(index))
            if done.failure:
                raise WorkerError(f"{done.failure}, building {done.output.key(project)}")
            handed.add(index)  # first: a Ctrl-C while it is being reported must not report it twice
            on_done(done)
    except KeyboardInterrupt:
        _stop(executor)
        hand_finished()
        raise
    except BrokenProcessPool:  # a worker was killed (the OOM killer sends SIGKILL): not a bug of qrs
        _stop(executor)
        hand_finished()
        lost = [outputs[index].key(project) for index in sorted(running - handed) or [min(set(futures) - handed)]]
        raise WorkerDied(f"a worker process was killed while building {', '.join(lost)} (by the system: out of "
                         f"memory?); nothing of {'it' if len(lost) == 1 else 'them'} was written, and the "
                         f"{len(handed)} output(s) finished before are kept") from None
    except BaseException:
        _stop(executor)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    executor.shutdown()


SCRATCH_PREFIX = "qrs-build-"


def _scratch_folder() -> str:
    """A temporary folder for the workers, removed when the build ends. A build killed with kill -9 cannot remove
    its own: the next build removes those whose command is gone."""
    root = Path(tempfile.gettempdir())
    for left in root.glob(f"{SCRATCH_PREFIX}*-*"):
        pid = left.name[len(SCRATCH_PREFIX):].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)) and left.is_dir() and not left.is_symlink() \
                and left.stat().st_uid == os.getuid():
            shutil.rmtree(left, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _result(futures: dict, index: int, tick: Callable[[], None]) -> Done:
    """The result of one future, calling `tick` every half second until it comes."""
    from concurrent.futures import TimeoutError as NotYet

    while True:
        tick()
        try:
            return futures[index].result(timeout=TICK_SECONDS)
        except NotYet:
            continue


def _stop(executor) -> None:
    """Stop every worker now (each removes the file it was writing) and wait until they are gone."""
    processes = list((executor._processes or {}).values())  # the pool has no public way to stop running tasks
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()
    # wait for the pool's own thread too: left running, it could close its wake-up pipe while the interpreter's
    # exit handler writes to it, a traceback printed after the build has stopped
    executor.shutdown(wait=True, cancel_futures=True)


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """'2/4' → (2, 4): the second of four parts."""
    if text is None:
        return None
    k, slash, n = text.partition("/")
    if not (slash and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise ValueError(f"'{text}' is not K/N with 1 ≤ K ≤ N (2/4: the second of four parts)")
    return int(k), int(n)


def build(project: Project, sheets: list[Path], handouts: list[Path], languages: tuple[str, ...], settings: dict,
          report: Reporter, jobs: int | None = None, part: tuple[int, int] | None = None, rebuild: bool = False,
          incremental: bool = True, formats: tuple[str, ...] = ("pdf",), everything: bool = False) -> list[Problem]:
    """Build the stale outputs of these sheets and handouts, in each format; return the problems found (reported
    by the caller). With web pages, build/html/index.html lists those on disk.

    `incremental=False` (builds that mark changes since an edition) neither reads nor writes the manifest."""
    started = time.perf_counter()
    digests = Digests()
    manifest = Manifest.of(project) if incremental else Manifest(project.build / manifests.NAME)
    for why in manifest.dropped:
        report.warn(why)
    planned = manifests.plan(project, sheets, handouts, languages, manifest, digests, formats,
                             whole=bool(settings.get("allow_fallback")), everything=everything)
    for note in planned.left_out:
        report.result("left-out", note, {"why": note})
    named = manifests.named(planned.outputs, settings)
    unique = list({output.key(project): output for output in named}.values())  # a sheet named twice
    outputs = manifests.shard(unique, part, key=lambda output: output.key(project))
    problems = list(planned.problems)

    inputs: dict[str, str] = {}
    stale, fresh = outputs, []
    if incremental:
        shared = manifests.shared_digest(project, digests)
        inputs = manifests.inputs_digests(project, outputs, settings, shared, manifest, digests)
        if not rebuild:
            up_to_date = {o.key(project) for o in outputs
                          if manifest.fresh(o.key(project), inputs[o.key(project)], o.path(project), digests)}
            stale = [output for output in outputs if output.key(project) not in up_to_date]
            fresh = [output for output in outputs if output.key(project) in up_to_date]

    entries: dict[str, dict] = {}
    tally = Tally(len(outputs), len(fresh), failed=len({problem.path for problem in planned.problems}), started=started)

    def finished(done: Done) -> None:
        if done.problems:
            problems.extend(done.problems)
            tally.failed += 1
            return
        tally.built += 1
        if incremental:  # recorded before it is reported: a Ctrl-C meanwhile must not lose a finished output
            key = done.output.key(project)
            entries[key] = {"inputs": inputs[key], "pdf": done.pdf, "seconds": round(done.seconds, 3),
                            **({"columns": columns_line(done.layout)} if done.layout else {})}
        report.wrote(done.path, layout=done.layout, about=_about(done), untranslated=done.untranslated)

    for output in fresh:  # with --verbose, what the last build of each told of its columns
        report.up_to_date(output.path(project), manifest.columns(output.key(project)))

    def waiting(count: int, building: list[Output]) -> None:
        report.progress(count, len(stale), ", ".join(output.key(project) for output in building), tally.elapsed())

    try:
        run(project, stale, settings, jobs or cores(), finished, waiting=waiting,
            cost=lambda output: manifest.seconds(output.key(project)))
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted: {tally.built} of {len(stale)} output(s) finished and kept, "
                          f"{len(stale) - tally.built} not built ({tally.elapsed():.0f} s)") from None
    finally:  # what was written stays recorded, even when a bug or Ctrl-C stops the build
        if incremental and (entries or ((planned.plans or manifest.new_options) and not problems)):
            manifest.save(entries, planned.plans)
    if "html" in formats:
        from generator.output import web_index

        index = web_index.write_index(project)
        if index is not None:
            report.wrote(index)
    report.summary(tally.line(), tally.counts())
    return problems


@dataclass
class Tally:
    """How many outputs a build had, and what became of them: its summary line."""

    total: int
    fresh: int = 0
    built: int = 0
    failed: int = 0
    started: float = field(default_factory=time.perf_counter)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def counts(self) -> dict:
        return {"outputs": self.total, "built": self.built, "up_to_date": self.fresh, "failed": self.failed,
                "seconds": round(self.elapsed(), 3)}

    def line(self) -> str:
        return (f"{self.total} output(s): {self.built} built, {self.fresh} up to date, {self.failed} failed, "
                f"{self.elapsed():.1f} s")


def _about(done: Done) -> dict:
    """What a "wrote" event says of an output besides its path."""
    output = done.output
    return {"kind": output.kind, output.kind: output.name, "lang": output.lang, "variant": output.variant,
            "pages": len(done.layout["pages"]) if done.layout else None, "bytes": done.path.stat().st_size,
            "seconds": round(done.seconds, 3)}
