"""`make bench`: how fast qrs builds, as ratios measured side by side in one run, each next to its target.

    .venv/bin/python bench/bench.py            # every figure, with a library of 100 generated sheets (~6 min on 2 cores)
    .venv/bin/python bench/bench.py --quick    # one round each and a library of 20 sheets (~2 min)

The figures (docs/performance.md says what each one means and where a target is not met):

1. the whole pipeline for one sheet ÷ WeasyPrint alone rendering the same final pages, as one HTML document, to PDF
   (parsing the stylesheet as it goes, which the pipeline does once a process);
2. the sheet's real layout (measured, packed into its columns, laid out) ÷ the same blocks laid out once in one
   plain column of the same width;
3. a full build of every sheet × language with one worker per core ÷ with one worker (both with --rebuild);
4. a build with nothing changed (`qrs build --all`): wall time, and whether WeasyPrint was imported;
5. one cell changed in one sheet: which outputs are built again;
6. the peak memory (maximum resident set) of a worker process;
7. a generated library of N sheets with one worker per core ÷ (N × one sheet ÷ workers);
8. wab2 (fr), whole process, `qrs build wab2 --lang fr --rebuild --jobs 1`, this tree ÷ a baseline revision
   (`--baseline REV`, checked out as a git worktree with an environment installed from its own pyproject.toml);
9. `qrs build --all --rebuild`, this tree ÷ the baseline;
10. with `--with-tests`: the test suite run again (its cache folder kept), this tree ÷ the baseline's; and its
    first run (several minutes more);
11. `qrs watch` rebuilding wab2 after a one-cell edit ÷ a cold `qrs build wab2 --lang fr --rebuild`;
12. a roster-only handout of a 2,270-point army (the two 40k 10th-edition rosters of tests/fixtures/rosters/bsdata,
    each force twice), imported with `qrs handout import`, then its first build (`qrs handout army --rebuild`, an
    empty build folder and heights cache): seconds, the median of the rounds (3 at least), with one process a core
    (a lone output shares its measuring passes) and, for information, with `--jobs 1`.

`--only 7,12` measures only the figures named (6 comes with 3 to 5 and 7).

Times are medians of interleaved rounds; each ratio is of two things measured in the same run, so that a busy
machine slows both. Figures 1 and 2, measured in this process, are the median of each round's ratio, over
IN_PROCESS_ROUNDS rounds at least: on a shared machine the ratio of three rounds' medians moved by 0.3 from run to
run. Everything is built in temporary folders: build/ is not touched.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
QRS = Path(sys.executable).parent / "qrs"
# Runs `qrs ARGS…` as its console script does (`main()`: the command ends its process itself, once its exit handlers
# ran), then tells what it cost, from an exit handler registered first (so run last): the largest resident set of its
# child processes (the workers) and of itself, in kB, and whether it imported WeasyPrint.
WRAPPER = (
    "import atexit, resource, sys\n"
    "def report():\n"
    "    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "    itself = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "    print('QRS-BENCH', children, itself, 'weasyprint' in sys.modules, file=sys.stderr, flush=True)\n"
    "atexit.register(report)\n"
    "try:\n    from generator.cli.main import main\n"
    "except ImportError:  # a baseline from before the package was grouped by stage\n    from generator.cli import main\n"
    "sys.argv = ['qrs', *sys.argv[1:]]\n"
    "main()\n"
)
IN_PROCESS_ROUNDS = 7  # figures 1 and 2: a round takes a few seconds
BASELINE = "110c01c"  # the tree before the layout packer, the heights cache and the cheaper page layout
CELL = (
    '"Forêts denses, collines escarpées", "¼"]',
    '"Forêts denses, collines escarpées", "½"]',
)  # in wab2.yaml: no words,
# so no translation goes stale and every language still builds


@dataclass
class Figure:
    name: str
    measured: str
    target: str
    met: bool | None  # None: for information

    def row(self, widths: tuple[int, int, int]) -> str:
        met = {True: "yes", False: "NO", None: ""}[self.met]
        return f"{self.name:<{widths[0]}}  {self.measured:>{widths[1]}}  {self.target:<{widths[2]}}  {met}"


@dataclass
class Run:
    seconds: float
    code: int
    workers_kb: int
    itself_kb: int
    weasyprint: bool
    stdout: str
    stderr: str


def qrs(*args: str, cwd: Path = ROOT, python: str = sys.executable, env: dict | None = None) -> Run:
    """`qrs ARGS` in a new process (as the command runs), timed from start to exit; `python` (and `cwd`) choose
    the tree it runs: this one, or a baseline revision's with its own environment; `env` adds to the environment."""
    started = time.perf_counter()
    result = subprocess.run(
        [python, "-c", WRAPPER, *args], capture_output=True, text=True, cwd=cwd, env={**os.environ, **(env or {})}
    )
    seconds = time.perf_counter() - started
    found = re.search(r"^QRS-BENCH (\d+) (\d+) (True|False)$", result.stderr, re.M)
    if not found:
        raise SystemExit(f"qrs {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return Run(
        seconds, result.returncode, int(found[1]), int(found[2]), found[3] == "True", result.stdout, result.stderr
    )


def must(run: Run, what: str) -> Run:
    if run.code != 0:
        raise SystemExit(f"{what} failed (exit {run.code}):\n{run.stdout}{run.stderr}")
    return run


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def median_time(action, rounds: int) -> float:
    return statistics.median(timed(action) for _ in range(rounds))


def turns(actions: dict, rounds: int) -> dict[str, list[float]]:
    """The times of each action, round after round, the actions taking turns so that both see the same machine."""
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(rounds):
        for name, action in actions.items():
            times[name].append(timed(action))
    return times


def interleaved(actions: dict, rounds: int) -> dict[str, float]:
    """Median time of each action, the actions taking turns."""
    return {name: statistics.median(found) for name, found in turns(actions, rounds).items()}


def paired(actions: dict, rounds: int) -> tuple[float, dict[str, float]]:
    """Two actions taking turns: the median of each round's ratio (first ÷ second: a round measures both on the
    same machine, so a slow moment of a shared machine slows both), and each action's median time."""
    times = turns(actions, rounds)
    first, second = times.values()
    return statistics.median(a / b for a, b in zip(first, second)), {
        name: statistics.median(found) for name, found in times.items()
    }


# --- 1, 2: one sheet, in this process ----------------------------------------------------------------------


class Recorder:
    """Records what the pipeline gives WeasyPrint: each HTML document's arguments and write_pdf's options."""

    def __init__(self):
        import weasyprint

        self.weasyprint = weasyprint
        self.documents: list[dict] = []
        self.pdf_options: dict = {}

    def __enter__(self):
        recorder, weasyprint = self, self.weasyprint
        self.html, self.write_pdf = weasyprint.HTML, weasyprint.Document.write_pdf

        class HTML(recorder.html):
            def __init__(self, *args, **kwargs):
                recorder.documents.append(kwargs)
                super().__init__(*args, **kwargs)

        def write_pdf(document, *args, **options):
            recorder.pdf_options = options
            return recorder.write_pdf(document, *args, **options)

        weasyprint.HTML, weasyprint.Document.write_pdf = HTML, write_pdf
        return self

    def __exit__(self, *exc):
        self.weasyprint.HTML, self.weasyprint.Document.write_pdf = self.html, self.write_pdf


def one_sheet(sheet_id: str, lang: str, rounds: int, work: Path) -> list[Figure]:
    """Figures 1 and 2, and what subsetting the fonts costs (for information)."""
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    from generator.output import pipeline
    from generator.project import Project
    from generator.rendering import render

    project = Project.at(SOURCES, work / "one-sheet")
    path = SOURCES / f"{sheet_id}.yaml"
    options = pipeline.BuildOptions()
    pipeline.build(
        project, pipeline.SheetTarget(path), lang, "pdf", options
    )  # warm: imports, fonts, hyphenation dictionaries
    with Recorder() as recorded:
        pipeline.build(project, pipeline.SheetTarget(path), lang, "pdf", options)
    final, pdf_options = recorded.documents[-1], recorded.pdf_options  # its base URL and fetcher

    sheet = pipeline.check(path)
    if lang != sheet.lang:
        from generator.composing import translate as i18n

        located = pipeline.load(path)[0]
        sheet, _ = i18n.translate(located, sheet, lang, i18n.catalogue_path(SOURCES, sheet.sheet, lang), False)
    # the final pages as one HTML document (the pipeline lays them out one document a page, and joins them)
    laid = render.layout(project, sheet, options)
    whole = dict(final, string=render.html(project, sheet, options, plan=laid.plan, scale=laid.scale))

    def styled() -> dict:
        """What WeasyPrint alone renders: the HTML, and the stylesheet (which the pipeline gives it parsed once a
        process) parsed each time, with the fonts of its @font-face rules; the pipeline's options."""
        fonts = FontConfiguration()
        stylesheet = weasyprint.CSS(
            filename=str(project.templates / "sheet.css"), url_fetcher=final["url_fetcher"], font_config=fonts
        )
        return dict(stylesheets=[stylesheet], font_config=fonts, presentational_hints=True)

    def weasyprint_alone():
        weasyprint.HTML(**whole).write_pdf(**styled(), **pdf_options)

    in_process = max(rounds, IN_PROCESS_ROUNDS)
    one_ratio, one = paired(
        {
            "pipeline": lambda: pipeline.build(project, pipeline.SheetTarget(path), lang, "pdf", options),
            "weasyprint": weasyprint_alone,
        },
        in_process,
    )

    if "plan" in inspect.signature(render.html).parameters:  # without a plan: every block in one column, once
        plain_html = render.html(project, sheet, options)
    else:  # the stylesheet's columns: one column, pages enough
        paper = sheet.paper.model_copy(update={"columns": 1, "pages": 20})
        plain_html = render.html(project, sheet.model_copy(update={"paper": paper}), options)
    plain = dict(final, string=plain_html)

    def real_layout():
        render.pdf(sheet, render.layout(project, sheet, options).document)

    def plain_column():
        weasyprint.HTML(**plain).write_pdf(**styled(), **pdf_options)

    layout_ratio, layout = paired({"layout": real_layout, "plain": plain_column}, in_process)

    fonts: dict[str, list[float]] = {"subset": [], "full": []}
    sizes: dict[str, int] = {}
    for _ in range(rounds):  # write_pdf subsets the document's fonts in place: a new document each time
        for name in fonts:
            document = weasyprint.HTML(**whole).render(**styled())
            started = time.perf_counter()
            sizes[name] = len(document.write_pdf(**dict(pdf_options, full_fonts=name == "full"))) // 1024
            fonts[name].append(time.perf_counter() - started)
    fonts = {name: statistics.median(found) for name, found in fonts.items()}
    label = f"{sheet_id}.{lang}"
    figures = [
        Figure(
            f"1. pipeline ÷ WeasyPrint alone, the same final pages as one document ({label})",
            f"{one_ratio:.2f}×  ({one['pipeline']:.2f} s ÷ {one['weasyprint']:.2f} s)",
            "≤ 1.15×",
            one_ratio <= 1.15,
        ),
        Figure(
            f"2. real layout ÷ one plain column ({label})",
            f"{layout_ratio:.2f}×  ({layout['layout']:.2f} s ÷ {layout['plain']:.2f} s)",
            "≤ 1.3×",
            layout_ratio <= 1.3,
        ),
        Figure(
            "   of which subsetting the fonts (HarfBuzz, else fontTools)",
            f"{fonts['subset'] - fonts['full']:.2f} s  ({sizes['subset']} kB PDF; {sizes['full']} kB unsubset)",
            "information",
            None,
        ),
    ]
    return figures


# --- 3 to 6: the real sources, through the command ---------------------------------------------------------


def sources_copy(work: Path, name: str = "sources") -> Path:
    """The shipped sources as committed: a sheet being written (untracked, perhaps half done) is not measured."""
    sources = work / name
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "sources"], capture_output=True, check=False)
    tracked = [ROOT / name for name in listed.stdout.decode().split("\0") if name] if listed.returncode == 0 else []
    if not tracked:  # not a git checkout: the folder as it is
        shutil.copytree(SOURCES, sources)
        return sources
    for path in tracked:
        target = sources / path.relative_to(SOURCES)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    return sources


def full_builds(work: Path, jobs: int, rounds: int) -> tuple[list[Figure], int]:
    """Figures 3 to 5 on a copy of the sources; returns them and the workers' peak memory (kB)."""
    sources = sources_copy(work)
    build = work / "build"
    where = ["--sources", str(sources), "--build-dir", str(build)]
    outputs = len(must(qrs(*where, "build", "--jobs", str(jobs)), "a first full build").stdout.splitlines())
    times: dict[str, list[float]] = {"many": [], "one": []}
    peak = 0
    for _ in range(rounds):
        for name, count in (("one", 1), ("many", jobs)):
            run = must(qrs(*where, "build", "--rebuild", "--jobs", str(count)), f"a build with {count} job(s)")
            times[name].append(run.seconds)
            peak = max(peak, run.workers_kb if count > 1 else run.itself_kb)
    many, one = statistics.median(times["many"]), statistics.median(times["one"])

    peak = max(peak, must(qrs(*where, "handout", "--jobs", str(jobs)), "the handouts").workers_kb)
    must(qrs(*where, "build", "--all"), "an up-to-date check")
    idle = []
    for _ in range(7):
        started = time.perf_counter()
        result = subprocess.run([str(QRS), *where, "build", "--all"], capture_output=True, text=True, cwd=ROOT)
        idle.append(time.perf_counter() - started)
        if result.returncode != 0 or "up to date" not in result.stdout:
            raise SystemExit(f"qrs build --all with nothing changed:\n{result.stdout}{result.stderr}")
    nothing = statistics.median(idle)
    startup = median_time(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 7)
    imported = qrs(*where, "build", "--all").weasyprint

    wab2 = sources / "wab2.yaml"
    text = wab2.read_text(encoding="utf-8")
    assert text.count(CELL[0]) == 1, "the benchmark's cell is no longer in sources/wab2.yaml: choose another"
    wab2.write_text(text.replace(CELL[0], CELL[1]), encoding="utf-8")
    changed = qrs("--json", *where, "build", "--all", "--jobs", str(jobs))  # a problem shows as outputs missing
    rebuilt = sorted(
        Path(json.loads(line)["path"]).relative_to(build).as_posix()
        for line in changed.stdout.splitlines()
        if '"wrote"' in line
    )
    expected = sorted(
        ["wab2.fr.pdf", "wab2.en.pdf"]
        + [
            f"handouts/{path.stem}.{lang}.pdf"
            for path in sorted((sources / "handouts").glob("*.yaml"))
            if re.search(r"^sheet: wab2$", path.read_text(encoding="utf-8"), re.M)
            for lang in ("fr", "en")
        ]
    )
    figures = [
        Figure(
            f"3. full build, {jobs} workers ÷ 1 ({outputs} sheets × languages)",
            f"{one / many:.2f}×  ({one:.1f} s ÷ {many:.1f} s)",
            f"≥ 1.7× on {jobs} cores",
            one / many >= 1.7,
        ),
        Figure("4. nothing changed: `qrs build --all`, wall", f"{nothing:.3f} s", "≤ 0.3 s", nothing <= 0.3),
        Figure("   (python -c pass, for comparison)", f"{startup:.3f} s", "information", None),
        Figure("   WeasyPrint imported when nothing changed", "yes" if imported else "no", "no", not imported),
        Figure(
            "5. one cell of wab2 changed: outputs built again",
            f"{len(rebuilt)}: "
            + ", ".join(sorted({name.split("/")[-1].split(".")[0] for name in rebuilt}))
            + ("" if changed.code == 0 else f" (exit {changed.code})"),
            f"those {len(expected)} of wab2 and its handouts",
            rebuilt == expected,
        ),
    ]
    return figures, peak


# --- 8 to 11: against a baseline revision, and the warm watch ----------------------------------------------


def baseline(revision: str, work: Path) -> tuple[str, Path]:
    """The baseline revision checked out beside (a git worktree) with an environment of its own, installed from
    its own pyproject.toml (its pinned libraries, not this tree's): (its python, its tree)."""
    tree = work / "baseline"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision], check=True, capture_output=True
    )
    venv = work / "baseline-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    installed = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-e", f"{tree}[dev]"],
        capture_output=True,
        text=True,
    )
    if installed.returncode != 0:
        raise SystemExit(f"the baseline's environment could not be installed:\n{installed.stderr}")
    return str(venv / "bin" / "python"), tree


def against_baseline(revision: str, rounds: int, work: Path, with_tests: bool) -> list[Figure]:
    """Figures 8 to 10: the same commands run by this tree and by the baseline's, taking turns."""
    python, tree = baseline(revision, work)
    sides = {"current": (sys.executable, ROOT), "baseline": (python, tree)}
    try:

        def command(side: str, *args: str) -> float:
            interpreter, root = sides[side]
            where = ["--sources", str(root / "sources"), "--build-dir", str(work / f"{side}-build")]
            return must(qrs(*where, *args, cwd=root, python=interpreter), f"{side}: qrs {' '.join(args)}").seconds

        one = ["build", "wab2", "--lang", "fr", "--rebuild", "--jobs", "1"]
        for side in sides:
            command(side, "build", "--all")  # warm: installed, imports cached, heights kept
        wab2 = interleaved({side: (lambda side=side: command(side, *one)) for side in sides}, rounds)

        everything = interleaved(
            {side: (lambda side=side: command(side, "build", "--all", "--rebuild")) for side in sides}, rounds
        )

        def cold_cache() -> float:
            shutil.rmtree(work / "current-build" / ".cache", ignore_errors=True)
            return command("current", *one)

        cold = statistics.median(cold_cache() for _ in range(rounds))
        figures = [
            Figure(
                f"8. wab2 (fr), whole process, current ÷ baseline {revision[:10]}",
                f"{wab2['current'] / wab2['baseline']:.2f}×  ({wab2['current']:.2f} s ÷ {wab2['baseline']:.2f} s)",
                "≤ 0.55×",
                wab2["current"] / wab2["baseline"] <= 0.55,
            ),
            Figure(
                "   the same, heights cache emptied before each build",
                f"{cold / wab2['baseline']:.2f}×  ({cold:.2f} s)",
                "information",
                None,
            ),
            Figure(
                "9. `qrs build --all --rebuild`, current ÷ baseline",
                f"{everything['current'] / everything['baseline']:.2f}×  "
                f"({everything['current']:.1f} s ÷ {everything['baseline']:.1f} s)",
                "≤ 0.6×",
                everything["current"] / everything["baseline"] <= 0.6,
            ),
        ]
        if with_tests:

            def suite(side: str) -> float:
                """`make test`'s command in a tree, with a cache folder of its own in the bench's folder (where this
                tree's suite keeps the heights it measured and the sheets it built while their inputs are unchanged)."""
                interpreter, root = sides[side]
                cache = ["-o", f"cache_dir={work / f'{side}-pytest-cache'}"]
                started = time.perf_counter()
                ran = subprocess.run(
                    [interpreter, "-m", "pytest", "-q", "-rf", *cache], cwd=root, capture_output=True, text=True
                )
                if ran.returncode != 0:
                    raise SystemExit(f"the {side} tree's test suite failed:\n{ran.stdout[-6000:]}{ran.stderr[-2000:]}")
                return time.perf_counter() - started

            first = suite("current")  # its cache folder empty: as on a clean clone, or after a change to qrs
            again = suite("current")  # after a change to the sources, templates or tests
            past = suite("baseline")
            figures += [
                Figure(
                    "10. the test suite (`make test`) again, current ÷ baseline",
                    f"{again / past:.2f}×  ({again:.0f} s ÷ {past:.0f} s)",
                    "≤ 0.5×",
                    again / past <= 0.5,
                ),
                Figure(
                    "    its first run (pytest's cache folder empty), current ÷ baseline",
                    f"{first / past:.2f}×  ({first:.0f} s)",
                    "information",
                    None,
                ),
            ]
        return figures
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)


def watch_edit(rounds: int, work: Path) -> list[Figure]:
    """Figure 11: `qrs watch` rebuilding wab2 (fr) after a one-cell edit (a warm process: WeasyPrint loaded,
    heights kept) ÷ a cold `qrs build wab2 --lang fr --rebuild` (a new process). Each round's cell holds a value it
    never held before, as an author's edit does: its block is measured anew, and the scale decided again."""
    from generator.cli.watch import Watcher
    from generator.project import Project

    sources = sources_copy(work, "watch-sources")
    project = Project.at(sources, work / "watch-build")
    watcher = Watcher(project, sheets=("wab2",), languages=("fr",))
    source = sources / "wab2.yaml"
    watcher.rebuild(watcher.watched())
    where = ["--sources", str(sources), "--build-dir", str(work / "watch-cold")]
    must(qrs(*where, "build", "wab2", "--lang", "fr"), "a first build (its heights kept, as the watch's are)")
    text = source.read_text(encoding="utf-8")
    edits, colds = [], []
    for round_number in range(rounds):
        edited = CELL[0].replace("¼", str(round_number + 2))  # a value the cell never held
        source.write_text(text.replace(CELL[0], edited), encoding="utf-8")
        started = time.perf_counter()
        if watcher.changed([source]):
            raise SystemExit("qrs watch found problems after the one-cell edit")
        edits.append(time.perf_counter() - started)
        colds.append(must(qrs(*where, "build", "wab2", "--lang", "fr", "--rebuild"), "a cold build").seconds)
    edit, cold = statistics.median(edits), statistics.median(colds)
    return [
        Figure(
            "11. `qrs watch` after a one-cell edit of wab2 (new PDF and its pages) ÷ a cold build",
            f"{edit / cold:.2f}×  ({edit:.2f} s ÷ {cold:.2f} s)",
            "≤ 0.3×",
            edit / cold <= 0.3,
        )
    ]


# --- 7: a generated library ---------------------------------------------------------------------------------


LIBRARY_ONES = 3  # builds of the one sheet timed before and after each library build


def library(sheet_id: str, count: int, jobs: int, rounds: int, work: Path) -> tuple[list[Figure], int]:
    """N copies of one sheet (its own language only), each with its own id, built with one worker per core;
    compared with N times one build of the sheet in a warm process, divided among the workers. The one build is
    timed just before and just after each library build (LIBRARY_ONES times each), so that the machine's drift
    over the library's half-minute slows both sides alike: a round's ratio is its library over its own ones, and the
    figure is the median of the rounds' ratios."""
    from generator.output import pipeline
    from generator.project import Project
    from generator.rendering import speedups

    path = SOURCES / f"{sheet_id}.yaml"
    lang = pipeline.check(path).lang
    project = Project.at(SOURCES, work / "one-library-sheet")

    def one() -> None:  # built as the command and its workers build an output: the collector paused for it
        with speedups.building():
            pipeline.build(project, pipeline.SheetTarget(path), lang, "pdf")

    one()
    sources = work / "library"
    sources.mkdir()
    text = path.read_text(encoding="utf-8")
    for number in range(count):
        name = f"library-{number:03d}"
        (sources / f"{name}.yaml").write_text(
            re.sub(rf"^sheet: {re.escape(sheet_id)}$", f"sheet: {name}", text, count=1, flags=re.M), encoding="utf-8"
        )
    ratios, peak, seconds, ideals = [], 0, [], []
    for number in range(rounds):
        before = [timed(one) for _ in range(LIBRARY_ONES)]
        build = work / f"library-build-{number}"  # a new build folder and heights cache: each round as the first
        run = must(
            qrs("--sources", str(sources), "--build-dir", str(build), "build", "--jobs", str(jobs)), "the library"
        )
        after = [timed(one) for _ in range(LIBRARY_ONES)]
        ideal = count * statistics.median(before + after) / jobs
        ratios.append(run.seconds / ideal)
        seconds.append(run.seconds)
        ideals.append(ideal)
        peak = max(peak, run.workers_kb)
    ratio = statistics.median(ratios)
    spread = f", rounds {min(ratios):.2f}–{max(ratios):.2f}×" if rounds > 1 else ""
    return [
        Figure(
            f"7. {count} sheets ÷ ({count} × one {sheet_id}.{lang} ÷ {jobs} workers)",
            f"{ratio:.2f}×  ({statistics.median(seconds):.0f} s ÷ {statistics.median(ideals):.0f} s{spread})",
            "≤ 1.1×",
            ratio <= 1.1,
        )
    ], peak


# --- 12: a roster-only handout's first build ------------------------------------------------------------------

ROSTERS = ROOT / "tests" / "fixtures" / "rosters" / "bsdata"
ROSTER_TARGET = 2.0  # seconds, on the project's 2-core machine


def army_roster(path: Path) -> int:
    """A 2,000-point-class 40k 10th roster from the fixtures: the BattleScribe (Leagues of Votann, 605 points) and
    New Recruit (Necrons, 530 points) rosters' forces, each twice (a copy's ids suffixed); returns its points."""
    import zipfile

    battlescribe = (ROSTERS / "wh40k-10e-battlescribe.ros").read_text(encoding="utf-8")
    with zipfile.ZipFile(ROSTERS / "wh40k-10e-newrecruit.rosz") as archive:
        newrecruit = archive.read("wh40k-10e-newrecruit.ros").decode("utf-8")
    forces = [re.search(r"<forces>(.*)</forces>", text, re.S)[1] for text in (battlescribe, newrecruit)]
    points = [
        float(re.search(r'<costs>\s*<cost name="pts" [^>]*value="([0-9.]+)"', text)[1])
        for text in (battlescribe, newrecruit)
    ]
    copies = [re.sub(r' id="([^"]+)"', r' id="\1-2"', force) for force in forces]
    total = round(2 * sum(points))
    text = re.sub(
        r"<forces>.*</forces>", lambda _: "<forces>" + "".join(forces + copies) + "</forces>", battlescribe, flags=re.S
    )
    text = re.sub(r'(<costs>\s*<cost name="pts" [^>]*value=")[0-9.]+"', rf'\g<1>{total}.0"', text, count=1)
    path.write_text(text, encoding="utf-8")
    return total


def roster_handout(rounds: int, work: Path, jobs: int) -> list[Figure]:
    """Figure 12: a roster-only handout's first build, cold (a new build folder and heights cache each round), as a
    player types it (`qrs handout army`: one process a core may share its measuring passes, generator.rendering.
    forks) and in one process (`--jobs 1`), taking turns."""
    sources = sources_copy(work, "roster-sources")
    roster = work / "army.ros"
    points = army_roster(roster)
    must(qrs("--sources", str(sources), "handout", "import", str(roster), "--id", "army"), "the roster's import")
    made = iter(range(1000))

    def first_build(*jobs_asked: str) -> None:
        number = next(made)
        build, cache = work / f"roster-build-{number}", work / f"roster-cache-{number}"
        cache.mkdir()
        command = ("--sources", str(sources), "--build-dir", str(build), "handout", "army", "--rebuild", *jobs_asked)
        must(qrs(*command, env={"QRS_CACHE_DIR": str(cache)}), "the roster handout")

    times = interleaved(
        {"default": lambda: first_build("--jobs", str(jobs)), "one": lambda: first_build("--jobs", "1")}, max(rounds, 3)
    )
    seconds, alone = times["default"], times["one"]
    return [
        Figure(
            f"12. a roster-only handout ({points:,} points), first build ({jobs} processes)",
            f"{seconds:.1f} s",
            f"≤ {ROSTER_TARGET:.0f} s",
            seconds <= ROSTER_TARGET,
        ),
        Figure("    the same in one process (--jobs 1)", f"{alone:.1f} s", "information", None),
    ]


def progress(text: str) -> None:
    print(f"  {time.strftime('%H:%M:%S')} {text}…", file=sys.stderr, flush=True)


def main() -> None:
    from generator.output.parallel import cores

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one round of each figure and a library of 20 sheets")
    parser.add_argument("--rounds", type=int, default=None, help="rounds of each timing (default 3, 1 with --quick)")
    parser.add_argument(
        "--library", type=int, default=None, help="sheets in the generated library (default 100, 20 with --quick)"
    )
    parser.add_argument("--sheet", default="wab2", help="the sheet of figures 1 and 2 (default wab2, the largest)")
    parser.add_argument("--lang", default="fr", help="its language (default fr)")
    parser.add_argument(
        "--library-sheet", default="warhammer", help="the sheet copied into the library (default warhammer)"
    )
    parser.add_argument("--jobs", type=int, default=cores(), help="workers (default: one per core)")
    parser.add_argument(
        "--baseline",
        default=BASELINE,
        help=f"the revision to compare with (default {BASELINE[:10]}, the tree before the layout packer)",
    )
    parser.add_argument("--with-tests", action="store_true", help="also time the test suite against the baseline's")
    parser.add_argument("--only", default=None, help="the figures to measure, by number: 7,12 (default: every one)")
    arguments = parser.parse_args()
    only = {int(number) for number in arguments.only.split(",")} if arguments.only else set(range(1, 13))
    rounds = arguments.rounds or (1 if arguments.quick else 3)
    count = arguments.library or (20 if arguments.quick else 100)

    from generator.rendering import speedups

    speedups.enable()  # what is built in this process is built as the command and its workers build it
    import weasyprint

    print(
        f"qrs bench: {arguments.jobs} workers on {cores()} cores, Python {platform.python_version()}, "
        f"WeasyPrint {weasyprint.__version__}, {rounds} round(s), load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    started = time.perf_counter()
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="qrs-bench-") as folder:
        work = Path(folder)
        peak = 0
        if only & {1, 2}:
            progress("figures 1 and 2: one sheet, in this process")
            figures += one_sheet(arguments.sheet, arguments.lang, rounds, work)
        if only & {3, 4, 5, 6}:
            progress("figures 3 to 6: every sheet and handout, through the command")
            found, peak = full_builds(work / "full", arguments.jobs, rounds)
            figures += found
        if only & {6, 7}:
            progress(f"figure 7: a library of {count} sheets")
            found, library_peak = library(arguments.library_sheet, count, arguments.jobs, rounds, work)
            figures += found
            peak = max(peak, library_peak)
        if 6 in only:
            figures.insert(
                -1 if only & {7} else len(figures),
                Figure("6. peak memory of a worker", f"{peak / 1024:.0f} MB", "≤ 300 MB", peak / 1024 <= 300),
            )
        if only & {8, 9, 10}:
            progress(f"figures 8 to 10: against the baseline {arguments.baseline[:10]} (its own environment first)")
            figures += against_baseline(arguments.baseline, rounds, work, arguments.with_tests)
        if 11 in only:
            progress("figure 11: the warm watch")
            figures += watch_edit(max(rounds, 2), work)
        if 12 in only:
            progress("figure 12: a roster-only handout's first build")
            figures += roster_handout(rounds, work, arguments.jobs)

    widths = (
        max(len(f.name) for f in figures),
        max(len(f.measured) for f in figures),
        max(len(f.target) for f in figures),
    )
    print()
    print(f"{'figure':<{widths[0]}}  {'measured':>{widths[1]}}  {'target':<{widths[2]}}  met")
    for figure in figures:
        print(figure.row(widths))
    print(
        f"\n{sum(f.met is True for f in figures)} of {sum(f.met is not None for f in figures)} targets met "
        f"({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
