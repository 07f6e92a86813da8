"""The samples of docs/examples/ (#45): each file a documented command takes from its reader ships there, small, and
its README says where it comes from. That each such command runs and prints what its page shows is
tests/test_documented_commands.py's (slow: it runs them in a clone)."""

from __future__ import annotations

import re
import shlex

import pytest

from tests.conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
READER_FILE = re.compile(r"\.(docx|pdf|md|txt|html|ros|rosz)$")  # what `qrs import` and `qrs handout import` read
MOST_BYTES = 200_000
SAMPLES = sorted(path for path in EXAMPLES.iterdir() if path.suffix not in (".md", ".py"))


def imported_files() -> list[tuple[str, str]]:
    """(page, file) for each file a command of a page's shell or console blocks imports."""
    found = []
    for page in PAGES:
        for language, block in FENCE.findall(page.read_text(encoding="utf-8")):
            if language.strip() not in ("sh", "console"):
                continue
            console = language.strip() == "console"
            for line in block.splitlines():
                if console and not line.startswith("$ "):
                    continue  # what a command printed
                words = shlex.split(line.removeprefix("$ "), comments=True)
                if "import" in words:
                    after = words[words.index("import") + 1 :]
                    found += [(page.name, word) for word in after if READER_FILE.search(word)]
    return found


def test_the_samples_are_a_word_file_a_pdf_and_two_rosters():
    assert {path.suffix for path in SAMPLES} == {".docx", ".pdf", ".ros", ".rosz"}, SAMPLES


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_each_sample_is_small_and_its_origin_is_told(sample):
    assert sample.stat().st_size < MOST_BYTES, f"{sample.name}: {sample.stat().st_size} bytes"
    assert f"`{sample.name}`" in (EXAMPLES / "README.md").read_text(encoding="utf-8")


def test_every_file_a_documented_command_imports_is_a_sample_and_every_sample_is_used():
    named = imported_files()
    assert named, "no page imports a file"
    missing = [
        f"{page}: {name}"
        for page, name in named
        if not (ROOT / name).is_file() or not (ROOT / name).resolve().is_relative_to(EXAMPLES)
    ]
    assert not missing, f"files the docs import that docs/examples/ does not ship: {missing}"
    unused = {sample.name for sample in SAMPLES} - {name.rsplit("/", 1)[-1] for _, name in named}
    assert not unused, f"samples no documented command uses: {unused}"
