"""`qrs init DIR`: a starter library outside this checkout, as `mkdocs new` makes a site: `sources/` with one
sheet (the commented example `qrs new` writes), the schema its editor reads, a `.gitignore` and a short README.
The installed `qrs` builds, checks and tests it as it is.

It writes only into a folder that is new or empty, so that it never mixes its files with a library's."""

from __future__ import annotations

import re
from pathlib import Path

import click

from generator import write
from generator.cli.options import language_codes
from generator.errors import UserError
from generator.project import Project
from generator.report import current as reporter

GITIGNORE = "/build/\n"
README = """\
# {game}

A library of quick-reference sheets made with qrs: one YAML source per sheet in `sources/`, printed to PDF and
to a web page in `build/`.

```sh
qrs check            # the sources as qrs reads them: problems as file:line:column
qrs build            # build/{sheet}.{lang}.pdf, every sheet in every language it has
qrs build --all --format pdf --format html   # every sheet and handout, as PDFs and web pages
qrs test             # each sheet checks, builds, fits its pages and prints every cell of its source
qrs doctor           # what is installed, and what is stale
```

- `sources/{sheet}.yaml`: the sheet, one commented example of each block type; edit it, or start another with
  `qrs new other-game --game "Other Game" --lang {lang}`.
- `sources/figures/`: the pictures a sheet prints; `sources/handouts/`: army handouts, once you make one
  (`qrs handout import ROSTER.ros` from a BattleScribe roster).
- `schema/`: the JSON Schemas the first line of each source names, for an editor's completion (`qrs schema`
  writes them again).
- `build/`: what qrs writes; left out of git by `.gitignore`.

qrs's documentation: its README and `docs/` (the source format in `docs/authoring.md`).
"""


def sheet_id_of(game: str) -> str:
    """The starter sheet's id, from the game's name: "My Game" → my-game."""
    words = re.findall(r"[a-z0-9]+", game.lower())
    return "-".join(words)[:60].strip("-") or "my-game"


def refuse_unless_empty(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise UserError.at(folder, 0, 0, "not a folder: qrs init writes a library into a new or empty folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise UserError.at(
            folder,
            0,
            0,
            "this folder is not empty: qrs init writes a library into a new or empty "
            "folder only, so as never to mix with your files (give another DIR)",
        )


def create(folder: Path, game: str, lang: str) -> list[Path]:
    """The starter library's files, written into `folder` (new or empty); the files written."""
    from generator.cli import scaffold

    refuse_unless_empty(folder)
    sheet = sheet_id_of(game)
    project = Project.at(folder / "sources")
    written = scaffold.create(project, sheet, game, lang)
    for name, text in ((".gitignore", GITIGNORE), ("README.md", README.format(game=game, sheet=sheet, lang=lang))):
        write.text(folder / name, text, overwrite=False)
        written.append(folder / name)
    return written


@click.command("init")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--game", default="My Game", show_default=True, help="The game of the starter sheet.")
@click.option(
    "--lang",
    default="en",
    show_default=True,
    callback=language_codes,
    help="The language the starter sheet is written in (its examples in French or English).",
)
def init_command(folder: Path, game: str, lang: str) -> None:
    """Start a library in DIR (new or empty): sources/ with one sheet, the schema, .gitignore and a README."""
    for path in create(folder, game, lang):
        reporter().wrote(path)
    reporter().say(f"next: cd {folder} && qrs build (or qrs check, qrs test)")
