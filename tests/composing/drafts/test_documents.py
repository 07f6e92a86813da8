"""Each fixture document, in the forms its authors use (Markdown with raw HTML and comments, a Word file without
heading styles, an HTML page of captions, spans and a 16-column table), imports with nothing but --id into a draft
that `qrs check` accepts and `qrs build` prints, its tables typed and its cells kept."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_qrs

FIXTURES = ROOT / "tests" / "fixtures" / "imports"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "sources").mkdir()
    return tmp_path


def imported(folder, name: str, ident: str) -> str:
    shutil.copy(FIXTURES / name, folder / name)
    ran = run_qrs("import", name, "--id", ident, cwd=folder)
    assert ran.returncode == 0, ran.stderr
    assert run_qrs("check", ident, cwd=folder).returncode == 0
    built = run_qrs("build", ident, cwd=folder)
    assert built.returncode == 0 and (folder / "build" / f"{ident}.en.pdf").exists(), built.stderr
    draft = (folder / "sources" / f"{ident}.yaml").read_text(encoding="utf-8")
    assert "pages:" not in draft  # the page engine chooses how many
    return draft + ran.stdout


# Every document of another author among the fixtures (tests/fixtures/imports/README.md), in the five forms; not
# the twins the project made of them (make_*.py)
OTHER_AUTHORS = [
    "bme-action-points.md",
    "bme-action-points.pdf",
    "bme-bare-text.docx",
    "bme-critical-tables.pdf",
    "bme-systems.md",
    "cairn-character-creation.md",
    "cairn-srd.html",
    "d666-magic.md",
    "d666-optional-rules.md",
    "little-wars.txt",
    "mdsrd5-licensing.md",
    "mdsrd5-magic-items.md",
    "mdsrd5-magic-items.pdf",
    "ose-fr-creer-un-donjon.md",
    "ose-fr-open-game-license.md",
    "ose-fr-rencontres-des-donjons.md",
    "ose-fr-rencontres.md",
    "ose-fr-tableaux-de-combat.md",
]


@pytest.mark.parametrize("name", OTHER_AUTHORS)
def test_every_document_of_another_author_imports_checks_and_builds_unedited(tmp_path, name):
    """Issue #44's "Done when": each import exits 0 and its draft checks and builds with no edit, run as a user
    runs the commands (the sources folder given, the document outside it)."""
    sources, ident = tmp_path / "sources", re.sub(r"\W+", "-", Path(name).stem)
    sources.mkdir()
    shutil.copy(FIXTURES / name, tmp_path / name)
    ran = run_qrs("--sources", str(sources), "import", name, "--id", ident, cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    checked = run_qrs("--sources", str(sources), "check", ident, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = run_qrs("--sources", str(sources), "build", ident, cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert list((tmp_path / "build").glob(f"{ident}.*.pdf")), built.stdout  # in the language the import guessed


def test_french_combat_tables_set_their_matrix_under_the_first_columns_text_each_key_on_one_line(tmp_path):
    """OSE's French combat tables (OGL), imported: a matrix of 13 columns keyed "20 [−1]" … "5 [+14]". Its corner
    shrunk to fit the column, every key wrapped (each row two lines tall), and the matrix went to the second column,
    the only page's first column left 30 % full beside two full ones (a lopsided last page)."""
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copy(FIXTURES / "ose-fr-tableaux-de-combat.md", tmp_path)
    assert (
        run_qrs(
            "--sources", str(sources), "import", "ose-fr-tableaux-de-combat.md", "--id", "combat", cwd=tmp_path
        ).returncode
        == 0
    )
    ran = run_qrs("--json", "--sources", str(sources), "--build-dir", str(tmp_path / "build"), "build", "combat")
    assert ran.returncode == 0, ran.stderr
    (wrote,) = [event for event in map(json.loads, ran.stdout.splitlines()) if event["event"] == "wrote"]
    (page,) = wrote["layout"]["pages"]
    matrix = "matrice-de-valeurs-dattaque-par-le-tac0"
    assert matrix in page[0]["blocks"] and page[0]["used"] >= 0.6, page
    assert max(column["used"] for column in page[1:]) - page[0]["used"] <= 0.25, page  # none far below a later one
    built = run_qrs(
        "--sources", str(sources), "--build-dir", str(tmp_path / "build"), "build", "combat", "--format", "html"
    )
    assert built.returncode == 0
    assert 'class="data matrix short-keys"' in (tmp_path / "build" / "html" / "combat.fr.html").read_text()


def test_markdown_with_raw_html_and_comments(folder):
    draft = imported(folder, "panels.md", "panels")
    assert 'die: "2D6"' in draft and "Graze: -1 to the target's next roll" in draft
    assert "<!--" not in draft.split("panels.md (markdown)")[0] and "left out by the reader" in draft


def test_a_word_file_without_heading_styles_with_hyperlinks_and_lists(folder):
    draft = imported(folder, "rulebook.docx", "rulebook")
    assert re.search(r'- \["Short bow", "16\\"", "3", "Move or fire"\]', draft)
    assert 'title: "The Turn"' in draft and 'type: "sequence"' in draft
    assert 'term: "Sprint"' in draft


def test_a_real_word_file_with_unstyled_numbered_chapters_and_tables_typed_with_tabs(folder):
    """Bare Metal Edition's Word text (CC BY 4.0, cut): 5 sections instead of 3 (its unstyled chapters "6.0
    Professions" and "7.0 Skills" were paragraphs of "5.0 Culture"), each culture a group, its skills a table."""
    draft = imported(folder, "bme-bare-text.docx", "bare-metal")
    sections = re.findall(r'^  - id: "[^"]+"\n    title: "([^"]+)"', draft, re.M)
    assert sections == ["Glossary", "The Bare Metal Universe", "5.0 Culture", "6.0 Professions", "7.0 Skills"]
    assert '- ["Driving", "2 ranks"]' in draft and 'group: "5-1-cosmopolitan"' in draft
    assert "Driving 2 ranks" not in draft and 'term: "Action Point (AP)"' in draft
    terms = re.findall(r'^ +- term: "([^"]+)"$', draft, re.M)
    skills = [term for term in terms if re.search(r"\[(?:[A-Z][a-z],|varies)", term)]  # its stats in brackets
    assert len(skills) == 8 and skills[0].startswith("Move In Armor CE"), skills


@pytest.mark.parametrize("name", ["bme-action-points.md", "bme-action-points.pdf"])
def test_two_tables_side_by_side_in_one_come_in_as_two_tables(folder, name):
    """Bare Metal Edition's AP costs (CC BY 4.0): "|Action|AP| |Action|AP|" in Markdown, printed to PDF: one table
    of five (Markdown) or four (PDF) columns before, two tables of two columns now, each with its header."""
    draft = imported(folder, name, "ap-costs")
    tables = re.findall(
        r'type: "table"\n        columns:\n((?:          - title: "[^"]*"\n)+)        rows:\n'
        r"((?:          - \[.*\]\n)+)",
        draft,
    )
    assert [columns.count("title:") for columns, _ in tables] == [2, 2]
    assert all('title: "Action"' in columns and 'title: "AP"' in columns for columns, _ in tables)
    assert '- ["Cast Psion/Meditation/Gift", "3"]' in tables[0][1] and '- ["Concentration", "2"]' in tables[1][1]
    assert '- ["Stalk/Hide Test", "1"]' in tables[1][1]


def test_an_html_page_with_captions_spans_and_a_table_of_sixteen_columns(folder):
    draft = imported(folder, "charts.html", "charts")
    assert 'row_title: "Attacker\'s WS"' in draft and 'column_title: "Defender\'s WS"' in draft
    assert 'title: "Critical hits"' in draft
    for cell in ("Ogre bodyguard", "80 gc", "30 gc", "+25", "Dec"):
        assert draft.count(f'"{cell}"') >= 1, cell
    parts = re.findall(r'title: "Hired swords by month of the campaign \((\d)/(\d)\)"', draft)
    assert len(parts) >= 2 and draft.count('"Ogre bodyguard"') == len(parts)  # the key column in every part


def test_each_problem_of_a_draft_is_printed_once(tmp_path):
    """Issue #49 item 7: the report listed a draft's problem, then the command reported it again."""
    (tmp_path / "sources").mkdir()
    document = tmp_path / "notes.md"
    document.write_text("# Notes\n\nRoll the die \U00013000 twice.\n", encoding="utf-8")
    ran = run_qrs("--sources", str(tmp_path / "sources"), "import", str(document), "--id", "notes")
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    printed = ran.stdout + ran.stderr
    assert printed.count("(U+13000) in none of the sheet's fonts") == 1, printed


def test_an_import_whose_lang_differs_from_the_documents_words_warns(folder):
    """An English document imported with --lang fr was accepted silently (#45): the draft still says what --lang
    gives, with a warning naming the language its words read as; the right --lang, or none, warns of nothing."""
    shutil.copy(FIXTURES / "panels.md", folder / "panels.md")
    wrong = run_qrs("import", "panels.md", "--id", "panels", "--lang", "fr", "--dry-run", cwd=folder)
    assert wrong.returncode == 0, wrong.stderr
    warnings = [line for line in wrong.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and "--lang fr, but the document reads as English (" in warnings[0], wrong.stderr
    assert "give --lang en" in warnings[0] and 'lang: "fr"' in wrong.stdout
    for given in (("--lang", "en"), ()):
        right = run_qrs("import", "panels.md", "--id", "panels", *given, "--dry-run", cwd=folder)
        assert right.returncode == 0 and "warning" not in right.stderr, right.stderr
    as_json = run_qrs("--json", "import", "panels.md", "--id", "panels", "--lang", "de", "--dry-run", cwd=folder)
    assert "reads as English" in json.loads(as_json.stdout)["warnings"][0] and "warning" not in as_json.stderr
