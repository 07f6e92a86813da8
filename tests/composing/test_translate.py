"""Translation workflow: catalogues, stale and missing strings, fallback, a third language."""

from __future__ import annotations

import difflib
import io
import json
import re
import shutil
import subprocess

import pytest
from babel.messages.pofile import read_po

from generator.cli.main import main
from generator.composing import catalogue_update
from generator.composing import languages as translations
from generator.composing import translate as i18n
from generator.errors import UserError
from generator.model.validate import validate
from generator.output import pipeline
from generator.reading.sources import load_file
from tests.conftest import FIXTURES, LIBRARY, ROOT, fill_catalogue, run_qrs


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
    fill_catalogue(catalogue_file, translate)


def update(project, lang):
    path = project.sources / "every-block.yaml"
    located = load_file(path)
    return catalogue_update.update(
        located, validate(located), lang, i18n.catalogue_path(project.sources, "every-block", lang)
    )


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
    translations.check_with_translations(project, project.sources / "every-block.yaml")
    output = pipeline.build(project, pipeline.SheetTarget(project.sources / "every-block.yaml"), "en", "pdf").path
    assert output.name == "every-block.en.pdf" and output.stat().st_size > 0


def test_changing_one_french_cell_makes_exactly_that_translation_stale(project, capsys):
    update(project, "en")
    catalogue_file = i18n.catalogue_path(project.sources, "every-block", "en")
    fill(catalogue_file)
    source = project.sources / "every-block.yaml"
    source.write_text(source.read_text().replace("Tir en mouvement", "Tir après un mouvement"))
    with pytest.raises(UserError) as caught:
        translations.check_with_translations(project, source)
    [problem] = caught.value.problems
    assert problem.path == str(catalogue_file) and "stale 'en' translation" in problem.message
    assert "to-hit-modifiers/items/-1/text" in problem.message
    assert read_line(catalogue_file, problem.line) == 'msgid "Tir en mouvement"'

    found = update(project, "en")  # qrs i18n update: the changed string is kept, flagged fuzzy
    assert [entry.context for entry, _ in found.stale] == ["sections/tables/blocks/to-hit-modifiers/items/-1/text"]
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
        pipeline.build(project, pipeline.SheetTarget(source), "en", "pdf")
    output = pipeline.build(
        project, pipeline.SheetTarget(source), "en", "pdf", pipeline.BuildOptions(allow_fallback=True)
    ).path
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
    from generator.composing.words import UI_WORDS  # the templates' words are listed too, in every language (#34)

    ui = {line.split()[1]: line.split()[2:] for line in out.splitlines() if line.startswith("ui ")}
    assert ui == {"de": ["0", "0", str(len(UI_WORDS))], "fr": [str(len(UI_WORDS)), "0", "0"]}


def test_the_status_lists_handouts_and_update_prints_paths_as_builds_do(tmp_path):
    """qrs i18n status left out handouts; qrs i18n update printed absolute paths (#34)."""
    import shutil

    from tests.conftest import LIBRARY, run_qrs

    status = run_qrs("i18n", "status", "warhammer-dwarfs")
    assert status.returncode == 0 and status.stdout.splitlines()[1].split()[:2] == ["warhammer-dwarfs", "en"]
    shutil.copytree(LIBRARY, tmp_path / "sources")
    updated = run_qrs("i18n", "update", "shadow-war", cwd=tmp_path)
    assert updated.returncode == 0 and updated.stdout.startswith("sources/i18n/shadow-war.en.po: "), updated.stdout


def catalogue_text(project, lang="en"):
    return i18n.catalogue_path(project.sources, "every-block", lang).read_text(encoding="utf-8")


def edit(project, *replacements):
    source = project.sources / "every-block.yaml"
    text = source.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new, 1)
    source.write_text(text, encoding="utf-8")


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def test_editing_three_lines_changes_only_their_entries(project):
    update(project, "en")
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    update(project, "en")
    before = catalogue_text(project)
    edit(
        project,
        ("title: Every block type", "title: Every block type\nsubtitle: (a comment above moved every line)"),
        ("Tir en mouvement", "Tir après un mouvement"),
        ("text: Aucun effet.", "text: Aucun effet notable."),
    )
    update(project, "en")
    changed = changed_lines(before, catalogue_text(project))
    # the new subtitle: 4 lines and a blank one; each edited text: its msgid, "#, fuzzy" and the old "#| msgid"
    assert len(changed) == 5 + 2 * 4, "\n".join(changed)
    assert not any(re.search(r"every-block\.yaml:\d", line) for line in catalogue_text(project).splitlines())


def test_a_catalogue_follows_the_order_of_its_source(project):
    update(project, "en")
    entries = [message.id for message in read_po(io.BytesIO(catalogue_text(project).encode())) if message.id]
    source = (project.sources / "every-block.yaml").read_text(encoding="utf-8")
    assert entries.index("Fiascos") < entries.index("Retirer l'unité.") < entries.index("Modificateurs pour toucher")
    assert entries.index("Séquence du tour") > entries.index("Première édition.")  # the changelog comes first
    assert source.index("Première édition.") < source.index("Séquence du tour")


def test_inserting_a_row_leaves_every_translation_where_it_was(project):
    update(project, "en")
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    edit(
        project,
        ("          - [Armure légère, ", '          - [Armure lourde, "5+", "4+"]\n          - [Armure légère, '),
        (
            '          - {value: "+1", text',
            '          - {value: "+2", text: Cible immobile}\n          - {value: "+1", text',
        ),
    )
    found = update(project, "en")
    assert not found.stale
    assert sorted(entry.source for entry in found.missing) == ["Armure lourde", "Cible immobile"]
    with pytest.raises(UserError) as caught:
        translations.check_with_translations(project, project.sources / "every-block.yaml")
    assert len(caught.value.problems) == 2


def test_a_translation_follows_its_string_when_the_text_keying_its_row_changes(project):
    update(project, "en")
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    edit(project, ("[Armure légère, ", "[Armure de cuir, "))
    found = update(project, "en")
    [(entry, message)] = found.stale
    assert entry.source == "Armure de cuir" and message.string == "EN Armure légère" and not found.missing


def test_a_change_scoped_to_one_language_is_not_offered_to_others(project):
    edit(project, ("{kind: layout, text: Première édition.}", "{kind: typo, lang: fr, text: Accents corrigés.}"))
    update(project, "en")
    ids = [message.id for message in read_po(io.BytesIO(catalogue_text(project).encode())) if message.id]
    assert "Accents corrigés." not in ids and "Séquence du tour : l'ordre des phases précisé." in ids
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    translations.check_with_translations(project, project.sources / "every-block.yaml")  # nothing missing


def test_a_text_translated_once_is_offered_where_it_recurs_for_review(project):
    update(project, "en")
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    edit(
        project,
        (
            "{roll: 4-6, text: Aucun effet.}",
            "{roll: 4-5, text: Aucun effet.}\n                - {roll: 6, text: Rien ne se passe !}",
        ),
    )
    found = update(project, "en")
    [(entry, message)] = [(entry, message) for entry, message in found.stale if entry.source == "Rien ne se passe !"]
    assert message.string == "EN Rien ne se passe !" and message.fuzzy and "rows/6/" in entry.context


def test_markup_and_percentages_are_not_flagged_as_format_strings(project):
    edit(project, ("text: Tir en mouvement", 'text: "Tir en mouvement à 25% : {savage|Sauvages}"'))
    update(project, "en")
    assert "Tir en mouvement à 25% : {savage|Sauvages}" in catalogue_text(project)
    assert not re.search(r"^#,.*(python-format|python-brace-format)", catalogue_text(project), re.MULTILINE)


def shipped_catalogues():
    return sorted([*LIBRARY.glob("**/*.po"), *ROOT.glob("templates/i18n/*.po")])


FORMAT_FLAGS = ("python-format", "python-brace-format")


@pytest.mark.parametrize("catalogue_file", shipped_catalogues(), ids=lambda path: path.name)
def test_shipped_catalogues_pass_babel_checks(catalogue_file):
    text = catalogue_file.read_text(encoding="utf-8")
    declared = {flag for flag in FORMAT_FLAGS if re.search(rf"^#,.*\b{flag}\b", text, re.MULTILINE)}
    if catalogue_file.is_relative_to(LIBRARY):  # sheets' texts hold markup ({cd|CD}), not placeholders
        assert not declared
    catalogue = read_po(io.BytesIO(text.encode()))
    for message in catalogue:  # Babel guesses format flags when it reads: check with those the file declares, as msgfmt
        message.flags -= set(FORMAT_FLAGS) - declared
    assert [(message.id, errors) for message, errors in catalogue.check()] == []


@pytest.mark.parametrize("catalogue_file", shipped_catalogues(), ids=lambda path: path.name)
def test_shipped_catalogues_pass_msgfmt_check(catalogue_file):
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext's msgfmt is not installed (apt-get install gettext); Babel's checks still run")
    result = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(catalogue_file)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_check_reports_missing_strings_and_errors_in_translated_ones_at_once(project, capsys):
    update(project, "en")
    fill(
        i18n.catalogue_path(project.sources, "every-block", "en"),
        lambda m: (
            "" if m.id == "Rien ne se passe !" else "EN {terreur} [^9]" if m.id == "Touche de Force 6." else english(m)
        ),
    )
    arguments = ["--sources", str(project.sources), "check"]
    with pytest.raises(SystemExit) as exit_code:
        main(arguments + ["--lang", "en"])  # named: the whole language is asked for
    errors = capsys.readouterr().err
    assert exit_code.value.code == 2
    assert "no 'en' translation of sections/tables/blocks/miscast/rows/7+/text" in errors
    assert "in the 'en' translation" in errors and "terreur" in errors and "[^9]" in errors
    with pytest.raises(SystemExit) as exit_code:
        main(arguments)  # not named: in progress (a string never translated), what it translates still checked
    ran = capsys.readouterr()
    assert exit_code.value.code == 2 and "no 'en' translation" not in ran.err
    assert "terreur" in ran.err and "[^9]" in ran.err
    with pytest.raises(SystemExit):
        main(arguments + ["--lang", "en", "--allow-fallback"])  # a fallback is allowed; an unknown keyword is not
    errors = capsys.readouterr().err
    assert "no 'en' translation" not in errors and "terreur" in errors
    main(arguments + ["--lang", "fr"])  # the source alone is sound
    assert "no problem found" in capsys.readouterr().out


def test_a_build_with_fallback_says_how_many_strings_fell_back(project, capsys):
    update(project, "en")
    fill(
        i18n.catalogue_path(project.sources, "every-block", "en"),
        lambda m: "" if "Rien" in m.id or "Aucun" in m.id else english(m),
    )
    main(["--sources", str(project.sources), "build", "every-block", "--lang", "en", "--allow-fallback", "--jobs", "1"])
    out = capsys.readouterr().out  # "every-block.en.pdf (type at …) (2 string(s) untranslated…": a short sheet grows
    assert "every-block.en.pdf (" in out and "(2 string(s) untranslated" in out
    main(
        [
            "--sources",
            str(project.sources),
            "--json",
            "build",
            "every-block",
            "--lang",
            "en",
            "--allow-fallback",
            "--jobs",
            "1",
            "--rebuild",
        ]
    )
    [event] = [event for event in map(json.loads, capsys.readouterr().out.splitlines()) if event["event"] == "wrote"]
    assert event["untranslated"] == 2


def test_fallback_text_is_marked_with_its_own_language_and_typography(project):
    from generator.rendering import render

    update(project, "en")
    fill(
        i18n.catalogue_path(project.sources, "every-block", "en"),
        lambda m: "" if m.id == "Rien ne se passe !" else english(m),
    )
    sheet = translations.translated(project, project.sources / "every-block.yaml", "en", allow_fallback=True)
    page = render.html(project, sheet, pipeline.BuildOptions(allow_fallback=True))
    assert '<span lang="fr">Rien ne se passe\u202f!</span>' in page  # French spacing, French hyphenation
    assert "EN Retirer l\u2019unité." in page and '<span lang="fr">EN' not in page


def test_names_declared_untranslatable_are_not_offered_and_print_as_they_are(project):
    edit(project, ("credits: Fixture for tests", "credits: Fixture for tests\nuntranslatable: [Test Game, Savage]"))
    update(project, "en")
    ids = [message.id for message in read_po(io.BytesIO(catalogue_text(project).encode())) if message.id]
    assert "Test Game" not in ids and "Savage" not in ids and "Every block type" in ids
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    sheet = translations.translated(project, project.sources / "every-block.yaml", "en")
    assert sheet.game == "Test Game" and sheet.keywords[0].term == "Savage"


def test_an_edited_row_key_is_stale_before_the_catalogue_is_updated(project):
    update(project, "en")
    fill(i18n.catalogue_path(project.sources, "every-block", "en"))
    lines = (project.sources / "every-block.yaml").read_text(encoding="utf-8").splitlines()
    edited = [next(n for n, line in enumerate(lines, 1) if old in line) for old in ("[Armure légère, ", "Tir en mouv")]
    edit(project, ("[Armure légère, ", "[Armure de cuir, "), ("Tir en mouvement", "Tir après un mouvement"))
    with pytest.raises(UserError) as caught:
        translations.check_with_translations(project, project.sources / "every-block.yaml")
    assert sorted(problem.message.split(" (")[0] for problem in caught.value.problems) == [
        f"stale 'en' translation of every-block.yaml:{line}" for line in edited
    ]


# --- catalogues as untrusted input (issue #35) ----------------------------------------------------------


def test_a_catalogue_naming_another_charset_is_refused_by_update_and_left_as_it_is(project):
    """#35, point 1: the header's charset=ISO-8859-1 over UTF-8 bytes decoded the translations into mojibake, which
    `qrs i18n update` wrote back as UTF-8 (exit 0). Catalogues are UTF-8: another charset is refused at its line."""
    update(project, "en")
    catalogue_file = i18n.catalogue_path(project.sources, "every-block", "en")
    fill(catalogue_file)
    text = catalogue_file.read_text(encoding="utf-8")
    assert "charset=utf-8" in text and "é" in text
    catalogue_file.write_text(text.replace("charset=utf-8", "charset=ISO-8859-1"), encoding="utf-8")
    before = catalogue_file.read_bytes()
    line = before.decode().splitlines().index('"Content-Type: text/plain; charset=ISO-8859-1\\n"') + 1
    for command in (["i18n", "update"], ["build", "every-block", "--lang", "en"]):
        ran = run_qrs("--sources", str(project.sources), "--build-dir", str(project.build), *command)
        assert ran.returncode == 2, ran
        assert (
            f"{catalogue_file.relative_to(project.sources.parent)}:{line}:36: the catalogue says charset=ISO-8859-1"
            in ran.stderr
        ), ran.stderr
        assert catalogue_file.read_bytes() == before
    assert not (project.build / "every-block.en.pdf").exists()


def test_a_sparse_catalogue_over_the_limit_is_refused_before_it_is_read(project):
    """#35, point 13: a 3 GB sparse catalogue was read whole (to hash it) before `qrs build` refused it. Its size is
    checked first on every path: this one is 64 times the limit, and the build must not hold a quarter of it."""
    import os
    import tracemalloc

    from generator import files

    catalogue_file = i18n.catalogue_path(project.sources, "every-block", "en")
    catalogue_file.parent.mkdir()
    size = 64 * files.MAX_CATALOGUE_BYTES
    catalogue_file.touch()
    os.truncate(catalogue_file, size)  # sparse: no disk block is written
    tracemalloc.start()
    try:
        ran = run_qrs(
            "--sources", str(project.sources), "--build-dir", str(project.build), "build", "every-block", "--lang", "en"
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert ran.returncode == 2, ran
    assert (
        f"{catalogue_file.relative_to(project.sources.parent)}:1:1: the file is {size} bytes; a catalogue may be at most "
        f"{files.MAX_CATALOGUE_BYTES} bytes"
    ) in ran.stderr
    assert peak < size // 4, f"{peak} bytes held while refusing a catalogue of {size} bytes"


def test_a_catalogue_s_syntax_is_checked_whole_and_each_problem_named_at_its_line(project):
    """#35, point 16: Babel reads a second msgctxt of an entry, a message given twice, a string cut off or an escape it
    does not know without a word (the last context wins, the string loses its last character). Each is a problem at
    the catalogue's line, all at once, for `check` and for a build with --allow-fallback alike."""
    update(project, "en")
    catalogue_file = i18n.catalogue_path(project.sources, "every-block", "en")
    fill(catalogue_file)
    lines = catalogue_file.read_text(encoding="utf-8").split("\n")
    title = lines.index('msgctxt "title"')
    lines[title:title] = ['msgctxt "subtitle"']  # two contexts for one entry
    saves = lines.index('msgid "Sauvegardes"')
    lines[saves + 1] = 'msgstr "Saves \\q"'  # an escape Babel keeps as it is
    lines += ["# a comment ends the entry before it", '"a string outside an entry"']
    lines += ['msgctxt "sections/turn/title"', 'msgid "Séquence du tour"']  # given twice, and no msgstr
    catalogue_file.write_text("\n".join(lines), encoding="utf-8")
    first_turn = lines.index('msgctxt "sections/turn/title"') + 1
    for command in (["check"], ["build", "every-block", "--lang", "en", "--allow-fallback"]):
        ran = run_qrs("--sources", str(project.sources), "--build-dir", str(project.build), *command)
        assert ran.returncode == 2, ran
        shown = catalogue_file.relative_to(project.sources.parent)  # as printed: relative to the library
        reported = [line.removeprefix(f"{shown}:") for line in ran.stderr.splitlines() if line.startswith(str(shown))]
        assert reported == [
            f"{title + 2}:1: unreadable catalogue: a second msgctxt in one entry (the first at line {title + 1}): an entry has one msgctxt",
            f"{saves + 2}:15: unreadable catalogue: unknown escape '\\q': expected \\n, \\t, \\\" or \\\\ (a backslash)",
            f"{len(lines) - 2}:1: unreadable catalogue: a string outside an entry: expected msgctxt, msgid or msgstr followed by "
            "a quoted string, a quoted string continuing one, or a # comment",
            f"{len(lines) - 1}:1: unreadable catalogue: the context 'sections/turn/title' is already given at line "
            f"{first_turn}: a catalogue gives each message once",
            f"{len(lines)}:1: unreadable catalogue: this msgid has no msgstr after it (is the catalogue cut off?)",
        ], ran.stderr
        assert not (project.build / "every-block.en.pdf").exists()


def test_a_link_is_offered_with_its_address_named_and_a_translation_must_keep_the_address(project):
    update(project, "en")
    catalogue_file = i18n.catalogue_path(project.sources, "every-block", "en")
    with catalogue_file.open("rb") as stream:
        (linked,) = [message for message in read_po(stream) if "](" in str(message.id)]
    assert linked.auto_comments == ["Translate each link's text; keep its address: https://example.com/regles"]
    fill(
        catalogue_file,
        lambda message: (
            message.id.replace("[règles](", "[rules](") if message.context == linked.context else english(message)
        ),
    )
    translations.check_with_translations(project, project.sources / "every-block.yaml")  # the text translated: fine

    fill(
        catalogue_file,
        lambda message: (
            message.id.replace("example.com/regles", "example.com/rules")
            if message.context == linked.context
            else english(message)
        ),
    )
    with pytest.raises(UserError) as caught:
        translations.check_with_translations(project, project.sources / "every-block.yaml")
    [problem] = caught.value.problems
    assert problem.path == str(catalogue_file) and read_line(catalogue_file, problem.line).startswith("msgid")
    assert (
        "the links lead to https://example.com/rules; expected the source's, as typed: "
        "https://example.com/regles" in problem.message
    )


def test_an_address_alone_and_a_diagram_without_words_are_not_offered_for_translation():
    assert not i18n.needs_translation("https://example.com/ashen-barrows/terrain")
    assert not i18n.needs_translation("+--+\n|  |\n+--+")
    assert i18n.needs_translation("[Terrain guide](https://example.com/terrain)")
