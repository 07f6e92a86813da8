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
import signal
import threading
import time
import traceback
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

from generator.output import manifest as manifests
from generator.output import write
from generator.errors import Problem, UserError
from generator.output.manifest import Digests, Manifest, Output
from generator.project import Project, variant_of
from generator.report import Reporter


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
    layout: dict | None = None  # the layout's report (generator.renderer.render.Laid.report)
    untranslated: int = 0  # strings printed in the canonical language (--allow-fallback)


class WorkerError(Exception):
    """A bug met while building in a worker process (reported as an internal error, exit code 1)."""


_worker = False  # set in the pool's worker processes
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
ORPHAN_POLL_SECONDS = 0.5  # where the kernel cannot kill a worker with its parent, how often it looks


def _worker_start(parent: int) -> None:
    global _worker
    _worker = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the command; the workers just finish their PDF
    _die_with(parent)
    write.only_while_alive(parent)  # a worker whose command was killed writes nothing more


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

    options = pipeline.BuildOptions(**settings)
    started = time.perf_counter()
    layouts: list[dict] = []
    try:
        if output.kind == "sheet":
            path = pipeline.build(project, output.source, output.lang, options, layouts=layouts)
        else:
            path = pipeline.build_handout(project, output.source, output.lang, options, layouts=layouts)
    except UserError as error:
        return Done(output, None, list(error.problems), seconds=time.perf_counter() - started)
    except Exception as error:  # noqa: BLE001 - a bug: said where it happened, since the worker's traceback stays there
        if not _worker:
            raise
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return Done(output, None, [], failure=f"{type(error).__name__}: {error} (at {Path(frame.filename).name}:{frame.lineno})")
    layout = layouts[0] if layouts else {}
    untranslated = layout.pop(pipeline.UNTRANSLATED, 0)
    return Done(output, path, [], hashlib.sha256(path.read_bytes()).hexdigest(), time.perf_counter() - started,
                layout=layout or None, untranslated=untranslated)


def run(project: Project, outputs: list[Output], settings: dict, jobs: int,
        cost: Callable[[Output], float] | None = None) -> Iterator[Done]:
    """Build the outputs, yielding each result in the order of `outputs`. With several jobs, the costliest
    outputs (by `cost`, the last build's time) are started first, so the last one to finish is a short one."""
    if jobs <= 1 or len(outputs) <= 1:
        for output in outputs:
            yield build_one(project, output, settings)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    order = sorted(range(len(outputs)), key=lambda index: -cost(outputs[index])) if cost else range(len(outputs))
    executor = ProcessPoolExecutor(max_workers=min(jobs, len(outputs)), mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(),))
    try:
        futures = {index: executor.submit(build_one, project, outputs[index], settings) for index in order}
        for index in range(len(outputs)):
            done = futures[index].result()
            if done.failure:
                raise WorkerError(f"{done.failure}, building {done.output.key(project)}")
            yield done
    except BaseException:
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown()


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
          incremental: bool = True) -> list[Problem]:
    """Build the stale outputs of these sheets and handouts; return the problems found (reported by the caller).

    `incremental=False` (builds that mark changes since an edition) neither reads nor writes the manifest."""
    digests = Digests()
    manifest = Manifest.of(project) if incremental else Manifest(project.build / manifests.NAME)
    for why in manifest.dropped:
        report.warn(why)
    planned = manifests.plan(project, sheets, handouts, languages, manifest, digests)
    variant = variant_of(settings)
    named = [replace(output, variant=variant) for output in planned.outputs]
    unique = list({output.key(project): output for output in named}.values())  # a sheet named twice
    outputs = manifests.shard(unique, part, key=lambda output: output.key(project))
    problems = list(planned.problems)

    inputs: dict[str, str] = {}
    stale, fresh = outputs, []
    if incremental:
        shared = manifests.shared_digest(project, digests)
        options = manifests.options_digest(settings, shared, manifest)
        inputs = {output.key(project): manifests.inputs_digest(project, output, shared, options, digests)
                  for output in outputs}
        if not rebuild:
            up_to_date = {o.key(project) for o in outputs
                          if manifest.fresh(o.key(project), inputs[o.key(project)], o.pdf(project), digests)}
            stale = [output for output in outputs if output.key(project) not in up_to_date]
            fresh = [output for output in outputs if output.key(project) in up_to_date]

    entries: dict[str, dict] = {}
    try:
        for done in run(project, stale, settings, jobs or cores(), cost=lambda output: manifest.seconds(output.key(project))):
            if done.problems:
                problems.extend(done.problems)
                continue
            report.wrote(done.path, layout=done.layout, untranslated=done.untranslated)
            if incremental:
                key = done.output.key(project)
                entries[key] = {"inputs": inputs[key], "pdf": done.pdf, "seconds": round(done.seconds, 3)}
    finally:  # what was written stays recorded, even when a bug stops the build
        if incremental and (entries or ((planned.plans or manifest.new_options) and not problems)):
            manifest.save(entries, planned.plans)
    if fresh:
        report.say(f"{len(fresh)} up to date")
    return problems
