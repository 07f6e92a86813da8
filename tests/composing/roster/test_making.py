"""Rosters assembled from BSData's catalogues imported as a player would (no --sheet), and the handouts composed
from them in every language they list: every unit with its count and points, every profile with its
characteristics, every ability and rule name, the army's total; saves that are right or '?', never wrong; nothing
unmatched left unsaid; a roster of another game refused unless forced."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.composing.roster.conftest import CHECKED_IN_EVERY_LANGUAGE as IDS
from tests.conftest import LIBRARY, ROOT, run_qrs
from tests.reading.rosters.test_selections import BSDATA, SHEET_OF_GAME, printed_name


@pytest.fixture
def imported(rosters_imported) -> Path:
    """A copy of the project's sources into which every roster was imported once, without --sheet (conftest.py)."""
    return rosters_imported.sources


def composed(sources: Path, handout_id: str):
    """The handout composed in each language it lists, as qrs handout composes it before rendering."""
    from generator.composing import languages as translations
    from generator.composing import words
    from generator.composing.handout import compose, load_handout
    from generator.project import Project

    project = Project(sources=sources, build=sources.parent / "build", templates=ROOT / "templates")
    located, handout, sheet_located, sheet = load_handout(project, sources / "handouts" / f"{handout_id}.yaml")
    for lang in handout.outputs:
        pair = translations.translated_pair(project, located, handout, sheet_located, sheet, lang, False)
        yield lang, compose(pair[0], pair[1], words.ui_words(project, lang, False))


def flat(text: str) -> str:
    """A text made plain for matching: the typography's dashes and quotes undone, case, accents, punctuation and
    plurals aside."""
    from generator.composing.roster.names import plain

    undone = re.sub("[\u2010-\u2015\u2212]", "-", text).replace("\u2019", "'").replace("\u00ad", "")
    return f" {plain(undone)} "


def printed(sheet) -> str:
    """Everything the composed handout prints, its keywords' terms and texts too, made plain for matching."""
    from generator.model.types import prose

    texts = [text for _, text in prose(sheet)] + [f"{keyword.term} {keyword.text or ''}" for keyword in sheet.keywords]
    return flat(" ".join(re.sub(r"\\(.)", r"\1", text) for text in texts))


def roster_block(sheet):
    """The units' table, under the army's choices."""
    return next(block for block in sheet.sections[0].blocks if block.type == "roster")


def unprintable_named(text: str) -> str:
    """The text as a handout prints it: a character no font of the sheet has by its name."""
    import unicodedata

    from generator.model import glyphs

    printable = glyphs.printable_characters()
    return "".join(
        char if ord(char) in printable or char.isspace() else f"[{unicodedata.name(char, '').lower()}]" for char in text
    )


def facts_of(handout_id: str) -> dict:
    return json.loads((BSDATA / f"{handout_id}.expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("handout_id", IDS)
def test_the_sheet_is_the_one_of_the_rosters_game_or_none(imported, handout_id):
    written = yaml.safe_load((imported / "handouts" / f"{handout_id}.yaml").read_text(encoding="utf-8"))
    assert written.get("sheet") == SHEET_OF_GAME.get(facts_of(handout_id)["game_system_name"])
    assert written["as_written"] is True and written["paper"]["orientation"] == "landscape"


def cost_printed(facts: dict, points_word: str | None) -> str | None:
    """What the points are counted in, as a handout prints it: the roster's own name (EP, PL), or the word for points."""
    name = facts["cost_name"].strip()
    return points_word if name.lower() in ("pts", "points") else name


@pytest.mark.parametrize("handout_id", IDS)
def test_every_unit_prints_with_its_count_points_profiles_abilities_and_rules(imported, handout_id):
    facts = facts_of(handout_id)
    for lang, sheet in composed(imported, handout_id):
        roster = roster_block(sheet)
        wanted = [
            f"{unit['models']} × {printed_name(unit)}"
            if unit["models"] > 1 and not unit.get("model_lines")
            else printed_name(unit)
            for unit in facts["units"]
        ]  # listed models carry their own counts
        assert [re.sub(r"\\(.)", r"\1", unit.name) for unit in roster.units] == wanted, lang
        models = [[re.sub(r"\\(.)", r"\1", model.name) for model in unit.models] for unit in roster.units]
        assert models == [
            [f"{line['count']} × {line['name']}" for line in unit.get("model_lines", [])] for unit in facts["units"]
        ], lang
        assert [unit.points for unit in roster.units] == [f"{unit['points']:g}" for unit in facts["units"]]
        assert roster.points == f"{facts['army_points']:g}" and roster.cost == cost_printed(facts, None)
        army = [block for block in sheet.sections[0].blocks if block.type == "text"]
        said = flat(" ".join(item for block in army for item in block.content[0].bullets))
        for name, value in facts["army_choices"].items():  # above the units, never as units
            assert flat(f"{name}: {value}") in said, (lang, name)
            assert name not in [unit.name for unit in roster.units]
        if lang != "en":
            continue  # in French, what matched the sheet prints in the sheet's French words (Contre-attaque)
        text = printed(sheet)
        for unit in facts["units"]:
            names = [
                profile["name"]
                for profiles in unit["profiles"].values()
                for profile in profiles
                if profile["name"] != unit["stat_line"]["name"]
            ]  # the stat line prints on the unit's row
            names += unit["abilities"] + unit["rules"] + unit["weapons"]
            missing = [name for name in names if flat(name) not in text and flat(name.lstrip("➤⌖⚔ ")) not in text]
            assert not missing, (lang, unit["name"], missing)


@pytest.mark.parametrize("handout_id", IDS)
def test_every_characteristic_of_every_profile_prints(imported, handout_id):
    facts = facts_of(handout_id)
    for lang, sheet in composed(imported, handout_id):
        cells = [
            cell.text for block in sheet.blocks() if block.type == "table" for row in block.rows for cell in row.cells
        ]
        cells += [
            value
            for block in sheet.blocks()
            if block.type == "roster"
            for unit in block.units
            for line in [unit.profile, *(model.profile for model in unit.models)]
            for value in line
        ]
        cells = " | ".join(cells)
        for unit in facts["units"]:
            for profiles in unit["profiles"].values():
                for profile in profiles:
                    for value in profile["values"].values():
                        shown = unprintable_named(value.strip())
                        assert not flat(shown).strip() or flat(shown) in flat(cells) or flat(shown) in printed(sheet), (
                            lang,
                            unit["name"],
                            profile["name"],
                            value,
                        )


@pytest.mark.parametrize("handout_id", IDS)
def test_a_save_prints_as_the_rules_give_it_or_as_unknown_never_wrong(imported, handout_id):
    facts = facts_of(handout_id)
    for lang, sheet in composed(imported, handout_id):
        roster = roster_block(sheet)
        labels = [label.casefold() for label in roster.characteristics]
        for unit, wanted in zip(roster.units, facts["units"]):
            if "sv" in labels or "save" in labels:  # a roster alone: its own save column
                column = labels.index("sv") if "sv" in labels else labels.index("save")
                assert unit.profile[column] == wanted["save"], unit.name
                continue
            save = (unit.save or "").split("[^")[0]
            if wanted["save"] is None:
                assert save in ("", "None", "Aucune", "-"), (lang, unit.name, save)
            else:
                assert save in (wanted["save"], "?"), (lang, unit.name, save, wanted["save_reason"])


def test_dwarf_warriors_in_heavy_armour_with_shields_save_on_4_and_a_thane_in_gromril_never_on_6(imported):
    for lang, sheet in composed(imported, "whfb8-dwarfs"):
        saves = {unit.name: unit.save for unit in roster_block(sheet).units}
        assert saves["Dwarf Warriors"] == "4+", lang  # its 19 warriors and the Veteran are counted on their own rows
        assert saves["Thane"].split("[^")[0] in ("3+", "?") and "6+" not in saves["Thane"], lang
        (note,) = [note.text for note in roster_block(sheet).notes if "Gromril" in note.text]
        said = {"fr": "absent du tableau des sauvegardes de la feuille", "en": "not in the sheet's saves table"}
        assert said[lang] in note, (lang, note)  # the footnote in the handout's language, the roster's names as written


@pytest.mark.parametrize("handout_id", IDS)
def test_what_matches_nothing_is_reported_once_and_printed_as_written(rosters_imported, imported, handout_id):
    reports = rosters_imported.reports
    report = reports[handout_id]
    lines = report.splitlines()
    kinds = [tuple(line.split("'")[:2]) for line in lines[1:] if line.startswith(("equipment '", "rule '"))]
    assert len(kinds) == len(set(kinds))  # each name once, with every unit that has it
    named = [name for _, name in kinds]
    text = {lang: printed(sheet) for lang, sheet in composed(imported, handout_id)}
    for name in named:
        assert all(flat(name) in shown for shown in text.values()), name
    if not yaml.safe_load((imported / "handouts" / f"{handout_id}.yaml").read_text()).get("sheet"):
        assert "no sheet answers to the game" in lines[0]


def test_a_roster_of_another_game_than_the_sheet_is_refused_with_both_names_unless_forced(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    roster = BSDATA / "wh40k-10e-newrecruit.rosz"
    refused = run_qrs("--sources", str(sources), "handout", "import", str(roster), "--sheet", "warhammer")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert (
        "the roster is for the game 'Warhammer 40,000 10th Edition', the sheet 'warhammer' for 'Warhammer'"
        in refused.stderr
    )
    assert not (sources / "handouts" / "wh40k-10e-newrecruit.yaml").exists()
    forced = run_qrs("--sources", str(sources), "handout", "import", str(roster), "--sheet", "warhammer", "--force")
    assert forced.returncode == 0, forced.stderr
    assert yaml.safe_load((sources / "handouts" / "wh40k-10e-newrecruit.yaml").read_text())["sheet"] == "warhammer"


@pytest.fixture
def built(rosters_imported) -> Path:
    """Every imported handout built, in every language it lists (conftest.py)."""
    return rosters_imported.handouts


def pdf_pages(path: Path) -> list[str]:
    import pypdf

    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


@pytest.mark.parametrize("handout_id", IDS)
def test_every_roster_builds_in_every_language_it_lists_with_its_units_and_total(built, handout_id):
    facts = facts_of(handout_id)
    written = yaml.safe_load((built.parent.parent / "sources" / "handouts" / f"{handout_id}.yaml").read_text())
    for lang in written["languages"]:
        text = flat(" ".join(pdf_pages(built / f"{handout_id}.{lang}.pdf")))
        for unit in facts["units"]:
            assert flat(unit["custom_name"] or unit["name"]) in text, (lang, unit["name"])
            for line in unit.get("model_lines", []):  # each model's line under its name, with its count
                assert flat(f"{line['count']} × {line['name']}") in text, (lang, unit["name"], line)
        for name, value in facts["army_choices"].items():
            assert flat(f"{name}: {value}") in text, (lang, name)
        assert flat(f"{facts['army_points']:g} {cost_printed(facts, 'pts')}") in text  # Kill Team's EP: never "pts"


@pytest.mark.parametrize("handout_id", ["wh40k-10e-battlescribe", "wh40k-10e-newrecruit"])
def test_a_40k_roster_without_a_sheet_gives_one_or_two_pages_with_every_profile_weapon_and_ability(built, handout_id):
    facts = facts_of(handout_id)
    pages = pdf_pages(built / f"{handout_id}.en.pdf")
    assert 1 <= len(pages) <= 2
    text = flat(" ".join(pages))
    for unit in facts["units"]:
        names = unit["weapons"] + unit["abilities"] + [unit["name"]]
        missing = [name for name in names if flat(name.lstrip("➤ ")) not in text]
        assert not missing, (unit["name"], missing)


DIE_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"


def test_a_warcry_rosters_die_faces_print_as_themselves_never_as_a_question_mark(built):
    facts = facts_of("warcry-corvus-cabal")
    text = " ".join(pdf_pages(built / "warcry-corvus-cabal.en.pdf"))
    spaced = " ".join(text.split())
    faces = {char for rule in facts["army_rules"] for char in rule if char in DIE_FACES}
    assert faces >= set("\u2681\u2682\u2683\u2685")  # the roster's double, triple, quad and the dungeon's six
    for rule in facts["army_rules"]:
        assert " ".join(rule.split()) in spaced, rule  # each ability's name, its die faces with it
    assert "? [" not in spaced and "?[" not in spaced


def test_a_9th_edition_tyranid_roster_prints_its_hive_fleet_keyword_as_written(built):
    facts = facts_of("wh40k-9e-tyranids")
    text = " ".join(" ".join(pdf_pages(built / "wh40k-9e-tyranids.en.pdf")).split())
    written = [
        value
        for unit in facts["units"]
        for profiles in unit["profiles"].values()
        for profile in profiles
        for value in profile["values"].values()
        if "<HIVE FLEET>" in value
    ]
    assert written and "<HIVE FLEET>" in text and "\u2039HIVE FLEET" not in text
    assert "Hive Fleet: Leviathan" in text  # the army's choice, with what was chosen


def test_a_devastator_squad_prints_each_models_line_under_its_name_with_its_count(built):
    facts = facts_of("wh40k-9e-devastators")
    text = flat(" ".join(pdf_pages(built / "wh40k-9e-devastators.en.pdf")))
    (squad,) = facts["units"]
    lines = {profile["name"]: profile["values"] for profile in squad["profiles"]["Unit"]}
    assert len(squad["model_lines"]) == 2
    for line in squad["model_lines"]:
        values = " ".join(lines[line["name"]].values())
        assert flat(f"{line['count']} × {line['name']} {values}") in text, line


def test_the_silent_kings_row_prints_his_own_line_and_his_menhirs_theirs(built):
    facts = facts_of("wh40k-10e-silent-king")
    text = flat(" ".join(pdf_pages(built / "wh40k-10e-silent-king.en.pdf")))
    king = facts["units"][0]
    lines = {profile["name"]: profile["values"] for profile in king["profiles"]["Unit"]}
    assert [line["name"] for line in king["model_lines"]] == ["Szarekh", "Triarchal Menhir"]
    assert lines["Szarekh"]["W"] == "16" and lines["Triarchal Menhir"]["W"] == "5"
    for line in king["model_lines"]:
        assert flat(f"{line['count']} × {line['name']} {' '.join(lines[line['name']].values())}") in text, line


def test_two_weapons_of_one_name_and_different_profiles_each_print_with_what_carries_it(built):
    facts = facts_of("wh40k-10e-silent-king")
    text = flat(" ".join(pdf_pages(built / "wh40k-10e-silent-king.en.pdf")))
    bulks = {
        unit["name"]: profile["values"]
        for unit in facts["units"]
        for profile in unit["profiles"]["Melee Weapons"]
        if profile["name"] == "Armoured bulk"
    }
    assert len({tuple(values.values()) for values in bulks.values()}) == 2  # the Menhirs' A1 S4, the Ark's A3 S6
    # the Menhirs' told apart by the line under it (2 of the unit's 3 models carry it), the Ark's by its name
    shown = {
        "The Silent King": "Armoured bulk Carried by 2 × Triarchal Menhir",
        "Doomsday Ark": "Armoured bulk (Doomsday Ark)",
    }
    for unit, values in bulks.items():
        assert flat(f"{shown[unit]} {' '.join(values.values())}") in text, unit


def test_a_weapon_row_says_which_models_carry_it_in_the_pdf_and_the_web_edition_in_the_handouts_language(built):
    text = flat(" ".join(pdf_pages(built / "wh40k-9e-devastators.en.pdf")))
    for weapon in ("Heavy bolter", "Multi-melta"):
        assert flat(f"{weapon} Carried by 2 × Devastator Marine w/Heavy Weapon") in text, weapon
    assert flat("Boltgun Carried by Devastator Marine Sergeant 24") in text
    assert flat('Bolt pistol 12" Pistol 1') in text  # every model's: nothing between its name and its values
    french = flat(" ".join(pdf_pages(built / "whfb8-empire.fr.pdf")))
    assert flat("Hochland Long Rifle Porté par Marksman") in french
    result = run_qrs(
        "--sources", str(built.parent.parent / "sources"), "handout", "wh40k-9e-devastators", "--format", "html"
    )
    assert result.returncode == 0, result.stderr
    page = (built.parent / "html" / "handouts" / "wh40k-9e-devastators.en.html").read_text(encoding="utf-8")
    assert "Heavy bolter<br><em>Carried by 2 × Devastator Marine w/Heavy Weapon</em>" in page


def test_two_warbands_of_one_name_each_keep_their_heavy_armour_in_the_carriers_line(built):
    """mesbg-warband.ros: two warbands named "Captain of Minas Tirith" after their heroes; the first one's Captain and
    8 warriors wear heavy armour, the second one's every model: it prints as a whole warband (the game's units), not
    added to a Captain."""
    facts = facts_of("mesbg-warband")
    first, second = (unit for unit in facts["units"] if unit["name"] == "Captain of Minas Tirith")
    for warband in (first, second):
        assert "Heavy Armour" in {profile["name"] for profile in warband["profiles"]["Wargear"]}
    text = flat(" ".join(pdf_pages(built / "mesbg-warband.en.pdf")))
    carried = "Captain of Minas Tirith (whole warband), Captain of Minas Tirith, 8 × Warrior of Minas Tirith"
    assert flat(f"Heavy Armour Carried by {carried} A model who is upgraded to wear heavy armour") in text


@pytest.mark.parametrize("handout_id", ["wh40k-10e-battlescribe", "wh40k-10e-silent-king"])
def test_a_40k_rosters_keyword_marks_never_print(built, handout_id):
    """BSData's ^^**Leagues of Votann^^** and ^^**Necrons**^^ print as the keyword alone, in bold."""
    text = " ".join(pdf_pages(built / f"{handout_id}.en.pdf"))
    marked = [
        value
        for unit in facts_of(handout_id)["units"]
        for profiles in unit["profiles"].values()
        for profile in profiles
        for value in profile["values"].values()
        if "^^" in value
    ]
    assert marked and not any(mark in text for mark in ("^^", "**", "\\"))


def test_a_kill_team_weapon_a_modifier_changed_for_one_operative_names_its_operatives(built):
    """Kill Team's Lasgun does D 3/4 for the Medic (a catalogue modifier) and 2/3 for the others: each row names
    who carries it, by the name the player gave each operative."""
    facts = facts_of("killteam-2021")
    text = " ".join(" ".join(pdf_pages(built / "killteam-2021.en.pdf")).split())
    carriers: dict[str, list[str]] = {}
    for unit in facts["units"]:
        for profile in unit["profiles"].get("Weapons", []):
            if profile["name"] == "⌖ Lasgun":
                carriers.setdefault(profile["values"]["D"], []).append(unit["custom_name"] or unit["name"])
    assert carriers == {"3/4": ["Doc Ulver"], "2/3": ["Voxman Reyes", "Trooper Mott", "Trooper Veteran"]}
    for damage, names in carriers.items():
        assert f"Lasgun ({', '.join(names)}) 4 4+ {damage}" in text, damage


def test_stat_headings_are_the_games_names_or_its_own_abbreviations_never_cut(imported):
    """Warcry prints Move, Toughness, Wounds in full (not "Tou", "Wou"); MESBG its own letters, its Heroic Actions
    (words, not numbers) with the unit's rules, a hero's Might/Will/Fate one column (no two headed "W"); 40k 8th its
    M WS BS, its Save as Sv."""
    headings = {
        handout_id: roster_block(dict(composed(imported, handout_id))["en"]).characteristics
        for handout_id in ("warcry-corvus-cabal", "mesbg-warband", "wh40k-8e")
    }
    assert headings == {
        "warcry-corvus-cabal": ["Move", "Toughness", "Wounds"],
        "mesbg-warband": ["Mv", "F", "S", "D", "A", "W", "C", "M/W/F"],
        "wh40k-8e": ["M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv"],
    }
    captain = roster_block(dict(composed(imported, "mesbg-warband"))["en"]).units[0]
    assert "Captain of Minas Tirith \u2014 Heroic Actions: March" in captain.rules  # the warband's hero's alone


@pytest.mark.parametrize("handout_id", ["warcry-corvus-cabal", "wh40k-8e", "killteam-2021"])
def test_the_equipment_line_names_no_weapon_nor_wound_track_that_a_table_prints(imported, handout_id):
    sheet = dict(composed(imported, handout_id))["en"]
    tabled = {
        row.cells[0].text
        for section in sheet.sections
        for block in section.blocks
        if block.type == "table"
        for row in block.lines
    }
    for unit in roster_block(sheet).units:
        listed = {name.strip() for name in (unit.equipment or "").split(",")}
        assert not listed & tabled and "Wound Track" not in listed, (unit.name, listed & tabled)
    if handout_id == "wh40k-8e":
        captain = roster_block(sheet).units[0]
        assert "Warlord" in captain.equipment  # an upgrade with no profile stays


def test_a_wound_track_prints_with_its_unit_in_the_units_section_titled_with_its_name(imported):
    sheet = dict(composed(imported, "wh40k-8e"))["en"]
    units, *others = sheet.sections
    tracks = [block for block in units.blocks if block.type == "table"]
    assert [block.title for block in tracks] == ["Stormraven Gunship: Wound Track"]
    assert [row.cells[0].text for row in tracks[0].lines][:1] == ["Stormraven Gunship 1"]
    assert not any(block.id.startswith("profiles-wound-track") for section in others for block in section.blocks)


def test_short_values_never_break_and_rule_texts_keep_their_paragraphs_and_bullets(imported):
    """N/A, 2+, 18": a column of short values is nowrap; 10th edition's "■" items print as bullets, each a line."""
    sheet = dict(composed(imported, "wh40k-10e-silent-king"))["en"]
    ranged = next(
        block for section in sheet.sections for block in section.blocks if block.id == "profiles-ranged-weapons"
    )
    assert [column.nowrap for column in ranged.header] == [False, True, True, True, True, True, True, False]
    text = next(keyword.text for keyword in sheet.keywords if keyword.term == "Reanimation Protocols")
    lines = text.split("\n")
    assert len(lines) == 4 and [line[:2] for line in lines[1:3]] == ["\u2022 ", "\u2022 "], lines


def test_a_units_only_model_line_of_one_selection_prints_without_one_times_and_a_squads_lines_keep_their_counts():
    """Apocalypse's Strike Team is one profile for its five models, "Strike Team (5 models)": not "1 ×" it; the
    Boyz' Boss Nob, one line of two, stays "1 × Boss Nob"."""
    from generator.composing.roster import handout_of, read

    def models(roster: str, unit: str) -> list[tuple]:
        data = handout_of(*read(BSDATA / roster), None, "army", ["en"]).handout
        found = next(each for each in data["units"] if each["name"] == unit)
        return [(model["name"], model.get("count")) for model in found["models"]]

    assert models("apocalypse-tau.ros", "Strike Team") == [("Strike Team (5 models)", None)]
    assert models("wh40k-8e-orks.ros", "Boyz") == [("Ork Boy", 19), ("Boss Nob", 1)]


def test_each_units_row_names_its_abilities_once_whose_texts_the_abilities_table_prints(imported):
    """Issue #46 item 4: abilities are gathered in a table away from their units (each named with its units there);
    the unit's own row names them too, each once, not one its special rules name already (the Overlord's Leader)."""
    sheet = dict(composed(imported, "wh40k-10e-newrecruit"))["en"]
    units = {unit.name: unit for unit in roster_block(sheet).units}
    overlord = units["Overlord"].abilities.split(", ")
    assert "Implacable Resilience" in overlord and "Resurrection orb" in overlord and "Leader" not in overlord
    assert "{leader}" in units["Overlord"].rules
    assert units["10 × Necron Warriors"].abilities == "Their Number is Legion"
    abilities = next(
        block for section in sheet.sections for block in section.blocks if block.id == "profiles-abilities"
    )
    named = [row.cells[0].text for row in abilities.lines]
    assert "Their Number is Legion (Necron Warriors)" in named


def test_a_warcry_fighters_own_weapon_names_its_fighter(built):
    """Issue #46 item 4, "each weapon row says which models carry it": a Warcry fighter carries its weapons whole, and
    the row named no one (a player could not tell whose the Punch Dagger and Blade is)."""
    text = flat(" ".join(pdf_pages(built / "warcry-skaven.en.pdf")))
    for weapon, fighter in [
        ("Warpforged Blade", "Clawlord"),
        ("Punch Dagger and Blade", "Gutter Runner"),
        ("Vicious Teeth", "Giant Rat"),
        ("Pair of Foetid Blades", "Plague Monk"),
    ]:
        assert flat(f"{weapon} Carried by {fighter}") in text, weapon
