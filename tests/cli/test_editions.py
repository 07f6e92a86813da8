"""The editions commands on a sheet without an edition (issue #32): each says what it needs, exit 2 and no
traceback; the commands that need no edition (list, diff, SHEET@REV, i18n update) work."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import FIXTURES, run_qrs

WHERE = "undated-card.yaml:4:1: "  # the sheet's first field (the comments above it aside)


@pytest.fixture
def sources(tmp_path):
    """A git repository whose sources/ holds the undated card, committed."""
    folder = tmp_path / "sources"
    folder.mkdir()
    shutil.copy(FIXTURES / "undated-card.yaml", folder)
    for args in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "card"]):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    return folder


def qrs(sources, *args: str):
    return run_qrs("--sources", str(sources), "--build-dir", str(sources.parent / "build"), *args)


@pytest.mark.parametrize(
    "command, named",
    [
        (["changelog", "undated-card"], "qrs changelog"),
        (["changelog", "undated-card", "--format", "json"], "qrs changelog"),
        (["build", "undated-card", "--changes-since", "1.0"], "--changes-since"),
        (["build", "undated-card", "--errata-only"], "--errata-only"),
        (["build", "undated-card", "--errata-only", "--format", "html"], "--errata-only"),
    ],
)
def test_an_editions_command_on_a_sheet_without_an_edition_says_what_it_needs(sources, command, named):
    ran = qrs(sources, *command)
    assert ran.returncode == 2, ran.stderr
    assert (
        f"{WHERE}{named} works on the sheet's editions, and it has none: give it an edition, a date and a "
        "changelog" in ran.stderr
    )
    assert "Traceback" not in ran.stderr and "None" not in ran.stderr


def test_qrs_list_leaves_a_missing_edition_blank(sources):
    ran = qrs(sources, "list")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[1] == "undated-card\tBarrow Crawl\tQuick reference\t\ten"
    listed = qrs(sources, "--json", "list")
    assert '"edition": null' in listed.stdout


def test_a_diff_that_finds_no_change_says_why(sources):
    """The editions tour answered "0 change(s)" on a fresh clone with no word why (#45)."""
    same = qrs(sources, "diff", "undated-card", "--from", "HEAD")
    assert same.returncode == 0 and same.stdout.strip() == (
        "0 change(s): undated-card at HEAD and as the file is now print the same (a tag just made on a fresh clone "
        "is the file as it is: edit the source, or compare with an earlier revision)"
    ), same


def test_diff_and_an_earlier_revision_need_no_edition(sources):
    path = sources / "undated-card.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('[Foot, 4", 8"]', '[Foot, 5", 8"]'), encoding="utf-8")
    diff = qrs(sources, "diff", "undated-card", "--from", "HEAD")
    assert diff.returncode == 0 and diff.stdout.strip().endswith("1 change(s)"), diff.stderr
    built = qrs(sources, "--quiet", "build", "undated-card@HEAD")
    assert built.returncode == 0, built.stderr
    assert (sources.parent / "build" / "undated-card@HEAD.en.pdf").is_file()


def test_an_earlier_revision_tells_its_layout_as_any_build_does(sources):
    """SHEET@REV printed no type scale (#45): its PDF is told as every build tells one, columns and type included."""
    built = qrs(sources, "--verbose", "build", "undated-card@HEAD")
    assert built.returncode == 0, built.stderr
    wrote, columns = built.stdout.splitlines()[:2]
    assert wrote.startswith("wrote ") and wrote.split(" ")[1].endswith("undated-card@HEAD.en.pdf"), built.stdout
    assert columns.startswith("  columns used ") and "; type at " in columns, built.stdout


def test_a_new_catalogue_of_an_undated_sheet_is_dated_on_a_fixed_day(sources):
    ran = qrs(sources, "i18n", "update", "--lang", "fr")
    assert ran.returncode == 0, ran.stderr
    catalogue = (sources / "i18n" / "undated-card.fr.po").read_text(encoding="utf-8")
    assert '"POT-Creation-Date: 1970-01-01 00:00+0000\\n"' in catalogue
    assert '"Project-Id-Version: qrs undated-card -\\n"' in catalogue and "None" not in catalogue
