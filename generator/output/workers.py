"""The worker processes of a build: each set up to stop with its command (Ctrl-C, SIGTERM, or the command killed
with kill -9) leaving no half-written file, in a scratch folder the command removes; and the pool stopped now."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

from generator import write
from generator.rendering import speedups

in_worker = False  # set in the pool's worker processes
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
ORPHAN_POLL_SECONDS = 0.5  # where the kernel cannot kill a worker with its parent, how often it looks


def start(parent: int, scratch: str) -> None:
    """A worker process's set-up (the pool's initializer)."""
    global in_worker
    in_worker = True
    tempfile.tempdir = scratch  # WeasyPrint's font folders too: the command removes them, however a worker ends
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the command, which stops the workers (SIGTERM)
    signal.signal(signal.SIGTERM, _stop_now)
    _die_with(parent)
    write.only_while_alive(parent)  # a worker whose command was killed writes nothing more
    speedups.enable()
    atexit.register(_exit_at_once)


def _exit_at_once() -> None:
    """A worker's end, once the pool has no more work for it: its interpreter's finalization (every module torn down,
    the heap WeasyPrint's layouts left collected) kept the command waiting half a second at the end of every build
    with workers, and does nothing the command needs (its outputs are written and recorded, its scratch folder is the
    command's to remove). The exit handlers registered after it (by what the builds imported) run before it; those
    registered before it (the standard library's: logging's flush) do not, and stdout and stderr are flushed here."""
    speedups.exit_flushed(0)


def _stop_now(signum: int, frame) -> None:
    """SIGTERM in a worker: leave no half-written file, and go (skipping the pool's clean-up, which would wait)."""
    write.abandon()
    os._exit(128 + signum)


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


SCRATCH_PREFIX = "qrs-build-"


def scratch_folder() -> str:
    """A temporary folder for the workers, removed when the build ends. A build killed with kill -9 cannot remove
    its own: the next build removes those whose command is gone."""
    root = Path(tempfile.gettempdir())
    for left in root.glob(f"{SCRATCH_PREFIX}*-*"):
        pid = left.name[len(SCRATCH_PREFIX) :].split("-")[0]
        if (
            pid.isdigit()
            and not _alive(int(pid))
            and left.is_dir()
            and not left.is_symlink()
            and left.stat().st_uid == os.getuid()
        ):
            shutil.rmtree(left, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def stop(executor) -> None:
    """Stop every worker now (each removes the file it was writing) and wait until they are gone."""
    processes = list((executor._processes or {}).values())  # the pool has no public way to stop running tasks
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()
    # wait for the pool's own thread too: left running, it could close its wake-up pipe while the interpreter's
    # exit handler writes to it, a traceback printed after the build has stopped
    executor.shutdown(wait=True, cancel_futures=True)
