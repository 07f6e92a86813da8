"""WeasyPrint's C libraries found in one reading of the dynamic linker's cache.

WeasyPrint opens each of its libraries (GObject, Pango, HarfBuzz, fontconfig…) by trying several names in turn.
For each name that is not a file's, cffi asks `ctypes.util.find_library`, which on Linux runs `ldconfig -p` and,
when the name is not there, gcc and ld: some forty programs, about a third of a second of every process that
imports WeasyPrint (each worker of a build, `qrs build` of one sheet, each test that runs the command).

While WeasyPrint is imported, a name is looked up in one reading of `ldconfig -p` instead, as the standard library
reads it. A name that is not there is not found, and WeasyPrint goes on to its next name for the same library, the
library's file name (libpango-1.0.so.0…), which the dynamic linker opens by its usual search (LD_LIBRARY_PATH
included). Where `ldconfig -p` cannot be read, or on another system than Linux, nothing is changed.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import functools
import os
import re
import struct
import subprocess
import sys
from collections.abc import Iterator

# The ABI that `ldconfig -p` names for this machine's libraries (as ctypes.util._findSoname_ldconfig reads it).
_ABIS = {
    "x86_64-64": "libc6,x86-64",
    "ppc64-64": "libc6,64bit",
    "sparc64-64": "libc6,64bit",
    "s390x-64": "libc6,64bit",
    "ia64-64": "libc6,IA-64",
}


@contextlib.contextmanager
def found_quickly() -> Iterator[None]:
    """Within: `ctypes.util.find_library` reads the linker's cache once, and runs no compiler."""
    if not sys.platform.startswith("linux") or _linker_cache() is None:
        yield
        return
    original = ctypes.util.find_library
    ctypes.util.find_library = find_library
    try:
        yield
    finally:
        ctypes.util.find_library = original


def find_library(name: str) -> str | None:
    """The file name of the library `name` (libNAME.so.N) in the linker's cache, or None."""
    bits = "64" if struct.calcsize("l") == 8 else "32"
    abi = _ABIS.get(f"{os.uname().machine}-{bits}", "libc6")
    found = re.search(rf"\s+(lib{re.escape(name)}\.[^\s]+)\s+\({re.escape(abi)}", _linker_cache() or "")
    return found.group(1) if found else None


@functools.cache
def _linker_cache() -> str | None:
    try:
        return subprocess.run(
            ["/sbin/ldconfig", "-p"],
            stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            env={"LC_ALL": "C", "LANG": "C"},
            check=True,
            timeout=10,
        ).stdout.decode("utf-8", "surrogateescape")
    except (OSError, subprocess.SubprocessError):
        return None
