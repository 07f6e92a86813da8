"""Fitting a sheet to its pages: which type scale (generator.rendering.layout's objective, in order: the fewest
pages the content takes at 100 %, or fewer where type set smaller saves them; then type as close to 100 % as fits,
larger only to fill the pages it takes), from attempts at a scale it asks for (generator.rendering.told says what
the packer is told of each block). Nothing here renders: generator.rendering.render lays the pages out and asks.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.rendering import heights, layout, layout_report

# The type scale: 100 % unless the sheet does not fit the most pages allowed (or, without a most, unless a page is
# saved whole), then set smaller, a step at a time, down to SHRINK[-1] (7.6 pt body down to 6.84 pt); a short
# sheet's type is grown, up to GROW[-1], to fill the pages it takes at 100 %, never to take one more. A sheet whose
# content at 100 % fills more than FULL of its pages is not tried larger.
SHRINK = (0.975, 0.95, 0.925, layout_report.SMALLEST_SCALE)
GROW = (1.025, 1.05, 1.075, 1.1, 1.125, 1.15)
SCALES = (*reversed(GROW), 1.0, *SHRINK)  # every scale a sheet may be set at, largest first
FULL = 0.9
GROW_TRIES = 3  # layouts tried larger than 100 %, at most
GROWN_HOLE = 0.1  # the largest hole grown type may leave at the foot of a column (a share of its height)
# Heights shrink about as the type's size to the power 1.5; squared, the estimate is generous: content that would
# not fit even so is not tried smaller (a variant that cannot keep the sheet's pages costs no layout more).
SHRINKS_AT_MOST = SHRINK[-1] ** 2
OVERFULL_PAGES = 100  # a block too tall for any column ranks its attempt below any that fits, as so many pages more


def strict(sheet, options) -> bool:
    """Whether this is the sheet as its author declared it, whose most pages (`paper.pages`) the build enforces: not
    a variant the command line asks for (another paper, crop marks, ink saver, imposition, an errata sheet, change
    bars, glosses), which keeps the sheet's own page count where it can (generator.rendering.render.kept_pages)."""
    return not (
        getattr(options, "paper", None) not in (None, sheet.paper.size)
        or getattr(options, "crop_marks", False)
        or getattr(options, "ink_saver", False)
        or getattr(options, "impose", None)
        or getattr(options, "errata_only", False)
        or getattr(options, "changes_since", None)
        or getattr(options, "gloss", False)
    )


@dataclass
class Attempt:
    """The plan at one type scale."""

    scale: float
    pages: int
    blank: int  # columns of the last page left blank
    hole: float  # the largest hole at the foot of a column before the last page, millimetres
    fill: float  # the pages its content would take packed without a hole: 1.4
    plan: tuple = ()


def choose_scale(
    attempt,
    frame: layout.Frame,
    cache: heights.Cache,
    key: str,
    imposed: bool,
    ceiling: float | None = None,
    predict=None,
) -> Attempt:
    """The type scale (generator.rendering.layout's objective, in order): the fewest pages (settled); then type as
    close to 100 % as fits them, larger only to fill the pages the sheet takes at 100 %, where it adds no page, no
    hole and no blank column; (then the packer's: the smallest hole, the last page balanced). An imposed sheet's half
    pages are never set larger. The scale decided before for the same inputs (`key`) is tried alone. Type is grown
    only below `ceiling`. `attempt(scale)` lays the sheet out at a scale: the decision is tested without rendering.
    Grown type is a bonus: a layout larger than 100 % that fails in any way is not taken (`_speculative`).

    Each scale is laid out once a call (`_Once`). With `predict(normal, scale)`, an estimate of the attempt at a
    scale from the one at 100 % (`normal`) that renders nothing, the search first runs on those estimates
    (`predicted`) and only the scale it chooses is laid out: taken where it is as predicted, else the search
    runs again on real layouts."""
    attempt = _Once(attempt)
    decided = cache.decision(key, SCALES)
    if decided is not None and (ceiling is None or decided < ceiling):
        chosen = _speculative(attempt, decided)
        if chosen is not None:
            return chosen
    if predict is not None:
        chosen = predicted(attempt, predict, frame, imposed, ceiling)
        if chosen is not None:
            return chosen
        return _search(attempt, frame, imposed, ceiling, _adds_pages(attempt(1.0), predict), predict)
    return _search(attempt, frame, imposed, ceiling)


def _search(
    attempt, frame: layout.Frame, imposed: bool, ceiling: float | None, ruled_out=lambda scale: False, predict=None
) -> Attempt:
    """choose_scale's search, from 100 %: set smaller to fit, grown to fill, a step either way against a hole.
    Grown type is not laid out at a scale `ruled_out` (estimated to take a page or a blank column more); smaller
    type is looked for from `predict`'s estimates where given (settled)."""
    chosen = settled(attempt, frame.pages, predict)
    if imposed or (frame.pages is not None and chosen.pages > frame.pages):
        return chosen  # no larger type for half pages; no other scale for pages that overflow: the report says so
    if chosen.scale == 1.0 and chosen.fill < FULL * chosen.pages:
        chosen = _grown(
            attempt,
            frame,
            chosen,
            [scale for scale in GROW if (ceiling is None or scale < ceiling) and not ruled_out(scale)],
            predict,
        )
    if chosen.hole > GROWN_HOLE * frame.column_height:
        chosen = _without_hole(attempt, frame, chosen, ceiling, ruled_out)
    return chosen


def _adds_pages(normal: Attempt, predict):
    """Whether the estimate of grown type at a scale (`predict`, nothing rendered) takes more pages, or leaves more
    blank columns, than the layout at 100 %: the search on real layouts does not lay such a scale out (an estimate
    that fails rules nothing out). Where the estimate is wrong, the type is grown less, never on more pages."""

    def ruled_out(scale: float) -> bool:
        if scale <= 1.0:
            return False
        try:
            estimate = predict(normal, scale)
        except Exception:  # noqa: BLE001 - an estimate that cannot be packed: the real layout decides
            return False
        return estimate.pages > normal.pages or estimate.blank > normal.blank

    return ruled_out


GROWTH = 1.5  # a block's height at scale s: its height at 100 % × s^GROWTH (taller lines, more of them wrap)


def predicted(attempt, predict, frame: layout.Frame, imposed: bool, ceiling: float | None) -> Attempt | None:
    """The scale chosen by the search run on estimates (`predict(normal, scale)`: the heights measured at 100 %
    grown or shrunk as s^GROWTH, packed; nothing rendered) from the real layout at 100 %, then laid out for real
    and taken where it agrees with its estimate in all the search weighs: its pages, its blank columns, and whether
    its largest hole is within GROWN_HOLE (so that it passes every test the search put it to). Grown type that does
    not agree is estimated again, once, from the two layouts made (`predict(normal, scale, found)`: each block as its
    own two heights say), and the scale those estimates choose laid out. None where it does not agree, or the
    estimates fail: the caller searches on real layouts (those already made are not made again).
    The rule: a scale the estimates rule out is not laid out, but for smaller type, whose step above the one
    chosen is laid out too (`_larger_may_fit`): smaller type is the search's wherever the pages do not grow as type
    shrinks; an estimate that no smaller type fits is not trusted: the smallest type is laid out, as the search
    would (`_probe`), and where it saves no page, grown type is estimated from it and 100 %. Grown type is the
    search's where the estimates are right; where they rule out a grown scale that would have done, the type is
    grown less than the search would grow it, never on more pages. The shipped sheets and handouts get the search's
    scale (docs/performance.md)."""
    normal = attempt(1.0)
    limit = GROWN_HOLE * frame.column_height
    other = probe = None
    for _ in range(2):
        guess = _estimated(predict, normal, other, frame, imposed, ceiling)
        if guess is not None and guess.scale >= 1.0 and probe is None and _target(normal, frame.pages) is not None:
            # estimates that no smaller type fits are not trusted: the sheet would overflow, or take a page more
            probe = _probe(attempt, predict, normal, frame.pages, imposed)
            if probe is None:
                return None  # smaller type saves a page, or the sheet overflows its most: the search decides
            other = probe  # it saves none: grown type estimated from the two layouts, each block as its two heights say
            guess = _estimated(predict, normal, other, frame, imposed, ceiling)
        if guess is None:
            return None
        if guess.scale == 1.0:
            # nor those that no scale fills a hole at 100 %: where blocks fall is what an estimate of heights tells worst
            return normal if normal.hole <= limit else None
        found = _speculative(attempt, guess.scale)
        if found is None:
            return None
        if found.pages == guess.pages and found.blank == guess.blank and (found.hole <= limit) == (guess.hole <= limit):
            return found if not _larger_may_fit(attempt, normal, found, frame.pages) else None
        if found.scale < 1.0 or (other is not None and other is not probe):
            break
        other = found  # grown type the page does not bear out: estimated again from the two layouts made
    # an estimate the page does not bear out: the search on real layouts decides (grown type included: without it,
    # warhammer's English sheet on Letter stayed at 100 % with a hole of 16 % where the search grows it to fill)
    return None


def _probe(attempt, predict, normal: Attempt, most: int | None, imposed: bool) -> Attempt | None:
    """Where smaller type might save a page and the estimates say it does not, the search's own first step, on real
    layouts (settled: the smallest type first): the layout at the smallest type where it saves none, from which
    grown type is estimated (predicted) where the search on real layouts tried its grown steps one by one (a 2-page
    handout of whfb8's dwarfs laid out 90, 115, 112.5 and 110 %, each leaving a hole, to keep 100 %). None where it
    saves one, or the sheet does not fit its most, or its half pages are imposed: the search decides."""
    if imposed or settled(attempt, most, predict) is not normal or normal.pages > (most or normal.pages):
        return None
    return getattr(attempt, "made", {}).get(SHRINK[-1])


def _estimated(
    predict, normal: Attempt, other: Attempt | None, frame: layout.Frame, imposed: bool, ceiling: float | None
) -> Attempt | None:
    """The search run on estimates from the layout at 100 % (and `other`, a second layout, where given); None where
    an estimate cannot be packed."""
    failed = []

    def estimate(scale: float) -> Attempt:
        if scale == 1.0:
            return normal
        try:
            return predict(normal, scale) if other is None else predict(normal, scale, other)
        except Exception as error:  # noqa: BLE001 - estimates that cannot be packed: the real search decides
            failed.append(error)
            return Attempt(scale, OVERFULL_PAGES, 0, 0.0, normal.fill)

    guess = _search(estimate, frame, imposed, ceiling)
    return None if failed else guess


def _larger_may_fit(attempt, normal: Attempt, found: Attempt, most: int | None) -> bool:
    """Whether type set smaller to fit (`found`, real) fits as well a step nearer 100 %, laid out for real: the
    search takes the largest type that fits, and estimates from 100 % can rule out a scale that fits. Where the step
    above fits, the search decides on real layouts; where it does not, the choice is the search's wherever the
    pages do not grow as type shrinks."""
    target = _target(normal, most)
    if target is None or found.scale not in SHRINK[1:]:
        return False
    return attempt(SHRINK[SHRINK.index(found.scale) - 1]).pages <= target


class _Once:
    """An attempt made at most once a scale (a failure is not kept: it is raised again, or tried again)."""

    def __init__(self, attempt):
        self.attempt = attempt if not isinstance(attempt, _Once) else attempt.attempt
        self.made: dict[float, Attempt] = {}

    def __call__(self, scale: float) -> Attempt:
        if scale not in self.made:
            self.made[scale] = self.attempt(scale)
        return self.made[scale]


def _speculative(attempt, scale: float) -> Attempt | None:
    """The attempt at `scale`; None where a scale above 100 % fails in any way (an error measuring or packing
    type that was only to fill the pages better): the caller keeps the plan at 100 %. At 100 % and below an error
    is the sheet's own, and is raised."""
    if scale <= 1:
        return attempt(scale)
    try:
        return attempt(scale)
    except Exception:  # noqa: BLE001 - whatever failed, 100 % is the plan every sheet has
        return None


def settled(attempt, most: int | None, predict=None) -> Attempt:
    """The sheet at 100 %, or set smaller (down to SHRINK[-1], the largest type that fits) only to take fewer pages:
    within `most` where there is one; without one, a page fewer, where that saves a whole page (a player prints one
    sheet less for type 10 % smaller at most, as a declared most would ask). Where even the smallest type does not
    fit them, 100 %: smaller type would save no page that was asked for (the build or the report says so).

    The pages taken grow as type does: the largest type that fits is the one whose step above does not. Each step is
    laid out from the first, from 97.5 % down; with `predict(normal, scale, low)` (estimates between the layouts at
    100 % and at the smallest type, `low`), the smallest is laid out first and the walk starts at the largest type
    estimated to fit: a layout or two where the walk from the top took up to four. A step laid out before that fits
    starts the walk."""
    normal = attempt(1.0)
    target = _target(normal, most)
    if target is None:
        return normal  # it fits; or even the smallest type would not fit it (estimated): no layout is tried for it
    made = getattr(attempt, "made", {})  # laid out already (_Once): the largest that fits starts the walk
    index = next((index for index, scale in enumerate(SHRINK) if scale in made and made[scale].pages <= target), None)
    if index is None and predict is not None:
        low = attempt(SHRINK[-1])
        if low.pages > target:
            return normal
        index = next(
            index
            for index, scale in enumerate(SHRINK)
            if scale == low.scale or _estimated_pages(predict, normal, scale, low) <= target
        )
    index = index or 0
    fits = [attempt(SHRINK[index]).pages <= target]
    while fits[-1] and index > 0 and attempt(SHRINK[index - 1]).pages <= target:
        index -= 1
    while not fits[-1] and index < len(SHRINK) - 1:
        index += 1
        fits.append(attempt(SHRINK[index]).pages <= target)
    return attempt(SHRINK[index]) if fits[-1] else normal


def _estimated_pages(predict, normal: Attempt, scale: float, low: Attempt) -> int:
    try:
        return predict(normal, scale, low).pages
    except Exception:  # noqa: BLE001 - an estimate that cannot be packed: the layout decides
        return OVERFULL_PAGES


def _target(normal: Attempt, most: int | None) -> int | None:
    """The pages smaller type is tried for (settled), or None where the sheet at 100 % (`normal`) is not set
    smaller: it fits, or even the smallest type would not fit it (estimated)."""
    target = most if most is not None else normal.pages - 1
    if normal.pages <= target or target < 1 or normal.fill * SHRINKS_AT_MOST > target:
        return None
    return target


def page_count(attempt, frame: layout.Frame, cache: heights.Cache, key: str, predict=None) -> int:
    """The pages choose_scale would give the sheet, without its larger type (grown type never adds a page): from
    the scale decided before, else from settled (on estimates first where `predict` is given, as choose_scale)."""
    decided = cache.decision(key, SCALES)
    if decided is not None:
        return attempt(decided).pages
    attempt = _Once(attempt)
    found = predicted(attempt, predict, frame, True, None) if predict is not None else None  # imposed: not grown
    return (found or settled(attempt, frame.pages, predict)).pages


def _without_hole(
    attempt, frame: layout.Frame, chosen: Attempt, ceiling: float | None, ruled_out=lambda scale: False
) -> Attempt:
    """A hole near what the layout report flags, at the foot of a column before the last page (a block that never
    splits does not fit what is left of it): the type a step larger, else a step smaller (as close to 100 %: a step is
    2.5 %), where that takes no more pages, without such a hole."""
    index = SCALES.index(chosen.scale)
    for neighbour in (index - 1, index + 1):
        if (
            0 <= neighbour < len(SCALES)
            and (ceiling is None or SCALES[neighbour] < ceiling or SCALES[neighbour] <= 1)
            and not ruled_out(SCALES[neighbour])
        ):
            found = _speculative(attempt, SCALES[neighbour])
            if (
                found is not None
                and found.pages <= chosen.pages
                and found.hole <= GROWN_HOLE * frame.column_height
                and found.blank <= chosen.blank
            ):
                return found
    return chosen


def _grown(attempt, frame: layout.Frame, normal: Attempt, steps: list[float], predict=None) -> Attempt:
    """A short sheet's type, grown to fill the pages it takes at 100 %: the largest of `steps` that still fits them
    without a new hole or blank column (an attempt that takes a page more is refused), found from an estimate (a
    block's height grows about as the type's size to the power 1.5: its lines are taller, and more of them wrap)
    and at most GROW_TRIES layouts; a step that the layouts already made estimate to fail is not laid out
    (`_foreseen_to_fail`)."""
    estimate = (FULL * normal.pages / normal.fill) ** (1 / 1.5)
    below = [index for index, scale in enumerate(steps) if scale <= estimate + 1e-9]
    if not below:
        return normal
    best, index = normal, below[-1]
    limit = GROWN_HOLE * frame.column_height
    direction = 0
    for _ in range(GROW_TRIES):
        failing = _foreseen_to_fail(attempt, predict, normal, steps[index])
        found = None if failing else _speculative(attempt, steps[index])
        good = found is not None and found.pages <= normal.pages and found.blank <= normal.blank and found.hole <= limit
        if good and found.scale > best.scale:
            best = found
        step = 1 if good else -1
        if direction and step != direction:
            break
        direction, index = step, index + step
        if not 0 <= index < len(steps) or (direction < 0 and steps[index] <= best.scale):
            break
    return best


def _foreseen_to_fail(attempt, predict, normal: Attempt, scale: float) -> bool:
    """Whether grown type at `scale`, estimated from the layout at 100 % and the one laid out at the scale nearest
    it (each block grows as its own two heights say), takes a page more or leaves a blank column more. Not its
    holes: where blocks fall is what estimates tell worst (warhammer's English sheet on Letter fills its pages at
    112.5 %, estimated from 115 % with a hole of 20 %). False without a second layout or an estimate."""
    others = [made for made in getattr(attempt, "made", {}).values() if made.scale != 1.0]
    if predict is None or not others:
        return False
    try:
        estimate = predict(normal, scale, min(others, key=lambda made: abs(made.scale - scale)))
    except Exception:  # noqa: BLE001 - an estimate that cannot be packed: the layout decides
        return False
    return estimate.pages > normal.pages or estimate.blank > normal.blank
