"""Documented `qrs` command lines run in one long-lived process, which imports the command line (and WeasyPrint)
once: started as a new process each, every command spent a second or more importing before doing anything.

`CommandRunner` starts `python -m tests.command_runner` and sends it one request a line (JSON: the words, the
folder, the environment); the process runs `generator.cli.main.main(words)` there, with that environment, its file
descriptors 1 and 2 sent to a file (so that what a program it starts prints is caught too), and answers with the
exit code and what was printed. A line that is not a plain `qrs …` command (a pipe, a redirection, `make`, `git`) is
run by bash as before (`in_process` says which). What only a process of its own shows (its imports, signals, a hang)
is tested elsewhere; a runner that dies answers the command it was running as failed, and the next starts another.
"""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QRS = re.compile(r"^(?:\.venv/bin/qrs|qrs|python -m generator)(?:\s|$)")
SHELL = re.compile(r"[|&;<>()$`*?\[\]{}~\\!]")  # what bash would read otherwise than as words


def in_process(line: str) -> list[str] | None:
    """The arguments of `qrs` that `line` runs, or None where the line is for bash (not a plain `qrs` command)."""
    if not QRS.match(line) or SHELL.search(line):
        return None
    words = shlex.split(line)
    return words[3:] if words[0] == "python" else words[1:]


class CommandRunner:
    """One runner process, started on first use: `run(line, cwd, environment) -> (exit code, output)`."""

    def __init__(self, timeout: float):
        self.timeout = timeout
        self.process: subprocess.Popen | None = None

    def run(self, line: str, cwd: Path, environment: dict[str, str]) -> tuple[int, str]:
        words = in_process(line)
        if words is None:
            done = subprocess.run(
                ["bash", "-c", line], cwd=cwd, env=environment, capture_output=True, text=True, timeout=self.timeout
            )
            return done.returncode, done.stdout + done.stderr
        return self._ask(words, cwd, environment)

    def _ask(self, words: list[str], cwd: Path, environment: dict[str, str]) -> tuple[int, str]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.command_runner"],
                cwd=ROOT,
                env=environment,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        request = {"words": words, "cwd": str(cwd), "environment": environment}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        if not select.select([self.process.stdout], [], [], self.timeout)[0]:
            self.process.kill()
            self.process.wait()
            self.process = None
            return -1, f"timed out after {self.timeout} s"
        answer = self.process.stdout.readline()
        if not answer:  # the command ended the process: it would have ended a process of its own as well
            code = self.process.wait()
            self.process = None
            return code or 1, f"the command ended its process (exit {code})"
        reply = json.loads(answer)
        return reply["code"], reply["output"]

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait(timeout=self.timeout)
            self.process = None


def _serve() -> None:
    """Answer each request read from stdin on stdout, both kept apart from the commands: each command's stdin is
    empty (a prompt must not read the next request), its stdout and stderr a file (_run)."""
    from generator.cli.main import main

    requests, answers = os.fdopen(os.dup(0)), os.fdopen(os.dup(1), "w")
    nothing = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1):
        os.dup2(nothing, descriptor)
    for request in map(json.loads, requests):
        code, output = _run(main, request)
        answers.write(json.dumps({"code": code, "output": output}) + "\n")
        answers.flush()


def _run(main, request: dict) -> tuple[int, str]:
    saved = [os.dup(1), os.dup(2)]
    os.environ.clear()
    os.environ.update(request["environment"])
    os.chdir(request["cwd"])
    with tempfile.TemporaryFile("w+b") as printed:
        for descriptor in (1, 2):
            os.dup2(printed.fileno(), descriptor)
        try:
            main(request["words"])
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
            if isinstance(exit.code, str):  # as Python does on exit: the message printed, exit code 1
                print(exit.code, file=sys.stderr)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for descriptor, kept in zip((1, 2), saved):
                os.dup2(kept, descriptor)
                os.close(kept)
        printed.seek(0)
        return code, printed.read().decode("utf-8", errors="replace")


if __name__ == "__main__":
    _serve()
