"""Golden HTML, one file per block type, and the fetcher that keeps rendering inside the project.

After an intended template change: `make update-golden`, then review the diff of tests/golden/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from generator import pipeline, render
from generator.project import TEMPLATES
from generator.errors import UserError
from tests.conftest import FIXTURES, block_types

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("QRS_UPDATE_GOLDEN") == "1"
BLOCK_TYPES = block_types()


@pytest.fixture(scope="module")
def fixture_html():
    project = pipeline.Project.at(FIXTURES)
    return render.html(project, pipeline.check(FIXTURES / "every-block.yaml"), pipeline.BuildOptions())


@pytest.mark.parametrize("block_type", BLOCK_TYPES)
def test_block_html_matches_golden(fixture_html, block_type):
    found = re.search(rf'<section class="block block-{block_type}".*?</section>', fixture_html, re.S)
    assert found, f"no {block_type} block rendered"
    golden = GOLDEN / f"{block_type}.html"
    if UPDATE:
        golden.write_text(found.group(0) + "\n", encoding="utf-8")
    assert found.group(0) + "\n" == golden.read_text(encoding="utf-8")


def test_markup_is_escaped_and_typography_applied(fixture_html):
    assert "l\u2019unité" in fixture_html  # apostrophe
    assert "passe\u202f!" in fixture_html  # French narrow space before !
    assert "<script" not in fixture_html


def test_fetcher_serves_templates_and_fonts_only(tmp_path):
    fetcher = render.ProjectFetcher(TEMPLATES)
    assert fetcher.fetch((TEMPLATES / "sheet.css").as_uri()).read().startswith(b"/*")
    assert fetcher.fetch((TEMPLATES / "fonts" / "SourceSansPro-Regular.ttf").as_uri()).read()[:4] == b"\x00\x01\x00\x00"
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    for url in [secret.as_uri(), "http://example.com/x.css", (TEMPLATES / ".." / "pyproject.toml").as_uri(),
                (TEMPLATES / "fonts" / ".." / ".." / "README.md").as_uri()]:
        with pytest.raises(PermissionError):
            fetcher.fetch(url)


def test_a_template_that_reaches_outside_stops_the_render(tmp_path):
    templates = tmp_path / "templates"
    import shutil
    shutil.copytree(TEMPLATES, templates)
    css = templates / "sheet.css"
    css.write_text('@import url("file:///etc/passwd");\n' + css.read_text())
    project = pipeline.Project(sources=FIXTURES, build=tmp_path / "build", templates=templates)
    with pytest.raises(UserError, match="refused to fetch file:///etc/passwd"):
        render.layout(project, pipeline.check(FIXTURES / "every-block.yaml"), pipeline.BuildOptions())


def test_gloss_shows_the_english_original_once(tmp_path):
    source = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
    source = source.replace("    term: Savage\n", "    term: Sauvage\n    original: Savage\n")
    (tmp_path / "every-block.yaml").write_text(source, encoding="utf-8")
    project = pipeline.Project.at(tmp_path)
    sheet = pipeline.check(tmp_path / "every-block.yaml")
    plain = render.html(project, sheet, pipeline.BuildOptions())
    glossed = render.html(project, sheet, pipeline.BuildOptions(gloss=True))
    assert "Sauvage (Savage)" not in plain
    assert glossed.count("Sauvage (Savage)") == 1 and glossed.count(">Sauvage<") >= 1
