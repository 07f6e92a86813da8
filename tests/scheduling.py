"""How the session's tests are shared among pytest-xdist's workers: by file (`--dist loadfile`, so that a module's
fixtures are made once), but every test of a file in tests/slow.py's SPREAD on its own, and the HEAVY files first:
taken in collection order, the longest tests would otherwise start last and run alone while the other worker
waits (the suite's wall time is its busiest worker's). The files in TOGETHER are one unit with the file they name."""

from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

from tests.slow import HEAVY, SPREAD, TOGETHER


class HeaviestFirst(LoadFileScheduling):
    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return nodeid if path in SPREAD else TOGETHER.get(path, path)


def heaviest_first(items: list) -> list:
    """The items, those of the HEAVY files first (in HEAVY's order), each file's tests in their own order."""

    def rank(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        path = TOGETHER.get(path, path)
        return HEAVY.index(path) if path in HEAVY else len(HEAVY)

    return sorted(items, key=rank)
