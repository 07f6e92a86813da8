"""The command line: exit codes, messages, and a check that never loads the renderer."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, LIBRARY, ROOT, SHEETS, Ran, run_qrs

BAD = ROOT / "tests" / "bad_inputs"


def qrs(*args: str) -> Ran:
    return run_qrs(*args)


def test_check_reports_file_line_column_and_exits_2_without_traceback():
    result = qrs("--sources", str(BAD), "check", "dice-gap")
    assert result.returncode == 2
    assert "dice-gap.yaml:16:11: D6 can roll 4, which no row covers" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_does_not_import_weasyprint():
    code = (
        "import sys; from generator.cli.main import main\n"
        "try: main(['--sources', %r, 'check'])\n"
        "except SystemExit: pass\n"
        "print('weasyprint' in sys.modules)" % str(FIXTURES)
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout.strip().endswith("False"), result.stdout + result.stderr


def test_an_unknown_id_is_a_usage_error_with_the_nearest_name():
    """A slip of the command line, exit 64 (#34): the nearest sheet or handout is suggested, else the sheets listed."""
    result = qrs("--sources", str(FIXTURES), "check", "nope")
    assert (
        result.returncode == 64
        and "error: no sheet named nope: the sheets are as-typed-card, every-block" in result.stderr
    )
    slip = run_qrs("build", "warhamer")
    assert slip.returncode == 64 and slip.stderr == "error: no sheet named warhamer: did you mean warhammer?\n"
    handout = run_qrs("handout", "warhammer-dwarf")
    assert (
        handout.returncode == 64
        and "no handout named warhammer-dwarf: did you mean warhammer-dwarfs?" in handout.stderr
    )
    mistaken = run_qrs("changelog", "warhammer-dwarfs")  # a handout where only a sheet is taken: said so
    assert (
        mistaken.returncode == 64
        and "warhammer-dwarfs is a handout, not a sheet" in mistaken.stderr
        and "qrs build, preview, watch" in mistaken.stderr
    )


def test_list_shows_every_sheet():
    """A header line, and every language a sheet has, its own first (#34)."""
    result = qrs("list")
    assert result.returncode == 0
    header, *rows = result.stdout.splitlines()
    assert header.split("\t") == ["id", "game", "title", "edition", "languages"]
    assert {row.split("\t")[0] for row in rows} >= {"wab2", "warhammer", "fpga"}
    assert [row.split("\t")[4] for row in rows if row.startswith("wab2\t")] == ["fr en"]


def test_list_shows_the_handouts_after_the_sheets_and_build_takes_a_handouts_id(tmp_path):
    """A sheet and a handout are both targets (#43): `qrs list` names the handouts, `qrs build` takes their ids, and
    a handout named by its path and then by its id is one output, built once."""
    rows = qrs("list").stdout.splitlines()[1:]
    handouts = [row.split("\t") for row in rows if row.startswith("warhammer-dwarfs\t")]
    assert handouts and handouts[0][4] == "fr en" and rows.index("\t".join(handouts[0])) > len(SHEETS) - 1
    where = ["--build-dir", str(tmp_path / "build")]
    first = run_qrs(*where, "build", "warhammer-dwarfs", "--lang", "en")
    assert first.returncode == 0 and "handouts/warhammer-dwarfs.en.pdf" in first.stdout, first.stderr
    again = run_qrs(*where, "build", "sources/handouts/warhammer-dwarfs.yaml", "--lang", "en")
    assert again.returncode == 0 and "1 up to date" in again.stdout, again.stdout


def test_bare_qrs_shows_help_and_succeeds():
    result = qrs()
    assert result.returncode == 0 and "Usage: qrs" in result.stdout and "Commands:" in result.stdout


def test_version_and_short_help():
    from importlib.metadata import version

    assert qrs("--version").stdout == f"qrs {version('qrs')}\n"
    short = qrs("build", "-h")
    assert (
        short.returncode == 0 and short.stdout == qrs("build", "--help").stdout and "Usage: qrs build" in short.stdout
    )


def test_a_usage_error_has_its_own_exit_code():
    result = qrs("build", "--no-such-option")
    assert result.returncode == 64 and "No such option" in result.stderr


def test_a_missing_or_empty_sources_folder_is_an_error(tmp_path):
    missing = qrs("--sources", str(tmp_path / "nowhere"), "build")
    assert missing.returncode == 66 and "nowhere: no such folder" in missing.stderr  # a missing input (#45)
    empty = qrs("--sources", str(tmp_path), "check")
    assert empty.returncode == 2 and f"{tmp_path.name}: no sheet source (*.yaml) in this folder" in empty.stderr
    no_handouts = qrs("--sources", str(FIXTURES), "handout")
    assert no_handouts.returncode == 2 and "no handout source" in no_handouts.stderr


def test_sheets_and_handouts_are_named_by_id_or_by_path():
    by_id = qrs("check", "wab2", "warhammer-dwarfs")
    by_path = qrs("check", "sources/wab2.yaml", str(LIBRARY / "handouts" / "warhammer-dwarfs.yaml"))
    assert by_id.returncode == by_path.returncode == 0, by_path.stderr
    assert by_id.stdout == by_path.stdout == "1 sheet(s) and 1 handout(s) checked, no problem found\n"


def test_shell_completion_offers_sheet_and_handout_ids():
    def complete(words: str) -> list[str]:
        environment = {
            **os.environ,
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - 1),
            "_QRS_COMPLETE": "bash_complete",
        }
        result = subprocess.run(
            [sys.executable, "-m", "generator", *words.split()[1:]],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=environment,
        )
        return [line.removeprefix("plain,") for line in result.stdout.splitlines()]

    library = f"qrs --sources {LIBRARY}"
    assert complete(f"{library} check wa") == [
        "wab2",
        "wab2-english-hundred-years-war",
        "warhammer",
        "warhammer-dwarfs",
    ]
    both = ["wab2", "wab2-english-hundred-years-war", "warhammer", "warhammer-dwarfs"]
    assert complete(f"{library} build wa") == both  # a sheet and a handout are both targets (#43)
    assert complete(f"{library} handout wa") == ["wab2-english-hundred-years-war", "warhammer-dwarfs"]
    assert complete(f"{library} preview wa") == both and complete(f"{library} watch wa") == both
    assert "every-block" in complete(f"qrs --sources {FIXTURES} check ev")


def test_qrs_jobs_sets_the_default_workers_and_jobs_overrides_it(monkeypatch, tmp_path):
    from generator.output import parallel

    asked: list = []
    monkeypatch.setattr(parallel, "build", lambda *args, **kwargs: asked.append(args[5]) or parallel.Built())
    for environment, arguments in ((None, []), ("1", []), ("1", ["--jobs", "3"])):
        if environment is None:
            monkeypatch.delenv("QRS_JOBS", raising=False)
        else:
            monkeypatch.setenv("QRS_JOBS", environment)
        assert qrs("--sources", str(FIXTURES), "--build-dir", str(tmp_path), "build", *arguments).returncode == 0
    assert asked == [None, 1, 3]  # None: one worker per core


def test_an_id_with_a_line_break_is_not_an_id(tmp_path):
    """Id patterns end at the end of the text: `$` would also match before a final line break (#35, point 19)."""
    made = run_qrs("--sources", str(tmp_path / "sources"), "new", "abc\n", "--game", "G", "--lang", "en")
    assert made.returncode == 2 and "'abc\\n' is not a valid sheet id" in made.stderr, made  # quoted, not printed raw
    assert not (tmp_path / "sources").exists()
    built = run_qrs("--sources", str(FIXTURES), "--build-dir", str(tmp_path / "build"), "build", "every-block\n@HEAD")
    assert built.returncode == 2 and "'every-block\\n' is not a sheet id" in built.stderr, built
    assert not (tmp_path / "build").exists() or not any((tmp_path / "build").glob("*.pdf"))


def test_a_revision_or_a_language_with_a_line_break_is_refused_quoted():
    """docs/safety.md: ids, revisions and languages end at the end of the text, and are shown with \\n escaped."""
    from generator.errors import UserError
    from generator.reading import history

    with pytest.raises(UserError) as caught:
        history.checked_revision("HEAD\n", FIXTURES / "every-block.yaml")
    assert str(caught.value).endswith("'HEAD\\n' is not a git revision (a commit, tag or branch)"), caught.value
    checked = run_qrs("--sources", str(FIXTURES), "check", "--lang", "en\n")
    assert checked.returncode == 64 and "'en\\n' is not a known language code" in checked.stderr, checked


def test_a_reader_that_stops_reading_is_no_error():
    """`qrs list | head -1` (#35, point 11): the pipe closed early; qrs stops quietly, exit code 0."""
    read, write = os.pipe()
    os.close(read)
    done = subprocess.run(
        [sys.executable, "-m", "generator", "--sources", str(LIBRARY), "list"],
        stdout=write,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    os.close(write)
    assert done.returncode == 0 and done.stderr == b"", done.stderr


def test_global_options_are_taken_on_either_side_of_the_command(tmp_path):
    """`qrs build --verbose`, `qrs check --sources DIR`, `qrs list --json` (#34): as mkdocs and sphinx-build take them."""
    from generator.cli.main import global_options_first

    assert global_options_first(
        ["build", "wab2", "-v", "--sources=s", "--lang", "en", "--build-dir", "b", "--json"]
    ) == ["-v", "--sources=s", "--build-dir", "b", "--json", "build", "wab2", "--lang", "en"]
    assert global_options_first(["new", "x", "--", "--json"]) == ["new", "x", "--", "--json"]
    before = run_qrs("--json", "--sources", str(FIXTURES), "check", "every-block")
    after = run_qrs("check", "every-block", "--sources", str(FIXTURES), "--json")
    assert before.returncode == after.returncode == 0 and before.stdout == after.stdout, after
    assert json.loads(after.stdout.splitlines()[-1])["event"] == "checked"
    quiet = run_qrs("check", "--quiet", "--sources", str(FIXTURES), "every-block")
    assert quiet.returncode == 0 and quiet.stdout == "", quiet


def test_a_language_code_is_taken_in_any_case(tmp_path):
    """--lang EN was refused (#34): EN, en_GB and En-gb are en and en-GB."""
    from generator.cli.options import canonical_language as _canonical_language

    assert [_canonical_language(code) for code in ("EN", "en_gb", "En-gB", "fr")] == ["en", "en-GB", "en-GB", "fr"]
    done = run_qrs("check", "wab2", "--lang", "EN")
    assert done.returncode == 0, done.stderr
    refused = run_qrs("check", "wab2", "--lang", "ZZ")
    assert refused.returncode == 64 and "'zz' is not a known language code" in refused.stderr


def test_a_missing_input_file_is_exit_66_for_every_kind(tmp_path):
    """A roster, a document to import, a sheet or handout named by a path, a file to compare, the sources folder:
    what is not there is "no such file" (or folder), exit 66 (#45); an unknown id stays a slip, 64."""
    for command in (
        ["handout", "import", str(tmp_path / "army.rosz"), "--id", "army"],
        ["import", str(tmp_path / "sheet.docx"), "--id", "sheet"],
        ["handout", str(tmp_path / "army.yaml")],
        ["build", "sources/my-sheet.yaml"],
        ["check", str(tmp_path / "my-sheet.yaml")],
        ["export", "sources/handouts/army.yaml"],
        ["diff", "sources/wab2.yaml", str(tmp_path / "old.yaml")],
    ):
        ran = run_qrs(*command)
        assert ran.returncode == 66 and "no such file" in ran.stderr and "Traceback" not in ran.stderr, (command, ran)


def test_python_m_generator_outside_its_environment_says_which_python_to_use(tmp_path):
    """The system's Python lacks qrs's libraries: exit 69 and the command that works, not "a bug in qrs" (#45)."""
    # -S: without site-packages, as a Python that never had qrs's libraries installed
    ran = subprocess.run([sys.executable, "-S", "-m", "generator", "list"], capture_output=True, text=True, cwd=ROOT)
    assert ran.returncode == 69 and "lacks the library" in ran.stderr and ".venv/bin/qrs" in ran.stderr, ran.stderr
    assert "Traceback" not in ran.stderr and "bug in qrs" not in ran.stderr
