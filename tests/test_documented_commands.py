"""Every command in README.md and docs/*.md runs as written on a fresh clone (#34).

The commands are the lines of the pages' fenced `sh` blocks (all but comments) and the `$ ` lines of their `console`
blocks (the other lines are what the command prints). Each page's commands run in order, as a reader pastes them,
from the root of a copy of the repository: its committed files (`git ls-files`, as they are in the working tree) made
a git repository of their own, as a clone is, after what `make` builds was built in it. A plain `qrs …` command runs
in one process a page that imported qrs once (tests/command_runner.py), any other line through `bash -c`.
`make` runs as written with VENV naming the virtualenv running this test (never a new install); `.venv/bin/qrs`,
`qrs` and `python` are that virtualenv's, running this checkout's generator. What keeps it fast: the built
outputs are kept between sessions in pytest's cache folder (`.pytest_cache/d/qrs-docs-build`: `make` rebuilds only
what changed since, as on any clone with a build), the session's heights cache is shared (QRS_CACHE_DIR), and the
pages run side by side, one test each.

A command exits 0, or with the code its comment states as `(exit N)` (a page showing a refusal on purpose).
In a synopsis, `[SHEET...]` and `...` stand for what may be left out: the command runs without them. The files a
page takes from its reader (a Word sheet, an army's roster) are the samples of docs/examples/, named as the reader
types them; a command given one prints what its `console` block shows under it (SAMPLES: the lines, `…` standing
for what the page leaves out). A command that cannot run here is in NOT_RUN, with why and what is checked instead; a
new one, neither runnable nor listed, fails.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.command_runner import CommandRunner
from tests.conftest import CONTENT_BUILD, LIBRARY_ROOT, ROOT, kept_folder

# docs/ci/publish.yml is a CI workflow, not a page a reader pastes from: test_docs.py checks its build command
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
SHELL_BLOCKS = {"sh", "bash", "shell"}
PLACEHOLDER = re.compile(r"^(\[[A-Z]+\.\.\.\]|\.\.\.|…)$")  # `qrs check [SHEET...]`, `python -m generator ...`
EXIT = re.compile(r"\(exit (\d+)\)")
TIMEOUT = 600  # seconds, a command
MAKE_BUILDS = ".venv/bin/qrs build --all --format pdf --format html"  # the Makefile's `build`, tested below

VENV = Path(sys.prefix)
PDFTOCAIRO = shutil.which("pdftocairo")

# pattern of the command as written → (why it cannot run in a test, what runs instead: {command} is the command,
# the exit code expected of it)
NOT_RUN = {
    r"^make test$": ("runs the whole suite, this test included", "make -n test", 0),
    r"^(\.venv/bin/)?qrs watch\b": ("serves a live preview until Ctrl-C", "{command} --help", 0),
    r"^(\.venv/bin/)?qrs export .*--format svg": (
        "needs pdftocairo (poppler-utils), a system package (root and network to install): run where it is "
        "installed, else it must exit 69 saying how to install it",
        "{command}",
        0 if PDFTOCAIRO else 69,
    ),
}

SAMPLES = "docs/examples/"  # a command naming one prints what its page shows (the other outputs depend on the build)
ELIDED = "…"


@dataclass(frozen=True)
class Command:
    line: str  # as written, without its prompt and comment
    expected: int  # its exit code
    instead: str | None = None  # what runs in its place (NOT_RUN)
    shows: tuple[str, ...] = ()  # the lines its console block shows it printing


def split_comment(line: str) -> tuple[str, str]:
    """(the command, its comment): a `#` starting a word outside quotes starts the comment, as in bash."""
    quote = None
    for at, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at].strip(), line[at + 1 :].strip()
    return line.strip(), ""


def commands_of(text: str) -> list[Command]:
    found = []
    for language, block in FENCE.findall(text):
        language = language.strip()
        if language not in SHELL_BLOCKS | {"console"}:
            continue
        first = len(found)
        for line in block.splitlines():
            if language == "console" and not line.startswith("$ "):
                if len(found) > first and line.strip() != ELIDED:  # what the command above printed
                    found[-1] = dataclasses.replace(found[-1], shows=(*found[-1].shows, line))
                continue
            command, comment = split_comment(line.removeprefix("$ ") if language == "console" else line)
            if not command:
                continue
            command = " ".join(word for word in command.split(" ") if not PLACEHOLDER.match(word))
            stated = EXIT.search(comment)
            found.append(Command(command, int(stated.group(1)) if stated else 0))
    return [not_run(command) for command in found]


def not_run(command: Command) -> Command:
    for pattern, (_, instead, expected) in NOT_RUN.items():
        if re.search(pattern, command.line):
            return dataclasses.replace(command, expected=expected, instead=instead.format(command=command.line))
    return command


def shown_but_not_printed(command: Command, output: str) -> list[str]:
    """The lines the page shows a sample's command printing that it did not print (`…` matches anything)."""
    if SAMPLES not in command.line:
        return []
    printed = output.splitlines()

    def matches(shown: str, line: str) -> bool:
        return re.fullmatch(".*".join(map(re.escape, shown.split(ELIDED))), line) is not None

    return [shown for shown in command.shows if not any(matches(shown, line) for line in printed)]


COMMANDS = {page.relative_to(ROOT).as_posix(): commands_of(page.read_text(encoding="utf-8")) for page in PAGES}
RUN = sorted(page for page, commands in COMMANDS.items() if commands)


def test_the_pages_hold_commands_and_every_exception_is_still_needed():
    """NOT_RUN names only what a page still has, so that it does not outlive its reason."""
    assert {"README.md", "docs/commands.md", "docs/editions.md", "docs/handouts.md"} <= set(RUN), RUN
    lines = [command.line for commands in COMMANDS.values() for command in commands]
    assert all(any(re.search(pattern, line) for line in lines) for pattern in NOT_RUN), NOT_RUN


def test_the_shared_build_is_what_make_builds():
    """The clone's build is the Makefile's `build` recipe, run in-process: `make` in the README then builds nothing."""
    recipe = re.search(r"^build:.*\n\t(.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1)
    assert recipe.replace("$(QRS)", ".venv/bin/qrs") == MAKE_BUILDS


def test_a_sample_shown_printing_is_checked_line_by_line():
    """The console blocks give the lines a sample's command prints, `…` for what they leave out."""
    [karak] = [command for command in COMMANDS["docs/handouts.md"] if "karak-hirn.ros" in command.line]
    assert karak.shows[-1] == "wrote sources/handouts/karak-hirn.yaml" and ELIDED not in karak.shows
    printed = "\n".join(line.replace(ELIDED, "'Quarrellers', 'Cannon'") for line in karak.shows)
    assert not shown_but_not_printed(karak, printed)
    assert shown_but_not_printed(karak, printed.replace("33 name(s)", "34 name(s)")) == [karak.shows[0]]


@pytest.mark.parametrize("page", sorted(COMMANDS))
def test_no_command_hides_in_a_block_that_is_not_run(page):
    """A line that reads as a command in an unlabelled or `text` block is neither run nor listed: label it."""
    hidden = [
        line
        for language, block in FENCE.findall((ROOT / page).read_text(encoding="utf-8"))
        if language.strip() in ("", "text")
        for line in block.splitlines()
        if re.match(r"\$ |(\.venv/bin/)?qrs |make\b|python -m ", line)
    ]
    assert not hidden, f"{page}: commands outside sh and console blocks: {hidden}"


def _environment() -> dict[str, str]:
    """As a reader's shell after `source .venv/bin/activate`, running this checkout's generator."""
    environment = dict(
        os.environ,
        VENV=str(VENV),
        PYTHONPATH=str(ROOT),
        NO_COLOR="1",
        PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        GIT_AUTHOR_NAME="qrs tests",
        GIT_AUTHOR_EMAIL="tests@qrs.invalid",
        GIT_COMMITTER_NAME="qrs tests",
        GIT_COMMITTER_EMAIL="tests@qrs.invalid",
    )
    environment.pop("MAKEFLAGS", None)
    environment.pop("MAKELEVEL", None)  # run from `make test`, make must not think it is a sub-make
    return environment


def _bash(line: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=_environment(), capture_output=True, text=True, timeout=TIMEOUT
    )


def _clone(folder: Path) -> None:
    """The committed files of this checkout (as in its working tree, times kept: `make` must find the virtualenv
    up to date, the samples of docs/examples/ among them) and a link to the virtualenv as .venv."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, text=True, check=True)
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file() or source.is_symlink():  # a file deleted in the working tree is not copied
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name, follow_symlinks=False)
    (folder / ".venv").symlink_to(VENV, target_is_directory=True)


@pytest.fixture(scope="module")
def fresh_clone(request, tmp_path_factory) -> Path:
    """The clone every page starts from: its files, a git repository of one commit, after `make`."""
    from generator import write

    folder = tmp_path_factory.mktemp("clone")
    _clone(folder)
    stale = _bash("make -q install", folder)
    if stale.returncode != 0:
        pytest.fail(f"{VENV} is older than pyproject.toml: run `make install` first (this test never installs)")
    kept = kept_folder(request, tmp_path_factory, "qrs-docs-build")
    # the PDFs tests/test_content.py built of the same sources, run before this file on the same worker
    # (tests/slow.py TOGETHER), where no earlier session kept this test's build
    content = kept_folder(request, tmp_path_factory, CONTENT_BUILD) / "build"
    with write.locked(kept / "build.lock"):  # a session at a time refreshes the kept outputs
        earlier = kept / "build" if (kept / "build").is_dir() else content if content.is_dir() else None
        if earlier is not None:
            shutil.copytree(earlier, folder / "build", symlinks=True)
        runner = CommandRunner(TIMEOUT)
        try:  # what `make` builds, built by qrs in the runner (the README's own `make` then finds it up to date)
            code, output = runner.run(MAKE_BUILDS, folder, _environment())
        finally:
            runner.close()
        assert code == 0, f"{MAKE_BUILDS} failed (exit {code}):\n{output}"
        shutil.rmtree(kept / "build.new", ignore_errors=True)
        shutil.copytree(folder / "build", kept / "build.new", symlinks=True)
        shutil.rmtree(kept / "build", ignore_errors=True)
        (kept / "build.new").rename(kept / "build")
    # this checkout's history (its objects shared, not copied), and its working tree as one more commit
    history = tmp_path_factory.mktemp("history")
    for line in (
        f"git clone -q --shared --no-checkout {shlex.quote(str(ROOT))} {history}",
        f"mv {history}/.git .git && git add -A && git commit -q --allow-empty -m 'the working tree'",
    ):
        done = _bash(line, folder)
        assert done.returncode == 0, done.stderr
    return folder


@dataclass(frozen=True)
class Ran:
    command: Command
    returncode: int
    output: str
    seconds: float


def run_page(page: str, clone: Path, folder: Path, kept: Path) -> list[Ran]:
    """The page's commands, in order, in a copy of the clone whose build folder is the one this page's commands
    left in an earlier session (`kept`), where there is one: the manifest builds again what changed since, so that a
    warm run lays out again none of the variants the page builds. A page's build is kept only when every command
    ran as expected."""
    from generator import write

    shutil.copytree(clone, folder, symlinks=True)
    kept.mkdir(parents=True, exist_ok=True)
    with write.locked(kept / "build.lock"):  # a session at a time uses a page's kept build
        _add_kept_outputs(kept / "build", folder / "build")
        runner, ran = CommandRunner(TIMEOUT), []
        try:
            for command in COMMANDS[page]:
                start = time.monotonic()
                returncode, output = runner.run(command.instead or command.line, folder, _environment())
                ran.append(Ran(command, returncode, output, time.monotonic() - start))
        finally:
            runner.close()
        shutil.rmtree(kept / "build", ignore_errors=True)
        if all(run.returncode == run.command.expected for run in ran):
            shutil.copytree(folder / "build", kept / "build", symlinks=True)
    return ran


def _add_kept_outputs(kept: Path, build: Path) -> None:
    """Into the clone's `build`, the outputs an earlier session's run of the page left in `kept` that `build` has
    not, each with its manifest entry: only what qrs's manifest lists (a page also writes other files into build/,
    such as `qrs init build/my-library`, which must find its folder absent), and never over the clone's own."""
    name = ".qrs-manifest.json"
    if not (kept / name).is_file() or not (build / name).is_file():
        return
    earlier, manifest = (json.loads((folder / name).read_text(encoding="utf-8")) for folder in (kept, build))
    for output, entry in earlier.get("outputs", {}).items():
        if output not in manifest["outputs"] and (kept / output).is_file():
            (build / output).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(kept / output, build / output)
            manifest["outputs"][output] = entry
    manifest["plans"] = {**earlier.get("plans", {}), **manifest.get("plans", {})}
    (build / name).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def pages(request, fresh_clone, tmp_path_factory):
    """Every page this session runs, started side by side at once (one test a page waits for its own)."""
    selected = {
        item.callspec.params["page"]
        for item in request.session.items
        if item.originalname == "test_every_command_of_the_page_runs_as_written"
    }
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        # the README, the longest, first
        running = {
            page: pool.submit(
                run_page,
                page,
                fresh_clone,
                tmp_path_factory.mktemp("page") / "clone",
                kept_folder(request, tmp_path_factory, "qrs-docs-pages") / page.replace("/", "-"),
            )
            for page in sorted(selected, key=lambda page: (page != "README.md", page))
        }
        yield running


@pytest.mark.parametrize("page", RUN)
def test_every_command_of_the_page_runs_as_written(pages, page):
    ran = pages[page].result()
    failed = [
        f"$ {run.command.line}"
        + (f"\n  (instead: {run.command.instead})" if run.command.instead else "")
        + f"\n  exit {run.returncode}, expected {run.command.expected}:\n"
        + "\n".join("    " + line for line in run.output.strip().splitlines()[-15:])
        for run in ran
        if run.returncode != run.command.expected
    ]
    failed += [
        f"$ {run.command.line}\n  printed:\n"
        + "\n".join("    " + line for line in run.output.splitlines()[-15:])
        + "\n  not the lines the page shows:\n"
        + "\n".join("    " + line for line in missing)
        for run in ran
        if (missing := shown_but_not_printed(run.command, run.output))
    ]
    for run in ran:  # shown with -s, or -rP: where the time goes
        print(f"{run.seconds:6.1f} s  exit {run.returncode}  {run.command.instead or run.command.line}")
    assert not failed, f"{page}: {len(failed)} command(s) of {len(ran)} failed:\n" + "\n".join(failed)


def test_the_runner_answers_as_a_process_of_its_own_would(tmp_path):
    """A command run in the runner fails as it would alone: its exit code, and all it printed, stderr included;
    a line for bash runs in bash; one runner process answers every `qrs` line of a page."""
    runner = CommandRunner(TIMEOUT)
    try:
        listed, unknown = (
            runner.run(line, LIBRARY_ROOT, _environment()) for line in ("qrs list", "qrs check no-such-sheet")
        )
        piped = runner.run("qrs --version | tr a-z A-Z", tmp_path, _environment())
        again = runner.run("python -m generator --version", tmp_path, _environment())
        started = runner.process.pid
        assert runner.run(".venv/bin/qrs --version", tmp_path, _environment())[0] == 0
        assert runner.process.pid == started
    finally:
        runner.close()
    assert listed[0] == 0 and "wab2" in listed[1], listed
    assert unknown[0] == 64 and "no-such-sheet" in unknown[1], unknown
    assert piped == (0, "QRS 0.1.0\n") and again == (0, "qrs 0.1.0\n"), (piped, again)
