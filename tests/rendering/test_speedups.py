"""The speed-ups qrs makes to its libraries are fenced (generator.rendering.speedups): importing any module of qrs
changes nothing, `enable()` makes them, and on another WeasyPrint the one reaching into its code is not made."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

# run in a new interpreter: this session enabled them (tests/conftest.py)
IMPORT_EVERYTHING = """
import ctypes.util, gc, importlib, pkgutil
import generator
original, threshold = ctypes.util.find_library, gc.get_threshold()
for module in pkgutil.walk_packages(generator.__path__, "generator."):
    if module.name != "generator.__main__":
        importlib.import_module(module.name)
from weasyprint.pdf import fonts
print(ctypes.util.find_library is original, gc.get_threshold() == threshold,
      getattr(fonts.Font._fonttools_subset, "kept", False), gc.get_freeze_count() > 0)
from generator.rendering import speedups
speedups.enable()
print(ctypes.util.find_library is original, gc.get_threshold()[0] >= speedups.COLLECT_EVERY,
      getattr(fonts.Font._fonttools_subset, "kept", False), gc.get_freeze_count() > 10_000)
"""


def lines(code: str) -> list[str]:
    """What `code` prints, run in a new interpreter (exit 0)."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def run(code: str) -> list[str]:
    return lines(code)[:2]


def test_importing_every_module_changes_nothing_and_enable_makes_the_speedups():
    imported, enabled = run(IMPORT_EVERYTHING)
    # the linker's lookup, the collector's thresholds, the font subsets and what it scans: as they were
    assert imported == "True True False False"
    assert enabled == "True True True True"  # the lookup was only quicker while WeasyPrint was imported


def test_on_another_weasyprint_the_font_subsets_are_left_alone():
    code = """
import weasyprint
weasyprint.__version__ = "99.0"
from generator.rendering import render, speedups
speedups.enable()
from weasyprint.pdf import fonts
print(getattr(fonts.Font._fonttools_subset, "kept", False))
print(speedups.enabled())
"""
    assert run(code) == ["False", "True"]


# the command as its console script runs it, in a new process: an exit handler registered before it, and a mark
# left at the interpreter's finalization (a module's object freed then), which the quick end skips
COMMAND = """
import atexit, sys
atexit.register(lambda: print("handler ran", file=sys.stderr))
class Finalized:
    def __del__(self):
        print("finalized", file=sys.stderr)
sys.modules["finalized_mark"] = Finalized()
from generator.cli.main import main
sys.argv = ["qrs", *{args!r}]
main()
"""


def command(*args: str) -> subprocess.CompletedProcess:
    code = COMMAND.format(args=list(args))
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_command_ends_with_its_code_and_output_its_exit_handlers_run_but_no_finalization(tmp_path):
    from tests.conftest import LIBRARY

    built = command("--sources", str(LIBRARY), "--build-dir", str(tmp_path), "build", "shadow-war", "--lang", "fr")
    assert built.returncode == 0, built.stderr
    assert "wrote " in built.stdout + built.stderr and (tmp_path / "shadow-war.fr.pdf").is_file()
    assert "handler ran" in built.stderr and "finalized" not in built.stderr

    refused = command("--sources", str(tmp_path / "nowhere"), "check")
    assert refused.returncode == 66 and "no such folder" in refused.stderr
    assert "handler ran" in refused.stderr and "finalized" not in refused.stderr


def test_a_command_given_its_arguments_returns_and_the_process_ends_as_its_caller_ends_it():
    code = COMMAND.replace("main()", "main(sys.argv[1:])\nprint('still here')").format(args=["--version"])
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["qrs", "0.1.0", "still", "here"]
    assert "handler ran" in done.stderr and "finalized" in done.stderr  # the mark is left where Python finalizes


# a build's garbage (a cycle, as a layout's boxes and styles make them) and whether the collector got to it
BUILDS = """
import gc, sys, weakref
from generator.rendering import speedups
class Box:
    pass
def build():
    box = Box()
    box.parent = box
    return weakref.ref(box)
{enable}
with speedups.building():
    during = gc.isenabled()
    first = build()
print(during, gc.isenabled(), first() is not None)
with speedups.building():
    second = build()
print(first() is None, second() is not None)
speedups.resume()
print(gc.isenabled())
"""


def test_a_build_pauses_the_collector_and_its_garbage_is_collected_before_the_next_build():
    paused, collected, resumed = lines(BUILDS.format(enable="speedups.enable()"))
    assert paused == "False False True"  # paused during the build and after it: its garbage is still there
    assert collected == "True True"  # the next build collected it before it started, and left its own
    assert resumed == "True"


def test_without_the_speedups_or_with_a_collector_paused_by_the_host_a_build_leaves_it_as_it_was():
    assert [line.split()[:2] for line in lines(BUILDS.format(enable=""))[:1]] == [["True", "True"]]
    host = BUILDS.format(enable="speedups.enable(); gc.disable()")
    assert lines(host) == ["False False True", "False True", "False"]  # nothing collected the first build's garbage


def test_a_command_given_its_arguments_leaves_the_collector_running_for_its_caller(tmp_path):
    from tests.conftest import LIBRARY

    code = f"""
import gc
from generator.cli.main import main
main(["--sources", {str(LIBRARY)!r}, "--build-dir", {str(tmp_path)!r}, "build", "shadow-war", "--lang", "fr"])
print(gc.isenabled())
"""
    assert lines(code)[-1] == "True"


def test_where_the_process_waits_for_its_user_between_builds_a_build_leaves_the_collector_running():
    interactive = BUILDS.format(enable="speedups.enable(); speedups.interactive()")
    assert [line.split()[:2] for line in lines(interactive)[:1]] == [["True", "True"]]  # `qrs watch`
