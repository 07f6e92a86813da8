"""`qrs doctor` (#45): what is installed and what each optional program enables, the library's state as `make`
would find it (stale outputs, languages in progress), and a one-line summary, in a fraction of a second."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from generator.output import installation
from tests.conftest import FIXTURES, ROOT, run_qrs

NEEDED = ["Python", "WeasyPrint", "Pango", "HarfBuzz", "Source Sans Pro", "symbol fonts"]
OPTIONAL = ["HarfBuzz subsetting", "pdftocairo", "msgfmt", "Chromium"]
EVERY_THING = set(NEEDED + OPTIONAL)


def library(tmp_path):
    """A library of one small sheet, in English, never built."""
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copyfile(FIXTURES / "sheets" / "tiny-card.yaml", sources / "tiny-card.yaml")
    return tmp_path


def test_doctor_names_everything_it_looks_for_and_ends_with_its_summary(tmp_path):
    done = run_qrs("doctor", cwd=library(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    named = [line.split(":")[0].strip() for line in lines if line.startswith("  ")][: len(EVERY_THING)]
    assert lines[0] == "needed to build:" and named == NEEDED + OPTIONAL
    assert "qrs export --format svg" in done.stdout  # what pdftocairo enables
    assert lines[-1].startswith("qrs doctor: qrs ") and f"Python {sys.version.split()[0]}" in lines[-1]


def test_a_missing_program_is_named_with_what_it_enables_and_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    done = run_qrs("doctor", cwd=library(tmp_path))
    assert done.returncode == 0, done.stderr  # optional: qrs builds without them
    assert (
        "  pdftocairo: missing: qrs export --format svg (apt-get install poppler-utils; brew install poppler)"
        in done.stdout.splitlines()
    )
    assert "  Chromium: missing: " in done.stdout and "apt-get install gettext" in done.stdout
    assert (
        "missing: " in done.stdout.splitlines()[-1] and "pdftocairo, msgfmt, Chromium" in done.stdout.splitlines()[-1]
    )


def test_without_what_a_build_needs_doctor_exits_69_saying_how_to_install_it(tmp_path, monkeypatch):
    real = installation.package_version
    monkeypatch.setattr(installation, "package_version", lambda name: None if name == "weasyprint" else real(name))
    done = run_qrs("doctor", cwd=library(tmp_path))
    assert done.returncode == 69
    assert "  WeasyPrint: missing: lays out and writes every PDF (make, or pip install .)" in done.stdout.splitlines()


def test_the_library_state_names_stale_outputs_and_languages_in_progress(tmp_path):
    folder = library(tmp_path)
    assert run_qrs("i18n", "update", "tiny-card", "--lang", "fr", cwd=folder).returncode == 0
    done = run_qrs("doctor", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "library (sources/): 1 sheet(s), 0 handout(s), 0 of 2 output(s) up to date" in done.stdout
    assert "  stale: tiny-card.en.pdf, html/tiny-card.en.html ('make'" in done.stdout  # what `make` builds
    [progress] = [line for line in done.stdout.splitlines() if line.startswith("  left out: ")]
    assert "sources/i18n/tiny-card.fr.po: 'fr' is in progress (" in progress


def test_summary_alone_and_json(tmp_path):
    folder = library(tmp_path)
    summary = run_qrs("doctor", "--summary", cwd=folder)
    assert summary.returncode == 0 and len(summary.stdout.splitlines()) == 1, summary.stdout
    assert summary.stdout.startswith("qrs doctor: ") and "0 of 2 output(s) up to date" in summary.stdout
    event = json.loads(run_qrs("--json", "doctor", cwd=folder).stdout)
    assert event["event"] == "doctor" and event["summary"] == summary.stdout.strip()
    assert {item["name"] for item in event["installed"]} == EVERY_THING
    assert event["library"]["stale"] == ["tiny-card.en.pdf", "html/tiny-card.en.html"]


def test_outside_a_library_doctor_says_so_and_still_reports_the_installation(tmp_path):
    done = run_qrs("doctor", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "library: no library here: " in done.stdout and "'qrs init DIR' starts one" in done.stdout


def test_doctor_imports_no_weasyprint():
    """What keeps it fast (`make` ends with it), without asserting a time, which a loaded machine would break:
    WeasyPrint, whose import takes most of a second, is never imported (its version comes from its metadata, Pango's
    and HarfBuzz's from the libraries opened by ctypes), and the library's state is the build's plan, read from its
    manifest and its cache of languages in progress. In a process of its own, as `make` runs it."""
    code = (
        "import sys; from generator.cli.main import main\n"
        "try: main(['--sources', %r, 'doctor', '--summary'])\n"
        "except SystemExit as exit: print('exit', exit.code)\n"
        "print('weasyprint' in sys.modules)" % str(FIXTURES / "library" / "sources")
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    summary, imported = done.stdout.splitlines()
    assert summary.startswith("qrs doctor: ") and imported == "False", done.stdout + done.stderr
