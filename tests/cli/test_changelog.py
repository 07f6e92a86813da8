"""Typed changelog entries: the printed box lists what changes play, `qrs changelog` lists everything."""

from __future__ import annotations

import json

import pytest
from pypdf import PdfReader

from generator.cli import changelog
from generator.composing import languages as translations
from generator.model.types import PLAYERS_KINDS
from generator.output import pipeline
from generator.project import Project
from tests.conftest import LIBRARY, SHEETS, Ran, run_qrs

MAX_BOX_LINES = 8


def qrs(*args: str) -> Ran:
    return run_qrs("--sources", str(LIBRARY), *args)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("sheet_id", SHEETS)
def test_the_box_lists_only_what_changes_play_in_the_editions_language(sheet_id, lang):
    sheet = translations.translated(Project.at(LIBRARY), LIBRARY / f"{sheet_id}.yaml", lang)
    boxed = sheet.boxed_changes()
    assert boxed and all(change.kind in PLAYERS_KINDS for change in boxed)
    assert all(change.lang in (None, lang) for change in boxed)
    assert len(boxed) <= MAX_BOX_LINES - 1  # and the line counting the rest
    assert all(change.blocks for change in boxed), "a change of play names the blocks it touches"
    others = sheet.other_changes()
    assert all(change.lang in (None, lang) for change in others)


@pytest.mark.parametrize("sheet_id", SHEETS)
def test_the_english_box_prints_no_french_correction(built, sheet_id):
    text = " ".join(page.extract_text() for page in PdfReader(built(LIBRARY, sheet_id, "en")).pages)
    box = text[text.upper().index("ERRATA IN THIS EDITION") :]  # the box closes the sheet
    english = translations.translated(Project.at(LIBRARY), LIBRARY / f"{sheet_id}.yaml", "en")
    french = [
        change
        for edition in pipeline.check(LIBRARY / f"{sheet_id}.yaml").changelog
        for change in edition.changes
        if change.lang == "fr"
    ]
    assert french and not any(change.text[:25] in box for change in french)
    counted = f"Other corrections (spelling, layout): {len(english.other_changes())}, listed in the web edition"
    assert (counted in " ".join(box.split())) == bool(english.other_changes())


def test_qrs_changelog_prints_every_change_by_kind_in_each_format():
    sheet = pipeline.check(LIBRARY / "wab2.yaml")
    text = qrs("changelog", "wab2")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == f"wab2 {sheet.edition} ({sheet.date})"
    edition_2_1 = lines[lines.index("wab2 2.1 (2026-11-21)") :]  # an edition with changes of every kind
    assert [line for line in edition_2_1 if not line.startswith(" ")][1:5] == [
        "Règles",
        "Clarifications",
        "Mise en page",
        "Orthographe et typographie",
    ]
    french = [change for edition in sheet.changelog for change in edition.changes if change.concerns("fr")]
    assert text.stdout.count("\n  - ") == len(french)  # the English-only entries left out
    data = json.loads(qrs("changelog", "wab2", "--format", "json").stdout)
    assert [edition["edition"] for edition in data["editions"]] == [edition.edition for edition in sheet.changelog]
    assert set(data["editions"][[e.edition for e in sheet.changelog].index("2.1")]["changes"]) == set(changelog.KINDS)
    english = qrs("changelog", "wab2", "--lang", "en", "--format", "markdown").stdout
    assert english.startswith(f"## wab2 {sheet.edition} ({sheet.date})\n")
    assert "## wab2 2.1 (2026-11-21)\n### Rules\n- Saves: mounted too" in english
    assert "Orthographe" not in english and "### Spelling" not in english  # every typo fix of wab2 is French
