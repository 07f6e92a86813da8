"""--quiet prints only problems; --json prints one JSON object a line for each output and each problem."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.conftest import FIXTURES, LIBRARY, ROOT, Ran, run_qrs, source_head

BAD = ROOT / "tests" / "bad_inputs"


def qrs(*args: str) -> Ran:
    return run_qrs(*args)


def events(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines()]


def test_json_problems_name_file_line_column_and_keep_exit_code_2():
    result = qrs("--json", "--sources", str(BAD), "check", "dice-gap")
    assert result.returncode == 2
    found = events(result.stdout)
    assert {
        "event": "problem",
        "file": str(BAD / "dice-gap.yaml"),
        "line": 16,
        "column": 11,
        "message": "D6 can roll 4, which no row covers",
    } in found
    assert [event["event"] for event in found] == ["problem"] * (len(found) - 1) + ["failed"]
    assert found[-1]["problems"] == len(found) - 1
    assert "problem(s) found" not in result.stderr


def test_json_reports_each_output_written(tmp_path):
    shutil.copytree(FIXTURES, tmp_path / "sources")
    result = qrs("--json", "--sources", str(tmp_path / "sources"), "build", "every-block")
    assert result.returncode == 0, result.stderr
    event, summary = events(result.stdout)
    assert event["event"] == "wrote" and event["path"] == str(tmp_path / "build" / "every-block.fr.pdf")
    pdf = tmp_path / "build" / "every-block.fr.pdf"
    assert {key: event[key] for key in ("kind", "sheet", "lang", "variant", "pages", "bytes")} == {
        "kind": "sheet",
        "sheet": "every-block",
        "lang": "fr",
        "variant": None,
        "pages": 1,
        "bytes": pdf.stat().st_size,
    }
    assert event["seconds"] > 0
    assert {key: summary[key] for key in ("event", "outputs", "built", "up_to_date", "failed")} == {
        "event": "summary",
        "outputs": 1,
        "built": 1,
        "up_to_date": 0,
        "failed": 0,
    }
    layout = event["layout"]  # the layout report: type scale, and per page and column, its use and blocks
    assert 0.9 <= layout["scale"] <= 1.15 and layout["declared_pages"] == 1 and layout["columns"] == 3
    columns = [column for page in layout["pages"] for column in page]
    assert all(0 < column["used"] <= 1 for column in columns)
    assert [block for column in columns for block in column["blocks"]][:2] == ["turn-sequence", "saves"]
    assert layout["warnings"] == []  # holes and unused pages, as the terminal would print them


def test_verbose_prints_each_columns_use(tmp_path):
    shutil.copytree(FIXTURES, tmp_path / "sources")
    result = qrs("-v", "--sources", str(tmp_path / "sources"), "build", "every-block")
    assert result.returncode == 0, result.stderr
    wrote, *details = result.stdout.splitlines()
    columns = [line.strip() for line in details if line.strip().startswith("columns used ")]
    assert wrote.startswith("wrote ") and len(columns) == 1 and "; type at " in columns[0]
    assert re.search(r" in \d+\.\d s$", wrote), wrote  # each output's build time


def test_quiet_prints_nothing_when_all_is_well_and_problems_when_not(tmp_path):
    good = qrs("--quiet", "--sources", str(FIXTURES), "check")
    assert good.returncode == 0 and good.stdout == "" and good.stderr == ""
    created = qrs("--quiet", "--sources", str(tmp_path), "new", "demo", "--game", "Demo", "--lang", "en")
    assert created.returncode == 0 and created.stdout == "" and (tmp_path / "demo.yaml").exists()
    bad = qrs("-q", "--sources", str(BAD), "check", "dice-gap")
    assert bad.returncode == 2 and bad.stdout == ""
    assert "dice-gap.yaml:16:11: D6 can roll 4, which no row covers" in bad.stderr


def test_without_options_the_usual_lines(tmp_path):
    created = qrs("--sources", str(tmp_path), "new", "demo", "--game", "Demo", "--lang", "en")
    assert created.returncode == 0 and created.stdout.startswith("wrote ") and "demo.yaml" in created.stdout
    created = qrs("--json", "--sources", str(tmp_path), "new", "other", "--game", "Demo", "--lang", "en")
    assert events(created.stdout) == [
        {"event": "wrote", "path": str(tmp_path / "other.yaml")},
        {"event": "wrote", "path": str(tmp_path / "figures" / "other-blast.svg")},
    ]


def test_a_progress_line_on_a_terminal_is_erased_before_the_next_line(capsys):
    from generator.report import Reporter

    terminal = Reporter(live=True)
    terminal.progress(3, 13, "wab2.en.pdf", 12.4)
    terminal.say("done")
    out, err = capsys.readouterr()
    assert err == "\r\033[K[3/13 done] building wab2.en.pdf · 12 s\r\033[K" and out == "done\n"
    Reporter(live=False).progress(3, 13, "wab2.en.pdf", 12.4)  # a pipe: no progress line
    Reporter(live=True, json=True).progress(3, 13, "wab2.en.pdf", 12.4)
    assert capsys.readouterr() == ("", "")


def test_every_command_speaks_json(tmp_path):
    """Each line of each command's --json output is one JSON object, and the command's results are in it."""
    old, new = tmp_path / "old" / "every-block.yaml", tmp_path / "new" / "every-block.yaml"
    old.parent.mkdir(), new.parent.mkdir()
    shutil.copy(FIXTURES / "every-block.yaml", old)
    new.write_text(old.read_text(encoding="utf-8").replace("title: ", "title: Nouveau ", 1), encoding="utf-8")
    runs = {
        "list": qrs("--json", "list"),
        "check": qrs("--json", "check", "wab2"),
        "i18n": qrs("--json", "i18n", "status", "wab2"),
        "changelog": qrs("--json", "changelog", "wab2"),
        "diff": qrs("--json", "diff", str(old), str(new)),
    }
    assert {name: run.returncode for name, run in runs.items()} == dict.fromkeys(runs, 0), runs
    found = {name: events(run.stdout) for name, run in runs.items()}
    assert {"sheet": "wab2", "lang": "fr"}.items() <= next(e for e in found["list"] if e["sheet"] == "wab2").items()
    assert {event["event"] for event in found["list"]} == {"sheet", "handout"}
    assert found["check"] == [{"event": "checked", "sheets": 1, "handouts": 0, "problems": 0}]
    assert [(e["event"], e["sheet"], e["lang"]) for e in found["i18n"]] == [
        ("translation", "wab2", "en"),
        ("translation", "ui", "fr"),
    ]
    assert found["i18n"][0]["translated"] > 0
    (changelog,) = found["changelog"]
    assert changelog["event"] == "changelog" and changelog["sheet"] == "wab2" and changelog["editions"]
    *changes, total = found["diff"]
    assert [change["kind"] for change in changes] == ["changed"] and changes[0]["new"].startswith("Nouveau ")
    assert total == {"event": "compared", "changes": 1}


def test_a_new_languages_missing_strings_are_one_line_unless_verbose(tmp_path):
    """Adding a language made `make` print 299 lines (#34): one line a catalogue, the details under --verbose. A
    language in progress is checked and built only when named (#45)."""
    shutil.copytree(LIBRARY, tmp_path / "sources")
    where = ["--sources", str(tmp_path / "sources")]
    assert run_qrs(*where, "i18n", "update", "shadow-war", "--lang", "de").returncode == 0
    short = run_qrs(*where, "check", "shadow-war", "--lang", "de")
    missing = int(short.stderr.splitlines()[-1].split()[0])
    assert short.returncode == 2 and missing > 20, short.stderr
    assert short.stderr.splitlines() == [
        f"sources/shadow-war.yaml: {missing} strings have no 'de' translation in shadow-war.de.po "
        "(run 'qrs i18n update shadow-war --lang de', translate, or build with --allow-fallback; --verbose lists them)",
        f"{missing} problem(s) found",
    ]
    verbose = run_qrs(*where, "--verbose", "check", "shadow-war", "--lang", "de")
    assert verbose.returncode == 2 and len(verbose.stderr.splitlines()) == missing + 1
    assert all(": no 'de' translation of " in line for line in verbose.stderr.splitlines()[:-1])
    unnamed = run_qrs(*where, "check", "shadow-war")
    assert unnamed.returncode == 0, unnamed.stderr
    assert f"'de' is in progress ({missing} string(s) to translate), left out" in unnamed.stdout


def test_a_language_in_progress_is_left_out_of_a_build_that_names_none_and_said(tmp_path):
    """The README's `qrs i18n update wab2 --lang de` broke every later `make` (#45): a build of every language now
    builds the complete ones, names the one in progress with its count, and exits 0; naming it still fails."""
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "mini.yaml").write_text(
        source_head("mini") + "sections:\n  - id: s\n    title: Section\n    blocks:\n"
        "      - id: b\n        type: text\n        title: Titre\n"
        "        content:\n          - p: Un paragraphe.\n",
        encoding="utf-8",
    )
    where = ["--sources", str(sources), "--build-dir", str(tmp_path / "build")]
    assert run_qrs(*where, "i18n", "update", "mini", "--lang", "de").returncode == 0
    built = run_qrs(*where, "build", "--all")
    assert built.returncode == 0, built.stderr
    assert "'de' is in progress (" in built.stdout and "--lang de --allow-fallback" in built.stdout
    assert (tmp_path / "build" / "mini.fr.pdf").is_file() and not (tmp_path / "build" / "mini.de.pdf").exists()
    named = run_qrs(*where, "build", "mini", "--lang", "de")
    assert named.returncode == 2 and "no 'de' translation" in named.stderr
    english = run_qrs(*where, "build", "--all", "--lang", "en")
    assert english.returncode == 0 and "mini: no 'en' catalogue" in english.stdout, english.stderr


def test_every_output_in_a_language_none_has_leaves_out_sheets_and_handouts_alike(tmp_path):
    """`build --all --lang de` over a library without German (#45 item 2): each sheet and each handout is left out and
    said, with the command that starts the catalogue, and the build exits 0; a handout named in it still fails."""
    shutil.copytree(LIBRARY, tmp_path / "sources")
    where = ["--sources", str(tmp_path / "sources"), "--build-dir", str(tmp_path / "build")]
    everything = run_qrs(*where, "build", "--all", "--lang", "de")
    assert everything.returncode == 0, everything.stderr
    assert (
        "warhammer-dwarfs: its sheet warhammer has no 'de' catalogue" in everything.stdout
        and "'qrs i18n update warhammer --lang de' starts one" in everything.stdout
    ), everything.stdout
    assert "warhammer: no 'de' catalogue" in everything.stdout and "0 failed" in everything.stdout
    named = run_qrs(*where, "handout", "warhammer-dwarfs", "--lang", "de")
    assert named.returncode == 2 and "no such catalogue" in named.stderr, named.stderr


def test_problems_are_coloured_on_a_terminal_only(capsys, monkeypatch):
    """file:line:column in bold and the count in red on a terminal; nothing under NO_COLOR or in a pipe (#34)."""
    from generator.errors import Problem
    from generator.report import Reporter

    problem = Problem("sources/wab2.yaml", 3, 5, "what was expected")
    monkeypatch.delenv("NO_COLOR", raising=False)
    Reporter(live=True).problems([problem])
    err = capsys.readouterr().err
    assert err == "\033[1msources/wab2.yaml:3:5\033[0m: what was expected\n\033[31m\033[1m1 problem(s) found\033[0m\n"
    Reporter(live=False).problems([problem])
    assert capsys.readouterr().err == "sources/wab2.yaml:3:5: what was expected\n1 problem(s) found\n"
    monkeypatch.setenv("NO_COLOR", "1")
    Reporter(live=True).problems([problem])
    assert capsys.readouterr().err == "sources/wab2.yaml:3:5: what was expected\n1 problem(s) found\n"
    Reporter(live=True).fault("environment", "error: build/x.pdf: Permission denied", {})
    assert capsys.readouterr().err == "error: build/x.pdf: Permission denied\n"


@pytest.mark.parametrize(
    "args",
    [
        ("build", "x\x1b]0;PWNED\x07"),
        ("build", "x\nFORGED.yaml:1:1: a forged problem line"),
        ("import", "ok.md\nFORGED.yaml:1:1: a forged problem line"),
        ("import", "x\x1b]0;T\x07\x1b[2J.md"),
        ("handout", "import", "army\x1b[2J.ros"),
        ("new", "x\x1b[2J", "--game", "G", "--lang", "en"),
    ],
)
def test_no_control_character_of_a_name_reaches_the_terminal_raw(tmp_path, args):
    """Issue #49 item 5: an id or a file name as typed set the terminal's title, cleared the screen or forged a
    problem line: every name is shown with its control characters escaped."""
    from tests.conftest import FIXTURES, run_qrs

    ran = run_qrs("--sources", str(FIXTURES / "sheets"), "--build-dir", str(tmp_path / "build"), *args)
    assert ran.returncode != 0
    printed = ran.stdout + ran.stderr
    assert not [character for character in printed if character in "\x1b\x07"], printed
    assert "\nFORGED.yaml" not in printed and "Traceback" not in printed


def test_paths_are_printed_relative_to_the_library_in_every_line(tmp_path):
    """Problems printed absolute paths, `wrote` lines relative ones (#45): both are relative to the library (the
    folder holding sources/), wherever the command is run from; --json keeps them absolute."""
    library = tmp_path / "my-library"
    (library / "sources").mkdir(parents=True)
    shutil.copy(BAD / "dice-gap.yaml", library / "sources")
    for number, cwd in enumerate((tmp_path, library, library / "sources")):
        where = ["--sources", str(library / "sources"), "--build-dir", str(library / "build")]
        checked = run_qrs(*where, "check", cwd=cwd)
        assert (
            checked.returncode == 2
            and checked.stderr.splitlines()[0] == "sources/dice-gap.yaml:16:11: D6 can roll 4, which no row covers"
        ), (cwd, checked.stderr)
        made = run_qrs(*where, "new", f"game-{number}", "--game", "G", "--lang", "en", cwd=cwd)
        assert made.returncode == 0 and made.stdout.splitlines()[0] == f"wrote sources/game-{number}.yaml", made
    as_json = run_qrs("--json", "--sources", str(library / "sources"), "check", "dice-gap", cwd=tmp_path)
    assert events(as_json.stdout)[0]["file"] == str(library / "sources" / "dice-gap.yaml")
