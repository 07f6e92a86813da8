"""Building many outputs: only the stale ones (generator.output.manifest), in a pool of worker processes.

`build` plans the outputs (targets × languages × formats), keeps a shard of them if asked, skips
those the manifest says are up to date, and builds the rest: in this process with one job (or one output),
otherwise in a `ProcessPoolExecutor` of spawned workers, one per core by default. Only the process that
renders imports WeasyPrint; with several jobs, that is never the command's own process.

Outputs are reported in the planned order whatever order the workers finish in, and the problems a worker
finds come back as the same `Problem`s (file:line:column) a build in this process raises; `build` returns what it
wrote and the problems found (`Built`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
import traceback
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from generator.digests import Digests
from generator.errors import Interrupted, Problem, UserError, WorkerDied
from generator.options import BuildOptions
from generator.output import formats, workers
from generator.output import manifest as manifests
from generator.output import plan as plans
from generator.output.manifest import Manifest
from generator.output.plan import Output
from generator.output.targets import Target
from generator.project import Project
from generator.rendering import forks, speedups
from generator.report import Reporter, columns_line


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Done:
    """What became of one output: the file written and its digest, or the problems found."""

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


TICK_SECONDS = 0.5  # how often a progress line is refreshed while a build runs


def build_one(project: Project, output: Output, options: BuildOptions) -> Done:
    """Build one output (in a worker, or in this process)."""
    from generator.output import pipeline  # in a worker: the first build imports the pipeline and WeasyPrint

    started = time.perf_counter()
    try:
        with speedups.building():
            written = pipeline.build(project, output.target, output.lang, output.form, output.options_of(options))
    except UserError as error:
        return Done(output, None, list(error.problems), seconds=time.perf_counter() - started)
    except OSError:  # the machine refused (a full disk…): raised again in the command, which names the file
        raise
    except Exception as error:  # noqa: BLE001 - a bug: said where it happened, since the worker's traceback stays there
        if not workers.in_worker:
            raise
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return Done(
            output, None, [], failure=f"{type(error).__name__}: {error} (at {Path(frame.filename).name}:{frame.lineno})"
        )
    return Done(
        output,
        written.path,
        [],
        hashlib.sha256(written.path.read_bytes()).hexdigest(),
        time.perf_counter() - started,
        layout=written.layout,
        untranslated=written.untranslated,
    )


def run(
    project: Project,
    outputs: list[Output],
    options: BuildOptions,
    jobs: int,
    on_done: Callable[[Done], None],
    cost: Callable[[Output], float] | None = None,
    waiting: Callable[[int, list[Output]], None] = lambda finished, building: None,
) -> None:
    """Build the outputs, handing each result to `on_done` in the order of `outputs`; `waiting(finished, building)`
    is called with the outputs being built (every half second with workers), for a progress line. With several
    jobs, the costliest outputs (by `cost`, the last build's time) are started first, so the last one to finish is
    a short one.

    Ctrl-C (KeyboardInterrupt) stops the workers at once, leaving no partial file; the outputs already finished
    are still handed to `on_done`, so that the manifest records them, and the interrupt goes on."""
    if jobs <= 1 or len(outputs) <= 1:
        # one output alone may share its measuring passes among the processes it was allowed (rendering.forks)
        with forks.allowed(jobs if len(outputs) == 1 else 1):
            for finished, output in enumerate(outputs):
                waiting(finished, [output])
                on_done(build_one(project, output, options))
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    order = sorted(range(len(outputs)), key=lambda index: -cost(outputs[index])) if cost else range(len(outputs))
    scratch = workers.scratch_folder()
    executor = ProcessPoolExecutor(
        max_workers=min(jobs, len(outputs)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=workers.start,
        initargs=(os.getpid(), scratch),
    )
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
        futures = {index: executor.submit(build_one, project, outputs[index], options) for index in order}
        for index in range(len(outputs)):
            done = _result(futures, index, lambda: tick(index))
            if done.failure:
                raise WorkerError(f"{done.failure}, building {done.output.key(project)}")
            handed.add(index)  # first: a Ctrl-C while it is being reported must not report it twice
            on_done(done)
    except KeyboardInterrupt:
        workers.stop(executor)
        hand_finished()
        raise
    except BrokenProcessPool:  # a worker was killed (the OOM killer sends SIGKILL): not a bug of qrs
        workers.stop(executor)
        hand_finished()
        lost = [outputs[index].key(project) for index in sorted(running - handed) or [min(set(futures) - handed)]]
        raise WorkerDied(
            f"a worker process was killed while building {', '.join(lost)} (by the system: out of "
            f"memory?); nothing of {'it' if len(lost) == 1 else 'them'} was written, and the "
            f"{len(handed)} output(s) finished before are kept"
        ) from None
    except BaseException:
        workers.stop(executor)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    executor.shutdown()


def _result(futures: dict, index: int, tick: Callable[[], None]) -> Done:
    """The result of one future, calling `tick` every half second until it comes."""
    from concurrent.futures import TimeoutError as NotYet

    while True:
        tick()
        try:
            return futures[index].result(timeout=TICK_SECONDS)
        except NotYet:
            continue


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """'2/4' → (2, 4): the second of four parts."""
    if text is None:
        return None
    k, slash, n = text.partition("/")
    if not (slash and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise ValueError(f"'{text}' is not K/N with 1 ≤ K ≤ N (2/4: the second of four parts)")
    return int(k), int(n)


@dataclass
class Built:
    """What a build did: the outputs it wrote (in the planned order) and the problems it found."""

    written: list[Done] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def build(
    project: Project,
    targets: list[Target],
    languages: tuple[str, ...],
    options: BuildOptions,
    report: Reporter,
    jobs: int | None = None,
    part: tuple[int, int] | None = None,
    rebuild: bool = False,
    incremental: bool = True,
    forms: tuple[str, ...] = ("pdf",),
    everything: bool = False,
) -> Built:
    """Build the stale outputs of these targets, in each format (each one's `finished` step after: the web pages'
    index); report each one and return what was written and the problems found (reported by the caller).

    `incremental=False` (builds that mark changes since an edition) neither reads nor writes the manifest."""
    started = time.perf_counter()
    digests = Digests()
    manifest = Manifest.of(project) if incremental else Manifest(project.build / manifests.NAME)
    for why in manifest.dropped:
        report.warn(why)
    planned = plans.plan(
        project, targets, languages, manifest, digests, forms, whole=options.allow_fallback, everything=everything
    )
    for note in planned.left_out:
        report.result("left-out", note, {"why": note})
    outputs = plans.shard(
        _unique(project, plans.named(planned.outputs, options)), part, key=lambda output: output.key(project)
    )
    built = Built(problems=list(planned.problems))
    inputs = (
        manifests.inputs_digests(project, outputs, options, manifests.shared_digest(project, digests), digests)
        if incremental
        else {}
    )
    fresh = (
        []
        if rebuild or not incremental
        else [
            output
            for output in outputs
            if manifest.fresh(output.key(project), inputs[output.key(project)], output.path(project), digests)
        ]
    )
    up_to_date = set(fresh)
    stale = [output for output in outputs if output not in up_to_date]
    entries: dict[str, dict] = {}
    tally = Tally(len(outputs), len(fresh), failed=len({problem.path for problem in planned.problems}), started=started)

    def finished(done: Done) -> None:
        if done.problems:
            built.problems.extend(done.problems)
            tally.failed += 1
            return
        tally.built += 1
        built.written.append(done)
        if incremental:  # recorded before it is reported: a Ctrl-C meanwhile must not lose a finished output
            entries[done.output.key(project)] = _entry(done, inputs[done.output.key(project)])
        report.wrote(done.path, layout=done.layout, about=_about(done), untranslated=done.untranslated)

    for output in fresh:  # with --verbose or --json, what the last build of each told of its layout
        key = output.key(project)
        report.up_to_date(output.path(project), manifest.columns(key), manifest.layout(key), _kept_about(output))

    def waiting(count: int, building: list[Output]) -> None:
        report.progress(count, len(stale), ", ".join(output.key(project) for output in building), tally.elapsed())

    try:
        run(
            project,
            stale,
            options,
            jobs or cores(),
            finished,
            waiting=waiting,
            cost=lambda output: manifest.seconds(output.key(project)),
        )
    except KeyboardInterrupt:
        raise Interrupted(
            f"interrupted: {tally.built} of {len(stale)} output(s) finished and kept, "
            f"{len(stale) - tally.built} not built ({tally.elapsed():.0f} s)"
        ) from None
    finally:  # what was written stays recorded, even when a bug or Ctrl-C stops the build
        if incremental and (entries or (planned.plans and not built.problems)):
            manifest.save(entries, planned.plans)
    for form in forms:
        after = getattr(formats.writer(form), "finished", None)
        if after is not None and (index := after(project)) is not None:
            report.wrote(index)
    report.summary(tally.line(), tally.counts())
    return built


def _unique(project: Project, outputs: list[Output]) -> list[Output]:
    """One output a file: a target named twice (by id and by path) is built once."""
    return list({output.key(project): output for output in outputs}.values())


def _entry(done: Done, inputs: str) -> dict:
    """The manifest's entry of an output built."""
    return {
        "inputs": inputs,
        "pdf": done.pdf,
        "seconds": round(done.seconds, 3),
        **({"columns": columns_line(done.layout), "layout": done.layout} if done.layout else {}),
    }


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
        return {
            "outputs": self.total,
            "built": self.built,
            "up_to_date": self.fresh,
            "failed": self.failed,
            "seconds": round(self.elapsed(), 3),
        }

    def line(self) -> str:
        return (
            f"{self.total} output(s): {self.built} built, {self.fresh} up to date, {self.failed} failed, "
            f"{self.elapsed():.1f} s"
        )


def _about(done: Done) -> dict:
    """What a "wrote" event says of an output besides its path."""
    return {
        **_kept_about(done.output),
        "pages": len(done.layout["pages"]) if done.layout else None,
        "bytes": done.path.stat().st_size,
        "seconds": round(done.seconds, 3),
    }


def _kept_about(output: Output) -> dict:
    """What an "up_to_date" event says of an output besides its path and layout (a "wrote" event says more)."""
    return {"kind": output.kind, output.kind: output.name, "lang": output.lang, "variant": output.variant}
