import ctypes.util
import subprocess
import sys

import pytest

from generator.rendering import libraries

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or libraries._linker_cache() is None,
    reason="the linker's cache (ldconfig -p) is read on Linux only",
)


@pytest.mark.parametrize("name", ["c", "gobject-2.0", "pango-1.0", "harfbuzz", "fontconfig", "pangoft2-1.0"])
def test_a_library_is_found_under_the_name_the_standard_library_finds(name):
    assert libraries.find_library(name) == ctypes.util.find_library(name)
    assert libraries.find_library(name) is not None


def test_a_name_not_in_the_linkers_cache_is_not_found_and_runs_no_program(monkeypatch):
    libraries._linker_cache()  # read once

    def no_program(*args, **kwargs):
        raise AssertionError(f"a program was run: {args}")

    monkeypatch.setattr(subprocess, "Popen", no_program)
    assert libraries.find_library("libgobject-2.0-0") is None  # WeasyPrint's first name, the Windows one
    assert libraries.find_library("no-such-library-qrs") is None


def test_the_quick_lookup_holds_only_within_its_block():
    original = ctypes.util.find_library
    with libraries.found_quickly():
        assert ctypes.util.find_library is libraries.find_library
    assert ctypes.util.find_library is original


def test_weasyprint_opens_the_same_library_files():
    """The libraries a process maps are the same with the quick lookup as with the standard one."""

    def mapped(quick: bool) -> list[str]:
        program = (
            "import contextlib\nfrom generator.rendering import libraries\n"
            f"with (libraries.found_quickly() if {quick} else contextlib.nullcontext()):\n"
            "    import weasyprint\n"
            "print(sorted({line.split()[-1] for line in open('/proc/self/maps') if '.so' in line}))"
        )
        return subprocess.run(
            [sys.executable, "-W", "ignore", "-c", program], capture_output=True, text=True, check=True
        ).stdout

    quick = mapped(True)
    assert "libpango-1.0.so" in quick and quick == mapped(False)
