"""The command line: exit codes, messages, and a check that never loads the renderer."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import FIXTURES, ROOT

BAD = ROOT / "tests" / "bad_inputs"


def qrs(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, cwd=ROOT)


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


def test_unknown_sheet_is_a_user_error():
    result = qrs("--sources", str(FIXTURES), "check", "nope")
    assert result.returncode == 2 and "no sheet named nope" in result.stderr


def test_list_shows_every_sheet():
    result = qrs("list")
    assert result.returncode == 0
    assert {line.split("\t")[0] for line in result.stdout.splitlines()} >= {"wab2", "warhammer", "fpga"}
