"""The type scale's decision (generator.rendering.fit.choose_scale), with fake layouts: no WeasyPrint.

A fake sheet holds `content` pages' worth of blocks at 100 %; at scale s it holds content × s^1.5 (the estimate
fit makes itself) and takes as many whole pages as that fills, unless told otherwise. Then the fallbacks: grown type
that fails keeps 100 %, and what the build says of a laid-out sheet's pages.
"""

from __future__ import annotations

from math import ceil
from types import SimpleNamespace

import pytest

from generator.rendering import findings, fit, heights, layout


class Fake:
    """An `attempt` callable that records the scales it was asked for."""

    def __init__(self, content: float, pages_at=None, hole_at=lambda scale: 0.0):
        self.content = content
        self.pages_at = pages_at or (lambda scale, fill: ceil(fill - 1e-9))
        self.hole_at = hole_at  # the largest hole at the foot of a column, mm
        self.tried: list[float] = []

    def fill(self, scale: float) -> float:
        return self.content * scale**1.5

    def __call__(self, scale: float) -> fit.Attempt:
        self.tried.append(scale)
        fill = self.fill(scale)
        return fit.Attempt(scale, self.pages_at(scale, fill), blank=0, hole=self.hole_at(scale), fill=fill)


def frame(most: int | None) -> layout.Frame:
    return layout.frame("A4", "landscape", 3, most)


@pytest.fixture
def cache(tmp_path):
    return heights.Cache(tmp_path / "heights.json", read=False)  # no decision kept: every choice is made afresh


def chosen(fake: Fake, most: int | None, cache, imposed: bool = False) -> fit.Attempt:
    return fit.choose_scale(fake, frame(most), cache, "key", imposed)


@pytest.mark.parametrize("most", [None, 2])
def test_a_sheet_that_fits_one_page_at_full_size_stays_one_page_though_larger_type_would_fill_two(cache, most):
    # half a page's content: the estimate asks for the largest type, which pushes a block onto a second page
    fake = Fake(0.5, pages_at=lambda scale, fill: 1 if scale <= 1 else 2)
    found = chosen(fake, most, cache)
    assert found.pages == 1 and found.scale == 1.0
    assert any(scale > 1 for scale in fake.tried)  # larger type was tried, and refused for its extra page


def test_type_grows_to_fill_the_one_page_it_takes_never_to_reach_the_most_declared(cache):
    fake = Fake(0.5)
    found = chosen(fake, 2, cache)
    assert found.pages == 1 and found.scale > 1
    assert found.scale == max(scale for scale in fake.tried if fake.fill(scale) <= 1)


def test_a_declared_most_of_two_for_content_of_two_pages_and_a_third_sets_the_type_smaller_to_fit_two(cache):
    fake = Fake(2.3)
    found = chosen(fake, 2, cache)
    assert found.pages == 2 and found.scale < 1
    assert found.scale == max(scale for scale in fit.SHRINK if fake.fill(scale) <= 2)  # as close to 100 % as fits


def test_without_a_most_type_is_set_smaller_only_where_that_saves_a_whole_page(cache):
    saves = Fake(2.3)
    assert chosen(saves, None, cache).pages == 2
    cannot = Fake(2.5)  # more than 2 pages even at 90 %: kept at 100 %, and no smaller layout is tried for it
    found = chosen(cannot, None, cache)
    assert found.pages == 3 and found.scale >= 1 and min(cannot.tried) == 1.0


def test_a_most_the_content_cannot_fit_even_at_the_smallest_type_keeps_full_size_type(cache):
    tried_smaller = Fake(2.2, pages_at=lambda scale, fill: 3)  # blocks that never split: 3 pages at any size
    found = chosen(tried_smaller, 2, cache)
    assert found.pages == 3 and found.scale >= 1 and min(tried_smaller.tried) == fit.SHRINK[-1]
    beyond = Fake(2.9)  # even 81 % of it (heights shrinking as the type's size squared) is more than 2 pages
    found = chosen(beyond, 2, cache)
    assert found.pages == 3 and found.scale >= 1 and min(beyond.tried) == 1.0  # no smaller layout costs a render


def test_growth_never_adds_a_page_to_what_the_sheet_takes_at_full_size(cache):
    for content in (0.3, 0.6, 1.2, 1.5, 2.4):
        fake = Fake(content)
        normal = ceil(content)
        found = chosen(fake, None, cache)
        assert found.pages == normal and found.scale >= 1, content


def test_imposed_half_pages_are_never_set_larger(cache):
    fake = Fake(0.5)
    assert chosen(fake, None, cache, imposed=True).scale == 1.0 and fake.tried == [1.0]


def test_the_page_count_a_variant_keeps_is_the_one_the_sheet_itself_is_laid_out_on(cache):
    for content, most in ((0.5, None), (2.3, 2), (2.3, None), (3.4, 3)):
        assert fit.page_count(Fake(content), frame(most), cache, "key") == chosen(Fake(content), most, cache).pages


# --- the scale predicted from the heights at 100 % -----------------------------------------------------------


def estimates(fake: Fake, wrong=lambda scale, pages: pages):
    """fit.choose_scale's `predict` for a fake: its own fill at the scale (the s^1.5 estimate), packed into pages
    as the fake packs them, told `wrong` where the estimate is to be mistaken; nothing is laid out."""

    def predict(normal: fit.Attempt, scale: float, low: fit.Attempt | None = None) -> fit.Attempt:
        assert normal.scale == 1.0
        fill = fake.fill(scale)
        return fit.Attempt(
            scale, wrong(scale, fake.pages_at(scale, fill)), blank=0, hole=fake.hole_at(scale), fill=fill
        )

    return predict


CASES = [
    (0.3, None),
    (0.5, 2),
    (0.6, None),
    (1.2, 2),
    (1.5, None),
    (2.3, 2),
    (2.3, None),
    (2.5, None),
    (2.9, 2),
    (3.4, 3),
]


@pytest.mark.parametrize(("content", "most"), CASES)
def test_a_right_estimate_chooses_the_searchs_scale_and_lays_out_only_100_percent_and_it_or_two(cache, content, most):
    searched = chosen(Fake(content), most, cache)
    fake = Fake(content)
    found = fit.choose_scale(fake, frame(most), cache, "key", False, predict=estimates(fake))
    assert (found.scale, found.pages) == (searched.scale, searched.pages)
    assert fake.tried == sorted(set(fake.tried), key=fake.tried.index)  # no scale laid out twice
    steps = list(fit.SCALES)
    above = {steps[steps.index(found.scale) - 1]} if found.scale in fit.SHRINK[1:] else set()
    assert set(fake.tried) <= {1.0, found.scale} | above  # and the step above smaller type, which does not fit


@pytest.mark.parametrize(("content", "most"), CASES)
def test_an_estimate_the_layout_does_not_confirm_falls_back_to_the_search(cache, content, most):
    searched = chosen(Fake(content), most, cache)
    fake = Fake(content)
    wrong = estimates(fake, wrong=lambda scale, pages: max(1, pages - 1))  # a page too few at every other scale
    found = fit.choose_scale(fake, frame(most), cache, "key", False, predict=wrong)
    assert (found.scale, found.pages) == (searched.scale, searched.pages)  # grown type included: the search's
    assert len(fake.tried) == len(set(fake.tried))  # each scale laid out once, the estimate's included


@pytest.mark.parametrize(("content", "most"), CASES)
def test_a_too_pessimistic_estimate_costs_at_most_grown_or_shrunk_type_never_a_page(cache, content, most):
    searched = chosen(Fake(content), most, cache)
    fake = Fake(content)
    wrong = estimates(fake, wrong=lambda scale, pages: pages + 1)  # a page too many at every other scale
    found = fit.choose_scale(fake, frame(most), cache, "key", False, predict=wrong)
    assert found.pages == searched.pages and found.scale <= searched.scale
    if searched.scale < 1:
        assert found.scale == searched.scale  # the step above smaller type is laid out: the largest that fits


def test_a_smaller_type_the_estimate_rules_out_wrongly_is_found_by_laying_out_the_step_above(cache):
    searched = chosen(Fake(2.05), 2, cache)  # two pages at 97.5 %
    assert searched.scale == fit.SHRINK[0]
    fake = Fake(2.05)
    wrong = estimates(fake, wrong=lambda scale, pages: 3 if scale == fit.SHRINK[0] else pages)  # leads to 95 %
    found = fit.choose_scale(fake, frame(2), cache, "key", False, predict=wrong)
    assert found.pages == 2 and found.scale == fit.SHRINK[0] and fake.tried == [1.0, fit.SHRINK[1], fit.SHRINK[0]]


def test_smaller_type_estimated_right_is_confirmed_by_the_step_above_not_fitting(cache):
    fake = Fake(2.3)  # two pages at 90 % only
    found = fit.choose_scale(fake, frame(2), cache, "key", False, predict=estimates(fake))
    assert found.scale == chosen(Fake(2.3), 2, cache).scale == fit.SHRINK[-1]
    assert fake.tried == [1.0, fit.SHRINK[-1], fit.SHRINK[-2]]  # where the search laid out five scales


def test_a_grown_scale_its_layout_does_not_confirm_is_searched_on_real_layouts(cache):
    """warhammer's English sheet on Letter kept 100 % and a hole of 16 % when an unconfirmed grown scale ended the
    search: the search on real layouts finds the type that fills the page."""

    def pages_at(scale, fill):
        return 1 if scale <= fit.GROW[3] else 2  # larger type than 110 % pushes a block onto a second page

    assert chosen(Fake(0.5, pages_at), 1, cache).scale == fit.GROW[3]  # the search finds 110 %
    fake = Fake(0.5, pages_at)
    found = fit.choose_scale(
        fake, frame(1), cache, "key", False, predict=estimates(fake, wrong=lambda scale, pages: 1)
    )  # one page at any size
    assert found.scale == fit.GROW[3] and found.pages == 1 and len(fake.tried) == len(set(fake.tried))


def test_grown_type_the_page_does_not_bear_out_is_estimated_again_from_both_layouts(cache):
    """warhammer's French sheet: estimated from 100 % alone, 112.5 % fills the page; laid out, a block that never
    splits leaves a hole. Estimated again from the two layouts, the scale chosen is laid out alone, not every step."""

    def pages_at(scale, fill):
        return 1 if scale <= fit.GROW[3] else 2  # larger type than 110 % pushes a block onto a second page

    fake = Fake(0.5, pages_at)
    right = estimates(fake)

    def predict(normal, scale, other=None):  # wrong from 100 % alone, right from two layouts
        return right(normal, scale) if other is not None else fit.Attempt(scale, 1, 0, 0.0, fake.fill(scale))

    found = fit.choose_scale(fake, frame(1), cache, "key", False, predict=predict)
    assert found.scale == fit.GROW[3] == chosen(Fake(0.5, pages_at), 1, cache).scale
    assert fake.tried == [1.0, fit.GROW[-1], fit.GROW[3]]


@pytest.mark.parametrize(("content", "most"), CASES)
@pytest.mark.parametrize("mistake", [-1, 0, 1])
def test_the_page_count_a_variant_keeps_is_the_same_from_estimates_right_or_wrong(cache, content, most, mistake):
    fake = Fake(content)
    wrong = estimates(fake, wrong=lambda scale, pages: max(1, pages + mistake))
    assert fit.page_count(fake, frame(most), cache, "key", wrong) == fit.page_count(
        Fake(content), frame(most), cache, "key"
    )
    assert len(fake.tried) == len(set(fake.tried)) and all(scale <= 1 for scale in fake.tried)


def test_an_estimate_that_no_smaller_type_fits_is_not_trusted(cache):
    fake = Fake(2.3)  # fits two pages at a smaller type; the estimate says it never does
    found = fit.choose_scale(fake, frame(2), cache, "key", False, predict=estimates(fake, wrong=lambda scale, pages: 3))
    assert found.pages == 2 and found.scale == chosen(Fake(2.3), 2, cache).scale


@pytest.mark.parametrize(("content", "scale"), [(2.3, fit.SHRINK[-1]), (2.15, fit.SHRINK[1])])
def test_smaller_type_the_first_estimate_misses_is_found_from_the_smallest_laid_out_and_the_step_above(
    cache, content, scale
):
    """A roster's tables wrap more as type shrinks, so heights at 100 % scaled as s^1.5 say no smaller type fits:
    the smallest is laid out, estimates between it and 100 % start the walk, the step above confirms it."""
    fake = Fake(content)
    right = estimates(fake)

    def predict(normal, at, low=None):
        return right(normal, at) if low is not None else fit.Attempt(at, 3, 0, 0.0, fake.fill(at))

    found = fit.choose_scale(fake, frame(2), cache, "key", False, predict=predict)
    assert (found.scale, found.pages) == (scale, 2) == (chosen(Fake(content), 2, cache).scale, 2)
    above = fit.SHRINK[fit.SHRINK.index(scale) - 1]
    assert fake.tried == [1.0, fit.SHRINK[-1]] + ([scale] if scale != fit.SHRINK[-1] else []) + [above]


def test_an_estimate_that_fails_leaves_the_choice_to_the_search(cache):
    def failing(normal, scale, low=None):
        raise AssertionError("the packer found no plan")

    fake = Fake(0.5)
    found = fit.choose_scale(fake, frame(2), cache, "key", False, predict=failing)
    assert found.scale == chosen(Fake(0.5), 2, cache).scale


# --- fallbacks and findings ---------------------------------------------------------------------------------

FRAME = layout.frame("A4", "landscape", columns=3, pages=2)


def short_sheet(failing: set[float]):
    """An attempt for a sheet that fills half its pages at 100 % (so grown type is tried), failing at `failing`
    as a packer or a measurement might; the scales asked for are kept in `.tried`."""

    def attempt(scale: float) -> fit.Attempt:
        attempt.tried.append(scale)
        if scale in failing:
            raise AssertionError("the packer found no plan")
        return fit.Attempt(scale, pages=1, blank=0, hole=0.0, fill=0.5 * scale**1.5, plan=("plan at", scale))

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
    return SimpleNamespace(
        document=SimpleNamespace(pages=[None] * pages),
        plan=[[]] * planned,
        frame=layout.frame("A4", "portrait", 2, declared),
        strict=strict,
    )


@pytest.mark.parametrize("strict", [True, False])
def test_the_page_count_finding_never_names_a_limit_the_pages_are_within(strict):
    told = {}
    for pages in range(1, 7):
        for planned in range(1, pages + 1):
            for declared in range(1, 7):
                message = findings._pages_finding(laid(pages, planned, declared, strict))
                told[pages, planned, declared] = message
                if message and "must fit" in message:
                    assert pages > int(message.split("must fit ")[1].split(",")[0])
    # the roster's sheet: 4 pages laid out, 3 planned, 5 declared
    assert told[4, 3, 5] == (
        "the sheet takes 4 pages where 3 were planned: a block taller than its column runs onto "
        "the next (the block named split below: shorten it)"
    )
    assert (told[3, 3, 2] is not None) == strict and told[2, 2, 2] is None


def test_blocks_placed_against_the_rules_are_warned_of_by_name_once():
    packing = layout.Packing([[[]]], overfull=[2], broken=[0, 1, 2])
    flagged = ["page 1 column 2: block 'wargear' continued with 2 row(s) on a side"]
    warnings = findings.placement_defects(packing, ["wargear", "steps", "giant"], flagged)
    assert [warning.split(" is ")[0] for warning in warnings] == ["block 'steps'", "block 'giant'"]
    assert "too tall" in warnings[0] and "taller than its column" in warnings[1]


def test_a_hole_at_100_percent_the_estimates_cannot_fill_is_searched_on_real_layouts(cache):
    """warhammer's English sheet on Letter: a hole of 26 mm at 100 %, and estimates (heights × s^1.5) that find no
    scale to fill it; the real layouts do, at 112.5 %. Where blocks fall is what estimated heights tell worst."""
    limit = fit.GROWN_HOLE * frame(2).column_height

    def attempt(scale: float) -> fit.Attempt:
        attempt.tried.append(scale)
        hole = 1.5 * limit if scale < fit.GROW[4] else 0.0  # filled at 112.5 % and above
        return fit.Attempt(scale, 2, blank=0, hole=hole, fill=1.2 * scale**1.5)

    attempt.tried = []

    def predict(
        normal: fit.Attempt, scale: float, low: fit.Attempt | None = None
    ) -> fit.Attempt:  # every scale keeps the hole
        return fit.Attempt(scale, 2, blank=0, hole=1.5 * limit, fill=1.2 * scale**1.5)

    found = fit.choose_scale(attempt, frame(2), cache, "key", False, predict=predict)
    assert found.scale >= fit.GROW[4] and found.hole == 0.0 and any(scale > 1 for scale in attempt.tried)


def test_where_the_estimates_are_not_trusted_grown_type_they_say_adds_a_page_is_not_laid_out(cache):
    """A hole at 100 % the estimates find no scale to fill (they are not trusted: the search runs on real layouts);
    the scales the estimates put on a page more (112.5 % and above, as the real layouts do) are not laid out, and
    the type is grown to the largest that keeps the pages and fills the hole."""
    limit = fit.GROWN_HOLE * frame(2).column_height

    def attempt(scale: float) -> fit.Attempt:
        attempt.tried.append(scale)
        pages = 3 if scale >= fit.GROW[4] else 2
        return fit.Attempt(scale, pages, blank=0, hole=0.0 if scale > 1 else 1.5 * limit, fill=1.2 * scale**1.5)

    attempt.tried = []

    def predict(
        normal: fit.Attempt, scale: float, low: fit.Attempt | None = None
    ) -> fit.Attempt:  # right on pages, wrong on the hole
        return fit.Attempt(scale, 3 if scale >= fit.GROW[4] else 2, blank=0, hole=1.5 * limit, fill=1.2 * scale**1.5)

    found = fit.choose_scale(attempt, frame(2), cache, "key", False, predict=predict)
    assert found.pages == 2 and 1 < found.scale < fit.GROW[4]
    assert not [scale for scale in attempt.tried if scale >= fit.GROW[4]]  # ruled out by their estimates


def test_grown_type_the_layouts_made_estimate_on_a_page_more_is_not_laid_out(cache):
    """A 2,000-point roster handout: 3 pages at 100 %, its tables keeping it on 3 even at 90 % (laid out: an
    estimate that no smaller type fits is not trusted), and a page more from 105 %, where estimates from 100 %
    alone say grown type keeps 3 pages. The steps the layouts made estimate on 4 pages are not laid out."""
    fake = Fake(2.3, pages_at=lambda scale, fill: 4 if scale >= fit.GROW[1] else 3)

    def predict(normal, scale, other=None):  # from 100 % alone: grown type keeps 3 pages; from two layouts, right
        truth = fake.pages_at(scale, 0.0)
        return fit.Attempt(scale, truth if other is not None else 3, blank=0, hole=0.0, fill=2.3 * scale**1.5)

    found = fit.choose_scale(fake, frame(None), cache, "key", False, predict=predict)
    assert found.scale == 1.0 and found.pages == 3
    # 100 %, 90 % (no page saved); then 110, 107.5 and 105 % foreseen on 4 pages from those two
    assert fake.tried == [1.0, fit.SHRINK[-1]]


def test_where_the_smallest_type_saves_no_page_grown_type_is_estimated_from_it_not_tried_step_by_step(cache):
    """whfb8's dwarfs (a 2-page handout that 90 % type does not fit on one page): the search lays out 90 %, then
    115, 112.5 and 110 %, each leaving a hole, and keeps 100 %; estimated from the layouts at 100 and 90 % (right),
    the same steps leave the same holes: 100 % with no grown layout. Where the estimates find a step that fills the
    pages, it is laid out alone."""

    def hole_at(scale):
        return 50.0 if scale > fit.GROW[1] else 0.0  # larger type than 105 % leaves a block's hole

    searched = Fake(1.2, hole_at=hole_at)
    assert chosen(searched, None, cache).scale == 1.0
    assert [scale for scale in searched.tried if scale > 1] == [fit.GROW[-1], fit.GROW[-2], fit.GROW[-3]]
    fake = Fake(1.2, hole_at=hole_at)
    found = fit.choose_scale(fake, frame(None), cache, "key", False, predict=estimates(fake))
    assert (found.scale, found.pages) == (1.0, 2) and fake.tried == [1.0, fit.SHRINK[-1]]

    def fills(scale):
        return 50.0 if scale > fit.GROW[4] else 0.0  # larger type than 112.5 % leaves a hole

    assert chosen(Fake(1.2, hole_at=fills), None, cache).scale == fit.GROW[4]
    fake = Fake(1.2, hole_at=fills)
    found = fit.choose_scale(fake, frame(None), cache, "key", False, predict=estimates(fake))
    assert (found.scale, found.pages) == (fit.GROW[4], 2) and fake.tried == [1.0, fit.SHRINK[-1], fit.GROW[4]]
