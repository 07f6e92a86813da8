"""`pip install .` gives a `qrs` command that carries its templates and works outside the checkout."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pypdfium2
import pytest
from babel.messages.pofile import read_po, write_po

from tests.conftest import FIXTURES, ROOT

TEMPLATES = ROOT / "templates"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a copy of the project (the build leaves nothing in the checkout)."""
    root = tmp_path_factory.mktemp("wheel")
    project = root / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, project / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
    shutil.copytree(ROOT / "generator", project / "generator", ignore=ignore)
    shutil.copytree(TEMPLATES, project / "templates", ignore=ignore)
    result = subprocess.run(
        [sys.executable, "-c", "from setuptools import build_meta; build_meta.build_wheel('dist')"],
        capture_output=True,
        text=True,
        cwd=project,
    )  # the backend itself: pip hides its warnings
    assert result.returncode == 0, result.stdout + result.stderr
    (root / "backend.log").write_text(result.stdout + result.stderr)
    (built,) = (project / "dist").glob("qrs-*.whl")
    return built


def test_the_wheel_is_built_without_warnings_and_carries_its_license(wheel):
    log = (wheel.parent.parent.parent / "backend.log").read_text()
    assert "Warning" not in log, log
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read(next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata.splitlines()
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in archive.namelist())


def test_the_wheel_holds_every_template(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "sheet.html.j2",
        "sheet.css",
        "i18n/fr.po",
        "scaffold/sheet.en.yaml.j2",
        "scaffold/sheet.fr.yaml.j2",
    ):
        assert f"generator/templates/{required}" in names
    assert any(name.startswith("generator/templates/blocks/") and name.endswith(".j2") for name in names)
    templates = {
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and not path.name.startswith(".")
    }
    missing = sorted(name for name in templates if f"generator/templates/{name}" not in names)
    assert not missing, f"not in the wheel (list their folder in pyproject.toml's packages): {missing}"
    assert "generator/cli/main.py" in names
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "qrs = generator.cli.main:main" in entry_points


@pytest.fixture
def installed(wheel, tmp_path) -> Path:
    """The wheel installed into a fresh environment (its dependencies borrowed from this one): its folder."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The dependencies, without this environment's editable qrs: a .pth line adds a folder, not its .pth files.
    (Path(purelib) / "qrs-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    return venv


def test_the_installed_qrs_works_outside_the_checkout(installed, tmp_path):
    """Run from elsewhere."""
    venv, python = installed, installed / "bin" / "python"
    qrs = venv / "bin" / "qrs"
    work = tmp_path / "elsewhere"
    shutil.copytree(FIXTURES, work / "sources")

    where = subprocess.run(
        [str(python), "-c", "import generator.project as p; print(p.__file__); print(p.TEMPLATES)"],
        capture_output=True,
        text=True,
        cwd=work,
        check=True,
    ).stdout.split()
    assert all(Path(path).is_relative_to(venv) for path in where), where

    built = subprocess.run(
        [str(qrs), "--sources", "sources", "build", "every-block"], capture_output=True, text=True, cwd=work
    )
    assert built.returncode == 0, built.stderr
    assert (work / "build" / "every-block.fr.pdf").stat().st_size > 1000
    created = subprocess.run(
        [str(qrs), "--sources", "sources", "new", "demo", "--game", "Demo", "--lang", "en"],
        capture_output=True,
        text=True,
        cwd=work,
    )
    assert created.returncode == 0, created.stderr
    assert (work / "sources" / "demo.yaml").read_text(encoding="utf-8").startswith("# yaml-language-server")


def test_an_installed_qrs_starts_a_library_in_an_empty_folder_that_builds_and_tests(installed, tmp_path):
    """#45: in an empty folder, the wheel's `qrs init`, then `qrs build`, `qrs check` and `qrs test` in the library it
    made, each exit 0, from the installed templates and scaffold alone; nothing is written into the package."""
    qrs = installed / "bin" / "qrs"
    empty = tmp_path / "empty"
    empty.mkdir()
    package_files = {path for path in installed.rglob("*") if path.is_file()}
    started = subprocess.run([str(qrs), "init", "my-library"], capture_output=True, text=True, cwd=empty)
    assert started.returncode == 0, started.stdout + started.stderr
    library = empty / "my-library"
    assert (library / "sources" / "my-game.yaml").is_file() and (library / ".gitignore").is_file()
    for command in ("build", "check", "test"):
        ran = subprocess.run([str(qrs), command], capture_output=True, text=True, cwd=library)
        assert ran.returncode == 0, f"qrs {command}:\n{ran.stdout}{ran.stderr}"
        assert str(library) not in ran.stdout + ran.stderr, ran.stdout + ran.stderr  # paths relative to the library
    pdf = library / "build" / "my-game.en.pdf"
    assert len(pypdfium2.PdfDocument(pdf)) >= 1
    assert {
        path for path in installed.rglob("*") if path.is_file() and "__pycache__" not in path.parts
    } <= package_files


def translate(catalogue_file: Path, translations: dict[str, str]) -> None:
    """A translator at work: these msgids translated, the rest left empty."""
    with catalogue_file.open("rb") as stream:
        catalogue = read_po(stream)
    for message in catalogue:
        message.string = translations.get(message.id, message.string)
    with catalogue_file.open("wb") as stream:
        write_po(stream, catalogue)


def test_an_installed_qrs_takes_a_new_language_beside_the_sources(installed, tmp_path):
    """German: a handful of strings and template words translated in sources/i18n/, the rest by --allow-fallback;
    nothing written into the installed package."""
    qrs = installed / "bin" / "qrs"
    work = tmp_path / "elsewhere"
    shutil.copytree(FIXTURES, work / "sources")
    run = lambda *args: subprocess.run(
        [str(qrs), "--sources", "sources", *args], capture_output=True, text=True, cwd=work
    )  # noqa: E731
    package_files = {path for path in installed.rglob("*") if path.is_file()}

    updated = run("i18n", "update", "every-block", "--lang", "de")
    assert updated.returncode == 0, updated.stderr
    translate(
        work / "sources" / "i18n" / "every-block.de.po",
        {"Every block type": "Jede Blockart", "Séquence du tour": "Spielzug", "Fiascos": "Patzer"},
    )
    translate(work / "sources" / "i18n" / "ui.de.po", {"page": "Seite", "edition": "Ausgabe", "(cont.)": "(Forts.)"})

    refused = run("build", "every-block", "--lang", "de")
    assert refused.returncode == 2 and "no 'de' translation" in refused.stderr
    built = run("build", "every-block", "--lang", "de", "--allow-fallback")
    assert built.returncode == 0, built.stderr
    assert "every-block.de.pdf (" in built.stdout and "untranslated" in built.stdout
    pdf = work / "build" / "every-block.de.pdf"
    text = "".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(pdf))
    assert "Jede Blockart" in text and "Seite 1" in text and "Ausgabe" in text  # the sheet's and the templates' German
    assert "Touche de Force 6." in text  # the rest in French
    assert {
        path for path in installed.rglob("*") if path.is_file() and "__pycache__" not in path.parts
    } <= package_files


def test_every_test_file_the_makefile_names_exists():
    """`make update-golden` named tests/test_render.py after it moved to tests/rendering/ (#34): pytest ran nothing."""
    import re

    named = re.findall(r"\btests/[\w/]+\.py\b", (ROOT / "Makefile").read_text(encoding="utf-8"))
    assert named and [name for name in named if not (ROOT / name).is_file()] == []


def test_the_wheel_holds_every_module_of_the_package(wheel):
    """A package folder missing from pyproject.toml's packages leaves its modules out of the wheel (generator.composing.roster
    was): every module of generator/ must be in it."""
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "generator").rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert sorted(modules - names) == []
