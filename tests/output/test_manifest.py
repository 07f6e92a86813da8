"""Incremental builds (generator.output.manifest, generator.output.parallel): only what changed is built again.

The rendering itself is replaced by a stand-in that validates the source as the real build does and writes a
small file, so that these tests are about which outputs are built; test_parallel.py renders for real.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from generator import write
from generator.cli.main import main
from generator.digests import Digests
from generator.output import formats, manifest, parallel, pipeline
from generator.output import plan as plans
from generator.output.targets import SheetTarget, named
from generator.project import Project
from generator.report import Reporter

ROOT = Path(__file__).resolve().parent.parent.parent
from tests.conftest import LIBRARY  # noqa: E402 - beside the names it is used with

FIXTURES = ROOT / "tests" / "fixtures"
SETTINGS = pipeline.BuildOptions()


@pytest.fixture
def project(tmp_path) -> Project:
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    return Project.at(sources, tmp_path / "build")


@pytest.fixture
def built(monkeypatch) -> list[str]:
    """Replace rendering by a stand-in; returns the list of outputs built (relative to build/), in order."""
    calls: list[str] = []

    def build(project, target, lang, form="pdf", options=pipeline.BuildOptions(), output=None):
        if target.kind == "sheet":  # a broken source fails here as in the real build
            name, title = pipeline.check(target.source).sheet, pipeline.check(target.source).game
        else:
            name = title = pipeline.load_handout(project, target.source)[1].handout
        writer = formats.writer(form)
        output = output or writer.path(project, target, lang, writer.variant(options))
        text = (
            f"%PDF stand-in {name} {lang} {options}\n"
            if form == "pdf"
            else f"<!DOCTYPE html><title>{title} {lang}</title>\n"
        )
        write.atomically(output, text.encode())
        calls.append(output.relative_to(project.build).as_posix())
        return pipeline.Written(output)

    monkeypatch.setattr(pipeline, "build", build)
    return calls


def run(project: Project, calls: list[str], options: pipeline.BuildOptions = SETTINGS, **more) -> set[str]:
    """Build every sheet and handout in this process; the outputs built."""
    calls.clear()
    problems = parallel.build(project, named(project), (), options, Reporter(quiet=True), jobs=1, **more).problems
    assert problems == []
    return set(calls)


def every_output(project: Project) -> set[str]:
    found = {path.relative_to(project.build).as_posix() for path in project.build.rglob("*.pdf")}
    assert found == {output.key(project) for output in planned(project)} and len(found) >= 16
    return found


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


WAB2 = {
    "wab2.fr.pdf",
    "wab2.en.pdf",
    "handouts/wab2-english-hundred-years-war.fr.pdf",
    "handouts/wab2-english-hundred-years-war.en.pdf",
}


def test_a_second_build_builds_nothing(project, built):
    assert run(project, built) == every_output(project)
    assert run(project, built) == set()


def test_nothing_to_do_imports_neither_weasyprint_nor_the_model(project, built):
    main_ok(["--sources", str(project.sources), "--build-dir", str(project.build), "build", "--all", "--jobs", "1"])
    code = (
        "import sys; from generator.cli.main import main\n"
        "try: main(['--sources', %r, '--build-dir', %r, 'build', '--all'])\n"
        "except SystemExit as exit: print('exit', exit.code)\n"
        "print('weasyprint' in sys.modules, 'generator.model.types' in sys.modules)"
        % (str(project.sources), str(project.build))
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    count = len(planned(project))
    summary, imports = result.stdout.splitlines()
    assert re.fullmatch(rf"{count} output\(s\): 0 built, {count} up to date, 0 failed, \d+\.\d s", summary), (
        result.stdout
    )
    assert imports == "False False", result.stdout + result.stderr


def test_one_cell_changed_rebuilds_that_sheet_and_the_handouts_drawn_from_it(project, built):
    run(project, built)
    edit(
        project.sources / "wab2.yaml",
        '"Forêts denses, collines escarpées", "¼"]',
        '"Forêts denses, collines escarpées", "½"]',
    )
    assert run(project, built) == WAB2


def test_a_catalogue_rebuilds_only_its_language(project, built):
    run(project, built)
    edit(project.sources / "i18n" / "wab2.en.po", 'msgstr "Flee distance"', 'msgstr "Fleeing distance"')
    assert run(project, built) == {"wab2.en.pdf", "handouts/wab2-english-hundred-years-war.en.pdf"}
    handout_catalogue = project.sources / "handouts" / "i18n" / "warhammer-dwarfs.en.po"
    handout_catalogue.write_text(handout_catalogue.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert run(project, built) == {"handouts/warhammer-dwarfs.en.pdf"}


def test_a_template_or_an_option_rebuilds_everything(project, built, tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(project.templates, templates)
    project = Project(project.sources, project.build, templates)
    everything = run(project, built)
    (templates / "sheet.css").write_text(
        (templates / "sheet.css").read_text(encoding="utf-8") + "\n/* */\n", encoding="utf-8"
    )
    assert run(project, built) == everything
    on_letter = run(project, built, replace(SETTINGS, paper="letter"))  # variants have names of their own
    assert on_letter == {
        name.replace(f".{name.split('.')[-2]}.pdf", f".letter.{name.split('.')[-2]}.pdf") for name in everything
    }
    assert run(project, built, replace(SETTINGS, paper="letter")) == set()
    assert run(project, built) == set()  # the plain PDFs were not overwritten


def test_paper_that_is_the_sources_own_builds_the_plain_pdf(project, built):
    """--paper A4 on an A4 sheet wrote a copy, build/wab2.a4.en.pdf (#45): each output is named from the paper its
    own source declares, so that --all over sheets of both papers names each right, and finds the plain PDFs fresh."""
    edit(project.sources / "shadow-war.yaml", "size: A4", "size: letter")
    everything = run(project, built)
    assert "shadow-war.fr.pdf" in everything
    assert run(project, built, replace(SETTINGS, paper="A4")) == {"shadow-war.a4.fr.pdf", "shadow-war.a4.en.pdf"}
    on_letter = run(project, built, replace(SETTINGS, paper="letter"))
    assert "shadow-war.fr.pdf" not in on_letter and "shadow-war.letter.fr.pdf" not in on_letter
    assert on_letter == {
        name.replace(f".{name.split('.')[-2]}.pdf", f".letter.{name.split('.')[-2]}.pdf")
        for name in everything
        if not name.startswith("shadow-war.")
    }
    assert (
        not (project.build / "wab2.a4.fr.pdf").exists()
        and not (project.build / "handouts" / "warhammer-dwarfs.a4.fr.pdf").exists()
    )


def test_json_tells_each_output_up_to_date_with_the_layout_its_build_told(project, built, monkeypatch, capsys):
    """A script reading `qrs --json build` learnt the layout and its warnings of the outputs built only: those up to
    date were a count in the summary. Each is now an "up_to_date" event carrying what its "wrote" event told."""
    stand_in = pipeline.build
    layout = {"pages": [[{"used": 0.91, "continued": []}]], "scale": 0.95, "warnings": ["a hole of 20 %"]}

    def build(project, target, lang, form="pdf", options=pipeline.BuildOptions(), output=None):
        return replace(stand_in(project, target, lang, form, options, output), layout=layout)

    monkeypatch.setattr(pipeline, "build", build)
    sheets = [SheetTarget(project.sources / "shadow-war.yaml")]

    def events() -> list[dict]:
        assert parallel.build(project, sheets, ("en",), SETTINGS, Reporter(json=True), jobs=1).problems == []
        return [json.loads(line) for line in capsys.readouterr().out.splitlines()]

    (wrote, _) = events()
    (kept, summary) = events()
    assert wrote["event"] == "wrote" and kept["event"] == "up_to_date" and summary["up_to_date"] == 1
    assert kept["layout"] == wrote["layout"] == layout and kept["path"] == wrote["path"]
    assert {name: kept[name] for name in ("kind", "sheet", "lang", "variant")} == {
        "kind": "sheet",
        "sheet": "shadow-war",
        "lang": "en",
        "variant": None,
    }


def test_verbose_shows_the_stored_column_fill_of_outputs_up_to_date(project, built, monkeypatch, capsys):
    """--verbose on up-to-date outputs showed no column fill (#45): the manifest keeps each PDF's layout line."""
    stand_in = pipeline.build

    def build(project, target, lang, form="pdf", options=pipeline.BuildOptions(), output=None):
        layout = {
            "pages": [[{"used": 0.91, "continued": []}, {"used": 0.42, "continued": []}]],
            "scale": 0.95,
            "warnings": [],
        }
        return replace(stand_in(project, target, lang, form, options, output), layout=layout)

    monkeypatch.setattr(pipeline, "build", build)
    sheets = [SheetTarget(project.sources / "shadow-war.yaml")]
    verbose = Reporter(verbose=True)
    assert parallel.build(project, sheets, ("en",), SETTINGS, verbose, jobs=1).problems == []
    assert "  columns used 91% 42%; type at 95.0%\n" in capsys.readouterr().out
    assert parallel.build(project, sheets, ("en",), SETTINGS, verbose, jobs=1).problems == []
    shown = capsys.readouterr().out.splitlines()
    assert shown[:2] == [f"up to date {project.build / 'shadow-war.en.pdf'}", "  columns used 91% 42%; type at 95.0%"]
    assert parallel.build(project, sheets, ("en",), SETTINGS, Reporter(), jobs=1).problems == []
    assert len(capsys.readouterr().out.splitlines()) == 1  # without --verbose: the summary line alone


def test_web_pages_are_outputs_as_pdfs_are(project, built):
    both = run(project, built, forms=("pdf", "html"))
    pages = {name for name in both if name.endswith(".html")}
    assert pages == {f"html/{name[:-4]}.html" for name in every_output(project)}
    assert run(project, built, forms=("pdf", "html")) == set()
    edit(
        project.sources / "wab2.yaml",
        '"Forêts denses, collines escarpées", "¼"]',
        '"Forêts denses, collines escarpées", "½"]',
    )
    assert run(project, built, forms=("pdf", "html")) == WAB2 | {f"html/{name[:-4]}.html" for name in WAB2}
    (project.build / "html" / "fpga.en.html").unlink()
    assert run(project, built, forms=("html",)) == {"html/fpga.en.html"}
    assert run(project, built) == set()  # the PDFs stayed fresh


def test_the_index_lists_every_page_with_its_pdf(project, built):
    run(project, built, forms=("pdf", "html"))
    index = (project.build / "html" / "index.html").read_text(encoding="utf-8")
    for page in (project.build / "html").rglob("*.*.html"):
        link = page.relative_to(project.build / "html").as_posix()
        assert f'href="{link}"' in index
        assert f'href="../{link[:-5]}.pdf"' in index
    assert "Warhammer Ancient Battles en" in index  # each page's own title
    before = (project.build / "html" / "index.html").stat().st_mtime_ns
    run(project, built, forms=("html",))
    assert (project.build / "html" / "index.html").stat().st_mtime_ns == before  # unchanged: not written again


def test_a_deleted_or_edited_pdf_is_built_again(project, built):
    run(project, built)
    (project.build / "fpga.en.pdf").unlink()
    (project.build / "handouts" / "warhammer-dwarfs.fr.pdf").write_bytes(b"%PDF edited by hand\n")
    assert run(project, built) == {"fpga.en.pdf", "handouts/warhammer-dwarfs.fr.pdf"}


def test_rebuild_builds_everything(project, built):
    everything = run(project, built)
    assert run(project, built, rebuild=True) == everything


def test_a_failed_build_marks_nothing_fresh(project, built):
    run(project, built)
    recorded = json.loads((project.build / manifest.NAME).read_text(encoding="utf-8"))["outputs"]
    edit(
        project.sources / "wab2.yaml",
        '"Forêts denses, collines escarpées", "¼"]',
        '"Forêts denses, collines escarpées", "½", "x"]',
    )
    for _ in range(2):  # tried again each time: the failure was not recorded as fresh
        built.clear()
        problems = parallel.build(project, named(project), (), SETTINGS, Reporter(quiet=True), jobs=1).problems
        assert problems and all(problem.path.endswith("wab2.yaml") for problem in problems)
        assert built == []
        now = json.loads((project.build / manifest.NAME).read_text(encoding="utf-8"))["outputs"]
        assert now == recorded  # the previous good PDFs keep their own entries, and nothing else changed
    edit(
        project.sources / "wab2.yaml",
        '"Forêts denses, collines escarpées", "½", "x"]',
        '"Forêts denses, collines escarpées", "¼"]',
    )
    assert run(project, built) == set()  # back to the inputs of the PDFs on disk


def test_a_build_that_fails_writes_no_manifest(project, built):
    edit(project.sources / "fpga.yaml", "\nlang: fr\n", "\nlang: fr\nlang: en\n")  # the sheet's own, at the top
    problems = parallel.build(
        project, [SheetTarget(project.sources / "fpga.yaml")], (), SETTINGS, Reporter(quiet=True), jobs=1
    ).problems
    assert problems and not project.build.exists()


def test_build_and_handout_commands_agree_on_the_handouts(project, built):
    where = ["--sources", str(project.sources), "--build-dir", str(project.build)]
    main_ok(where + ["build", "--all", "--jobs", "1"])
    built.clear()
    main_ok(where + ["handout", "--jobs", "1"])
    main_ok(where + ["build", "--jobs", "1"])
    assert built == []


def test_the_command_says_how_many_are_up_to_date(project, built, capsys):
    where = ["--sources", str(project.sources), "--build-dir", str(project.build)]
    main_ok(where + ["build", "--jobs", "1"])
    capsys.readouterr()
    (project.build / "wab2.fr.pdf").unlink()
    main_ok(where + ["build", "--jobs", "1"])
    sheets = len([output for output in planned(project) if output.kind == "sheet"])
    wrote, summary = capsys.readouterr().out.splitlines()
    assert wrote == "wrote build/wab2.fr.pdf"  # relative to the library, the folder holding sources/
    assert summary.startswith(f"{sheets} output(s): 1 built, {sheets - 1} up to date, 0 failed, "), summary
    main_ok(["--json"] + where + ["build", "--jobs", "1"])
    *kept, event = map(json.loads, capsys.readouterr().out.splitlines())  # a no-op build still says so: a summary
    assert (event["event"], event["outputs"], event["built"], event["up_to_date"]) == ("summary", sheets, 0, sheets)
    assert [found["event"] for found in kept] == ["up_to_date"] * sheets  # and an event an output


BAD_OUTPUT_ENTRIES = {
    "wab2.fr.pdf": "a string, not an object",
    "wab2.en.pdf": "SECONDS",
    "fpga.fr.pdf": {"inputs": ["a list"], "pdf": "x"},
}


@pytest.mark.parametrize("seconds", ["slow", None, -1, True, float("nan")])
def test_a_wrong_typed_manifest_entry_is_dropped_with_a_warning_and_rebuilt(project, built, capsys, seconds):
    where = ["--sources", str(project.sources), "--build-dir", str(project.build)]
    main_ok(where + ["build", "--all", "--jobs", "1"])
    path = project.build / manifest.NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    bad = {
        key: dict(data["outputs"][key], seconds=seconds) if entry == "SECONDS" else entry
        for key, entry in BAD_OUTPUT_ENTRIES.items()
    }
    data["outputs"].update(bad)
    handout = next(iter(data["plans"]))
    data["plans"][handout]["sheet"] = "../../outside"  # names a file: never trusted
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    built.clear()

    main_ok(where + ["build", "--all", "--jobs", "1"])
    err = capsys.readouterr().err
    path = path.relative_to(project.sources.parent)  # as printed: relative to the library
    for key in bad:
        assert f"warning: {path}: outputs entry '{key}' ignored (its output is rebuilt): " in err, err
    assert f"warning: {path}: plans entry '{handout}' ignored" in err and "'sheet' is not a sheet id" in err, err
    assert sorted(built) == sorted(bad)  # the others stay up to date
    assert run(project, built) == set()  # the entries written again are good ones
    assert "warning" not in capsys.readouterr().err


def test_a_manifest_nested_too_deep_is_ignored_and_every_output_rebuilt(tmp_path, capsys):
    """JSON nested 100,000 deep made every build fail until the file was deleted (#35, point 9)."""
    build = tmp_path / "build"
    build.mkdir()
    (build / manifest.NAME).write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    found = manifest.Manifest.read(build / manifest.NAME)
    assert found.outputs == {} and found.dropped == [
        f"{build / manifest.NAME}: not a manifest qrs wrote (RecursionError): ignored (every output is rebuilt)"
    ]


@pytest.mark.parametrize("planted", ["/dev/zero", "fifo"])
def test_a_manifest_that_is_a_device_or_a_pipe_is_refused_at_once(tmp_path, planted):
    """A link from the manifest to /dev/zero read 8.6 GB in 20 s; to a FIFO it hung (#35, point 9). In a process of
    its own, so that a regression hangs that process, not the test worker."""
    build = tmp_path / "build"
    build.mkdir()
    if planted == "fifo":
        os.mkfifo(build / manifest.NAME)
    else:
        (build / manifest.NAME).symlink_to(planted)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "--sources",
            str(FIXTURES),
            "--build-dir",
            str(build),
            "build",
            "every-block",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 2 and f"{build / manifest.NAME}:1:1: this is " in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def main_ok(args: list[str]) -> None:
    try:
        main(args)
    except SystemExit as exit:
        assert exit.code == 0


# --- shards --------------------------------------------------------------------------------------------


def planned(project: Project) -> list[plans.Output]:
    found = plans.plan(project, named(project), (), manifest.Manifest(project.build / manifest.NAME), Digests())
    assert not found.problems
    return found.outputs


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 16, 17])
def test_shards_partition_the_outputs(n):
    project = Project.at(LIBRARY)
    outputs = planned(project)
    key = lambda output: output.key(project)  # noqa: E731
    parts = [plans.shard(outputs, (k, n), key) for k in range(1, n + 1)]
    keys = [key(output) for part in parts for output in part]
    assert sorted(keys) == sorted(map(key, outputs)) and len(set(keys)) == len(keys)
    assert max(map(len, parts)) - min(map(len, parts)) <= 1
    assert parts == [plans.shard(outputs, (k, n), key) for k in range(1, n + 1)]  # the same every time


def test_the_shard_option_builds_one_part(project, built):
    where = ["--sources", str(project.sources), "--build-dir", str(project.build)]
    parts = []
    for k in (1, 2, 3):
        built.clear()
        main_ok(where + ["build", "--all", "--jobs", "1", "--shard", f"{k}/3"])
        parts.append(set(built))
    assert set.union(*parts) == every_output(project) and sum(map(len, parts)) == len(planned(project))


@pytest.mark.parametrize("text", ["0/4", "5/4", "2", "a/b", "2/0"])
def test_a_bad_shard_is_refused(text, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--sources", str(LIBRARY), "build", "--shard", text])
    assert exit.value.code == 64 and "--shard" in capsys.readouterr().err  # a usage error


# --- the plan ------------------------------------------------------------------------------------------


def test_the_plan_has_the_languages_the_pipeline_builds():
    from generator.composing import translate as i18n

    project = Project.at(LIBRARY)
    by_sheet: dict[str, list[str]] = {}
    for output in planned(project):
        if output.kind == "sheet":
            by_sheet.setdefault(output.name, []).append(output.lang)
    assert by_sheet == {path.stem: i18n.languages(LIBRARY, pipeline.check(path)) for path in project.sheet_paths()}


@pytest.mark.parametrize(
    "line, lang",
    [("lang: en", "en"), ('lang: "en"', "en"), ("lang: en  # canonical", "en"), ("lang: 'en-GB'", "en-GB")],
)
def test_the_language_line_is_read_as_the_loader_reads_it(tmp_path, line, lang):
    path = tmp_path / "x.yaml"
    path.write_text(f"sheet: x\n{line}\nsections: []\n", encoding="utf-8")
    assert plans.sheet_language(path) == lang


def test_a_glossed_build_is_a_variant_and_leaves_the_plain_outputs_alone(tmp_path):
    """`qrs build warhammer --lang fr --gloss en` wrote build/warhammer.fr.pdf and its page (#34)."""
    from tests.conftest import run_qrs

    where = ["--sources", str(FIXTURES), "--build-dir", str(tmp_path)]
    done = run_qrs(*where, "build", "every-block", "--gloss", "en", "--format", "pdf", "--format", "html")
    assert done.returncode == 0, done.stderr
    written = sorted(
        path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*.*") if path.suffix in (".pdf", ".html")
    )
    assert written == ["every-block.gloss.fr.pdf", "html/every-block.gloss.fr.html", "html/index.html"], written
    again = run_qrs(*where, "build", "every-block", "--gloss", "en", "--format", "pdf", "--format", "html")
    assert "0 built, 2 up to date" in again.stdout, again.stdout


def test_the_font_subsetter_is_an_input_of_every_output(project, monkeypatch):
    """Installing libharfbuzz-subset0 changes the PDFs' bytes (#34): every output must be built again."""
    digests = Digests()
    assert manifest.font_subsetter() in ("harfbuzz", "fonttools")
    monkeypatch.setattr(manifest, "font_subsetter", lambda: "fonttools")
    with_fonttools = manifest.shared_digest(project, digests)
    monkeypatch.setattr(manifest, "font_subsetter", lambda: "harfbuzz")
    assert manifest.shared_digest(project, digests) != with_fonttools


def test_a_build_leaves_no_lock_among_the_outputs(tmp_path, own_heights):
    """build/.qrs-manifest.lock and the heights' <sheet>.<lang>.json.lock stayed beside the outputs after every
    build (#34). The locks live in build/.cache/locks/, and stay there: removing a lock another run waits on would
    let two runs in at once."""
    from tests.conftest import run_qrs

    done = run_qrs("--sources", str(FIXTURES), "--build-dir", str(tmp_path), "build", "every-block", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    visible = [
        path.relative_to(tmp_path)
        for path in tmp_path.rglob("*")
        if not any(part.startswith(".") for part in path.relative_to(tmp_path).parts)
    ]
    assert visible and not [path for path in visible if path.suffix == ".lock"], visible
    locks = sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*.lock"))
    assert locks == [".cache/locks/.qrs-manifest.json.lock", ".cache/locks/every-block.fr.json.lock"], locks


def test_two_runs_saving_the_manifest_wait_for_each_other(tmp_path):
    """A run saving the manifest waits while another holds its lock, then merges into what that one wrote."""
    path = tmp_path / "build" / manifest.NAME
    entry = {"inputs": "a", "pdf": "b"}
    manifest.Manifest(path).save({"first.fr.pdf": entry}, {})
    script = (
        "import sys; from pathlib import Path; from generator.output.manifest import Manifest; "
        "Manifest(Path(sys.argv[1])).save({'third.fr.pdf': {'inputs': 'a', 'pdf': 'b'}}, {})"
    )
    with write.locked(write.lock_path(path.parent / ".cache", path.name)):  # another run, saving
        other = subprocess.Popen([sys.executable, "-c", script, str(path)], cwd=ROOT)
        with pytest.raises(subprocess.TimeoutExpired):
            other.wait(timeout=1.5)
        data = json.loads(path.read_text(encoding="utf-8"))
        data["outputs"]["second.fr.pdf"] = entry
        write.atomically(path, json.dumps(data).encode())
    assert other.wait(timeout=60) == 0
    assert sorted(manifest.Manifest.read(path).outputs) == ["first.fr.pdf", "second.fr.pdf", "third.fr.pdf"]
