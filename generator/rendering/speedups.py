"""What qrs changes of its libraries and of Python to run faster, in one place, and only once asked: `enable()`,
called by the command line (generator.cli.main), the build's workers (generator.output.parallel) and the test
session. Importing a module of qrs changes nothing; a program using qrs as a library gets its libraries as they are.

- The collector runs less often (`_collect_less_often`), and never scans what the imports made (`_set_imports_aside`).
- WeasyPrint's C libraries are found in one reading of the linker's cache while WeasyPrint is imported
  (generator.rendering.libraries): generator.rendering.render imports it within `importing_weasyprint()`.
- Font subsets made once a process are given again (generator.rendering.subsets), on the WeasyPrint they were
  written for (WEASYPRINT) only: that change reaches into WeasyPrint's own code, so on another version the
  library's own subsetting is kept.
- The collector is paused while an output is built (`building`): the garbage a build leaves is collected before
  the next build, and never where the process ends after it.
- The command's process ends without tearing its heap down (`end_now`), as the build's workers do.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys
import threading
from collections.abc import Iterator

WEASYPRINT = "70."  # the versions whose private font subsetting generator.rendering.subsets wraps
COLLECT_EVERY = 10_000  # new container objects between two collections of the youngest generation (Python: 700)

_enabled = False
_paused = False  # the collector paused by `building`, the garbage of the last build not yet collected
_builds_pause = True  # False in a process that waits for its user between builds (`interactive`)


def enable() -> None:
    """Make the changes above, from now on in this process (again: nothing more)."""
    global _enabled
    if _enabled:
        return
    _enabled = True
    _collect_less_often()
    import sys

    if "weasyprint" in sys.modules:  # imported before: its fonts are kept from now on
        weasyprint_imported()


def enabled() -> bool:
    return _enabled


@contextlib.contextmanager
def importing_weasyprint() -> Iterator[None]:
    """Around WeasyPrint's import: its libraries found quickly, where enabled."""
    if not _enabled:
        yield
        return
    from generator.rendering import libraries

    with libraries.found_quickly():  # a third of a second less of every process's start
        yield


@contextlib.contextmanager
def building() -> Iterator[None]:
    """Around one output's build, where enabled: the collector paused while it runs, the garbage the build before it
    left collected first (the young generations, and the oldest when CPython would collect it: its count reached
    its threshold). A layout makes hundreds of thousands of objects that live until it is done, which the collector
    traversed again and again as they aged; collected once, after, they cost less, and a process that ends after
    its build (the command, `end_now`) never collects them. The collector stays paused after the build, until
    the next one or `resume()`: the memory of one build's garbage (some 50 MB for a roster handout)."""
    global _paused
    if not _enabled or not _builds_pause or not (_paused or gc.isenabled()):  # a collector the host paused: as it is
        yield
        return
    if _paused:
        gc.collect(2 if gc.get_count()[2] >= gc.get_threshold()[2] else 1)
    gc.disable()
    _paused = True
    yield


def interactive() -> None:
    """From now on, builds leave the collector running (`qrs watch`): a process waiting for its user between builds
    collects a build's garbage as it goes, not in one go at the start of the next edit (the first edit after the
    watch's first build: 1.0 s paused, 0.66 s running; the next ones alike)."""
    global _builds_pause
    _builds_pause = False
    resume()


def resume() -> None:
    """The collector as it was before `building` paused it: where the process goes on with other work."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def weasyprint_imported() -> None:
    """After WeasyPrint's import: the objects imported set aside from the collector (`_set_imports_aside`), and font
    subsets kept on the version they were written for; where enabled."""
    import weasyprint

    if _enabled:
        _set_imports_aside()
    if _enabled and weasyprint.__version__.startswith(WEASYPRINT):
        from generator.rendering import subsets

        subsets.keep()


def _collect_less_often() -> None:
    """A layout makes hundreds of thousands of objects (boxes, styles, text runs). At Python's default thresholds
    the collector took a fifth of a warm build's time, scanning the whole heap about twice a build; at
    COLLECT_EVERY it takes less than half as much, for some 20 MB more. Cycles are still collected; a higher
    threshold set by the host is kept."""
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, COLLECT_EVERY), *older)


def _set_imports_aside() -> None:
    """The modules, classes and functions imported so far (WeasyPrint's and qrs's: some fifty thousand objects the
    collector tracks) live as long as the process: moved to the collector's permanent generation (gc.freeze), no
    collection scans them again. A warm `qrs build wab2 --lang fr --rebuild` in a new process: 1.59-1.68 s ->
    1.48-1.55 s (four rounds each, side by side). What they hold is never collected: generator.rendering.pages
    removes its stylesheets' font folders at exit, which WeasyPrint does when it collects them."""
    gc.freeze()


def end_now(code: object) -> None:
    """End the process with `code` (sys.exit's), its exit handlers run and its output flushed, but without the
    interpreter's finalization, which tears down every module and frees, object by object, the heap a build's
    layouts left (side by side, five rounds each: a warm `qrs build wab2 --lang fr --rebuild` 1.52 s -> 1.47 s, a
    roster handout's first build 2.95 s -> 2.89 s). Returns, for the interpreter's own exit, where not enabled,
    where another thread still runs (it would be cut short), or where the code is not a number (Python prints it)."""
    if not _enabled or threading.active_count() > 1 or not (code is None or isinstance(code, int)):
        return
    atexit._run_exitfuncs()  # what the interpreter would run first: logging's flush, WeasyPrint's font folders
    exit_flushed(code or 0)


def exit_flushed(code: int) -> None:
    """os._exit, once stdout and stderr are flushed: what the process printed is not lost in their buffers."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
