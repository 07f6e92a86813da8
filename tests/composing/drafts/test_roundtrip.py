"""Round trips: the five seed texts, the shipped sheets written as Markdown and Word, a sheet of a game qrs does not
ship, and a PDF qrs built, each imported back: the draft checks, and its cells and items return."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from generator.composing.drafts import import_sheet
from generator.model.validate import check
from generator.project import Project
from tests.composing.drafts import sheets
from tests.conftest import LIBRARY, ROOT, run_qrs

SEEDS = sorted((ROOT / "tests" / "fixtures" / "seeds").glob("*.txt"))  # the five hand-made sheets, as extracted
SHIPPED = sorted((LIBRARY).glob("*.yaml"))
UNSEEN = ROOT / "tests" / "fixtures" / "sheets" / "skirmish-one-page.yaml"


@pytest.fixture
def project(tmp_path) -> Project:
    (tmp_path / "sources").mkdir()
    return Project.at(tmp_path / "sources", None)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda path: path.name[:3])
def test_each_seed_text_imports_into_a_source_that_checks(project, seed):
    content, report, written = import_sheet(project, seed, sheet_id="seed")
    assert written == project.sources / "seed.yaml" and not report.problems
    sheet = check(written)
    assert len(list(sheet.blocks())) == len(report.guesses)
    assert {note.origin for note in report.placeholders} >= {"edition", "date"}


def _words(text: str) -> Counter:
    return Counter(word.casefold() for word in re.findall(r"[^\W\d_]{2,}", text))


@pytest.mark.parametrize("seed", SEEDS, ids=lambda path: path.name[:3])
def test_nothing_of_a_seed_is_lost_every_word_is_in_the_draft_as_often(seed):
    content = import_sheet(Project.at(LIBRARY, None), seed, sheet_id="x", dry_run=True)[0]
    strings = " ".join(json.loads(f'"{string}"') for string in re.findall(r'"((?:[^"\\]|\\.)*)"', content))
    original = _words(re.sub(r"</?[bi]>", " ", seed.read_text(encoding="utf-8")))
    kept = _words(strings)
    assert not {word: count for word, count in original.items() if kept[word] < count}


def test_the_seeds_tables_are_typed():
    kinds = {}
    for seed in SEEDS:
        report = import_sheet(Project.at(LIBRARY, None), seed, sheet_id="x", dry_run=True)[1]
        kinds[seed.name[:3]] = {guess.type for guess in report.guesses}
    assert {"dice", "modifiers", "sequence"} <= kinds["000"]
    assert {"dice", "matrix", "modifiers"} <= kinds["003"]
    assert {"dice", "matrix", "modifiers", "sequence"} <= kinds["004"]


def _round_trip(project, source: Path, kind: str):
    sheet = check(source)
    original = project.sources.parent / f"sheet.{kind}"
    if kind == "md":
        original.write_text(sheets.markdown(sheet), encoding="utf-8")
    elif kind == "html":  # the Markdown as a wiki would serve it
        from markdown_it import MarkdownIt

        page = MarkdownIt("commonmark").enable("table").render(sheets.markdown(sheet))
        original.write_text(
            f"<!DOCTYPE html><html><head><title>x</title></head><body>{page}</body></html>", encoding="utf-8"
        )
    else:
        original.write_bytes(sheets.docx(sheet))
    content, report, written = import_sheet(project, original, sheet_id="back", game=sheet.game, lang=sheet.lang)
    assert not report.problems and written is not None
    check(written)
    got, total, missing = sheets.returned(sheets.facts(sheet), content)
    return got, total, missing, report


@pytest.mark.parametrize("kind", ["md", "docx", "html"])
@pytest.mark.parametrize(
    "source",
    [*SHIPPED, *sorted((ROOT / "tests" / "fixtures" / "sheets").glob("*.yaml"))],
    ids=lambda path: path.stem if isinstance(path, Path) else path,
)
def test_a_sheet_written_as_markdown_or_word_returns_with_its_cells_and_items(project, source, kind):
    got, total, missing, report = _round_trip(project, source, kind)
    assert got >= 0.95 * total, missing
    sheet = check(source)
    # a matrix whose cells carry footnote marks ("R (*)" as written) comes back a matrix, its notes from below it
    expected = {block.type for block in sheet.blocks()} & {"dice", "modifiers", "matrix", "sequence"}
    assert expected <= {guess.type for guess in report.guesses}


def test_the_unseen_sheet_keeps_every_dice_table_and_modifier_list(project):
    got, total, _, report = _round_trip(project, UNSEEN, "md")
    sheet = check(UNSEEN)
    typed = [guess.type for guess in report.guesses]
    for kind in ("dice", "modifiers"):
        assert typed.count(kind) >= sum(1 for block in sheet.blocks() if block.type == kind)


@pytest.fixture(scope="session")
def unseen_pdf(tmp_path_factory) -> Path:
    """The sheet of a game qrs does not ship, built once for the session: the first of the two PDFs these tests build."""
    folder = tmp_path_factory.mktemp("unseen")
    (folder / "sources").mkdir()
    shutil.copy(UNSEEN, folder / "sources" / UNSEEN.name)
    ran = run_qrs("build", UNSEEN.stem, "--jobs", "1", cwd=folder)
    assert ran.returncode == 0, ran.stderr
    return folder / "build" / f"{UNSEEN.stem}.en.pdf"


def _pdf_returns(project, pdf: Path, original: Path):
    """The PDF imported back: its draft checks, holds 95 % of the original's cells and items, and types every
    dice table, modifier list, matrix and sequence as the original did. The import's report."""
    sheet = check(original)
    content, report, written = import_sheet(project, pdf, sheet_id="back")
    assert written is not None and not report.problems
    check(written)
    got, total, missing = sheets.returned(sheets.facts(sheet), content)
    assert got >= 0.95 * total, missing
    _typed_as_the_original(sheet, report)
    return report


def _typed_as_the_original(sheet, report) -> None:
    """Every dice table, modifier list, matrix and sequence of the original comes back typed so."""
    typed = [guess.type for guess in report.guesses]
    for kind in ("dice", "modifiers", "matrix", "sequence"):
        assert typed.count(kind) >= sum(1 for block in sheet.blocks() if block.type == kind), (kind, typed)


def test_the_pdf_of_a_sheet_of_an_unseen_game_imports_back_builds_and_returns_its_cells(project, unseen_pdf):
    report = _pdf_returns(project, unseen_pdf, UNSEEN)  # 110 of 111 cells and items when written
    assert any("(cont.)" in note.text for note in report.dropped)  # the continued headings the layout repeated
    ran = run_qrs("build", "back", "--jobs", "1", cwd=project.sources.parent)  # the second PDF built here
    assert ran.returncode == 0, ran.stderr
    assert (project.sources.parent / "build" / "back.en.pdf").exists()


def test_a_shipped_sheets_pdf_imports_back_with_its_cells_and_its_block_types(project, built):
    """The fixture library's French Shadow War sheet, built once for the session's tests (tests/test_pipeline.py
    builds it too): its unruled matrices of centred figures come back as matrices."""
    shipped = built(LIBRARY, "shadow-war", "fr")
    _pdf_returns(project, shipped, LIBRARY / "shadow-war.yaml")  # 117 of 122 when written


@pytest.mark.parametrize("kind", ["md", "docx", "html"])
def test_matrices_whose_cells_carry_marks_return_as_matrices_with_their_notes(project, kind):
    source = ROOT / "tests" / "fixtures" / "sheets" / "ancients-notes.yaml"
    _, _, _, report = _round_trip(project, source, kind)
    marked = [guess for guess in report.guesses if guess.type == "matrix"]
    assert len(marked) == 2 and all("marks (*, **, ***) footnotes" in guess.why for guess in marked)
    written = (project.sources / "back.yaml").read_text(encoding="utf-8")
    assert 'text: "Halve the result against elephants."' in written.split("sections:")[0]
