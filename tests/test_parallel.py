"""Parallel builds (generator.parallel): the same PDFs, the same report and the same problems as one by one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator import manifest, parallel, pipeline
from generator.cli import main
from generator.project import Project

TESTS = Path(__file__).resolve().parent
FIXTURE = TESTS / "fixtures" / "every-block.yaml"


def qrs(args: list[str], capsys) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()
    return code, out, err


def test_a_parallel_build_equals_a_sequential_one_byte_for_byte(tmp_path, capsys):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copyfile(FIXTURE, sources / "every-block.yaml")
    text = FIXTURE.read_text(encoding="utf-8")
    assert text.startswith("sheet: every-block\n")
    (sources / "second.yaml").write_text(text.replace("sheet: every-block\n", "sheet: second\n", 1), encoding="utf-8")
    shutil.copyfile(TESTS / "bad_inputs" / "dice-gap.yaml", sources / "dice-gap.yaml")  # a problem, found by a worker

    runs = {}
    for jobs in ("2", "1"):
        build = tmp_path / f"build-{jobs}"
        code, out, err = qrs(["--sources", str(sources), "--build-dir", str(build), "build", "--jobs", jobs], capsys)
        runs[jobs] = (code, out.replace(str(build), "BUILD"), err.replace(str(build), "BUILD"),
                      {path.name: path.read_bytes() for path in sorted(build.glob("*.pdf"))})
    assert runs["2"] == runs["1"]
    code, out, err, pdfs = runs["2"]
    assert code == 2
    problems = [line for line in err.splitlines() if not line.startswith("  ")]  # the indented lines: layout warnings
    assert problems == [f"{sources / 'dice-gap.yaml'}:16:11: D6 can roll 4, which no row covers", "1 problem(s) found"]
    written = [line.split(" (type at ")[0] for line in out.splitlines()]  # a line may end with the type scale used
    assert written == ["wrote BUILD/every-block.fr.pdf", "wrote BUILD/second.fr.pdf"]  # in the order of the sources
    assert sorted(pdfs) == ["every-block.fr.pdf", "second.fr.pdf"]


def test_a_bug_in_a_worker_says_where_it_happened(monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise TypeError("something is None")

    monkeypatch.setattr(pipeline, "build", broken)
    project = Project.at(tmp_path, tmp_path / "build")
    output = manifest.Output("sheet", "every-block", "fr", FIXTURE)
    with pytest.raises(TypeError):  # in this process: the exception itself, with its traceback
        parallel.build_one(project, output, {})
    monkeypatch.setattr(parallel, "_worker", True)
    done = parallel.build_one(project, output, {})
    assert done.path is None and done.failure.startswith("TypeError: something is None (at test_parallel.py:")


def test_jobs_default_to_the_cores():
    assert parallel.cores() >= 1
    assert parallel.parse_shard("2/4") == (2, 4) and parallel.parse_shard(None) is None
