"""The content suite (`qrs test`, generator.output.content_checks) on invented libraries: what passes, and how each
failure is named (file:line:column, exit 2). tests/test_content.py runs it on the user's library."""

from __future__ import annotations

import shutil

from generator.output import content_checks
from generator.output.plan import Output
from generator.output.targets import SheetTarget
from generator.project import Project
from generator.report import shown
from tests.conftest import FIXTURES, LIBRARY, ROOT, kept_folder, run_qrs

CARD = FIXTURES / "sheets" / "tiny-card.yaml"


def library(tmp_path, *sources) -> Project:
    """tmp_path/sources holding these files (a handout goes to handouts/), and its build folder."""
    folder = tmp_path / "sources"
    (folder / "handouts").mkdir(parents=True)
    for source in sources:
        shutil.copy(source, folder / ("handouts" if source.parent.name == "handouts" else "") / source.name)
    return Project.at(folder, tmp_path / "build")


def qrs_test(project: Project, *args: str):
    return run_qrs("--sources", str(project.sources), "--build-dir", str(project.build), *args)  # QRS_JOBS=1


def test_a_library_that_passes_exits_0_and_says_what_it_tested(tmp_path):
    project = library(tmp_path, CARD)
    ran = qrs_test(project, "test")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.endswith("1 sheet(s) and 0 handout(s) tested, 1 output(s) read: no problem found\n"), ran.stdout
    assert (project.build / "tiny-card.en.pdf").is_file()
    again = qrs_test(project, "--quiet", "test")  # built as `qrs build` builds: read again, not built
    assert again.returncode == 0 and again.stdout == again.stderr == ""


def test_a_cell_the_pdf_lacks_is_named_by_its_file_line_and_column(tmp_path):
    """The PDF as built, its source since edited: the edited cell is not on the page, and is named where it is typed."""
    project = library(tmp_path, CARD)
    assert qrs_test(project, "test").returncode == 0
    source = project.sources / "tiny-card.yaml"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace('[Sling, 12"]', '[Slingshot, 12"]'), encoding="utf-8")
    line = text.splitlines().index('          - [Sling, 12"]') + 1
    found = content_checks.output_problems(project, Output(SheetTarget(source), "en"))
    assert [str(problem) for problem in found] == [
        f"{source}:{line}:14: block ranges: 'Slingshot' is not printed in {shown(project.build / 'tiny-card.en.pdf')} "
        "(or not in the order of its block)"
    ]


def test_a_pdf_longer_than_its_pages_is_named_at_its_paper(tmp_path, built):
    """A sheet of two pages built, its source since declaring one."""
    pdf = built(FIXTURES / "sheets", "wide-matrix")
    project = Project(sources=library(tmp_path, FIXTURES / "sheets" / "wide-matrix.yaml").sources, build=pdf.parent)
    source = project.sources / "wide-matrix.yaml"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("pages: 2,", "pages: 1,"), encoding="utf-8")
    line = next(number for number, typed in enumerate(text.splitlines(), start=1) if "pages: 2," in typed)
    found = content_checks.output_problems(project, Output(SheetTarget(source), "en"))
    assert [(problem.line, problem.message) for problem in found] == [
        (line, f"{shown(pdf)} takes 2 page(s), more than the 1 declared")
    ]


def test_failures_exit_2_naming_each_file_and_the_others_are_still_tested(tmp_path):
    project = library(tmp_path, CARD, ROOT / "tests" / "bad_inputs" / "dice-gap.yaml")
    ran = qrs_test(project, "test")
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "dice-gap.yaml:16:11: D6 can roll 4, which no row covers" in ran.stderr
    assert "wrote" in ran.stdout and (project.build / "tiny-card.en.pdf").is_file()  # the good sheet was built


def test_a_language_in_progress_is_left_out_and_said(tmp_path):
    project = library(tmp_path, CARD)
    assert qrs_test(project, "i18n", "update", "tiny-card", "--lang", "de").returncode == 0
    ran = qrs_test(project, "test")
    assert ran.returncode == 0, ran.stderr
    assert "'de' is in progress" in ran.stdout and "1 output(s) read" in ran.stdout


def test_names_choose_what_is_tested_and_an_unknown_one_is_a_usage_error(tmp_path):
    project = library(tmp_path, CARD, FIXTURES / "every-block.yaml")
    ran = qrs_test(project, "test", "tiny-card")
    assert ran.returncode == 0 and "1 sheet(s) and 0 handout(s) tested" in ran.stdout, ran.stderr
    assert not (project.build / "every-block.fr.pdf").exists()
    unknown = qrs_test(project, "test", "tiny-crad")
    assert unknown.returncode == 64 and "did you mean tiny-card?" in unknown.stderr


def test_a_handout_is_built_in_each_language_it_lists_and_read_against_its_composed_sheet(request, tmp_path_factory):
    """On the fixture library's dwarfs (their sheet checked, not built): kept between sessions, as `built` keeps."""
    project = Project.at(LIBRARY, kept_folder(request, tmp_path_factory, "qrs-content-fixtures") / "build")
    outcome = content_checks.run(project, ("warhammer-dwarfs",), jobs=1)
    assert outcome.problems == [] and (outcome.sheets, outcome.handouts, outcome.outputs) == (0, 1, 2)
    assert [path.name for path in sorted((project.build / "handouts").glob("*.pdf"))] == [
        "warhammer-dwarfs.en.pdf",
        "warhammer-dwarfs.fr.pdf",
    ]


def test_the_outputs_are_checked_with_the_collector_running(tmp_path, monkeypatch):
    """A build in this process leaves the collector paused for the next build (speedups.building): the checks that
    read every PDF after the builds run with it."""
    import gc

    project = library(tmp_path, CARD)
    running = []
    checks = content_checks.output_problems
    monkeypatch.setattr(
        content_checks, "output_problems", lambda *args: running.append(gc.isenabled()) or checks(*args)
    )
    outcome = content_checks.run(project, ("tiny-card",), jobs=1)
    assert outcome.outputs == 1 and running == [True]
