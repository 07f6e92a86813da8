"""A roster's handout speaks its language and its army (#46): BSData's WHFB 8th rosters (tests/fixtures/rosters/bsdata/)
imported on the fixture library's French Warhammer sheet print every heading and label in French, the roster's own
names as it writes them; an army without a wizard gets no magic phase, and the import report says so."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pypdf
import pytest
import yaml

from generator.composing import words
from generator.composing.handout_headings import heading, labelled
from generator.model.validate import load
from tests.conftest import LIBRARY, ROOT, run_qrs

BSDATA = ROOT / "tests" / "fixtures" / "rosters" / "bsdata"
NS = "{http://www.battlescribe.net/schema/rosterSchema}"


def french_words() -> dict[str, str]:
    from generator.composing.words import _read_words

    return _read_words(ROOT / "templates" / "i18n" / "fr.po")[0]


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """A copy of the fixture library: the imports write into it."""
    copied = tmp_path_factory.mktemp("library") / "sources"
    shutil.copytree(LIBRARY, copied)
    return copied


def imported(library: Path, roster: Path, handout_id: str):
    ran = run_qrs("--sources", str(library), "handout", "import", str(roster), "--id", handout_id)
    assert ran.returncode == 0, ran.stderr
    return ran, yaml.safe_load((library / "handouts" / f"{handout_id}.yaml").read_text(encoding="utf-8"))


def built_text(library: Path, handout_id: str, lang: str) -> str:
    ran = run_qrs("--sources", str(library), "handout", handout_id, "--lang", lang, "--jobs", "1")
    assert ran.returncode == 0, ran.stderr
    pdf = library.parent / "build" / "handouts" / f"{handout_id}.{lang}.pdf"
    return re.sub(r"[\s\u00a0\u202f]+", " ", " ".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages))


@pytest.fixture(scope="module")
def dwarfs(library):
    """The dwarfs roster (no wizard, a Thane, warriors, war machines), imported; its French handout's text."""
    ran, handout = imported(library, BSDATA / "whfb8-dwarfs.ros", "dwarfs")
    return ran, handout, built_text(library, "dwarfs", "fr")


def roster_values(roster: Path) -> list[str]:
    """Everything the roster writes as its own: names, values, texts (these print as written)."""
    root = ElementTree.parse(roster).getroot()
    values = {
        element.get("name")
        for element in root.iter()
        if element.get("name")
        and element.tag.removeprefix(NS) in ("roster", "selection", "profile", "rule", "category", "force")
    }
    values |= {element.text for element in root.iter(f"{NS}characteristic") if element.text}
    values |= {element.text for element in root.iter(f"{NS}description") if element.text}
    values |= {value.lstrip("- ") for value in values}  # "- Army Size", BSData's mark of a configuration entry
    return [*values, *(re.sub(r"(?<=\d)-(?=\d)", "\u2013", value) for value in values)]  # 0–2999: typography's dash


def roster_headings(roster: Path) -> set[str]:
    """What the roster names its profile types and their characteristics: headings, never values."""
    root = ElementTree.parse(roster).getroot()
    return {profile.get("typeName") for profile in root.iter(f"{NS}profile")} | {
        characteristic.get("name") for characteristic in root.iter(f"{NS}characteristic")
    }


def without(text: str, phrases) -> str:
    """The text less each phrase where it stands whole, the longest first."""
    for phrase in sorted(set(phrases), key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ", text)
    return text


def test_the_french_handout_of_a_whfb_roster_has_no_english_heading(dwarfs):
    text = dwarfs[2]
    french = french_words()
    assert "Unité M CC CT F E PV I A Cd Svg" in text  # the sheet's own words for its stat line
    squeezed = text.replace(" ", "")  # a heading wrapped in its column reads back without its space
    assert "ArmePortéeFRèglesspéciales" in squeezed and "ArmureModificateurdesauvegardeRèglesspéciales" in squeezed
    assert "Type de troupe : Infantry" in text  # the label in French, the roster's value as it writes it
    # what is left once the roster's own words and the French words are taken out holds no English word
    left = without(without(text, roster_values(BSDATA / "whfb8-dwarfs.ros")), french.values())
    english = {
        re.sub(r"\{\w+\}|[:.()]", "", word).strip() for key, word in words.UI_WORDS.items() if word != french.get(key)
    } | roster_headings(BSDATA / "whfb8-dwarfs.ros")
    english = {word for word in english if len(word) > 2}  # a stat's letter (M, WS) is checked above
    found = sorted(word for word in english if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", left, re.IGNORECASE))
    assert not found, f"English heading(s) {found} in the French handout: {left}"


def test_an_army_without_a_wizard_leaves_the_magic_phase_out_and_the_report_says_so(dwarfs):
    ran, handout, text = dwarfs
    lines = [line for line in ran.stderr.splitlines() if "Phase de magie" in line]
    assert len(lines) == 1 and "'sorcier' ('Wizard')" in lines[0] and "kept: dispel-dice" in lines[0], ran.stderr
    assert handout["exclude"] == ["magic"] and handout["except"] == ["dispel-dice"]
    assert "Tableau des fiascos" not in text and "Nombre max. de dés" not in text and "Dés de Pouvoir" not in text
    assert "Dés de Dissipation" in text  # rolled in the enemy's magic phase, wizard or none


# A Battle Wizard of BSData/whfb's "Empire - 8thBRB_8thAB.cat" (@ adfa5d84), with his Wizard Level 2 and Lore of
# Fire, as BattleScribe 2.03 writes the selection.
BATTLE_WIZARD = """
<selection xmlns="http://www.battlescribe.net/schema/rosterSchema" id="9c1e-4d2a-8b7f-03e5" name="Battle Wizard" entryId="48ce530a-6fad-47c5-80bd-df13f8db1823" page="0" number="1" type="model">
  <profiles>
    <profile id="8e8699af-36d1-fca4-c9c5-c5f4cab83891" name="Battle Wizard" publicationId="d0f6d5ae--pubN65778" page="33" hidden="false" typeId="4d6f64656c23232344415441232323" typeName="Model">
      <characteristics>
        <characteristic name="M" typeId="4d23232344415441232323">4</characteristic>
        <characteristic name="WS" typeId="575323232344415441232323">3</characteristic>
        <characteristic name="BS" typeId="425323232344415441232323">3</characteristic>
        <characteristic name="S" typeId="5323232344415441232323">3</characteristic>
        <characteristic name="T" typeId="5423232344415441232323">3</characteristic>
        <characteristic name="W" typeId="5723232344415441232323">2</characteristic>
        <characteristic name="I" typeId="4923232344415441232323">3</characteristic>
        <characteristic name="A" typeId="4123232344415441232323">1</characteristic>
        <characteristic name="LD" typeId="4c4423232344415441232323">7</characteristic>
        <characteristic name="ArmourSave" typeId="41726d6f75725361766523232344415441232323"/>
        <characteristic name="WardSave" typeId="576172645361766523232344415441232323"/>
        <characteristic name="MR" typeId="4d5223232344415441232323"/>
        <characteristic name="Type" typeId="5479706523232344415441232323">Infantry</characteristic>
      </characteristics>
    </profile>
    <profile id="15eca856-3c8f-4fd6-dab6-ba8052010327::91e334ae-14c6-755f-5911-48ff700f784f" name="Hand Weapon" publicationId="d0f6d5ae--pubN69354" page="88" hidden="false" typeId="576561706f6e23232344415441232323" typeName="Weapon">
      <characteristics>
        <characteristic name="Range" typeId="52616e676523232344415441232323">Combat</characteristic>
        <characteristic name="Strength" typeId="537472656e67746823232344415441232323">As User</characteristic>
        <characteristic name="Special Rules" typeId="5370656369616c2052756c657323232344415441232323">None</characteristic>
      </characteristics>
    </profile>
  </profiles>
  <selections>
    <selection id="5b0e-71c4-a9d3-2f68" name="Wizard Level 2" entryId="ef2693eb-1bab-4a20-99ae-90e1ae305a9e" entryGroupId="c24875c6-345b-4f17-aacf-dcf1b31b3052" page="0" number="1" type="upgrade">
      <costs>
        <cost name="pts" typeId="points" value="35.0"/>
      </costs>
    </selection>
    <selection id="e4a7-0c95-6d1b-8e32" name="Lore of Fire" entryId="2918360e-1956-4383-9868-9385a26a4d61" entryGroupId="018c43b2-71df-457a-a712-4b74b93a22c3" page="0" number="1" type="upgrade">
      <costs>
        <cost name="pts" typeId="points" value="0.0"/>
      </costs>
    </selection>
  </selections>
  <costs>
    <cost name="pts" typeId="points" value="65.0"/>
  </costs>
  <categories>
    <category id="3d8f-a1c6-5e20-b9f4" name="Heroes" entryId="4865726f657323232344415441232323" primary="true"/>
  </categories>
</selection>"""


def test_an_army_with_a_wizard_keeps_the_magic_phase(library, tmp_path):
    ElementTree.register_namespace("", NS.strip("{}"))
    tree = ElementTree.parse(BSDATA / "whfb8-empire.ros")
    selections = tree.getroot().find(f"{NS}forces/{NS}force/{NS}selections")
    selections.insert(2, ElementTree.fromstring(BATTLE_WIZARD))  # after the army size and the captain
    roster = tmp_path / "with-wizard.ros"
    tree.write(roster, encoding="UTF-8", xml_declaration=True)
    ran, handout = imported(library, roster, "empire-wizard")
    assert "Phase de magie" not in ran.stderr
    assert handout["exclude"] == [] and "except" not in handout
    text = built_text(library, "empire-wizard", "fr")
    assert "Tableau des fiascos" in text and "Nombre max. de dés" in text and "Battle Wizard" in text


def test_a_rosters_headings_are_the_sheets_or_the_templates_words_and_its_values_as_written():
    _, sheet = load(LIBRARY / "warhammer.yaml")
    french = {**words.UI_WORDS, **french_words()}
    assert heading("Strength", sheet, french) == "F"  # an alias of the sheet's S, labelled F in French
    assert heading("Saving Throw modifier", sheet, french) == "Modificateur de sauvegarde"
    assert heading("Special Rules", sheet, french) == "Règles spéciales"
    assert heading("Great Weapon", sheet, french) == "Great Weapon"  # no heading: as the roster writes it
    assert heading("Weapon", None, dict(words.UI_WORDS)) == "Weapon"
    assert labelled("Ancestral Grudge, Type: Infantry", sheet, french) == "Ancestral Grudge, Type de troupe: Infantry"
    assert labelled("Hold the Line!: see the army book", sheet, french) == "Hold the Line!: see the army book"
