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


def run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")[:2]


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
