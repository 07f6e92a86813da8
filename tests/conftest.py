"""Shared fixtures: the project, its sheets, and built PDFs (built once, and kept between sessions while fresh)."""

from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The library the tool's tests run on: a frozen copy of the shipped sheets and handouts (tests/fixtures/library/
# README.md). No tool test reads the user's sources/: tests/test_content.py runs the content suite on them.
LIBRARY_ROOT = FIXTURES / "library"
LIBRARY = LIBRARY_ROOT / "sources"
SHEETS = sorted(path.stem for path in LIBRARY.glob("*.yaml"))
# The kept folder (kept_folder) where tests/test_content.py builds the user's library's PDFs as `qrs build --all`
# builds them: tests/test_documented_commands.py starts its clone's build from it rather than from nothing
CONTENT_BUILD = "qrs-content"


def source_head(sheet: str, title: str = "Test") -> str:
    """The metadata lines every small test source starts with."""
    return f'sheet: {sheet}\ngame: Test\ntitle: {title}\nlang: fr\nedition: "1.0"\ndate: 2026-11-21\n'


def fill_catalogue(catalogue_file: Path, translate) -> None:
    """Translate every message of a gettext catalogue with `translate(message) -> str` (a stand-in translator)."""
    from babel.messages.pofile import read_po, write_po

    with catalogue_file.open("rb") as stream:
        catalogue = read_po(stream)
    for message in catalogue:
        if message.id:
            message.string = translate(message)
            message.flags.discard("fuzzy")
    with catalogue_file.open("wb") as stream:
        write_po(stream, catalogue)


def written_source(folder: Path, name: str, text: str) -> Path:
    """A source `name`.yaml holding `text`, in `folder`."""
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def check_problems(path: Path) -> list[tuple[int, int, str]]:
    """(line, column, message) of each problem `qrs check` finds in a source that must fail."""
    from generator.errors import UserError
    from generator.output import pipeline

    with pytest.raises(UserError) as caught:
        pipeline.check(path)
    return [(problem.line, problem.column, problem.message) for problem in caught.value.problems]


@dataclass(frozen=True)
class Ran:
    """What a `qrs` command printed and its exit code, named as subprocess.CompletedProcess names them."""

    returncode: int
    stdout: str
    stderr: str


def run_qrs(*args: str, cwd: Path = LIBRARY_ROOT) -> Ran:
    """`qrs ARGS` run as its console script runs it (generator.cli.main.main), in this process, from `cwd`, its
    output captured: a new process would spend most of its second importing. What only a process shows (its
    imports, signals, a hang, an installed command, its umask) is tested by starting one. From the fixture library's
    folder unless told, so that `qrs build wab2` reads tests/fixtures/library/sources/, never the user's library."""
    from generator.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    previous = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(list(args))
    except SystemExit as exit:
        code = exit.code
    finally:
        os.chdir(previous)
    if isinstance(code, str):  # as Python does on exit: the message printed, exit code 1
        err.write(code + "\n")
    return Ran(code if isinstance(code, int) else 0 if code is None else 1, out.getvalue(), err.getvalue())


def block_types() -> list[str]:
    """Every block type of the model, so that tests cover a new one without being told."""
    from typing import get_args

    from generator.model.types import Block

    return [get_args(kind.model_fields["type"].annotation)[0] for kind in get_args(get_args(Block)[0])]


def kept_folder(request, tmp_path_factory, name: str) -> Path:
    """A folder in pytest's cache folder (.pytest_cache/d/NAME), kept from one session to the next and emptied by
    `pytest --cache-clear`; without pytest's cache (-p no:cacheprovider), one that lasts the session. The session's
    workers share it either way."""
    cache = getattr(request.config, "cache", None)
    return cache.mkdir(name) if cache is not None else tmp_path_factory.getbasetemp().parent / name


@pytest.fixture(scope="session", autouse=True)
def session_environment(request, tmp_path_factory):
    """What every build of the session shares, as environment variables (subprocesses see them too):
    - QRS_CACHE_DIR: one heights cache shared by the session's workers and kept from one session to the next, in
      pytest's cache folder (.pytest_cache/d/qrs-heights; `pytest --cache-clear` empties it): a block is measured
      once, not once a test or a run. generator.rendering.heights keys every measurement by all that decides it,
      the renderer's source files included, so a height measured before a change to the renderer is not used
      after it. Without pytest's cache (-p no:cacheprovider) the folder lasts one session. Tests of the cache itself
      unset it.
    - QRS_JOBS=1: pytest-xdist runs a worker per core already, so a build in a test builds in its own process
      instead of starting more, each importing WeasyPrint; a test of the workers asks for them with --jobs.
    And the speed-ups the command line enables (generator.rendering.speedups), for builds called in-process."""
    from generator.rendering import speedups

    speedups.enable()
    folder = kept_folder(request, tmp_path_factory, "qrs-heights")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("QRS_CACHE_DIR", str(folder))
        patch.setenv("QRS_JOBS", "1")
        yield folder


@pytest.fixture(autouse=True)
def collector_running():
    """A build called in-process leaves the collector paused for the next (speedups.building): each test starts with
    it running, as a program calling qrs's functions finds it."""
    from generator.rendering import speedups

    speedups.resume()


@pytest.fixture
def own_heights(monkeypatch):
    """This test's build folder keeps its own heights (build/.cache), as without QRS_CACHE_DIR."""
    monkeypatch.delenv("QRS_CACHE_DIR", raising=False)


@pytest.fixture(scope="session")
def built(request, tmp_path_factory):
    """Build a sheet as `qrs build SHEET --lang LANG` does (a handout as `qrs handout HANDOUT --lang LANG`), into a
    build folder that the session's workers share and that is kept from one session to the next in pytest's cache
    folder: the command's manifest says whether the PDF there is fresh (it hashes the source and its catalogues,
    the templates, the fonts, the generator's own files and the libraries' versions), and a fresh PDF is read, not
    built again. Returns the PDF's path. A sheet is built in its own language unless told; a handout's is given."""
    from generator import write
    from generator.output import pipeline
    from generator.project import Project

    kept = kept_folder(request, tmp_path_factory, "qrs-built")
    done: dict[tuple, Path] = {}

    def build(sources: Path, name: str, lang: str | None = None, handout: bool = False) -> Path:
        lang = lang or pipeline.check(sources / f"{name}.yaml").lang
        if (sources, name, lang, handout) not in done:
            project = Project.at(sources, kept / f"{sources.parent.name}-{sources.name}")
            project.build.mkdir(parents=True, exist_ok=True)
            command = ["handout" if handout else "build", name, "--lang", lang, "--jobs", "1"]
            # one worker builds it, the other then reads it
            with write.locked(project.build / f".{'handout-' if handout else ''}{name}.{lang}.lock"):
                ran = run_qrs("--sources", str(sources), "--build-dir", str(project.build), "--quiet", *command)
                if ran.returncode != 0:
                    raise AssertionError(f"qrs {' '.join(command)} failed (exit {ran.returncode}):\n{ran.stderr}")
            done[sources, name, lang, handout] = project.build / ("handouts" if handout else "") / f"{name}.{lang}.pdf"
        return done[sources, name, lang, handout]

    return build


def pytest_collection_modifyitems(config, items):
    """Mark the slow tier (tests/slow.py) so that `make quick` leaves it out: the tests named there, and every test
    on the layouts of all the shipped sheets and handouts (the `laid_out` fixture lays out 32 of them). The heaviest
    files run first (tests/scheduling.py)."""
    from tests.scheduling import heaviest_first
    from tests.slow import SLOW_FILES, SLOW_FIXTURES, SLOW_TESTS

    items[:] = heaviest_first(items)
    for item in items:
        if (
            item.path.name in SLOW_FILES
            or getattr(item, "originalname", item.name) in SLOW_TESTS
            or SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))
        ):
            item.add_marker(pytest.mark.slow)


def pytest_xdist_make_scheduler(config, log):
    """With `--dist loadfile` (pyproject.toml), the heaviest tests first and the variants spread (tests/scheduling.py)."""
    if config.getoption("dist") != "loadfile":
        return None
    from tests.scheduling import HeaviestFirst

    config.option.loadscopereorder = False  # the collection's order: heaviest first, not the files of most tests
    return HeaviestFirst(config, log)


def ctrl_c_heard() -> None:
    """A child's SIGINT as a terminal's Ctrl-C reaches it (Popen's preexec_fn): a suite started as a script's
    background job (`make test &`) ignores SIGINT, as POSIX has such jobs do, and its children would inherit that."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
