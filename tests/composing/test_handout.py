"""Per-army handouts: what they print, what they leave out, the saves they derive, the errors they name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.composing import handout as handouts
from generator.composing import words
from generator.errors import UserError
from generator.model.types import ArmyChoice, HandoutModel
from generator.output import pipeline
from generator.project import Project
from tests.conftest import LIBRARY

HANDOUTS = sorted((LIBRARY / "handouts").glob("*.yaml"))
ENGLISH_WORDS = dict(words.UI_WORDS)


def composed(name: str):
    project = Project.at(LIBRARY)
    _, handout, _, sheet = pipeline.load_handout(project, LIBRARY / "handouts" / f"{name}.yaml")
    return handout, sheet, handouts.compose(handout, sheet, ENGLISH_WORDS)


def block(sheet, block_id):
    return next(found for found in sheet.blocks() if found.id == block_id)


@pytest.mark.parametrize(
    "sheet_id, armour, expected",
    [
        ("wab2", [], None),
        ("wab2", ["shield"], 6),
        ("wab2", ["large-shield"], 5),
        ("wab2", ["light-armour"], 6),
        ("wab2", ["light-armour", "shield"], 5),
        ("wab2", ["partial-plate", "shield"], 3),  # on foot, partial plate takes the shield bonus
        ("wab2", ["full-plate", "shield"], 3),  # full plate does not
        ("wab2", ["horse"], 6),
        ("wab2", ["horse", "shield"], 5),
        ("wab2", ["light-armour", "shield", "horse"], 4),
        ("wab2", ["heavy-armour", "shield", "horse"], 3),
        ("wab2", ["partial-plate", "shield", "horse"], 3),  # mounted, partial plate takes no shield bonus
        ("wab2", ["full-plate", "horse", "full-metal-barding"], 2),
        ("wab2", ["light-armour", "shield", "horse", "full-padded-barding"], 3),
        ("warhammer", [], None),
        ("warhammer", ["shield"], 6),
        ("warhammer", ["light-armour", "shield"], 5),
        (
            "warhammer",
            ["heavy-armour", "shield", "mounted", "barding"],
            2,
        ),  # 5+ improved by three, but a 1 always fails
    ],
)
def test_a_units_save_is_derived_through_the_sheets_own_table(sheet_id, armour, expected):
    sheet = pipeline.check(LIBRARY / f"{sheet_id}.yaml")
    assert handouts.saves_block(sheet).save(armour) == expected


def test_the_roster_shows_each_units_profile_equipment_and_derived_save():
    _, _, sheet = composed("wab2-english-hundred-years-war")
    roster = block(sheet, "handout-units")
    assert roster.characteristics == ["M", "CC", "CT", "F", "E", "PV", "I", "A", "Cd"]
    saves = {unit.id: unit.save for unit in roster.units}
    assert saves == {
        "mounted-men-at-arms": "3+",
        "dismounted-men-at-arms": "3+",
        "longbowmen": "–",
        "veteran-longbowmen": "6+",
        "hobilars": "5+",
    }
    archers = next(unit for unit in roster.units if unit.id == "veteran-longbowmen")
    assert archers.profile == ["4", "3", "4", "3", "3", "1", "3", "1", "8"]
    assert archers.equipment == "Arc long, Arme de base, Armure légère"  # weapons, then armour
    assert archers.rules == "{elan}"


def test_a_handout_prints_only_the_rows_its_army_uses_with_their_footnotes():
    _, source, sheet = composed("wab2-english-hundred-years-war")
    weapons = block(sheet, "weapons")
    assert [row.id for row in weapons.rows] == ["short-bow", "longbow"]  # the sheet's order
    saves = block(sheet, "saves")
    assert [item.id for item in saves.items] == ["horse", "shield", "light-armour", "heavy-armour", "full-plate"]
    assert [note.id for note in saves.notes] == ["1", "3", "4", "8"]  # not the pavise's, nor the bardings'
    assert len(block(source, "saves").items) > len(saves.items)


def test_special_rules_are_followed_through_definitions_and_printed_once():
    _, _, sheet = composed("irregular-wars-new-spain")
    glossary = block(sheet, "handout-special-rules")
    assert glossary.keywords == ["pious", "native", "archaic-missiles"]  # Native's text names Archaic missiles
    glossaries = [found for found in sheet.blocks() if found.type == "glossary"]
    assert glossaries == [glossary]  # the sheet's own glossary is not repeated


def test_a_keyword_defined_by_a_block_brings_that_block():
    _, _, sheet = composed("wab2-english-hundred-years-war")
    rules = next(section for section in sheet.sections if section.id == "handout-special-rules")
    assert [found.id for found in rules.blocks] == ["handout-special-rules", "stubborn"]
    assert "fear" not in {found.id for found in sheet.blocks()}


def test_a_handout_prints_its_headings_in_the_case_its_sheet_asks_for():
    """Issue #48 item 3: a sheet's heading_case is its handouts' too."""
    project = Project.at(LIBRARY)
    _, handout, _, sheet = pipeline.load_handout(project, HANDOUTS[0])
    assert handouts.compose(handout, sheet, ENGLISH_WORDS).heading_case == "upper"
    as_typed = sheet.model_copy(update={"heading_case": "as-typed"})
    assert handouts.compose(handout, as_typed, ENGLISH_WORDS).heading_case == "as-typed"


def test_sections_are_chosen_by_id_or_left_out():
    handout, source, sheet = composed("warhammer-dwarfs")
    assert handout.exclude == ["magic"]
    printed = [section.id for section in sheet.sections]
    assert [section.id for section in source.sections] == [
        section for section in printed if not section.startswith("handout-")
    ]
    handout, source, sheet = composed("irregular-wars-new-spain")
    assert [section.id for section in sheet.sections if not section.id.startswith("handout-")] == handout.include


def test_an_excluded_section_keeps_the_blocks_named_in_except():
    handout, source, sheet = composed("warhammer-dwarfs")
    assert handout.kept == ["dispel-dice"]
    magic = next(section for section in sheet.sections if section.id == "magic")
    assert [found.id for found in magic.blocks] == ["dispel-dice"]
    assert len(block(source, "dispel-dice").rows) == len(magic.blocks[0].rows)  # the whole table, not cut down
    assert "miscast" not in {found.id for found in sheet.blocks()}


@pytest.mark.parametrize(
    "sheet_id, armour, expected",
    [
        ("wab2", ["heavy-armour"], 0),
        ("wab2", ["heavy-armour", "shield"], 1),  # heavy armour slows only with a shield
        ("wab2", ["heavy-armour", "large-shield", "horse"], 1),
        ("wab2", ["full-plate", "shield"], 1),
        ("wab2", ["full-plate", "horse", "full-metal-barding"], 2),  # penalties add up
        ("wab2", ["light-armour", "shield", "horse", "full-padded-barding"], 0),
        ("warhammer", ["heavy-armour", "shield"], 0),  # a saves table without move penalties
    ],
)
def test_a_units_move_penalty_is_derived_through_the_saves_table(sheet_id, armour, expected):
    sheet = pipeline.check(LIBRARY / f"{sheet_id}.yaml")
    assert handouts.saves_block(sheet).move_penalty(armour) == expected


def test_the_roster_prints_the_move_less_the_armours_penalties_with_a_note():
    _, _, sheet = composed("wab2-english-hundred-years-war")
    roster = block(sheet, "handout-units")
    moves = {unit.id: unit.profile[0] for unit in roster.units}
    assert moves == {
        "mounted-men-at-arms": "7[^1]",
        "dismounted-men-at-arms": "3[^1]",
        "longbowmen": "4",
        "veteran-longbowmen": "4",
        "hobilars": "8",
    }
    assert [(note.id, note.text) for note in roster.notes] == [("1", ENGLISH_WORDS["move_derived"])]


def test_a_two_handed_weapon_gives_a_close_combat_save_without_the_shield():
    _, _, sheet = composed("warhammer-dwarfs")
    roster = block(sheet, "handout-units")
    saves = {unit.id: unit.save for unit in roster.units}
    assert saves["rangers"] == "5+/6+[^1]"  # light armour and shield; the great weapon leaves the shield aside
    assert saves["warriors"] == "4+"  # a shield and no two-handed weapon: one save
    assert [(note.id, note.text) for note in roster.notes] == [("1", ENGLISH_WORDS["saves_split"])]
    _, _, sheet = composed("wab2-english-hundred-years-war")
    saves = {unit.id: unit.save for unit in block(sheet, "handout-units").units}
    assert saves["dismounted-men-at-arms"] == "3+"  # full plate takes no shield bonus: the same save either way


def test_a_printed_move_penalty_that_disagrees_with_the_item_is_an_error(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    wab = sources / "wab2.yaml"
    text = wab.read_text(encoding="utf-8")
    wab.write_text(text.replace('extra: ["Aucune / -1ps[^8]"]', 'extra: ["Aucune / -2ps[^8]"]'), encoding="utf-8")
    with pytest.raises(UserError) as caught:
        pipeline.check(wab)
    [problem] = caught.value.problems
    assert problem.line == text[: text.index("Aucune / -1ps")].count("\n") + 1
    assert problem.message == "the printed move penalty 'Aucune / -2ps[^8]' does not match the item's move (-1)"


def test_move_penalties_must_reduce_one_of_the_sheets_characteristics(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    wab = sources / "wab2.yaml"
    wab.write_text(
        wab.read_text(encoding="utf-8").replace("characteristic: M}", "characteristic: Mv}"), encoding="utf-8"
    )
    with pytest.raises(UserError) as caught:
        pipeline.check(wab)
    [problem] = caught.value.problems
    assert problem.message == "unknown characteristic 'Mv': the sheet's profile is M WS BS S T W I A Ld"


def write_handout(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text("handout: broken\nsheet: wab2\narmy: Test\nlang: fr\ndate: 2026-11-21\n" + body, encoding="utf-8")
    return path


def test_unknown_names_are_errors_naming_file_and_line(tmp_path):
    path = write_handout(
        tmp_path,
        """include: [turn, magic]
units:
  - id: archers
    name: Archers
    profile: {M: "4", WS: "3", BS: "3", S: "3", T: "3", W: "1", I: "3", A: "1", Ld: "7", Sv: "6"}
    weapons: [longbow, arbalest]
    armour: [light-armor]
    rules: [elan, fear]
""",
    )
    with pytest.raises(UserError) as caught:
        pipeline.load_handout(Project.at(LIBRARY), path)
    found = {(problem.line, problem.message.split(":")[0]) for problem in caught.value.problems}
    assert all(problem.path == str(path) for problem in caught.value.problems)
    assert found == {
        (6, "unknown section 'magic'"),
        (10, "unknown characteristic 'Sv'"),
        (11, "unknown weapon 'arbalest'"),
        (12, "unknown armour 'light-armor'"),
        (13, "unknown special rule 'fear'"),
    }
    assert "did you mean 'light-armour'" in " ".join(problem.message for problem in caught.value.problems)


def test_a_missing_characteristic_and_armour_a_troop_cannot_wear_are_errors(tmp_path):
    path = write_handout(
        tmp_path,
        """units:
  - id: knights
    name: Chevaliers
    profile: {M: "8", WS: "4"}
    armour: [horse, pavise]
""",
    )
    with pytest.raises(UserError) as caught:
        pipeline.load_handout(Project.at(LIBRARY), path)
    messages = [(problem.line, problem.message) for problem in caught.value.problems]
    assert (9, "no value for BS, S, T, W, I, A, Ld: the sheet's profile is M WS BS S T W I A Ld") in messages
    assert (10, "'pavise' gives nothing to 'mounted' troops in the saves table 'saves'") in messages
    assert len(messages) == 2


def test_the_handouts_own_weapons_and_kept_blocks_are_checked(tmp_path):
    path = write_handout(
        tmp_path,
        """exclude: [magic]
except: [turn-sequence, saves]
weapons:
  - {id: longbow, name: Arc long}
  - {id: great-weapon, name: Arme lourde, two_handed: true}
units:
  - id: knights
    name: Chevaliers
    profile: {M: "8", WS: "4", BS: "3", S: "3", T: "3", W: "1", I: "3", A: "1", Ld: "8"}
    weapons: [great-weapon, great-weapn]
""",
    )
    with pytest.raises(UserError) as caught:
        pipeline.load_handout(Project.at(LIBRARY), path)
    found = {(problem.line, problem.message.split(":")[0]) for problem in caught.value.problems}
    assert found == {
        (6, "unknown section 'magic'"),
        (7, "'turn-sequence' is not a block of an excluded section"),
        (7, "'saves' is not a block of an excluded section"),
        (9, "'longbow' is already a row of the sheet's tables"),
        (15, "unknown weapon 'great-weapn'"),
    }
    assert "did you mean 'great-weapon'" in " ".join(problem.message for problem in caught.value.problems)


def test_except_needs_exclude(tmp_path):
    path = write_handout(
        tmp_path,
        """include: [turn]
except: [turn-sequence]
units:
  - {id: knights, name: Chevaliers, profile: {M: "8", WS: "4", BS: "3", S: "3", T: "3", W: "1", I: "3", A: "1", Ld: "8"}}
""",
    )
    with pytest.raises(UserError) as caught:
        pipeline.load_handout(Project.at(LIBRARY), path)
    [problem] = caught.value.problems
    assert "except keeps blocks of excluded sections: give it with exclude" in problem.message


@pytest.fixture(scope="module")
def built_handouts(built):
    """Every example handout in every language it lists, built as `qrs handout` builds it (kept while fresh)."""
    outputs = {}
    for path in HANDOUTS:
        _, handout, _, _ = pipeline.load_handout(Project.at(LIBRARY), path)
        for lang in handout.outputs:
            outputs[(path.stem, lang)] = built(LIBRARY, path.stem, lang, handout=True)
    return outputs


def pdf_text(path: Path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(path).pages)


def test_examples_cover_three_games_in_french_and_english(built_handouts):
    games = {pipeline.load_handout(Project.at(LIBRARY), path)[1].sheet for path in HANDOUTS}
    assert {"wab2", "warhammer", "irregular-wars"} <= games
    assert {lang for _, lang in built_handouts} == {"fr", "en"}
    assert all(path.parent.name == "handouts" and path.stat().st_size > 0 for path in built_handouts.values())


def test_every_example_handout_fits_one_page_in_each_language(built_handouts):
    """A handout goes on the table beside the sheet: one page, whatever the language's length."""
    pages = {output: len(PdfReader(path).pages) for output, path in built_handouts.items()}
    assert set(pages.values()) == {1}, pages


@pytest.mark.parametrize(
    "lang, present, absent",
    [
        (
            "fr",
            ["Archers vétérans", "Arc long", "Armure blanche", "Disciplinés"],
            ["Javelot", "Pavois", "Caparaçon", "Peur"],
        ),
        (
            "en",
            ["Veteran longbowmen", "Longbow", "Full plate armour", "Stubborn"],
            ["Javelin", "Pavise", "barding", "Fear"],
        ),
    ],
)
def test_the_printed_wab_handout_omits_what_the_army_does_not_use(built_handouts, lang, present, absent):
    text = pdf_text(built_handouts[("wab2-english-hundred-years-war", lang)])
    for word in present:
        assert word in text
    for word in absent:
        assert word not in text


def test_the_printed_warhammer_handout_keeps_only_the_dispel_dice_of_the_magic_phase(built_handouts):
    for lang, unit, magic, dispel in [
        ("fr", "Tueurs de trolls", "Fiasco", "Dés de Dissipation"),
        ("en", "Troll Slayers", "Miscast", "Dispel dice"),
    ]:
        text = pdf_text(built_handouts[("warhammer-dwarfs", lang)])
        assert unit in text and magic not in text and dispel in text
        assert "5+/6+" in text  # the Rangers' two saves


def test_the_printed_wab_handout_carries_the_rules_its_army_uses_every_turn(built_handouts):
    text = " ".join(pdf_text(built_handouts[("wab2-english-hundred-years-war", "en")]).split())  # a cell's lines joined
    for phrase in [
        "Stand & Shoot",
        "Fire & Flee",
        "Panic",
        "try to rally",
        "Army Standard",
        "Move less the armour",
        "Break test",
        "Save modifier",
    ]:
        assert phrase in text


def test_a_correction_to_the_sheet_reaches_the_handout(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    wab = sources / "wab2.yaml"
    wab.write_text(
        wab.read_text(encoding="utf-8").replace("[Arc long, 30ps (15ps)", "[Arc long, 32ps (16ps)"), encoding="utf-8"
    )
    project = Project.at(sources, tmp_path / "build")
    handout = pipeline.HandoutTarget(sources / "handouts" / "wab2-english-hundred-years-war.yaml")
    path = pipeline.build(project, handout, "fr", "pdf").path
    assert "32ps (16ps)" in pdf_text(path)


def test_a_handouts_fallback_text_is_marked_with_its_language(tmp_path):
    from babel.messages.pofile import read_po, write_po

    from generator.rendering import render

    shutil.copytree(LIBRARY, tmp_path / "sources")
    project = Project.at(tmp_path / "sources")
    catalogue_file = project.handouts / "i18n" / "warhammer-dwarfs.en.po"
    with catalogue_file.open("rb") as stream:
        catalogue = read_po(stream)
    untranslated = next(message for message in catalogue if message.context == "units/thane/name")
    untranslated.string = ""
    with catalogue_file.open("wb") as stream:
        write_po(stream, catalogue)
    handout = pipeline.HandoutTarget(project.handouts / "warhammer-dwarfs.yaml")
    prepared = handout.compose(project, "en", pipeline.BuildOptions(allow_fallback=True))
    sheet, count = prepared.sheet, prepared.untranslated
    page = render.html(project, sheet, pipeline.BuildOptions(allow_fallback=True), count)
    assert count == 1 and f'<span lang="fr">{untranslated.id}</span>' in page


def test_a_handout_keeps_only_the_matrix_rows_and_columns_of_its_army():
    """To-hit rows for the army's Weapon Skills, to-wound rows for its Strengths (profiles, weapons of the sheet's
    table with an S column, and handout weapons that change S), the BS table's columns for its Ballistic Skills."""
    handout, sheet, printed = composed("wab2-english-hundred-years-war")
    profiles = [unit.profile for unit in handout.units]
    assert block(printed, "to-hit").row_keys == sorted({p["WS"] for p in profiles}, key=int) == ["3", "4"]
    assert block(printed, "to-hit").column_keys == block(sheet, "to-hit").column_keys  # the defender's: all of them
    assert block(printed, "to-wound").row_keys == ["3", "5"]  # S 3; +2 with a great weapon or a lance
    assert block(printed, "bs-table").column_keys == ["3", "4"]
    full = block(sheet, "to-wound")
    assert block(printed, "to-wound").grid() == [full.grid()[2], full.grid()[4]]  # the rows' own values


def test_a_units_models_print_each_line_and_their_values_count_in_the_matrices():
    """A unit whose models differ (a champion of another Weapon Skill) prints a row for each under its name, and the
    to-hit matrix keeps the champion's row too."""
    handout, sheet, _ = composed("wab2-english-hundred-years-war")
    unit = handout.units[0]
    champion = {**unit.profile, "WS": "6"}
    assert "6" not in {p["WS"] for p in (each.profile for each in handout.units)}  # no unit has it of its own
    with_models = handout.model_copy(
        update={
            "units": [
                unit.model_copy(
                    update={
                        "models": [
                            HandoutModel(name="Veteran", count=9, profile=unit.profile),
                            HandoutModel(name="Champion", count=1, profile=champion),
                        ]
                    }
                ),
                *handout.units[1:],
            ]
        }
    )
    printed = handouts.compose(with_models, sheet, ENGLISH_WORDS)
    roster = block(printed, "handout-units")
    assert [model.name for model in roster.units[0].models] == ["9 × Veteran", "1 × Champion"]
    assert roster.units[0].name == unit.name  # the models carry the counts
    assert "6" in block(printed, "to-hit").row_keys


def test_the_armys_choices_print_above_its_units_with_what_was_chosen_and_their_rules():
    handout, sheet, _ = composed("wab2-english-hundred-years-war")
    rule = next(rule for unit in handout.units for rule in unit.rules)
    chosen = handout.model_copy(update={"choices": [ArmyChoice(name="Battle Size", value="Skirmish", rules=[rule])]})
    printed = handouts.compose(chosen, sheet, ENGLISH_WORDS)
    army, roster = printed.sections[0].blocks
    assert (army.title, army.content[0].bullets, roster.id) == (
        "Army",
        [f"**Battle Size**: Skirmish — {{{rule}}}"],
        "handout-units",
    )
    unknown = handout.model_copy(update={"choices": [ArmyChoice(name="Battle Size", rules=["no-such-rule"])]})
    assert any("unknown special rule 'no-such-rule'" in message for _, message in handouts.findings(unknown, sheet))


def test_a_handout_brings_the_tables_where_its_rules_act_unless_it_excludes_them(tmp_path):
    """The New Spain force without its explicit Resolve section still gets the Resolve triggers, where its Pious and
    Native rules act; excluding the section leaves them out."""
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    source = sources / "handouts" / "irregular-wars-new-spain.yaml"
    text = source.read_text(encoding="utf-8")
    assert "include: [resolve, turn," in text
    project = Project.at(sources)
    source.write_text(text.replace("include: [resolve, turn,", "include: [turn,"), encoding="utf-8")
    brought = pipeline.HandoutTarget(source).compose(project, "fr").sheet
    rules = next(section for section in brought.sections if section.id == "handout-special-rules")
    assert "resolve-triggers" in [block.id for block in rules.blocks]
    source.write_text(
        text.replace("include: [resolve, turn, shooting, action, melee, initiative]", "exclude: [resolve]"),
        encoding="utf-8",
    )
    excluded = pipeline.HandoutTarget(source).compose(project, "fr").sheet
    assert "resolve-triggers" not in [block.id for block in excluded.blocks()]


def test_a_handout_keeps_the_modifiers_that_concern_its_army(tmp_path):
    """Modifiers marked with what they concern (a keyword, a unit type) are kept only when the army has it; the
    New Spain force has Native units and Cavalry, and no Savage unit."""
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    sheet = sources / "irregular-wars.yaml"
    text = sheet.read_text(encoding="utf-8")
    savage = '{value: "-1", text: "Unité engagée par une unité ayant {Savage}"}'
    assert savage in text and "concerns: [native]" in text
    sheet.write_text(text.replace(savage, savage[:-1] + ", concerns: [savage]}"), encoding="utf-8")
    handout = pipeline.HandoutTarget(sources / "handouts" / "irregular-wars-new-spain.yaml")
    composed = handout.compose(Project.at(sources), "fr").sheet
    texts = [item.text for item in block(composed, "resolve-triggers").items]
    assert "Unité engagée par une unité ayant {Savage}" not in texts
    assert (
        "Unité {Native} engagée par une unité de Cavalerie" in texts
        and len(texts) == len(block(pipeline.check(sheet), "resolve-triggers").items) - 1
    )


def test_the_shipped_sheets_mark_the_modifiers_of_one_unit_type_or_rule(tmp_path):
    """Without its Caballeros the New Spain force is all foot: the Cavalry rows of movement and melee go, the
    Infantry rows stay; without its Native warriors, the Native Resolve trigger goes."""
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    path = sources / "handouts" / "irregular-wars-new-spain.yaml"
    text = path.read_text(encoding="utf-8")
    for unit in ("caballeros", "tlaxcaltec-warriors"):
        start = text.index(f"  - id: {unit}")
        text = text[:start] + text[text.index("  - id:", start + 1) :]
    path.write_text(text, encoding="utf-8")
    composed = pipeline.HandoutTarget(path).compose(Project.at(sources), "fr").sheet
    kept = {
        item.text
        for name in ("movement-modifiers", "melee-modifiers", "resolve-triggers")
        for item in block(composed, name).items
    }
    assert not {text for text in kept if "Cavalerie dans" in text or "unité de Cavalerie dans" in text}
    assert "Infanterie dans terrain accidenté" in kept
    assert not {text for text in kept if "{Native}" in text}
    assert "Tir sur une unité de Cavalerie" in {item.text for item in block(composed, "shooting-modifiers").items}


ALONE = """handout: alone
army: Strike Force
game: A game qrs has no sheet for
lang: en
date: 2026-11-24
as_written: true
characteristics: [{id: M, label: M}, {id: SV, label: SV}]
keywords:
  - {id: leader, term: Leader, text: This model can lead a unit.}
profile_types:
  - {id: ranged, name: Ranged Weapons, characteristics: [Range, A, S]}
  - {id: abilities, name: Abilities, characteristics: [Description]}
units:
  - id: captain
    name: Captain
    points: "80"
    profile: {M: 6", SV: 3+}
    rules: [leader]
    profiles:
      - {type: ranged, name: Bolt pistol, values: [12", "1", "4"]}
      - {type: abilities, name: Rites of Battle, values: ["Once per battle, a Stratagem costs 0CP."]}
  - id: squad
    name: Intercessors
    count: 5
    points: "90"
    profile: {M: 6", SV: 3+}
    profiles:
      - {type: ranged, name: Bolt pistol, values: [12", "1", "4"]}
      - {type: ranged, name: Bolt rifle, values: [24", "2", "4"]}
"""


def test_a_handout_without_a_sheet_prints_its_units_profiles_by_type_and_rules_in_a_glossary(tmp_path):
    path = tmp_path / "alone.yaml"
    path.write_text(ALONE, encoding="utf-8")
    _, handout, sheet_located, sheet = pipeline.load_handout(Project.at(LIBRARY), path)
    assert sheet is None and sheet_located is None
    composed = handouts.compose(handout, None, ENGLISH_WORDS)
    assert [section.id for section in composed.sections] == [
        "handout-units",
        "handout-equipment",
        "handout-special-rules",
    ]
    roster = composed.sections[0].blocks[0]
    assert roster.characteristics == ["M", "SV"]
    assert [(unit.name, unit.points, unit.profile, unit.rules) for unit in roster.units] == [
        ("Captain", "80", ['6"', "3+"], "{leader}"),
        ("5 × Intercessors", "90", ['6"', "3+"], None),
    ]
    ranged = block(composed, "profiles-ranged")
    assert [column.title for column in ranged.header] == ["Ranged Weapons", "Range", "A", "S"]
    assert [[cell.text for cell in row.cells] for row in ranged.rows] == [  # the pistol both carry, once
        ["Bolt pistol", '12"', "1", "4"],
        ["Bolt rifle\n*Carried by Intercessors*", '24"', "2", "4"],  # one unit of two: named
    ]
    rules = composed.sections[2].blocks
    assert [found.id for found in rules] == ["profiles-abilities", "handout-army-rules"]
    assert rules[1].keywords == ["leader"] and composed.keywords == handout.keywords
    assert composed.game == "A game qrs has no sheet for" and composed.title == "Strike Force"


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda text: text.replace('values: [24", "2", "4"]', 'values: [24", "2"]'),
            "2 value(s) for the 3 characteristic(s) of 'Ranged Weapons'",
        ),
        (lambda text: text.replace("rules: [leader]", "rules: [leadr]"), "unknown special rule 'leadr'"),
        (
            lambda text: text.replace("{type: ranged, name: Bolt rifle", "{type: melee, name: Bolt rifle"),
            "unknown profile type 'melee': not one of the handout's profile_types",
        ),
        (
            lambda text: text.replace('profile: {M: 6", SV: 3+}\n    rules', 'profile: {M: 6", Sv: 3+}\n    rules'),
            "unknown characteristic 'Sv'",
        ),
        (
            lambda text: text.replace("as_written: true", "as_written: true\ninclude: [turn]"),
            "include, exclude and except name parts of a sheet: give the sheet, or leave them out",
        ),
        (
            lambda text: text.replace("as_written: true", "as_written: true\nsheet: wab2"),
            "characteristics are the sheet's: give them only to a handout without a sheet",
        ),
        (
            lambda text: text.replace("  - {id: leader, term: Leader", "  - {id: chief, term: Chief"),
            "unknown special rule 'leader'",
        ),
    ],
)
def test_what_a_handout_without_a_sheet_names_must_be_its_own(tmp_path, edit, message):
    path = tmp_path / "alone.yaml"
    path.write_text(edit(ALONE), encoding="utf-8")
    with pytest.raises(UserError) as caught:
        pipeline.load_handout(Project.at(LIBRARY), path)
    assert any(message in problem.message for problem in caught.value.problems), caught.value.problems
