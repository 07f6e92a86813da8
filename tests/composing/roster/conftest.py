"""Every roster of tests/fixtures/rosters/ imported and built once a session, for test_making.py and test_facts.py
alike (tests/scheduling.py runs both files on one worker): each built its handouts apart, a third of the rosters
twice, in the two slowest setups of the suite."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator import write
from tests.conftest import FIXTURES, LIBRARY, kept_folder, run_qrs
from tests.reading.rosters.test_selections import EXPECTED

ROSTERS = sorted(path for path in (FIXTURES / "rosters").rglob("*") if path.suffix in (".ros", ".rosz"))
# the rosters whose facts were drafted by hand: test_making.py checks their handouts in every language they list
CHECKED_IN_EVERY_LANGUAGE = [path.name.removesuffix(".expected.json") for path in EXPECTED]


def handout_id(roster: Path) -> str:
    return roster.name.split(".")[0]


@dataclass(frozen=True)
class Imported:
    sources: Path  # a copy of the fixture library's sources, every roster imported into it without --sheet
    handouts: Path  # the PDFs built: the checked ones in every language they list, the others in English
    reports: dict[str, str]  # what each import said (its stderr), by handout id


@pytest.fixture(scope="session")
def rosters_imported(request, tmp_path_factory) -> Imported:
    """The sources made again each session, the rosters imported into them; their build folder kept from one
    session to the next in pytest's cache folder (conftest.kept_folder), as `built` keeps its own: the command's
    manifest builds again only the handouts whose inputs changed (a warm run imports, and builds none)."""
    folder = kept_folder(request, tmp_path_factory, "qrs-rosters")
    sources = folder / "sources"
    reports = {}
    with write.locked(folder / ".lock"):
        shutil.rmtree(sources, ignore_errors=True)
        shutil.copytree(LIBRARY, sources)
        for roster in ROSTERS:
            result = run_qrs("--sources", str(sources), "handout", "import", str(roster), "--id", handout_id(roster))
            assert result.returncode == 0, result.stderr
            reports[handout_id(roster)] = result.stderr
        others = [handout_id(roster) for roster in ROSTERS if handout_id(roster) not in CHECKED_IN_EVERY_LANGUAGE]
        for asked in (CHECKED_IN_EVERY_LANGUAGE, [*others, "--lang", "en"]):
            result = run_qrs("--sources", str(sources), "handout", *asked, "--jobs", "1")
            assert result.returncode == 0, result.stderr
    return Imported(sources, folder / "build" / "handouts", reports)
