"""Which of a unit's models carry each of its profiles, read from the unit's selection tree as BattleScribe and New
Recruit write it: a profile belongs to the nearest model that holds it (a selection typed model, a squad member
written as an upgrade, one with a stat line of its own: a Sergeant, a war machine's crew), else to the whole unit.
A Devastator Squad's heavy bolters are carried by 2 of its 5 models; its bolt pistols, by every one: by the unit."""

from __future__ import annotations

from xml.etree.ElementTree import Element

from generator.reading.rosters.elements import Carrier, children_of, entry_name, own_stat, profiles_of
from generator.reading.rosters.models import members_of, typed_models


def bearers(selection: Element, held: list[Element], stat_types: set[str]) -> dict[int, Element | None]:
    """Each selection's model, by the selection's id: the nearest model that holds it (itself included); None where
    no model of the unit does (the unit itself, its upgrades)."""
    models = {id(model) for model in typed_models(selection, held)}
    models |= {id(child) for child in held if child.get("type") == "model" or own_stat(child, stat_types)}
    found: dict[int, Element | None] = {id(selection): None}
    for parent in [selection, *held]:  # in document order: a parent before what it holds
        for child in children_of(parent):
            found[id(child)] = child if id(child) in models else found.get(id(parent))
    return found


def carriers(models: list[Element | None], unit_count: int, stat_types: set[str]) -> list[Carrier]:
    """The models that carry a profile, given the model of each selection that holds it: each name once with how
    many of them carry it, in the order met; none when the unit itself holds it or its every model carries it."""
    if not models or any(model is None for model in models):
        return []
    counted: dict[str, int] = {}
    for model in {id(model): model for model in models}.values():  # a model holding it twice carries it once
        name = _called(model, stat_types)
        counted[name] = counted.get(name, 0) + members_of(model, stat_types)
    if sum(counted.values()) >= unit_count:
        return []
    return [Carrier(name, min(count, 100_000)) for name, count in counted.items()]


def _called(model: Element, stat_types: set[str]) -> str:
    """A model as its carriers' line names it: the name its player gave it (a Kill Team operative's), else its own
    stat line's (a WHFB Champion's Marksman, the Crew's Crewman: as its line under the unit), else its entry's."""
    custom = (model.get("customName") or "").strip()
    stat = next((profile.name for profile in profiles_of(model) if profile.type in stat_types and profile.name), "")
    return custom or stat or entry_name(model)
