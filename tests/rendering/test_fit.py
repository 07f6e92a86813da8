"""The type scale's search and what the build says of a laid-out sheet (generator.rendering.fit), without
WeasyPrint: the search takes the attempt at each scale as a function, the findings a laid-out sheet's numbers."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from generator.rendering import fit, heights, layout

FRAME = layout.frame("A4", "landscape", columns=3, pages=2)


def short_sheet(failing: set[float]):
    """An attempt for a sheet that fills half its pages at 100 % (so grown type is tried), failing at `failing`
    as a packer or a measurement might; the scales asked for are kept in `.tried`."""
    def attempt(scale: float) -> fit.Attempt:
        attempt.tried.append(scale)
        if scale in failing:
            raise AssertionError("the packer found no plan")
        return fit.Attempt(scale, pages=1, blank=0, hole=0.0, fill=0.5 * scale ** 1.5, plan=("plan at", scale))
    attempt.tried = []
    return attempt


def test_grown_type_that_fails_in_any_way_leaves_the_plan_at_100_percent(tmp_path):
    attempt = short_sheet(failing=set(fit.GROW))
    chosen = fit.choose_scale(attempt, FRAME, heights.Cache(tmp_path / "h.json"), "key", imposed=False)
    assert any(scale > 1 for scale in attempt.tried)  # grown type was tried, and failed
    assert chosen.scale == 1.0 and chosen.plan == ("plan at", 1.0)


def test_a_kept_decision_for_grown_type_that_fails_searches_again_from_100_percent(tmp_path):
    cache = heights.Cache(tmp_path / "h.json")
    cache.decide("key", fit.GROW[2])
    attempt = short_sheet(failing={fit.GROW[2]})
    chosen = fit.choose_scale(attempt, FRAME, cache, "key", imposed=False)
    assert attempt.tried[:2] == [fit.GROW[2], 1.0]
    assert chosen.scale != fit.GROW[2] and chosen.pages <= FRAME.pages


def test_a_failure_at_100_percent_is_the_sheets_own_and_is_raised(tmp_path):
    with pytest.raises(AssertionError):
        fit.choose_scale(short_sheet(failing={1.0}), FRAME, heights.Cache(tmp_path / "h.json"), "key", imposed=False)


def laid(pages: int, planned: int, declared: int, strict: bool = True) -> SimpleNamespace:
    return SimpleNamespace(document=SimpleNamespace(pages=[None] * pages), plan=[[]] * planned,
                           frame=layout.frame("A4", "portrait", 2, declared), strict=strict)


@pytest.mark.parametrize("strict", [True, False])
def test_the_page_count_finding_never_names_a_limit_the_pages_are_within(strict):
    told = {}
    for pages in range(1, 7):
        for planned in range(1, pages + 1):
            for declared in range(1, 7):
                message = fit._pages_finding(laid(pages, planned, declared, strict))
                told[pages, planned, declared] = message
                if message and "must fit" in message:
                    assert pages > int(message.split("must fit ")[1].split(",")[0])
    # the roster's sheet: 4 pages laid out, 3 planned, 5 declared
    assert told[4, 3, 5] == ("the sheet takes 4 pages where 3 were planned: a block taller than its column runs onto "
                             "the next (the block named split below: shorten it)")
    assert (told[3, 3, 2] is not None) == strict and told[2, 2, 2] is None


def test_blocks_placed_against_the_rules_are_warned_of_by_name_once():
    packing = layout.Packing([[[]]], overfull=[2], broken=[0, 1, 2])
    flagged = ["page 1 column 2: block 'wargear' continued with 2 row(s) on a side"]
    warnings = fit.placement_defects(packing, ["wargear", "steps", "giant"], flagged)
    assert [warning.split(" is ")[0] for warning in warnings] == ["block 'steps'", "block 'giant'"]
    assert "too tall" in warnings[0] and "taller than its column" in warnings[1]
