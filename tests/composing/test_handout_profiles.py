"""A handout's tables of its units' own profiles: each equipment row says who carries it, under its name, when some
unit carries it only on some of its models; nothing more when every unit that has it carries it whole."""

from __future__ import annotations

from generator.composing import handout_profiles, words
from generator.composing.handout_profiles import profile_blocks
from generator.model.types import Handout
from generator.project import Project
from tests.conftest import LIBRARY

ENGLISH = dict(words.UI_WORDS)


def handout(units: list[dict]) -> Handout:
    return Handout.model_validate(
        {
            "handout": "carriers",
            "army": "Army",
            "lang": "en",
            "date": "2026-11-27",
            "profile_types": [
                {"id": "weapon", "name": "Weapon", "characteristics": ["S"]},
                {"id": "abilities", "name": "Abilities", "characteristics": ["Description"]},
            ],
            "units": [{"profile": {}, **unit} for unit in units],
        }
    )


def weapon(name: str, *carriers: tuple[str, int]) -> dict:
    return {
        "type": "weapon",
        "name": name,
        "values": ["4"],
        "carried_by": [{"name": model, "count": count} for model, count in carriers],
    }


def first_cells(army: Handout, ui: dict[str, str] = ENGLISH) -> dict[str, str]:
    """Each equipment row's first cell, by the profile's name."""
    equipment, _ = profile_blocks(army, ui)
    cells = [row.cells[0].text for table in equipment for row in table.rows]
    return {cell.split("\n")[0]: cell for cell in cells}


DEVASTATORS = [
    {
        "id": "devastator-squad",
        "name": "Devastator Squad",
        "profiles": [
            weapon("Bolt pistol"),
            weapon("Boltgun", ("Devastator Marine Sergeant", 1)),
            weapon("Heavy bolter", ("Devastator Marine w/Heavy Weapon", 2)),
        ],
    }
]


def test_a_squads_weapon_some_of_its_models_carry_names_them_with_their_count_and_one_all_carry_nothing():
    cells = first_cells(handout(DEVASTATORS))
    assert cells["Heavy bolter"] == "Heavy bolter\n*Carried by 2 × Devastator Marine w/Heavy Weapon*"
    assert cells["Boltgun"] == "Boltgun\n*Carried by Devastator Marine Sergeant*"  # one model: no count
    assert cells["Bolt pistol"] == "Bolt pistol"


def test_a_row_several_units_hold_names_those_that_carry_it_whole_and_adds_up_like_models_of_the_others():
    cells = first_cells(
        handout(
            [
                {"id": "thane", "name": "Thane", "profiles": [weapon("Hand Weapon"), weapon("Great Weapon")]},
                {"id": "warriors", "name": "Dwarf Warriors", "profiles": [weapon("Hand Weapon")]},
                {"id": "cannon", "name": "Cannon", "profiles": [weapon("Hand Weapon", ("Dwarf Crew", 3))]},
                {"id": "organ-gun", "name": "Organ Gun", "profiles": [weapon("Hand Weapon", ("Dwarf Crew", 3))]},
            ]
        )
    )
    assert cells["Hand Weapon"] == "Hand Weapon\n*Carried by Thane, Dwarf Warriors, 6 × Dwarf Crew*"
    # its one unit carries it whole: named, as a Warcry fighter's own weapon is (issue #46: every row says who)
    assert cells["Great Weapon"] == "Great Weapon\n*Carried by Thane*"


def test_a_row_every_unit_of_the_army_carries_whole_names_no_one():
    army = [{"id": name.lower(), "name": name, "profiles": [weapon("Hand Weapon")]} for name in ("Thane", "Warriors")]
    assert first_cells(handout(army))["Hand Weapon"] == "Hand Weapon"


def test_two_units_of_one_name_stay_two_and_a_whole_unit_named_like_a_model_is_never_added_to_it():
    """MESBG's warbands are named after their heroes: the second Captain's warband carries its heavy armour whole,
    the first one's Captain and 8 of its warriors do (mesbg-warband.ros, tested whole in test_making.py)."""
    armour = weapon("Heavy Armour")
    cells = first_cells(
        handout(
            [
                {
                    "id": "captain",
                    "name": "Captain",
                    "profiles": [weapon("Heavy Armour", ("Captain", 1), ("Warrior", 8)), weapon("Sword")],
                },
                {"id": "captain-2", "name": "Captain", "profiles": [armour, weapon("Sword", ("Captain", 1))]},
                {"id": "captain-3", "name": "Captain", "profiles": [armour]},
            ]
        )
    )
    assert cells["Heavy Armour"] == "Heavy Armour\n*Carried by Captain \u00d72 (whole unit), Captain, 8 × Warrior*"
    assert cells["Sword"] == "Sword\n*Carried by Captain (whole unit), Captain*"


def test_units_of_one_name_carrying_a_row_whole_are_counted_and_named_plainly_when_no_model_shares_it():
    two = [{"id": f"boyz-{n}", "name": "Boyz", "profiles": [weapon("Choppa")]} for n in (1, 2)]
    squig = {"id": "squig", "name": "Squigs", "profiles": [weapon("Choppa", ("Squig Herder", 1))]}
    assert first_cells(handout([*two, squig]))["Choppa"] == "Choppa\n*Carried by Boyz \u00d72, Squig Herder*"


def test_a_whole_unit_is_said_in_the_handouts_language():
    french = words.ui_words(Project.at(LIBRARY), "fr", False)
    army = handout(
        [
            {"id": "captain", "name": "Captain", "profiles": [weapon("Heavy Armour", ("Captain", 1))]},
            {"id": "captain-2", "name": "Captain", "profiles": [weapon("Heavy Armour")]},
        ]
    )
    assert first_cells(army, french)["Heavy Armour"] == "Heavy Armour\n*Porté par Captain (unité entière), Captain*"


def test_the_line_is_in_the_handouts_language():
    french = words.ui_words(Project.at(LIBRARY), "fr", False)
    cells = first_cells(handout(DEVASTATORS), french)
    assert cells["Heavy bolter"] == "Heavy bolter\n*Porté par 2 × Devastator Marine w/Heavy Weapon*"


def test_an_ability_names_its_units_beside_it_and_no_line_under_it():
    ability = {"type": "abilities", "name": "Signum", "values": ["BS 2+"], "carried_by": [{"name": "Sergeant"}]}
    army = handout([{**DEVASTATORS[0], "profiles": [ability]}, {"id": "captain", "name": "Captain"}])
    _, abilities = profile_blocks(army, ENGLISH)
    assert [row.cells[0].text for table in abilities for row in table.rows] == ["Signum (Devastator Squad)"]


def test_a_star_in_a_carriers_name_is_not_taken_for_the_end_of_the_italics():
    cells = first_cells(handout([{**DEVASTATORS[0], "profiles": [weapon("Gun", ("Brother \\*Vex", 1))]}]))
    assert cells["Gun"] == "Gun\nCarried by Brother \\*Vex"


def test_an_ability_told_apart_on_import_is_not_named_with_its_unit_twice():
    assert handout_profiles._carried("Invulnerable Save (The Silent King)", ["The Silent King"], 3) == (
        "Invulnerable Save (The Silent King)"
    )
    assert (
        handout_profiles._carried("Invulnerable Save", ["The Silent King"], 3) == "Invulnerable Save (The Silent King)"
    )
    assert handout_profiles._carried("Invulnerable Save", ["The Silent King"], 1) == "Invulnerable Save"


def test_in_the_middle_earth_game_a_whole_unit_is_a_whole_warband_in_each_language():
    """MESBG's units are warbands, named after their heroes: the second Captain's warband carries its armour whole."""
    army = handout(
        [
            {"id": "captain", "name": "Captain", "profiles": [weapon("Heavy Armour", ("Captain", 1))]},
            {"id": "captain-2", "name": "Captain", "profiles": [weapon("Heavy Armour")]},
        ]
    ).model_copy(update={"game": "Middle-Earth Strategy Battle Game"})
    french = words.ui_words(Project.at(LIBRARY), "fr", False)
    assert first_cells(army)["Heavy Armour"] == "Heavy Armour\n*Carried by Captain (whole warband), Captain*"
    assert first_cells(army, french)["Heavy Armour"] == "Heavy Armour\n*Porté par Captain (bande entière), Captain*"


def test_long_texts_of_a_kind_with_short_values_print_under_their_row_across_the_table_labelled():
    """A Middle-earth power's rule (754 characters in mesbg-moria.ros) and its channelled effect, under the row of
    its name and duration; a kind of one long text (an ability's description) keeps it in its column."""
    rule, channelled = "The target may not move. " * 12, "The target halves its Fight. " * 10
    army = Handout.model_validate(
        {
            "handout": "powers",
            "army": "Army",
            "lang": "en",
            "date": "2026-11-27",
            "profile_types": [
                {"id": "power", "name": "Magical Power", "characteristics": ["Duration", "Rule", "Channelled"]},
                {"id": "abilities", "name": "Abilities", "characteristics": ["Description"]},
            ],
            "units": [
                {
                    "id": "shaman",
                    "name": "Shaman",
                    "profile": {},
                    "profiles": [
                        {"type": "power", "name": "Immobilise", "values": ["Temporary", rule, channelled]},
                        {"type": "power", "name": "Fury", "values": ["Exhaustion", "Short.", "-"]},
                        {"type": "abilities", "name": "Terror", "values": [rule]},
                    ],
                }
            ],
        }
    )
    _, [powers, abilities] = profile_blocks(army, ENGLISH)
    assert [column.title for column in powers.header] == ["Magical Power", "Duration"]
    assert [[cell.text for cell in row.cells] for row in powers.rows] == [
        ["Immobilise", "Temporary"],
        [f"**Rule**: {rule}\n**Channelled**: {channelled}"],
        ["Fury", "Exhaustion"],
        ["**Rule**: Short."],
    ]
    assert [row.under for row in powers.rows] == [False, True, False, True]
    assert [row.cells[0].span for row in powers.rows[1::2]] == [2, 2]
    assert [column.title for column in abilities.header] == ["Abilities", "Description"]
    assert [[cell.text for cell in row.cells] for row in abilities.rows] == [["Terror", rule]]
