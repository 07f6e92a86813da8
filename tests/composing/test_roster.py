"""qrs handout import: rosters written in the BattleScribe roster schema, with entry names from BSData's public
catalogues (Warhammer Fantasy 6th edition Dwarfs; Shadow War: Armageddon's Ork Boyz kill team), imported into
handouts that check, build in French and English, and print every unit, profile value, weapon and rule of the
roster; hostile rosters refused with exit code 2 and nothing written."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pypdf
import pytest
import yaml

from tests.conftest import LIBRARY, ROOT, Ran, run_qrs

ROSTERS = ROOT / "tests" / "fixtures" / "rosters"
HOSTILE = ROOT / "tests" / "bad_inputs" / "rosters"
NS = {"r": "http://www.battlescribe.net/schema/rosterSchema"}
SHEET_OF = {"dwarf-miners.ros": "warhammer", "ork-boyz.rosz": "shadow-war"}


def qrs(sources: Path, *args: str) -> Ran:
    return run_qrs("--sources", str(sources), *args)


@pytest.fixture
def sources(tmp_path) -> Path:
    """A copy of the project's sources: the import writes into it."""
    copied = tmp_path / "sources"
    shutil.copytree(LIBRARY, copied)
    return copied


def roster_xml(path: Path) -> ElementTree.Element:
    """The test's own reading of a trusted fixture (the stdlib parser; the importer uses defusedxml)."""
    if path.suffix == ".rosz":
        with zipfile.ZipFile(path) as archive:
            return ElementTree.fromstring(archive.read(archive.namelist()[0]))
    return ElementTree.parse(path).getroot()


def sheet_names(sheet: str) -> dict[str, str]:
    """What the sheet prints (in its own language) for a name a roster may use: saves items by alias, keywords
    by original term."""
    data = yaml.safe_load((LIBRARY / f"{sheet}.yaml").read_text(encoding="utf-8"))
    names = {
        keyword["original"].casefold(): keyword["term"] for keyword in data.get("keywords", []) if "original" in keyword
    }
    for section in data["sections"]:
        for block in section["blocks"]:
            for item in block.get("items", []) if block["type"] == "saves" else []:
                names.update({alias.casefold(): item["name"] for alias in item.get("aliases", [])})
    return names


def either(name: str, names: dict[str, str]) -> str:
    """A pattern for a roster's name as printed: as the roster wrote it, or as the sheet names what it matched."""
    shown = [re.escape(name)] + ([re.escape(names[name.casefold()])] if name.casefold() in names else [])
    return f"(?i:{'|'.join(shown)})"


def printed_facts(path: Path, sheet: str) -> list[str]:
    """What the PDF must show of each unit: its name, then its profile's values in order; its upgrades; its rules
    and those of its force."""
    names = sheet_names(sheet)
    facts = []
    for force in roster_xml(path).iterfind(".//r:force", NS):
        force_rules = [rule.get("name") for rule in force.iterfind("r:rules/r:rule", NS)]
        for unit in force.iterfind("r:selections/r:selection", NS):
            values = [value.text for value in unit.iterfind(".//r:profile/r:characteristics/r:characteristic", NS)]
            facts.append(f"{re.escape(unit.get('name'))} .*?{' '.join(map(re.escape, values))}")
            facts += [
                either(upgrade.get("name"), names) for upgrade in unit.iterfind(".//r:selection[@type='upgrade']", NS)
            ]
            facts += [
                either(name, names)
                for name in force_rules + [rule.get("name") for rule in unit.iterfind(".//r:rule", NS)]
            ]
    return facts


def pdf_text(pdf: Path) -> str:
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)
    """The PDF's text with the typography undone: straight quotes, plain spaces, no French space before ! ? : ;"""
    plain = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2033", '"')
    plain = re.sub(r"[\s\u00a0\u202f]+", " ", plain)
    return re.sub(r" ([!?:;])", r"\1", plain)


@pytest.mark.parametrize("roster", sorted(SHEET_OF))
def test_a_roster_becomes_a_handout_that_checks_and_builds_with_everything_it_holds(sources, roster):
    imported = qrs(sources, "handout", "import", str(ROSTERS / roster), "--sheet", SHEET_OF[roster])
    assert imported.returncode == 0, imported.stderr
    handout_id = Path(roster).stem
    assert (sources / "handouts" / f"{handout_id}.yaml").is_file()
    checked = qrs(sources, "check", handout_id)
    assert checked.returncode == 0, checked.stderr
    built = qrs(sources, "handout", handout_id, "--jobs", "1")
    assert built.returncode == 0, built.stderr
    facts = printed_facts(ROSTERS / roster, SHEET_OF[roster])
    assert len(facts) >= 8  # two units, their profiles, weapons and rules
    for lang in ("fr", "en"):
        text = pdf_text(sources.parent / "build" / "handouts" / f"{handout_id}.{lang}.pdf")
        missing = [fact for fact in facts if not re.search(fact, text)]
        assert not missing, f"{lang}: {missing} not in {text}"


def test_points_counts_and_the_army_total_are_printed(sources):
    assert qrs(sources, "handout", "import", str(ROSTERS / "ork-boyz.rosz"), "--sheet", "shadow-war").returncode == 0
    assert qrs(sources, "handout", "ork-boyz", "--jobs", "1", "--lang", "en").returncode == 0
    text = pdf_text(sources.parent / "build" / "handouts" / "ork-boyz.en.pdf")
    roster = roster_xml(ROSTERS / "ork-boyz.rosz")
    total = roster.find("r:costs/r:cost", NS).get("value")
    assert f"Army total: {float(total):g} pts" in text
    boys = roster.find(".//r:selection[@name='Ork Boy']", NS)
    assert f"{boys.get('number')} × Ork Boy {float(boys.find('r:costs/r:cost', NS).get('value')):g} pts" in text


def test_names_are_matched_through_the_sheet_aliases_ids_and_original_terms(sources):
    assert qrs(sources, "handout", "import", str(ROSTERS / "dwarf-miners.ros"), "--sheet", "warhammer").returncode == 0
    written = (sources / "handouts" / "dwarf-miners.yaml").read_text()
    assert "profile: {M: '3', WS: '4', BS: '5', S: '4'" in written  # ST through S's alias, LD as Ld
    assert "armour: [light-armour]" in written and "armour: [heavy-armour]" in written  # Light/Heavy Armour
    assert qrs(sources, "handout", "import", str(ROSTERS / "ork-boyz.rosz"), "--sheet", "shadow-war").returncode == 0
    boss = yaml.safe_load((sources / "handouts" / "ork-boyz.yaml").read_text())["units"][0]
    assert boss["rules"][0] == "contre-attaque"  # Counter-attack: the sheet's keyword; the others, the roster's own


UNMATCHED_MINERS = """\
{roster}: 5 name(s) match nothing of the sheet 'warhammer', printed as the roster has them:
equipment 'Hand Weapon' ('Master Engineer', 'Miners'): no row of the sheet's tables, nor item of its saves table, by id, name or alias: printed as written
equipment 'Dwarf Handgun' ('Master Engineer'): no row of the sheet's tables, nor item of its saves table, by id, name or alias: printed as written
rule 'Entrenchment' ('Master Engineer'): no keyword of the sheet, by id, term or original term: printed with the roster's text
equipment 'Pick' ('Miners'): no row of the sheet's tables, nor item of its saves table, by id, name or alias: printed as written
rule 'Stubborn' ('Miners'): no keyword of the sheet, by id, term or original term: printed with the roster's text
left out: the section 'Phase de magie' (magic) (kept: dispel-dice): it is about 'sorcier' ('Wizard'), which no \
selection, profile, rule or category of the roster names
"""


def test_the_unmatched_report_names_each_name_once_with_its_units_and_what_was_tried(sources):
    result = qrs(sources, "handout", "import", str(ROSTERS / "dwarf-miners.ros"), "--sheet", "warhammer")
    assert result.returncode == 0
    assert result.stderr == UNMATCHED_MINERS.format(roster=ROSTERS / "dwarf-miners.ros")


def test_strict_makes_anything_unmatched_an_error_and_writes_nothing(sources):
    before = sorted((sources / "handouts").rglob("*"))
    result = qrs(sources, "handout", "import", str(ROSTERS / "dwarf-miners.ros"), "--sheet", "warhammer", "--strict")
    assert result.returncode == 2
    assert "dwarf-miners.ros: rule 'Stubborn' ('Miners'): no keyword of the sheet" in result.stderr
    assert "5 problem(s) found" in result.stderr and "Traceback" not in result.stderr
    assert sorted((sources / "handouts").rglob("*")) == before


def test_an_existing_handout_is_never_overwritten(sources):
    original = (sources / "handouts" / "warhammer-dwarfs.yaml").read_bytes()
    result = qrs(
        sources,
        "handout",
        "import",
        str(ROSTERS / "dwarf-miners.ros"),
        "--sheet",
        "warhammer",
        "--id",
        "warhammer-dwarfs",
    )
    assert result.returncode == 2 and "a handout of this id exists" in result.stderr
    assert (sources / "handouts" / "warhammer-dwarfs.yaml").read_bytes() == original


HOSTILE_EXPECTED = {
    "billion-laughs.ros": "billion-laughs.ros:2:1: a document type declaration (<!DOCTYPE>): expected none",
    "external-entity.ros": "external-entity.ros:2:1: a document type declaration (<!DOCTYPE>): expected none",
    "malformed.ros": "malformed.ros:7:9: malformed XML (mismatched tag): expected </selection> to close <selection>, found </selections>",
    "malformed-member.rosz": "malformed-member.rosz:army.ros:7:9: malformed XML (mismatched tag): expected </selection>",
    "catalogue-not-roster.ros": "catalogue-not-roster.ros:1:1: the root element is <catalogue>: expected <roster>",
    "two-members.rosz": "two-members.rosz:1:1: the archive holds 2 files (dwarf-miners.ros, second.ros): expected "
    "exactly one",
    "zip-bomb.rosz": "zip-bomb.rosz:bomb.ros:1:1: the roster is compressed 807 times: expected at most 100 times",
}


def test_every_hostile_roster_has_an_expectation():
    assert sorted(path.name for path in HOSTILE.iterdir()) == sorted(HOSTILE_EXPECTED)


@pytest.mark.parametrize("roster", sorted(HOSTILE_EXPECTED))
def test_a_hostile_roster_is_refused_with_its_place_and_exit_2_writing_nothing(sources, roster):
    before = sorted((sources / "handouts").rglob("*"))
    result = qrs(sources, "handout", "import", str(HOSTILE / roster), "--sheet", "warhammer")
    assert result.returncode == 2
    assert HOSTILE_EXPECTED[roster] in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert sorted((sources / "handouts").rglob("*")) == before


def test_names_match_whatever_their_case_accents_and_punctuation():
    from generator.composing.roster import folded

    assert folded("Hand Weapon") == folded("hand-weapon") == folded("HAND  WEAPON")
    assert folded("Armure légère") == folded("armure legere")
    assert folded("Counter-attack") != folded("Counter")


def test_a_roster_without_units_is_refused(sources, tmp_path):
    empty = tmp_path / "empty.ros"
    empty.write_text(
        '<?xml version="1.0"?>\n<roster name="Nobody" xmlns="http://www.battlescribe.net/schema/rosterSchema">'
        '<forces><force name="Army"><selections/></force></forces></roster>\n'
    )
    result = qrs(sources, "handout", "import", str(empty), "--sheet", "warhammer")
    assert result.returncode == 2
    assert (
        f"{empty.relative_to(sources.parent)}:1:1: no unit in any force: expected at least one selection typed unit or model, or carrying "
        "a model's profile"
    ) in result.stderr
    assert not (sources / "handouts" / "empty.yaml").exists()


def longbowmen(upgrades: list[str]) -> ElementTree.Element:
    """A roster of one unit holding these upgrades (names as army lists write them)."""
    held = "".join(f'<selection name="{name}" type="upgrade" number="1"/>' for name in upgrades)
    return ElementTree.fromstring(
        '<roster name="English" xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force name="Army">'
        '<selections><selection name="Longbowmen" type="unit" number="1">'
        '<profiles><profile name="Longbowmen"><characteristics><characteristic name="WS">3</characteristic>'
        f"</characteristics></profile></profiles><selections>{held}</selections></selection></selections>"
        "</force></forces></roster>"
    )


def test_weapons_match_table_rows_by_id_first_cell_or_alias():
    from generator.composing.roster import handout_of
    from generator.output import pipeline

    _, wab2 = pipeline.load(LIBRARY / "wab2.yaml")
    for name in ("Longbow", "Arc long", "longbow", "Longbows", "LONGBOW (FAQ'ed)", "3 - Longbow"):
        made = handout_of(longbowmen([name]), "army.ros", wab2, "english", ["fr"])
        assert made.handout["units"][0]["weapons"] == ["longbow"], name
        assert [str(item) for item in made.unmatched] == [  # the roster gives WS only
            f"sheet characteristic '{key}' ('Longbowmen'): no value in the roster's stat line: printed as '-'"
            for key in ["M", "BS", "S", "T", "W", "I", "A", "Ld"]
        ]
    assert made.handout["units"][0]["profile"] == {
        key: "3" if key == "WS" else "-" for key in ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"]
    }


def test_an_id_that_is_a_path_is_refused_as_a_bad_option(sources):
    result = qrs(
        sources, "handout", "import", str(ROSTERS / "dwarf-miners.ros"), "--sheet", "warhammer", "--id", "../outside"
    )
    assert result.returncode == 64 and "'../outside' is not a handout id" in result.stderr
    assert not (sources / "outside.yaml").exists()


def test_a_deeply_nested_roster_with_absurd_points_imports_without_a_traceback(sources, tmp_path):
    depth = 20_000
    nested = '<selections><selection name="Rune" type="upgrade">' * depth + "</selection></selections>" * depth
    deep = tmp_path / "deep.ros"
    deep.write_text(
        '<roster name="Deep" xmlns="http://www.battlescribe.net/schema/rosterSchema"><costs>'
        '<cost name="pts" value="inf"/></costs><forces><force name="Army"><selections>'
        '<selection name="Thane" type="model" number="1"><costs><cost name="pts" value="nan"/></costs>'
        f"{nested}</selection></selections></force></forces></roster>"
    )
    result = qrs(sources, "handout", "import", str(deep), "--sheet", "warhammer")
    assert result.returncode == 0, result.stderr
    written = (sources / "handouts" / "deep.yaml").read_text()
    assert "points" not in written and "equipment: Rune\n" in written


def test_a_roster_name_that_looks_like_markup_prints_as_written(sources, tmp_path):
    odd = tmp_path / "odd.ros"
    odd.write_text(
        '<roster name="The *Grudge* {Host}" xmlns="http://www.battlescribe.net/schema/rosterSchema">'
        '<forces><force name="Army"><selections><selection name="Thane [BSB]" type="model" number="1">'
        '<selections><selection name="Rune of &lt;b&gt;Stone\\" type="upgrade"/></selections>'
        "</selection></selections></force></forces></roster>"
    )
    assert qrs(sources, "handout", "import", str(odd), "--sheet", "warhammer").returncode == 0
    checked = qrs(sources, "check", "odd")
    assert checked.returncode == 0, checked.stderr
    from generator.model import markup

    written = yaml.safe_load((sources / "handouts" / "odd.yaml").read_text())

    def plain(text: str) -> str:
        return markup.to_plain(markup.parse(text), typo=str, name_keyword=lambda key, shown: shown or key)

    shown = [plain(written["army"]), plain(written["units"][0]["name"]), plain(written["units"][0]["equipment"])]
    assert shown == ["The *Grudge* {Host}", "Thane [BSB]", "Rune of <b>Stone\\"]  # '<' escaped, printed as itself


def test_with_json_each_unmatched_element_is_an_event(sources):
    import json

    result = qrs(sources, "--json", "handout", "import", str(ROSTERS / "ork-boyz.rosz"), "--sheet", "shadow-war")
    assert result.returncode == 0 and result.stderr == ""
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert [event["event"] for event in events] == ["unmatched"] * 5 + ["wrote"]
    assert events[0] == {
        "event": "unmatched",
        "roster": f"{ROSTERS / 'ork-boyz.rosz'}:ork-boyz.ros",
        "units": ["Boss Nob"],
        "kind": "equipment",
        "name": "Slugga",
        "tried": "no row of the sheet's tables, nor item of its saves table, by id, name or alias: printed as written",
    }


def roster_of(units: list[str], name: str = "Army") -> str:
    """A roster of these units (each a <selection> element), as BattleScribe writes one."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<roster name="' + name + '" gameSystemName="Warhammer Fantasy 8th ed"'
        ' xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force name="Army"><selections>'
        + "".join(units)
        + "</selections></force></forces></roster>\n"
    )


def model(name: str, number: int = 1, held: str = "") -> str:
    return (
        f'<selection name="{name}" type="model" number="{number}"><profiles><profile name="{name}" typeName="Model">'
        "<characteristics>"
        + "".join(
            f'<characteristic name="{key}">3</characteristic>'
            for key in ["M", "WS", "BS", "S", "T", "W", "I", "A", "LD"]
        )
        + f"</characteristics></profile></profiles><selections>{held}</selections></selection>"
    )


def test_a_3000_point_army_and_a_character_with_ten_magic_items_import_and_check(sources, tmp_path):
    items = "".join(
        f'<selection name="Rune of Item Number {n} (Master Rune of Lengthy Naming)" type="upgrade"/>' for n in range(10)
    )
    army = tmp_path / "big.ros"
    army.write_text(roster_of([model("Runelord", 1, items)] + [model(f"Warriors {n}", 40) for n in range(199)]))
    result = qrs(sources, "handout", "import", str(army))
    assert result.returncode == 0, result.stderr
    checked = qrs(sources, "check", "big")
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    "case, units, message",
    [
        ("too-many-units", [model(f"Warriors {n}") for n in range(201)], "'units' has too many items: at most 200"),
        ("a-count-too-large", [model("Horde", 20_000)], "'count' must be at most 10000, not 20000"),
    ],
)
def test_an_import_that_would_not_check_writes_nothing_and_says_why(sources, tmp_path, case, units, message):
    army = tmp_path / f"{case}.ros"
    army.write_text(roster_of(units))
    before = sorted((sources / "handouts").rglob("*"))
    result = qrs(sources, "handout", "import", str(army))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        f"{army.relative_to(sources.parent)}:1:1: the handout made from the roster does not check (its line"
        in result.stderr
    )  # relative to the library, as every path printed
    assert message in result.stderr and "nothing was written" in result.stderr
    assert sorted((sources / "handouts").rglob("*")) == before


def test_control_characters_missing_glyphs_and_long_names_print_as_near_as_the_font_allows(sources, tmp_path):
    odd = [
        "Bidi\u202eName",
        "Line\u2028Sep",
        "Del\x7fete",
        "Next\x85Line",
        "Carriage\rReturn",
        "Dot \u2b24 Skull \U0001f480 Eye \U00013080",
        "L" + "o" * 5000 + "ng",
    ]
    army = tmp_path / "odd\nname.ros"
    army.write_text(roster_of([model(name.replace("\r", "&#13;")) for name in odd]))
    result = qrs(sources, "handout", "import", str(army))
    assert result.returncode == 0, result.stderr
    # the large circle prints through the symbols font, the skull through the emoji font; the hieroglyph, which no
    # font of the sheet has, is named and reported
    assert "U+2B24" not in result.stderr and "U+1F480" not in result.stderr
    assert "character 'U+13080 \U00013080'" in result.stderr
    assert "printed as '[egyptian hieroglyph d010]'" in result.stderr
    written = yaml.safe_load((sources / "handouts" / "odd-name.yaml").read_text())
    names = [unit["name"] for unit in written["units"]]
    assert names[:6] == [
        "Bidi Name",
        "Line Sep",
        "Del ete",
        "Next Line",
        "Carriage Return",
        "Dot \u2b24 Skull \U0001f480 Eye \\[egyptian hieroglyph d010\\]",
    ]
    assert len(names[6]) == 200 and names[6].endswith("\u2026")
    assert qrs(sources, "check", "odd-name").returncode == 0


def test_names_match_the_sheets_words_in_each_of_its_languages():
    from generator.composing import languages as translations
    from generator.composing.roster.names import SheetNames
    from generator.model.validate import load
    from generator.project import Project

    project = Project.at(LIBRARY)
    _, warhammer = load(LIBRARY / "warhammer.yaml")
    english = translations.translated(project, LIBRARY / "warhammer.yaml", "en")
    names = SheetNames(warhammer, [english])
    assert names.characteristics.find("Weapon Skill") == "WS"  # the English catalogue's for "Capacité de Combat"
    assert names.characteristics.find("Leadership") == "Ld"
    assert SheetNames(warhammer).characteristics.find("Weapon Skill") is None  # the French sheet alone knows it not
    assert names.armour.find("Armure lourde") == names.armour.find("Heavy Armour") == "heavy-armour"
    assert names.keywords.find("Skirmishers (FAQ'ed)") == names.keywords.find("tirailleurs") == "tirailleurs"
    assert names.characteristics.find("LD") == "Ld" and names.characteristics.find("Strength") == "S"


def thane(held: str) -> ElementTree.Element:
    """A Thane in gromril (an Armour profile the sheet does not know), holding these selections."""
    armour = (
        '<profile name="Gromril Armour" typeName="Armour"><characteristics><characteristic '
        'name="Saving Throw modifier">4+</characteristic></characteristics></profile>'
    )
    return ElementTree.fromstring(
        roster_of([model("Thane", 1, held).replace("</profiles>", armour + "</profiles>", 1)])
    )


@pytest.mark.parametrize(
    "held, save",
    [
        ("", "4+"),  # the roster's own armour: Gromril 4+
        (
            '<selection name="Shields" type="upgrade"><profiles><profile name="Shield" typeName="Armour"><characteristics>'
            '<characteristic name="Saving Throw modifier">-1</characteristic></characteristics></profile></profiles>'
            "</selection>",
            "3+",
        ),  # and a shield whose profile says -1
        ('<selection name="Shield" type="upgrade"/>', "?"),  # a shield the roster gives no save for: not guessed
    ],
)
def test_a_save_the_sheet_cannot_derive_is_the_rosters_own_or_unknown(held, save):
    from generator.composing.roster import handout_of
    from generator.output import pipeline

    _, warhammer = pipeline.load(LIBRARY / "warhammer.yaml")
    unit = handout_of(thane(held), "army.ros", warhammer, "thane", ["fr"]).handout["units"][0]
    assert unit["save"] == save
    assert "Gromril Armour" in unit["save_from"]["unknown"]  # the footnote is written in each language it prints in
    assert ("profiles" in unit["save_from"]) == (save != "?")
