"""Where a column may end: every position between two units of the pieces, those the keep rules admit, and the
columns that may start at a position with what each costs against the rules (generator.rendering.layout chooses
among them). Nothing here renders."""

from __future__ import annotations

from generator.rendering.pieces import Piece, Position, column_height


def forced(pieces: list[Piece], position: Position) -> str | None:
    index, unit = position
    return pieces[index].breaks_before if unit == 0 and 0 < index < len(pieces) else None


def positions(pieces: list[Piece]) -> tuple[list[Position], set[int]]:
    """Every position between two units, in reading order, and the indices of those the keep rules admit
    (a piece's start, its `breaks`, the end): the others are the least bad breaks of a relaxed plan."""
    found: list[Position] = []
    admissible: set[int] = set()
    for index, piece in enumerate(pieces):
        admissible.add(len(found))
        found.append((index, 0))
        breaks = set(piece.breaks())
        for unit in range(1, len(piece.units)):
            if unit in breaks:
                admissible.add(len(found))
            found.append((index, unit))
    admissible.add(len(found))
    found.append((len(pieces), 0))
    return found, admissible


# What a column against the rules costs the plan, before its holes: an overfull column runs off the page, so it
# weighs more than any number of breaks against the keep rules (a sheet has far fewer columns than this).
AGAINST_KEEPS = 1
OVERFULL = 10_000


def columns_from(
    pieces: list[Piece], positions: list[Position], admissible: set[int], a: int, room: float, relaxed: bool = False
):
    """(b, height, badness) for every column that can hold positions[a] to positions[b]: all that fit, up to the
    next forced break; when not even the first step fits, that step alone (overfull). Where none fits and
    `relaxed`: the least bad columns instead (least_bad)."""
    index, unit = positions[a]
    fits, first = False, True
    for b in range(a + 1, len(positions)):
        if b not in admissible:
            continue
        step, first = first, False
        if unit and positions[b][0] == index and not pieces[index].keeps(unit, positions[b][1]):
            continue  # a fragment in the middle of a block keeps as many units as each of its ends
        height = column_height(pieces, positions[a], positions[b])
        if height > room and not step:
            break
        if height <= room:
            fits = True
        elif relaxed and len(pieces[index].units) > 1:
            break  # a piece that splits: its least bad columns rather than this overfull one
        yield b, height, badness(pieces, positions, admissible, a, b, height, room)
        if height > room or forced(pieces, positions[b]):
            break
    if relaxed and not fits:
        yield from least_bad(pieces, positions, admissible, a, room)


def least_bad(pieces: list[Piece], positions: list[Position], admissible: set[int], a: int, room: float):
    """From a position the keep rules leave no column from: every fragment of its piece that fits, broken
    between any two units; else its next unit alone, overfull."""
    index = positions[a][0]
    if len(pieces[index].units) < 2:
        return  # a piece that never splits: columns_from gave it whole, overfull
    fitting = False
    for b in range(a + 1, len(positions)):
        height = column_height(pieces, positions[a], positions[b])
        if height > room:
            break
        fitting = True
        yield b, height, badness(pieces, positions, admissible, a, b, height, room)
        if positions[b][0] != index:
            break  # the piece's end
    if not fitting:
        height = column_height(pieces, positions[a], positions[a + 1])
        yield a + 1, height, badness(pieces, positions, admissible, a, a + 1, height, room)


def badness(pieces, positions, admissible: set[int], a: int, b: int, height: float, room: float) -> int:
    """What the column from positions[a] to positions[b] costs against the rules: OVERFULL if taller than `room`,
    AGAINST_KEEPS if it starts or ends where the keep rules allow no break, or is a fragment too short to keep."""
    bad = OVERFULL if height > room else 0
    (index, unit), (stop_index, stop) = positions[a], positions[b]
    short = unit and stop_index == index and not pieces[index].keeps(unit, stop)
    if a not in admissible or b not in admissible or short:
        bad += AGAINST_KEEPS
    return bad
