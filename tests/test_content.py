"""The user's library, sources/: the content suite (generator.output.content_checks, which `qrs test` runs) on every
sheet and handout it holds. The one test that reads sources/: the tool's own tests run on tests/fixtures/, so that a
new sheet, an imported draft, a roster handout or a catalogue in progress is judged here alone, by what any library
is held to: it checks, builds in each complete language, fits its pages and prints every cell of its source."""

from __future__ import annotations

import pytest

from generator.output import content_checks
from generator.project import Project
from tests.conftest import CONTENT_BUILD, ROOT, kept_folder

LIBRARY = ROOT / "sources"


def _ids() -> list[str]:
    """Every sheet, then every handout, of the library: one test each, named by its id."""
    if not LIBRARY.is_dir():
        return []
    return [path.stem for path in [*sorted(LIBRARY.glob("*.yaml")), *sorted((LIBRARY / "handouts").glob("*.yaml"))]]


@pytest.fixture(scope="module")
def project(request, tmp_path_factory) -> Project:
    """Outputs kept from one session to the next (pytest's cache folder), rebuilt where the manifest finds a change."""
    return Project.at(LIBRARY, kept_folder(request, tmp_path_factory, CONTENT_BUILD) / "build")


@pytest.mark.skipif(not _ids(), reason="no library in sources/ (qrs installed elsewhere)")
@pytest.mark.parametrize("name", _ids() or ["none"])
def test_the_librarys_sheets_and_handouts_pass_the_content_suite(project, name):
    outcome = content_checks.run(project, (name,), jobs=1)
    assert not outcome.problems, "\n".join(map(str, outcome.problems))
    assert outcome.sheets + outcome.handouts == 1
