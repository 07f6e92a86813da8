"""Translation workflow: catalogues, stale and missing strings, fallback, a third language."""

from __future__ import annotations

import re
import shutil

import pytest
from babel.messages.pofile import read_po, write_po

from generator.source import i18n

from generator import pipeline
from generator.cli.main import main
from generator.errors import UserError
from generator.source.load import load_file
from generator.schema.validate import validate
from tests.conftest import FIXTURES


@pytest.fixture
def project(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copy(FIXTURES / "every-block.yaml", sources)
    return pipeline.Project.at(sources, tmp_path / "build")


def english(message):
    """A stand-in English translation: the game's term for keywords, matrix values unchanged."""
    if message.context == "keywords/savage/term":
        return "Savage"
    if re.search(r"/cells/\d+$", message.context):
        return message.id
    return f"EN {message.id}"


def fill(catalogue_file, translate=english):
    """Translate every message of a catalogue (a stand-in translator)."""
    with catalogue_file.open("rb") as stream:
        catalogue = read_po(stream)
    for message in catalogue:
        if message.id:
            message.string = translate(message)
            message.flags.discard("fuzzy")
    with catalogue_file.open("wb") as stream:
        write_po(stream, catalogue)


def update(project, lang):
    path = project.sources / "every-block.yaml"
    located = load_file(path)
    return i18n.update(located, validate(located), lang, i18n.catalogue_path(project.sources, "every-block", lang))


def test_neutral_strings_are_not_offered_for_translation(project):
    update(project, "en")
    with i18n.catalogue_path(project.sources, "every-block", "en").open("rb") as stream:
        ids = {message.id for message in read_po(stream) if message.id}
    assert "Tir en mouvement" in ids and "Séquence du tour" in ids
    assert not ids & {"6+", "+1", "-1", "2D6", "1", "N", "{Savage}"}


def test_contexts_are_stable_ids_not_positions(project):
    update(project, "en")
    with i18n.catalogue_path(project.sources, "every-block", "en").open("rb") as stream:
        contexts = {message.context for message in read_po(stream) if message.id}
    assert "sections/tables/blocks/miscast/rows/3-6/text" in contexts
    assert "sections/tables/blocks/saves/rows/shield/cells/1/text" in contexts
    assert "keywords/savage/text" in contexts


def test_a_complete_translation_builds(project):
    update(project, "en")
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    pipeline.check_with_translations(project, project.sources / "every-block.yaml")
    output = pipeline.build(project, project.sources / "every-block.yaml", "en")
    assert output.name == "every-block.en.pdf" and output.stat().st_size > 0


def test_changing_one_french_cell_makes_exactly_that_translation_stale(project, capsys):
    update(project, "en")
    catalogue_file = i18n.catalogue_path(project.sources, "every-block", "en")
    fill(catalogue_file)
    source = project.sources / "every-block.yaml"
    source.write_text(source.read_text().replace("Tir en mouvement", "Tir après un mouvement"))
    with pytest.raises(UserError) as caught:
        pipeline.check_with_translations(project, source)
    [problem] = caught.value.problems
    assert problem.path == str(catalogue_file) and "stale 'en' translation" in problem.message
    assert "to-hit-modifiers/items/2/text" in problem.message
    assert read_line(catalogue_file, problem.line) == 'msgid "Tir en mouvement"'

    found = update(project, "en")  # qrs i18n update: the changed string is kept, flagged fuzzy
    assert [entry.context for entry, _ in found.stale] == ["sections/tables/blocks/to-hit-modifiers/items/2/text"]
    with pytest.raises(SystemExit) as exit_code:
        main(["--sources", str(project.sources), "check"])
    assert exit_code.value.code == 2
    assert "stale 'en' translation" in capsys.readouterr().err


def read_line(path, number):
    return path.read_text(encoding="utf-8").splitlines()[number - 1]


def test_missing_translation_fails_the_build_unless_fallback_is_allowed(project):
    update(project, "en")
    source = project.sources / "every-block.yaml"
    with pytest.raises(UserError, match="no 'en' translation"):
        pipeline.build(project, source, "en")
    output = pipeline.build(project, source, "en", pipeline.BuildOptions(allow_fallback=True))
    assert output.exists()


def test_a_third_language_needs_no_code_and_reports_its_status(project, capsys):
    update(project, "de")
    catalogue_file = i18n.catalogue_path(project.sources, "every-block", "de")
    fill(catalogue_file, lambda m: f"DE {m.id}" if m.context.startswith("sections/turn") else "")
    main(["--sources", str(project.sources), "i18n", "status"])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("every-block"))
    sheet, lang, translated, stale, missing = row.split()
    assert lang == "de" and int(translated) == 6 and stale == "0" and int(missing) > 20
