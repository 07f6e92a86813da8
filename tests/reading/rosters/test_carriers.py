"""Which models of a unit carry each of its profiles, read from real rosters' selection trees (BSData's catalogues,
tests/fixtures/rosters/bsdata/) and from small rosters written here for the shapes those lack: the models that hold
it with their numbers, or none when the unit itself holds it or its every model does."""

from __future__ import annotations

from xml.etree import ElementTree

from generator.reading.rosters.elements import Carrier
from tests.reading.rosters.test_selections import BSDATA, read_roster

NS = "http://www.battlescribe.net/schema/rosterSchema"


def carried(expected: str, unit: str) -> dict[str, list[tuple[str, int]]]:
    """Each profile of the first unit of that name with its carriers, as (name, count)."""
    _, roster = read_roster(BSDATA / f"{expected}.expected.json")
    entry = next(entry for entry in roster.units if entry.name == unit)
    return {profile.name: [(model.name, model.count) for model in profile.carried_by] for profile in entry.profiles}


def test_a_devastator_squads_heavy_weapons_are_carried_by_two_marines_each_its_pistols_by_every_model():
    carriers = carried("wh40k-9e-devastators", "Devastator Squad")
    assert carriers["Heavy bolter"] == [("Devastator Marine w/Heavy Weapon", 2)]
    assert carriers["Multi-melta"] == [("Devastator Marine w/Heavy Weapon", 2)]
    assert carriers["Boltgun"] == [("Devastator Marine Sergeant", 1)]
    # the Sergeant's and the four Marines' (two selections of 2): 5 of 5, the whole unit
    assert carriers["Bolt pistol"] == carriers["Frag grenades"] == carriers["Krak grenades"] == []


def test_a_member_written_as_an_upgrade_carries_its_special_weapon_and_like_models_add_up():
    carriers = carried("wh40k-8e", "Tactical Squad")
    assert carriers["Flamer"] == [("Space Marine w/Special Weapon", 1)]
    assert carriers["Missile launcher, Krak missile"] == [("Space Marine w/Heavy Weapon", 1)]
    assert carriers["Boltgun"] == [("Space Marine Sergeant", 1), ("Space Marine", 7)]  # 8 of 10
    assert carriers["Bolt pistol"] == []  # the Sergeant's, in an option group, and the 9 others'


def test_a_champion_and_a_war_machines_crew_carry_theirs_by_the_name_of_their_line():
    handgunners = carried("whfb8-empire", "Handgunners")
    assert handgunners["Hochland Long Rifle"] == [("Marksman", 1)]  # a Champion upgrade whose line is a Marksman
    assert handgunners["Handgun"] == handgunners["Hand Weapon"] == []  # on the unit itself
    cannon = carried("whfb8-empire", "Great Cannon")
    assert cannon["Cannon Ball"] == cannon["Grapeshot"] == [("Great Cannon", 1)]
    assert cannon["Hand Weapon"] == [("Crewman", 3)]
    assert carried("whfb8-empire", "Halberdiers")["Halberd"] == []


def test_a_warbands_group_counts_its_models_through_their_own_selection():
    """MESBG (the first of two warbands): the Rangers' profile sits on an upgrade, their four models on a
    profile-less child of it."""
    carriers = carried("mesbg-warband", "Captain of Minas Tirith")
    assert carriers["Bow"] == [("Ranger of Gondor", 4)]
    assert carriers["Heavy Armour"] == [("Captain of Minas Tirith", 1), ("Warrior of Minas Tirith", 8)]
    assert carriers["Sword"] == []  # the Captain, 8 warriors and 4 rangers: the whole warband


def test_a_fighter_of_one_model_carries_its_weapons_whole():
    _, roster = read_roster(BSDATA / "warcry-corvus-cabal.expected.json")
    assert all(not profile.carried_by for entry in roster.units for profile in entry.profiles)


def roster(models: str) -> ElementTree.Element:
    return ElementTree.fromstring(
        f'<roster xmlns="{NS}" gameSystemName="Test"><forces><force><selections>'
        f'<selection name="Squad" type="unit" number="1"><profiles>'
        f'<profile name="Trooper" typeName="Unit"><characteristics><characteristic name="M">6"</characteristic>'
        f'<characteristic name="T">4</characteristic><characteristic name="W">1</characteristic>'
        f'<characteristic name="Sv">3+</characteristic></characteristics></profile></profiles>'
        f"<selections>{models}</selections></selection></selections></force></forces></roster>"
    )


def weapon(name: str, number: int = 1) -> str:
    return (
        f'<selection name="{name}" type="upgrade" number="{number}"><profiles>'
        f'<profile name="{name}" typeName="Weapon"><characteristics><characteristic name="S">4</characteristic>'
        f"</characteristics></profile></profiles></selection>"
    )


def squad_carriers(models: str) -> dict[str, list[Carrier]]:
    from generator.composing.roster import roster_of

    (entry,) = roster_of(roster(models)).units
    return {profile.name: profile.carried_by for profile in entry.profiles}


def test_a_model_holding_a_weapon_twice_carries_it_once_and_a_named_model_carries_it_by_its_name():
    carriers = squad_carriers(
        f'<selection name="Trooper" type="model" number="4"><selections>{weapon("Knife", 4)}</selections></selection>'
        f'<selection name="Trooper w/Plasma" customName="Vex" type="model" number="1"><selections>'
        f'{weapon("Plasma gun")}<selection name="Holster" type="upgrade" number="1"><selections>{weapon("Plasma gun")}'
        f"</selections></selection></selections></selection>"
    )
    assert carriers["Plasma gun"] == [Carrier("Vex", 1)]
    assert carriers["Knife"] == [Carrier("Trooper", 4)]


def test_a_weapon_on_the_unit_itself_is_every_models_whatever_its_members_hold():
    carriers = squad_carriers(
        f'<selection name="Trooper" type="model" number="4"></selection>{weapon("Grenades")}'
        f'<selection name="Trooper w/Plasma" type="model" number="1"><selections>{weapon("Grenades")}'
        f"</selections></selection>"
    )
    assert carriers["Grenades"] == []
