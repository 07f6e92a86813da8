"""`qrs new`: a source that checks and builds, with one example of every block type; never overwrites."""

from __future__ import annotations

from typing import get_args

import pytest

from generator.cli import scaffold
from generator.model.types import Block
from generator.output import pipeline
from generator.project import Project
from tests.conftest import Ran, run_qrs


def qrs(tmp_path, *args: str) -> Ran:
    return run_qrs("--sources", str(tmp_path / "sources"), "--build-dir", str(tmp_path / "build"), *args)


@pytest.mark.parametrize("lang", scaffold.TEMPLATE_LANGUAGES)
def test_the_scaffold_has_an_example_of_every_block_type(tmp_path, lang):
    model_types = {
        value for kind in get_args(get_args(Block)[0]) for value in get_args(kind.model_fields["type"].annotation)
    }
    assert set(scaffold.block_types()) == model_types
    project = Project.at(tmp_path / "sources")
    path = scaffold.create(project, "demo", "Demo Game", lang)[0]
    sheet = pipeline.check(path)
    covered = {block.type for block in sheet.blocks()}
    assert covered == model_types, (
        f"templates/scaffold/sheet.{lang}.yaml.j2 lacks an example of {sorted(model_types - covered)}"
    )


def test_new_writes_its_examples_in_the_sources_language(tmp_path):
    project = Project.at(tmp_path / "sources")
    french = pipeline.check(scaffold.create(project, "en-francais", "Mon Jeu", "fr")[0])
    english = pipeline.check(scaffold.create(project, "in-english", "My Game", "en")[0])
    assert [section.title for section in french.sections] == [
        "Séquence de tour (p.12)",
        "Tableaux",
        "Armées",
        "Règles",
        "Tarifs",
    ]
    assert [section.title for section in english.sections] == [
        "Turn sequence (p.12)",
        "Tables",
        "Armies",
        "Rules",
        "Price lists",
    ]
    assert (french.title, french.credits) == ("Feuille de référence", "Feuille de référence de Mon Jeu")
    german = pipeline.check(scaffold.create(project, "auf-deutsch", "Mein Spiel", "de")[0])
    assert german.sections[0].title == "Turn sequence (p.12)"  # no German examples: the English ones


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_new_sheet_shows_what_authors_of_other_games_reached_for(tmp_path, lang):
    """Issue #32: a qualified modifier, a matrix's legend, a dice table's alignment, a line break, a heading that
    cites a page, and a comment that shows a matrix's corner; issue #42: sub-headings among the modifiers."""
    (source, *_) = scaffold.create(Project.at(tmp_path / "sources"), "shown", "Shown", lang)
    sheet = pipeline.check(source)
    blocks = {block.type: block for block in reversed(list(sheet.blocks()))}  # the first block of each type
    assert any(blocks["modifiers"].split(item.value)[1] for item in blocks["modifiers"].modifiers)
    assert blocks["modifiers"].subheadings()  # issue #42: sub-heading rows
    assert blocks["matrix"].legend and any(block.type == "dice" and block.align for block in sheet.blocks())
    assert any("\n" in line for entry in blocks["text"].content for line in entry.bullets or [])
    assert "(p.12)" in sheet.sections[0].title and sheet.credits
    assert "corner" in source.read_text(encoding="utf-8")  # the matrix's corner, shown in a comment


def test_the_schema_a_new_source_names_exists_where_it_says(tmp_path):
    """Outside the repository there is no schema folder: qrs new writes it beside the sources folder."""
    written = scaffold.create(Project.at(tmp_path / "sources"), "away", "Away Game", "en")
    first_line = written[0].read_text(encoding="utf-8").splitlines()[0]
    reference = first_line.removeprefix("# yaml-language-server: $schema=")
    assert (written[0].parent / reference).resolve() == (tmp_path / "schema" / "sheet.schema.json")
    assert (tmp_path / "schema" / "sheet.schema.json") in written and (
        tmp_path / "schema" / "sheet.schema.json"
    ).is_file()
    again = scaffold.create(Project.at(tmp_path / "sources"), "again", "Again", "en")
    assert again == [
        tmp_path / "sources" / "again.yaml",  # the schema is up to date: not written again
        tmp_path / "sources" / "figures" / "again-blast.svg",
    ]


def test_new_then_check_and_build(tmp_path):
    created = qrs(tmp_path, "new", "my-game", "--game", "My Game", "--lang", "fr", "--title", "Aide de jeu")
    assert created.returncode == 0, created.stderr
    source = tmp_path / "sources" / "my-game.yaml"
    text = source.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schema/sheet.schema.json\n")
    assert 'title: "Aide de jeu"' in text and "lang: fr" in text
    checked = qrs(tmp_path, "check", "my-game")
    assert checked.returncode == 0, checked.stderr
    built = qrs(tmp_path, "build", "my-game")
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "build" / "my-game.fr.pdf").stat().st_size > 1000


def test_new_draws_the_figure_example_beside_the_source_and_never_overwrites_a_picture(tmp_path):
    assert qrs(tmp_path, "new", "skirmish", "--game", "Skirmish", "--lang", "en").returncode == 0
    picture = tmp_path / "sources" / "figures" / "skirmish-blast.svg"
    sheet = pipeline.check(tmp_path / "sources" / "skirmish.yaml")
    [figure] = [block for block in sheet.blocks() if block.type == "figure"]
    assert (figure.src, figure.width, figure.scale) == ("figures/skirmish-blast.svg", "3in", "true-size")
    assert 'width="76.2mm"' in picture.read_text(encoding="utf-8")  # 3 inches
    (tmp_path / "sources" / "skirmish.yaml").unlink()  # the same drawing again: kept, the source written
    assert qrs(tmp_path, "new", "skirmish", "--game", "Skirmish", "--lang", "fr").returncode == 0
    (tmp_path / "sources" / "skirmish.yaml").unlink()
    picture.write_text("<svg/>", encoding="utf-8")  # the author's own drawing under that name
    refused = qrs(tmp_path, "new", "skirmish", "--game", "Skirmish", "--lang", "en")
    assert refused.returncode == 2 and "skirmish-blast.svg:1:1: this file already exists" in refused.stderr
    assert picture.read_text(encoding="utf-8") == "<svg/>" and not (tmp_path / "sources" / "skirmish.yaml").exists()


def test_new_refuses_to_overwrite(tmp_path):
    assert qrs(tmp_path, "new", "taken", "--game", "G", "--lang", "en").returncode == 0
    source = tmp_path / "sources" / "taken.yaml"
    source.write_text("# mine\n", encoding="utf-8")
    again = qrs(tmp_path, "new", "taken", "--game", "G", "--lang", "en")
    assert again.returncode == 2 and "already exists" in again.stderr
    assert source.read_text(encoding="utf-8") == "# mine\n"


@pytest.mark.parametrize("sheet_id", ["Bad", "bad_id", "bad.id", "../escape", ""])
def test_new_refuses_an_invalid_id(tmp_path, sheet_id):
    result = qrs(tmp_path, "new", sheet_id, "--game", "G", "--lang", "fr")
    assert result.returncode == 2 and "not a valid sheet id" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "sources").exists() or not list((tmp_path / "sources").glob("*.yaml"))


def test_new_refuses_an_unknown_language(tmp_path):
    result = qrs(tmp_path, "new", "g", "--game", "G", "--lang", "zz")
    assert result.returncode == 64 and "'zz'" in result.stderr  # a usage error


def test_game_names_with_markup_characters_are_kept_literally(tmp_path):
    project = Project.at(tmp_path / "sources")
    sheet = pipeline.check(scaffold.create(project, "odd", 'Warhammer 40,000: "Kill Team" *2* {x} [^1]', "en")[0])
    assert sheet.game == 'Warhammer 40,000: "Kill Team" \\*2\\* \\{x\\} \\[^1\\]'


def test_a_sheet_in_a_language_the_templates_lack_gets_its_words_beside_the_sources(tmp_path):
    created = qrs(tmp_path, "new", "mein-spiel", "--game", "Mein Spiel", "--lang", "de")
    assert created.returncode == 0 and "qrs i18n update mein-spiel --lang de" in created.stdout
    updated = qrs(tmp_path, "i18n", "update", "mein-spiel", "--lang", "de")
    assert updated.returncode == 0, updated.stderr
    assert not (tmp_path / "sources" / "i18n" / "mein-spiel.de.po").exists()  # its own language: no catalogue
    words = (tmp_path / "sources" / "i18n" / "ui.de.po").read_text(encoding="utf-8")
    assert 'msgctxt "page"\nmsgid "page"\nmsgstr ""' in words


@pytest.mark.parametrize("lang", scaffold.TEMPLATE_LANGUAGES)
def test_a_new_sheet_shows_headings_as_typed_dice_without_a_header_and_minus_before_a_letter(tmp_path, lang):
    """Issue #48, items 3, 6 and 8: heading_case in a comment that checks once uncommented, roll_title: "" named
    beside the lookup's title, and a -N among the modifiers."""
    (source, *_) = scaffold.create(Project.at(tmp_path / "sources"), "shown", "Shown", lang)
    text = source.read_text(encoding="utf-8")
    assert "\n# heading_case: as-typed " in text and 'roll_title: "")' in text
    assert pipeline.check(source).heading_case == "upper"
    source.write_text(text.replace("\n# heading_case:", "\nheading_case:"), encoding="utf-8")
    sheet = pipeline.check(source)
    assert sheet.heading_case == "as-typed"
    modifiers = next(block for block in sheet.blocks() if block.type == "modifiers")
    assert any("-N" in item.text for item in modifiers.modifiers)


@pytest.mark.parametrize("lang", scaffold.TEMPLATE_LANGUAGES)
def test_a_new_sheet_shows_nested_steps_several_values_a_plain_intro_and_an_optional_title(tmp_path, lang):
    """Issue #48 items 2, 7 and 8: a sequence with a numbering a level, bullets under a step and a separator, its
    intro upright; modifiers with two columns of values; the title said optional in a comment (checked once left
    out)."""
    (source, *_) = scaffold.create(Project.at(tmp_path / "sources"), "shown", "Shown", lang)
    sheet = pipeline.check(source)
    blocks = {block.id: block for block in sheet.blocks()}
    activation, fire = blocks["activation"], blocks["fire-modifiers"]
    assert activation.numbering == ["1", "1"] and activation.separator == ": " and activation.plain("intro")
    assert activation.steps[0].items and activation.steps[1].steps
    assert fire.value_columns == 2 and all(len(item.value) == 2 for item in fire.modifiers)
    text = source.read_text(encoding="utf-8")
    untitled = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("title: "))
    assert untitled != text
    source.write_text(untitled, encoding="utf-8")
    assert pipeline.check(source).title is None


@pytest.mark.parametrize("lang", scaffold.TEMPLATE_LANGUAGES)
def test_a_new_sheet_shows_an_emoji_and_names_symbols_that_print(tmp_path, lang):
    """Issue #48 item 4: the scaffold types an emoji (a white flag, as an emoji keyboard types it), which checks,
    and its comment names symbols and emoji that print through the vendored fonts."""
    from generator.model import glyphs
    from generator.model.types import prose

    path = scaffold.create(Project.at(tmp_path / "sources"), "demo", "Demo Game", lang)[0]
    sheet = pipeline.check(path)
    assert any("\U0001f3f3\ufe0f" in text for _, text in prose(sheet))
    comment = next(line for line in path.read_text(encoding="utf-8").splitlines() if "\U0001f480" in line)
    named = {char for char in comment.split("#", 1)[1] if ord(char) > 0x2000}
    assert len(named) == 6 and all(ord(char) in glyphs.printable_characters() for char in named)
