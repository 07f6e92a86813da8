"""The output formats (generator.output.formats): a format is one module and one line of the registry, and the
command line, the build, the manifest and the pipeline take it with nothing else changed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import click
import pytest

from generator.cli.options import checked_formats, own_options
from generator.options import BuildOptions
from generator.output import formats
from generator.output.targets import HandoutTarget, SheetTarget
from generator.project import Project
from tests.conftest import FIXTURES, ROOT

# A format of its own, as a contributor writes one: where its files go, what its option adds to their names, its
# option made into one typed value, and its rendering (here the title and each block's id, one a line).
TOY = '''"""Plain text: a sheet's title and the ids of its blocks, build/toy/<sheet>.<lang>.txt."""

from dataclasses import dataclass

import click

from generator.output.formats import Rendered, file_path

HELP = "the blocks' ids as plain text"
FOLDER = "toy"
OPTIONS = (click.option("--toy-indent", type=int, default=None, help="Spaces before each block's id."),)


@dataclass(frozen=True)
class ToyOptions:
    indent: int = 0


def own_options(params):
    return ToyOptions(params["toy_indent"]) if params.get("toy_indent") is not None else None


def variant(options):
    indent = options.of("toy", ToyOptions()).indent
    return f"indent-{indent}" if indent else None


def path(project, target, lang, variant=None):
    return file_path(project, FOLDER, target, lang, variant, "txt")


def render(project, prepared, options):
    indent = " " * options.of("toy", ToyOptions()).indent
    lines = [prepared.sheet.title or prepared.sheet.game, *(indent + block.id for block in prepared.sheet.blocks())]
    return Rendered("\\n".join(lines).encode("utf-8") + b"\\n")
'''


def test_each_registered_format_is_a_module_with_what_the_build_asks_of_it():
    project = Project.at(FIXTURES, FIXTURES.parent / "build")
    for name in formats.names():
        writer = formats.writer(name)
        assert writer.HELP and isinstance(writer.OPTIONS, tuple) and callable(writer.render)
        assert writer.own_options({}) is None  # no option of its own given: none made
    pdf, html = formats.writer("pdf"), formats.writer("html")
    plain, letter = BuildOptions(), BuildOptions(paper="letter", ink_saver=True, gloss=True)
    assert (
        pdf.path(project, SheetTarget(FIXTURES / "tiny-card.yaml"), "en", pdf.variant(letter))
        == project.build / "tiny-card.letter.ink-saver.gloss.en.pdf"
    )
    assert (
        html.path(project, HandoutTarget(FIXTURES / "army.yaml"), "fr", html.variant(letter))
        == project.build / "html" / "handouts" / "army.gloss.fr.html"
    )  # paper and ink are a PDF's: a page's name lacks them
    assert pdf.variant(plain) is None and html.variant(plain) is None


def test_formats_are_named_with_commas_or_the_option_given_again():
    assert checked_formats(None, None, ("pdf,html",)) == ("pdf", "html")
    assert checked_formats(None, None, ("html", "pdf", "HTML")) == ("html", "pdf")  # each once, in the order given
    assert checked_formats(None, None, ()) == ("pdf",)
    with pytest.raises(click.BadParameter, match="'docx' is not an output format: pdf, html"):
        checked_formats(None, None, ("pdf,docx",))
    assert own_options(("pdf", "html"), {}) == ()


def test_a_new_format_is_one_module_and_one_line_of_the_registry(tmp_path):
    """The issue's proof (#43): in a copy of the package, a toy format added by its module and one registry line
    is offered by --format, takes its own option to the worker as one typed value, builds a sheet and a handout,
    names its variants, and is found up to date by the manifest the second time."""
    package = tmp_path / "generator"
    shutil.copytree(ROOT / "generator", package, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "templates").symlink_to(ROOT / "templates")  # the templates beside the package, as in a checkout
    (package / "output" / "formats" / "toy.py").write_text(TOY, encoding="utf-8")
    registry = package / "output" / "formats" / "__init__.py"
    line = '    "html": "generator.output.formats.html",\n'
    registry.write_text(
        registry.read_text(encoding="utf-8").replace(line, line + '    "toy": "generator.output.formats.toy",\n'),
        encoding="utf-8",
    )
    shutil.copytree(FIXTURES / "library", tmp_path / "library", ignore=shutil.ignore_patterns("irregular*", "wab2*"))

    def qrs(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "generator", "--sources", "library/sources", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "PYTHONPATH": str(tmp_path), "QRS_JOBS": "1"},
        )

    assert "toy: the blocks' ids as plain text" in " ".join(qrs("build", "--help").stdout.split())
    first = qrs("build", "warhammer", "warhammer-dwarfs", "--lang", "en", "--format", "toy", "--toy-indent", "2")
    assert first.returncode == 0, first.stderr
    sheet = tmp_path / "library" / "build" / "toy" / "warhammer.indent-2.en.txt"
    handout = tmp_path / "library" / "build" / "toy" / "handouts" / "warhammer-dwarfs.indent-2.en.txt"
    title, *ids = sheet.read_text(encoding="utf-8").splitlines()
    assert title and ids and all(line.startswith("  ") and line.strip() for line in ids)
    assert handout.read_text(encoding="utf-8").splitlines()[1].startswith("  ")
    again = qrs(
        "build",
        "warhammer",
        "library/sources/handouts/warhammer-dwarfs.yaml",
        "--lang",
        "en",
        "--format",
        "toy",
        "--toy-indent",
        "2",
    )
    assert again.returncode == 0 and "2 output(s): 0 built, 2 up to date" in again.stdout, again.stdout + again.stderr
    plain = qrs("build", "warhammer", "--lang", "en", "--format", "toy,html")
    assert plain.returncode == 0, plain.stderr
    assert (tmp_path / "library" / "build" / "toy" / "warhammer.en.txt").is_file()
    assert (tmp_path / "library" / "build" / "html" / "warhammer.en.html").is_file()
