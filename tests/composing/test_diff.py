"""Corrected editions: one cell edited and the edition bumped gives the right diff, change bar,
footer and errata-only sheet; earlier editions are read from git."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli.main import main
from generator.composing import diff
from generator.composing import editions as history
from generator.errors import UserError
from generator.output import pipeline
from generator.project import Project
from generator.rendering import render
from tests.conftest import LIBRARY, run_qrs

OLD_ROW = '[Très difficile, "Fosses de liquides toxiques, fissures étroites ou décombres", Quart de déplacement]'
NEW_ROW = '[Très difficile, "Fosses de liquides toxiques, fissures étroites ou décombres", Tiers de déplacement]'
SMALL_OBSTACLE = '          - [Obstacle (petit), "Barrières ou murets d\'une hauteur inférieure à 1\\"", Aucun]\n'


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout


def next_edition(text: str) -> str:
    """One cell corrected, two rows swapped (a move, not a change), the edition bumped with its changelog entry."""
    assert OLD_ROW in text and SMALL_OBSTACLE in text
    text = text.replace(OLD_ROW, NEW_ROW)
    text = text.replace(SMALL_OBSTACLE, "").replace(
        "          - [Infranchissable,", SMALL_OBSTACLE + "          - [Infranchissable,"
    )
    text = text.replace('edition: "1.1"\ndate: 2026-11-21', 'edition: "1.2"\ndate: 2026-12-01', 1)
    return text.replace(
        "changelog:\n",
        'changelog:\n  - edition: "1.2"\n    date: 2026-12-01\n'
        "    changes: [{kind: rules, text: 'Terrain très difficile : tiers de déplacement.', blocks: [terrain]}]\n",
        1,
    )


@pytest.fixture
def repository(tmp_path):
    """A project in git with shadow-war at edition 1.1 committed, then edited to 1.2 in the working tree."""
    sources = tmp_path / "sources"
    (sources / "i18n").mkdir(parents=True)
    shutil.copy(LIBRARY / "shadow-war.yaml", sources)
    shutil.copy(LIBRARY / "i18n" / "shadow-war.en.po", sources / "i18n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "1.1")
    git(tmp_path, "tag", "v1.1")
    source = sources / "shadow-war.yaml"
    source.write_text(next_edition(source.read_text(encoding="utf-8")), encoding="utf-8")
    return Project.at(sources, tmp_path / "build")


def test_one_edited_cell_is_the_one_change_and_a_moved_row_is_none(repository):
    path = repository.sources / "shadow-war.yaml"
    changes = pipeline.compare(history.sheet_at_revision(path, "v1.1"), path)
    assert [str(change) for change in changes] == [
        "changed  Terrain et obstacles, Très difficile, Modificateur: Quart de déplacement → Tiers de déplacement"
    ]


def test_the_diff_command_compares_two_revisions_and_two_files(repository, tmp_path, capsys):
    path = repository.sources / "shadow-war.yaml"
    main(["--sources", str(repository.sources), "diff", "shadow-war", "--from", "v1.1"])  # returns: exit code 0
    printed = capsys.readouterr().out
    assert "Quart de déplacement → Tiers de déplacement" in printed and "1 change(s)" in printed
    old = tmp_path / "old" / "shadow-war.yaml"
    old.parent.mkdir()
    old.write_text(git(tmp_path, "show", "v1.1:sources/shadow-war.yaml"), encoding="utf-8")
    assert [change.kind for change in pipeline.compare(old, path)] == ["changed"]


def test_rows_and_sections_added_or_removed_are_reported_once(repository):
    path = repository.sources / "shadow-war.yaml"
    old = pipeline.check(path)
    sections = old.sections
    trimmed = old.model_copy(update={"sections": sections[1:]})
    terrain = next(block for block in old.blocks() if block.id == "terrain")
    fewer = terrain.model_copy(update={"rows": terrain.rows[:-1]})
    new = trimmed.model_copy(
        update={
            "sections": [
                section.model_copy(
                    update={"blocks": [fewer if block.id == "terrain" else block for block in section.blocks]}
                )
                for section in trimmed.sections
            ]
        }
    )
    changes = [str(change) for change in diff.compare(old, new)]
    assert changes == [f"removed  section {sections[0].title}", "removed  row Terrain et obstacles, Obstacle (moyen)"]


def test_the_changed_row_and_cell_carry_a_change_bar(repository):
    path = repository.sources / "shadow-war.yaml"
    sheet = pipeline.check(path)
    found = diff.marks(history.sheet_at_edition(path, "1.1"), sheet)
    assert found.rows == {("terrain", 2)} and found.cells == {("terrain", 2, 2)}
    html = render.html(repository, sheet, pipeline.BuildOptions(), marks=found)
    assert html.count('class="u changed"') == 1  # the row (a unit the block may be continued after)
    assert html.count('changed">Tiers de déplacement</td>') == 1  # the cell


def pdf_text(path: Path) -> str:
    """The words printed, whatever the line breaks and hyphenation."""
    text = " ".join(page.extract_text() for page in PdfReader(path).pages)
    return " ".join(text.replace("-\n", "").split())


def test_the_marked_build_and_the_errata_only_sheet(repository):
    path = repository.sources / "shadow-war.yaml"
    marked = pipeline.build(
        repository, pipeline.SheetTarget(path), "fr", "pdf", pipeline.BuildOptions(changes_since="1.1")
    ).path
    assert marked.name == "shadow-war.since-1.1.fr.pdf"
    assert "édition 1.2" in pdf_text(marked)
    errata = pipeline.build(
        repository, pipeline.SheetTarget(path), "fr", "pdf", pipeline.BuildOptions(errata_only=True)
    ).path
    assert errata.name == "shadow-war.errata-1.1.fr.pdf"
    text = pdf_text(errata)
    assert "ERRATA DEPUIS L’ÉDITION 1.1" in text and "Terrain très difficile : tiers de déplacement." in text
    assert "Très difficile, Modificateur Quart de déplacement Tiers de déplacement" in text  # where, was, now
    assert "Infranchissable" not in text and "Table des traumatismes" not in text
    assert len(PdfReader(errata).pages) == 1


def test_the_errata_sheet_lists_each_change_with_the_values_it_changed(repository):
    path = repository.sources / "shadow-war.yaml"
    new, old = pipeline.check(path), history.sheet_at_edition(path, "1.1")
    words = {
        "errata_since": "Since {edition}",
        "errata_of": "Edition",
        "errata_where": "Where",
        "errata_before": "Was",
        "errata_now": "Now",
    }
    errata = diff.errata(old, new, "1.1", words)
    [section] = errata.sections
    [table] = section.blocks
    assert section.title == "Since 1.1" and table.title == "Edition 1.2" and errata.changes_box is False
    assert [[cell.text for cell in row.cells] for row in table.rows] == [
        ["**Terrain très difficile : tiers de déplacement.**"],
        ["Terrain et obstacles, Très difficile, Modificateur", "Quart de déplacement", "Tiers de déplacement"],
    ]


def test_a_value_two_changes_name_is_listed_once(repository):
    """Two changes of one edition naming the same row printed its values twice (#34)."""
    path = repository.sources / "shadow-war.yaml"
    new, old = pipeline.check(path), history.sheet_at_edition(path, "1.1")
    first = new.changelog[0].changes[0]
    twice = new.changelog[0].model_copy(update={"changes": [first, first.model_copy(update={"text": "Again."})]})
    new = new.model_copy(update={"changelog": [twice, *new.changelog[1:]]})
    words = {
        "errata_since": "Since {edition}",
        "errata_of": "Edition",
        "errata_where": "Where",
        "errata_before": "Was",
        "errata_now": "Now",
    }
    [table] = diff.errata(old, new, "1.1", words).sections[0].blocks
    assert [[cell.text for cell in row.cells] for row in table.rows] == [
        ["**Terrain très difficile : tiers de déplacement.**"],
        ["Terrain et obstacles, Très difficile, Modificateur", "Quart de déplacement", "Tiers de déplacement"],
        ["**Again.**"],
    ]


def test_changes_since_marks_what_the_changelog_names_even_without_git(tmp_path):
    """On a sheet that was never committed, the rules and clarifications since the edition say what to mark:
    their blocks (a bar along each) and their rows; nothing else, even where the text differs."""
    sources = tmp_path / "sources"
    sources.mkdir()
    text = next_edition((LIBRARY / "shadow-war.yaml").read_text(encoding="utf-8"))
    text = text.replace("blocks: [terrain]}", "blocks: [terrain, tests]}", 1)
    (sources / "shadow-war.yaml").write_text(text, encoding="utf-8")
    sheet = pipeline.check(sources / "shadow-war.yaml")
    found = diff.named_marks(sheet, "1.1")
    assert found.blocks == {"terrain", "tests"} and not found.rows and not found.cells
    project = Project.at(sources, tmp_path / "build")
    html = render.html(project, sheet, pipeline.BuildOptions(), marks=found)
    barred = set(re.findall(r'<section class="block [^"]* changed" id="[^"]*" data-block="([^"]+)"', html))
    assert barred == {"terrain", "tests"}
    marked = pipeline.build(
        project,
        pipeline.SheetTarget(sources / "shadow-war.yaml"),
        "fr",
        "pdf",
        pipeline.BuildOptions(changes_since="1.1"),
    ).path
    assert marked.name == "shadow-war.since-1.1.fr.pdf"
    with pytest.raises(UserError, match="edition 0.9 is not an edition of the changelog"):
        pipeline.build(
            project,
            pipeline.SheetTarget(sources / "shadow-war.yaml"),
            "fr",
            "pdf",
            pipeline.BuildOptions(changes_since="0.9"),
        )
    with pytest.raises(UserError, match="an edition can be compared once it is committed"):
        pipeline.build(
            project,
            pipeline.SheetTarget(sources / "shadow-war.yaml"),
            "fr",
            "pdf",
            pipeline.BuildOptions(errata_only=True),
        )


def _with_row_id(sheet, block_id: str, index: int, row_id: str):
    def block_with_id(block):
        if block.id != block_id:
            return block
        return block.model_copy(
            update={
                "rows": [
                    row.model_copy(update={"id": row_id}) if i == index else row for i, row in enumerate(block.rows)
                ]
            }
        )

    return sheet.model_copy(
        update={
            "sections": [
                section.model_copy(update={"blocks": [block_with_id(block) for block in section.blocks]})
                for section in sheet.sections
            ]
        }
    )


def test_a_named_row_is_marked_alone_with_its_changed_cell(repository):
    path = repository.sources / "shadow-war.yaml"
    sheet = _with_row_id(pipeline.check(path), "terrain", 2, "very-difficult")
    entry = sheet.changelog[0].changes[0].model_copy(update={"blocks": ["terrain/very-difficult"]})
    sheet = sheet.model_copy(
        update={"changelog": [sheet.changelog[0].model_copy(update={"changes": [entry]}), *sheet.changelog[1:]]}
    )
    old = _with_row_id(history.sheet_at_edition(path, "1.1"), "terrain", 2, "very-difficult")
    found = diff.named_marks(sheet, "1.1", old)
    assert found.rows == {("terrain", 2)} and found.cells == {("terrain", 2, 2)} and found.block("terrain") == ""


def test_a_sheet_is_built_as_it_was_at_a_revision(repository):
    outputs = [written.path for written in pipeline.build_at_revision(repository, "shadow-war", "v1.1", "fr")]
    assert [output.name for output in outputs] == ["shadow-war@v1.1.fr.pdf"]
    text = pdf_text(outputs[0])
    assert "édition 1.1" in text and "Quart de déplacement" in text


def test_an_unknown_revision_or_edition_is_a_user_error(repository):
    path = repository.sources / "shadow-war.yaml"
    with pytest.raises(UserError, match="no commit of sources/shadow-war.yaml declares edition 0.9"):
        history.sheet_at_edition(path, "0.9")
    with pytest.raises(UserError, match="not a git revision"):
        history.sheet_at_revision(path, "--output=/tmp/x")
    with pytest.raises(UserError, match="there is no revision 'no-such-tag' in this repository: name a commit"):
        history.sheet_at_revision(path, "no-such-tag")  # not git's own words (#34)


def readme_edition_commands() -> list[list[str]]:
    """The qrs commands of the README's "Corrected editions" section, without the venv path and comments (its
    `git tag` is the repository's that the test makes)."""
    import re
    import shlex

    from tests.conftest import ROOT

    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Corrected editions", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [shlex.split(line, comments=True)[1:] for line in block.splitlines() if line.startswith(".venv/bin/qrs ")]


def test_the_readme_edition_commands_run_on_a_repository_with_a_tagged_edition(tmp_path):
    """The shipped repository has no earlier edition in git: the README's edition commands run on one that has
    two commits, wab2 2.2 tagged v2.2 and a 2.3 that changes the longbow's short-range strength."""
    sources = tmp_path / "sources"
    (sources / "i18n").mkdir(parents=True)
    shutil.copy(LIBRARY / "wab2.yaml", sources)
    shutil.copy(LIBRARY / "i18n" / "wab2.en.po", sources / "i18n")
    author = ("-c", "user.name=t", "-c", "user.email=t@t")
    git(tmp_path, "init", "-q")
    git(tmp_path, *author, "add", ".")
    git(tmp_path, *author, "commit", "-qm", "wab2 2.2")
    git(tmp_path, "tag", "v2.2")
    source = sources / "wab2.yaml"
    text = source.read_text(encoding="utf-8")
    assert text.count('"3 (3)", "(-1)", Grêle') == 1
    text = text.replace('"3 (3)", "(-1)", Grêle', '"3 (4)", "(-1)", Grêle').replace(
        'edition: "2.2"\ndate: 2026-11-23', 'edition: "2.3"\ndate: 2026-12-01', 1
    )
    source.write_text(
        text.replace(
            "changelog:\n",
            'changelog:\n  - edition: "2.3"\n    date: 2026-12-01\n    changes:\n'
            "      - {kind: rules, blocks: [weapons/longbow], text: 'Arc long : F 4 à courte portée.'}\n",
            1,
        ),
        encoding="utf-8",
    )
    with (sources / "i18n" / "wab2.en.po").open("a", encoding="utf-8") as catalogue:
        catalogue.write(
            '\nmsgctxt "changelog/2.3/changes/Arc long : F 4 à courte portée./text"\nmsgid "Arc long : F 4 à courte portée."\n'
            'msgstr "Longbow: S 4 at short range."\n'
        )
    git(tmp_path, *author, "commit", "-qam", "wab2 2.3")
    commands = readme_edition_commands()
    assert [command[:2] for command in commands][:4] == [
        ["diff", "wab2"],
        ["build", "wab2"],
        ["build", "wab2"],
        ["build", "wab2@v2.2"],
    ]
    for command in commands:
        result = run_qrs(*command, cwd=tmp_path)  # run as `qrs`, in the folder of the repository
        assert result.returncode == 0, f"qrs {' '.join(command)}:\n{result.stdout}{result.stderr}"
        if command[0] == "diff":
            assert "Arc long, F: 3 (3) → 3 (4)" in result.stdout
        else:  # every build ends with its summary line, SHEET@REVISION's too (#34)
            assert re.search(
                r"^\d+ output\(s\): \d+ built, \d+ up to date, 0 failed, [\d.]+ s$", result.stdout, re.M
            ), result.stdout
    assert {path.name for path in (tmp_path / "build").glob("*.pdf")} >= {
        "wab2.since-2.2.fr.pdf",
        "wab2.errata-2.2.fr.pdf",
        "wab2@v2.2.fr.pdf",
        "wab2@v2.2.en.pdf",
    }


def test_a_revision_is_never_made_into_a_path(repository, tmp_path, monkeypatch):
    """@^{/../../..} selects the newest commit whose message matches ../../..: it once named the temporary folder
    the earlier sheet was written to, three folders up from it (#35, point 3)."""
    import tempfile

    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "rules of 21/11/26")
    temporary = tmp_path / "a" / "b" / "c"
    temporary.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    sheet = history.sheet_at_revision(repository.sources / "shadow-war.yaml", "@^{/../../..}")
    assert sheet.edition == "1.2"
    assert [str(path.relative_to(tmp_path)) for path in sorted((tmp_path / "a").rglob("*"))] == ["a/b", "a/b/c"]
    outputs = [written.path for written in pipeline.build_at_revision(repository, "shadow-war", "@^{/../../..}", "fr")]
    assert [output.name for output in outputs] == ["shadow-war@----..-..-..-.fr.pdf"]
    assert outputs[0].parent == repository.build


def test_a_blob_too_large_at_a_revision_is_refused_before_it_is_read(repository, tmp_path):
    from generator.files import MAX_SOURCE_BYTES

    path = repository.sources / "shadow-war.yaml"
    path.write_bytes(b"# " + b"x" * MAX_SOURCE_BYTES + b"\n")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "large")
    with pytest.raises(UserError, match=f"at HEAD, the file is {MAX_SOURCE_BYTES + 3} bytes; a source may be at most"):
        history.sheet_at_revision(path, "HEAD")


def test_changes_since_the_current_edition_marks_nothing(repository, tmp_path):
    """The README's commands pasted before any edit compare an edition with itself (#34): no marks, no error."""
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "1.2")
    path = repository.sources / "shadow-war.yaml"
    located, sheet = pipeline.load(path)
    history.check_edition(located, sheet, sheet.edition)  # the edition of the source itself: no error
    marks = diff.named_marks(sheet, sheet.edition, history.sheet_at_edition(path, sheet.edition))
    assert not marks.blocks and not marks.rows and not marks.cells
