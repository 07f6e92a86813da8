"""Every roster fixture that tests/fixtures/rosters/bsdata/README.md says `assemble.py` wrote is written again, from
the catalogues at the commit its line names and with its command line, and must come out byte for byte the same.

The BSData repositories are read from bare git directories under $QRS_BSDATA_MIRRORS, one per repository, named
`owner+name` (the git directory itself, or in its `repo` folder: `git clone --bare https://github.com/BSData/wh40k-9e
BSData+wh40k-9e`); without it every roster is skipped, and a roster whose repository is not there, saying which."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

FOLDER = ROOT / "tests" / "fixtures" / "rosters" / "bsdata"
SCRIPT = FOLDER / "assemble.py"
MIRRORS = Path(os.environ["QRS_BSDATA_MIRRORS"]) if os.environ.get("QRS_BSDATA_MIRRORS") else None
# A README line of a roster assemble.py wrote ends in its command line: "- `NAME.ros`: … `--name …`."
ASSEMBLED = re.compile(r"^- `(?P<roster>[^`]+\.ros)`: (?P<source>.*?): `(?P<command>--name [^`]*)`", re.MULTILINE)
REPOSITORY = re.compile(r"\bBSData/(?P<name>[\w.-]+)")
COMMIT = re.compile(r"(?:@|=) (?P<commit>[0-9a-f]{7,40})\b")
FILE = re.compile(r"`(?P<file>[^`]+\.(?:gst|cat))`")


@dataclass(frozen=True)
class Recipe:
    """How one roster was written: the repository and commit, the game system and catalogues, the options."""

    roster: str
    repository: str
    commit: str
    game: str
    catalogues: tuple[str, ...]
    options: tuple[str, ...]


def recipes() -> list[Recipe]:
    """The README's recipes in its order; a line that says "the same" keeps the repository, commit and game system
    of the line before unless it names its own."""
    found: list[Recipe] = []
    repository = commit = game = ""
    for line in ASSEMBLED.finditer((FOLDER / "README.md").read_text(encoding="utf-8")):
        source = line["source"]
        repository = (REPOSITORY.search(source) or {"name": repository})["name"]
        commit = (COMMIT.search(source) or {"commit": commit})["commit"]
        files = [match["file"] for match in FILE.finditer(source)]
        game = next((file for file in files if file.endswith(".gst")), game)
        catalogues = tuple(file for file in files if file.endswith(".cat"))
        found.append(Recipe(line["roster"], repository, commit, game, catalogues, tuple(shlex.split(line["command"]))))
    return found


def git_directory(repository: str) -> Path | None:
    folder = MIRRORS / f"BSData+{repository}"
    for candidate in (folder / "repo", folder / "repo" / ".git", folder):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def extract(git: Path, commit: str, name: str, into: Path) -> Path:
    """The file named so anywhere in the repository at that commit, written into the folder."""
    listed = subprocess.run(
        ["git", "--git-dir", str(git), "ls-tree", "-r", "--name-only", commit],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    path = next((each for each in listed if each.rpartition("/")[2] == name), None)
    assert path is not None, f"{name!r} is not in {git} at {commit}"
    written = into / name
    written.write_bytes(
        subprocess.run(
            ["git", "--git-dir", str(git), "show", f"{commit}:{path}"], capture_output=True, check=True
        ).stdout
    )
    return written


def assemble(recipe: Recipe, git: Path, into: Path) -> Path:
    """The roster the recipe writes, in the folder."""
    files = [extract(git, recipe.commit, name, into) for name in (recipe.game, *recipe.catalogues)]
    out = into / recipe.roster
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(out), *map(str, files), *recipe.options], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return out


RECIPES = recipes()


def script():
    """assemble.py as a module (it is a script beside the fixtures, not a part of the package)."""
    spec = importlib.util.spec_from_file_location("assemble", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_gives_every_roster_it_has_a_command_line_for_a_recipe():
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    assert len(RECIPES) == readme.count(": `--name ") > 0
    for recipe in RECIPES:
        assert (FOLDER / recipe.roster).is_file(), recipe.roster
        assert recipe.repository and recipe.commit and recipe.game and recipe.catalogues, recipe


@pytest.mark.slow  # a process and a catalogue parse each: 2 s or more (tests/slow.py), kept here with its file
@pytest.mark.parametrize("recipe", RECIPES, ids=[recipe.roster for recipe in RECIPES])
def test_assemble_writes_the_committed_roster_again(recipe: Recipe, tmp_path: Path):
    if MIRRORS is None:
        pytest.skip("QRS_BSDATA_MIRRORS names no folder of BSData's repositories (bare git directories)")
    git = git_directory(recipe.repository)
    if git is None:
        pytest.skip(f"no git directory of BSData/{recipe.repository} under {MIRRORS} (set QRS_BSDATA_MIRRORS)")
    written = assemble(recipe, git, tmp_path)
    assert written.read_bytes() == (FOLDER / recipe.roster).read_bytes(), f"{recipe.roster} differs: {written}"


def test_both_ways_of_picking_inside_a_pick_are_read():
    assemble = script()
    name, category, number, picks = assemble.parse_pick("Ork Boy@Specialist*2+A W/ B*3>Grenade*0,Gun+Band/Warrior*6")
    assert (name, category, number) == ("Ork Boy", "Specialist", 2)
    assert picks == [("A W/ B", 3, [("Grenade", 0, []), ("Gun", 1, [])]), ("Band/Warrior", 6, [])]
    # a name offered whole is no path; a path picks in its head, at 1 unless the head is picked itself
    assert assemble.nested(picks, {"A W/ B", "Band"}) == [
        ("A W/ B", 3, [("Grenade", 0, []), ("Gun", 1, [])]),
        ("Band", 1, [("Warrior", 6, [])]),
    ]
    assert assemble.nested([("Band", 2, []), ("Band/Warrior", 6, [])], {"Band"}) == [("Band", 2, [("Warrior", 6, [])])]
