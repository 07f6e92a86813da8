"""The packer: measured blocks in, a plan of columns out (on the page geometry of generator.model.geometry; what it
is told and answers, generator.rendering.pieces). Nothing here renders.

WeasyPrint's CSS columns split tables anywhere (break-inside is not honoured on tables) and balancing
them is its slowest step. So the generator measures every block once, in one column of the final width
(generator.rendering.measure), and this module decides where the columns break, as a line breaker decides where
lines break: among every admissible break point, in reading order, the plan that uses the fewest pages,
then leaves the smallest largest hole at the foot of a column, then the most even columns.

A block may continue into the next column between two of its units (table rows, steps, paragraphs),
keeping at least `MIN_UNITS` of them, or (rendering.told.side_rule) one paragraph three lines tall or two rows
as tall as four lines, on each side; the continuation repeats its title and table header, and a
column that starts inside a section repeats the section's heading. A block's own heading, title and
intro are measured as part of its first unit's fragment, so they never end a column alone; a table's sub-heading
row keeps the two rows after it, and a column that starts among its rows repeats it.

There is always a plan. Where those rules leave none (rows so tall that every fragment that keeps them is taller
than a column, a block taller than every column), the packer plans again, allowed the least bad breaks where
nothing else fits: between any two units, else one unit alone, overfull. The Packing names the pieces so placed
(`broken`, `overfull`), for the build to warn of them.

A wide block (`wide`, or a table too wide for a column) spans the page, measured at the page's width:
generator.rendering.bands.pack_bands sets each run of them in a band across a page, under the balanced columns of
what comes before it (`Packing.feet`) or across the top of a page (`Packing.bands`), and packs what lies between
two bands with `pack`, the columns beside a band that much shorter (`Capacity.tops`, `last_page_foot`).
"""

from __future__ import annotations

from dataclasses import replace

from generator.model.geometry import (  # noqa: F401
    COLUMN_GAP_MM,
    HALF,
    MARGINS_MM,
    PAPER_MM,
    PX_PER_MM,
    RULE_MM,
    Frame,
    frame,
    page_frame,
)
from generator.rendering import breaks
from generator.rendering.pieces import (  # noqa: F401
    MAX_HOLE,
    MIN_UNITS,
    SAFETY_MM,
    Capacity,
    Fragment,
    Packing,
    Piece,
    Plan,
    Position,
    against_keeps,
    column_height,
    fragments,
    holes,
)

LOPSIDED = 0.25  # the share of its height a column of the last page may end below a column after it (_lopsided)


def pack(pieces: list[Piece], capacity: Capacity) -> Packing:
    """The best plan: the fewest pages; then no blank column on the last page where its content can fill every
    column; then the smallest largest hole at the foot of the columns before the last page (columns ended by a
    forced break aside); then the last page's columns balanced (none ending more than LOPSIDED below a column after
    it, then the smallest tallest column, then the most even); then the smallest sum of squared holes. Never fails:
    what it placed against the rules, it names.

    A piece kept together that could continue (`soft_keep`) is planned whole, unless that leaves a hole over
    MAX_HOLE (`holes`): then it may yield, split between its units, where a plan so leaves fewer such holes (the
    softened objective: after the pages and blank columns, the fewest holes over MAX_HOLE and the smallest (`_big`),
    then the fewest such splits, then the objective above). A row cut softly (`Piece.soft`) yields so too."""
    if not pieces:
        return Packing([[[]]], [[0.0]])
    firm = [piece.firm() for piece in pieces]
    whole_keeps = [
        replace(piece, units=(), soft_keep=False, soft=frozenset()) if piece.soft_keep else firmly
        for piece, (firmly, _) in zip(pieces, firm)
    ]
    # The rules alone first: a sheet they can plan is planned as they say, however many pages the least bad
    # breaks would save. Only where they leave no plan, or a block that splits runs past a column's foot, are
    # those breaks allowed.
    strict = _pack(whole_keeps, capacity, relaxed=False)
    if strict is not None and not any(len(whole_keeps[index].units) > 1 for index in strict.overfull):
        # (a piece kept together taller than a column stays whole, told overfull: the author cuts it)
        yielding = any(piece.soft_keep or piece.soft for piece in pieces)
        if not strict.overfull and yielding and holes(strict, capacity):
            softened = _pack(pieces, capacity, relaxed=False, softened=True)
            if (
                softened is not None
                and softened.pages <= strict.pages
                and not softened.overfull
                and len(holes(softened, capacity)) < len(holes(strict, capacity))
            ):
                return softened
        return _unfirmed(strict, firm)
    return _unfirmed(_pack(whole_keeps, capacity, relaxed=True) or _salvage(whole_keeps, capacity), firm)


def _unfirmed(packing: Packing, firm: list[tuple[Piece, tuple[int, ...]]]) -> Packing:
    """A plan of the pieces with their soft cuts undone (Piece.firm), its fragments' units numbered as the pieces'
    own (a fragment stops before a unit, or runs to the piece's end: None)."""

    def unit(index: int, number: int | None) -> int | None:
        starts = firm[index][1]
        return starts[number] if starts and number is not None else number

    if any(starts for _, starts in firm):
        packing.plan = [
            [
                [
                    replace(
                        fragment, start=unit(fragment.index, fragment.start), stop=unit(fragment.index, fragment.stop)
                    )
                    for fragment in column
                ]
                for column in page
            ]
            for page in packing.plan
        ]
    return packing


def _pack(pieces: list[Piece], capacity: Capacity, relaxed: bool, softened: bool = False) -> Packing | None:
    """The best plan by `pack`'s objective, or None where there is none; `relaxed`: with the least bad break from
    every position from which the rules fit nothing in a column (and without the last page's pruning, which
    assumes no column is overfull); `softened`: by the softened objective, first the fewest holes over MAX_HOLE and
    the smallest, then the fewest soft splits (`soft_keep`, `soft`). A plan's cost, column by column: (badness,
    holes over MAX_HOLE weighed by size (`_big`), soft splits, the largest hole, the sum of squared holes); the last
    two alone weigh without `softened` (the others are then 0)."""
    positions, admissible = breaks.positions(pieces)
    end = len(positions) - 1
    count = capacity.columns
    spans: dict[tuple[int, float], list] = {}  # (a, room) → every column from positions[a]: computed once

    def columns_from(a: int, room: float) -> list:
        found = spans.get((a, room))
        if found is None:
            found = spans[a, room] = list(breaks.columns_from(pieces, positions, admissible, a, room, relaxed))
        return found

    # best[column][b]: (cost, a, previous column) of the best plan whose column `column` ends at positions[b]
    best: dict[int, dict[int, tuple[tuple, int, int]]] = {-1: {0: ((0, 0, 0, 0.0, 0.0), -1, -1)}}
    balanced: dict[float, dict] = {}  # room → the last page's memo
    page = 0
    while True:
        first = page * count
        starts = [
            (cost, column, a)
            for column, reached in best.items()
            if column < first
            for a, (cost, _, _) in reached.items()
            if a != end and _following(pieces, positions, count, column, a) == first
        ]
        room = capacity.of(first) - capacity.last_page_foot
        memo = balanced.setdefault(room, {})
        chosen = None
        for cost, column, a in starts:
            last = _last_page(pieces, positions, columns_from, memo, a, room, count, relaxed, softened, capacity.safety)
            if last is None:
                continue
            (overfull, blank, big, softs, lopsided, tallest, spread), ends = last
            rank = (
                cost[0] + overfull,
                blank,
                cost[1] + big,
                cost[2] + softs,
                cost[3],
                lopsided,
                round(tallest, 1),
                spread,
                cost[4],
            )
            if chosen is None or rank < chosen[0]:
                chosen = (rank, column, a, ends)
        if chosen is not None:
            return _plan(pieces, positions, admissible, best, chosen, capacity, page)
        for column in range(first - 1, first + count - 1):
            for a, (cost, _, _) in list(best.get(column, {}).items()):
                if a != end:
                    _extend(pieces, positions, capacity, best, column, a, cost, columns_from, softened)
        # no column reached on or after this page's first: no later page can start (every column ends further on)
        if page > len(positions) or not any(best.get(column) for column in range(first, first + 2 * count)):
            return None
        page += 1


def _salvage(pieces: list[Piece], capacity: Capacity) -> Packing:
    """Every piece whole, one a column: a plan where the relaxed packer found none (it always finds one; this
    keeps `pack` from failing a build should it not), every piece taller than its column named overfull."""
    count = capacity.columns
    plan: Plan = [
        [[Fragment(index)] for index in range(start, min(start + count, len(pieces)))]
        for start in range(0, len(pieces), count)
    ]
    used = [[pieces[fragment.index].height for (fragment,) in page] for page in plan]
    overfull = [index for index, piece in enumerate(pieces) if piece.height > capacity.of(index) + capacity.safety]
    return Packing(plan, used, overfull, salvaged=True)


def _following(pieces, positions, count: int, column: int, a: int) -> int:
    """The column that goes on from positions[a], after `column`: the next, or the next page's first after a
    forced page break."""
    following = column + 1
    if breaks.forced(pieces, positions[a]) == "page" and following % count:
        following += count - following % count  # the rest of the page stays empty
    return following


def _soft(pieces, position: Position) -> bool:
    """Whether a column ending at `position` splits a piece kept together (`Piece.soft_keep`), or a row cut softly
    (`Piece.soft`)."""
    index, unit = position
    return unit > 0 and (pieces[index].soft_keep or unit in pieces[index].soft)


def _big(hole: float, room: float, safety: float) -> float:
    """What `hole` millimetres at the foot of a column of `room` (less `safety`) cost the softened plan: nothing up
    to MAX_HOLE of it; over it one, and more as it grows, up to two for a blank column (a column half empty weighs
    more than one 16 % empty): the fewest such holes first, then the smallest."""
    share = (hole + safety) / (room + safety)
    return 0.0 if share <= MAX_HOLE else 1.0 + (share - MAX_HOLE) / (1 - MAX_HOLE)


def _extend(pieces, positions, capacity, best, column, a, cost, columns_from, softened: bool = False) -> None:
    """Every next column from positions[a], after `column`."""
    following = _following(pieces, positions, capacity.columns, column, a)
    room = capacity.of(following)
    for b, height, bad in columns_from(a, room):
        if b == len(positions) - 1:
            continue  # the last page is planned whole, balanced (_last_page)
        exempt = breaks.forced(pieces, positions[b]) is not None
        hole = 0.0 if exempt else max(0.0, room - height)
        big = _big(hole, room, capacity.safety) if softened and not exempt else 0.0
        soft = int(_soft(pieces, positions[b]))
        candidate = (cost[0] + bad, cost[1] + big, cost[2] + soft, max(cost[3], hole), cost[4] + hole * hole)
        reached = best.setdefault(following, {})
        if b not in reached or candidate < reached[b][0]:
            reached[b] = (candidate, a, column)


def _last_page(
    pieces,
    positions,
    columns_from,
    memo,
    a: int,
    room: float,
    count: int,
    relaxed: bool = False,
    softened: bool = False,
    safety: float = 0.0,
):
    """The best way to set everything from positions[a] on one page of `count` columns of `room`: (rank, the
    column ends), ranked by overfull columns, blank columns, then (`softened`) the columns but the last that end
    more than MAX_HOLE below the tallest and the soft splits, then how far a column ends below a later one
    (`_lopsided`), then the tallest column, then the spread of the columns' heights; None if it does not fit one
    page. The plans weighed: the balanced one in each count of columns, and each first column with the rest balanced
    (`_first_filled`). Softened, each column count is tried with the fewest soft splits and with the smallest
    tallest column (balanced, splitting what it must)."""
    best = None
    found = [
        _balance(pieces, positions, columns_from, memo, a, room, used, relaxed, order)
        for used in range(count, 0, -1)
        for order in (("fewest", "balanced") if softened else ("fewest",))
    ]
    if count > 1:
        found += _first_filled(pieces, positions, columns_from, memo, a, room, count, relaxed)
    for plan in found:
        if plan is None:
            continue
        (overfull, softs, tallest, squares, total), ends = plan
        used = len(ends)
        spread = squares / used - (total / used) ** 2  # the variance of the columns' heights
        heights = [column_height(pieces, positions[start], positions[stop]) for start, stop in zip((a, *ends), ends)]
        big = sum(_big(max(heights) - height, room, safety) for height in heights[:-1]) if softened else 0
        rank = (overfull, count - used, big, softs, _lopsided(heights, room, safety), tallest, round(spread, 3))
        if best is None or rank < best[0]:
            best = (rank, ends)
    return best


def _lopsided(heights: list[float], room: float, safety: float) -> float:
    """How far a column of the last page ends below a column after it, at most, as a share of the column: nothing up
    to LOPSIDED. A balanced page's columns end about level; a column 30 % full before two full ones reads as a hole
    (OSE's French combat tables, imported: a matrix that never splits did not fit under the first column's text).
    Ranked after the other pages' holes (`pack`), before the tallest column: a page a little uneven stays balanced."""
    worst = later = 0.0
    for height in reversed(heights):
        worst, later = max(worst, later - height), max(later, height)
    share = (worst + safety) / (room + safety) if room + safety > 0 else 0.0
    return share if share > LOPSIDED else 0.0


def _first_filled(pieces, positions, columns_from, memo, a: int, room: float, used: int, relaxed: bool):
    """The last page's plans in `used` columns whose first column ends at each place it may, the others balanced
    (as _balance returns a plan). The balanced plan makes the tallest column shortest; where blocks that never split
    make it put a short column before full ones (30 %, then 70 and 69 %: the matrix did not fit under the first
    column's text), one of these fills the first column and leaves the last one short, as a typesetter would."""
    end = len(positions) - 1
    for b, height, badness in columns_from(a, room):
        if height > room or b == end or breaks.forced(pieces, positions[b]) == "page":
            continue
        rest = _balance(pieces, positions, columns_from, memo, b, room, used - 1, relaxed)
        if rest is None:
            continue
        (bad, softs, tallest, squares, total), ends = rest
        yield (
            (
                bad + badness,
                softs + _soft(pieces, positions[b]),
                max(tallest, height),
                squares + height * height,
                total + height,
            ),
            (b, *ends),
        )


def _balance(
    pieces, positions, columns_from, memo, a: int, room: float, used: int, relaxed: bool = False, order: str = "fewest"
):
    """Everything from positions[a] in exactly `used` columns, none empty: ((badness, soft splits, tallest, sum of
    squared heights, sum of heights), the positions each column ends at), or None: the fewest soft splits before
    the smallest tallest column (`order` "fewest"), or after it ("balanced"). Pruned where the content cannot fit
    `used` columns, unless `relaxed`: an overfull column may then hold it."""
    end = len(positions) - 1
    if (a, used, order) in memo:
        return memo[a, used, order]
    weigh = (lambda cost: cost) if order == "fewest" else (lambda cost: (cost[0], cost[2], cost[1], *cost[3:]))
    found = None
    if used == 1 or relaxed or _lower_bound(pieces, positions[a]) <= used * room:
        for b, height, badness in columns_from(a, room):
            if b != end and breaks.forced(pieces, positions[b]) == "page":
                continue  # the page ends there: it is not the last
            if used == 1:
                if b != end:
                    continue
                rest = ((0, 0, 0.0, 0.0, 0.0), ())
            elif b == end:
                continue
            else:
                rest = _balance(pieces, positions, columns_from, memo, b, room, used - 1, relaxed, order)
                if rest is None:
                    continue
            (bad, softs, tallest, squares, total), ends = rest
            cost = (
                bad + badness,
                softs + _soft(pieces, positions[b]),
                max(tallest, height),
                squares + height * height,
                total + height,
            )
            if found is None or weigh(cost) < weigh(found[0]):
                found = (cost, (b, *ends))
    memo[a, used, order] = found
    return found


def _lower_bound(pieces, start: Position) -> float:
    """The least height everything from `start` takes (a continuation only adds to it)."""
    index, unit = start
    total = pieces[index].fragment(unit, len(pieces[index].units)) if index < len(pieces) else 0.0
    return total + sum(piece.height for piece in pieces[index + 1 :])


def _plan(pieces, positions, admissible, best, chosen, capacity, page) -> Packing:
    rank, column, a, ends = chosen
    count = capacity.columns
    columns: dict[int, tuple[int, int]] = {}  # column → (start, end) position indices
    start = a
    for slot, b in enumerate(ends):  # the last page
        columns[page * count + slot] = (start, b)
        start = b
    b = a
    while column >= 0:
        _, previous_a, previous = best[column][b]
        columns[column] = (previous_a, b)
        b, column = previous_a, previous
    plan: Plan = [[[] for _ in range(count)] for _ in range(page + 1)]
    used = [[0.0] * count for _ in plan]
    overfull, broken = [], []
    # the columns a forced break ends, or leaves empty (the rest of a page after a page break): no hole
    exempt = {divmod(column, count) for column in range(page * count)}
    softs = 0
    for column, (a, b) in sorted(columns.items()):
        page_index, slot = divmod(column, count)
        if breaks.forced(pieces, positions[b]) is None:
            exempt.discard((page_index, slot))
        softs += _soft(pieces, positions[b])
        placed = fragments(pieces, positions[a], positions[b])
        used[page_index][slot] = column_height(pieces, positions[a], positions[b])
        foot = capacity.last_page_foot if page_index == page else 0.0
        if used[page_index][slot] > capacity.of(column) + capacity.safety - foot:
            overfull.append(placed[0].index)
        broken += [
            fragment.index
            for fragment in placed
            if against_keeps(pieces[fragment.index], fragment) and fragment.index not in broken
        ]
        plan[page_index][slot] = placed
    while plan[-1] and not plan[-1][-1]:  # the last page's unused columns
        plan[-1].pop()
        used[-1].pop()
    return Packing(
        plan, used, overfull, broken, largest_hole=rank[4], blank=count - len(ends), exempt=exempt, softened=softs
    )
