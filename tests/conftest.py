"""Shared fixtures: the project, its sheets, and built PDFs (built once per test session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.project import Project

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHEETS = sorted(path.stem for path in SOURCES.glob("*.yaml"))


def source_head(sheet: str, title: str = "Test") -> str:
    """The metadata lines every small test source starts with."""
    return f'sheet: {sheet}\ngame: Test\ntitle: {title}\nlang: fr\nedition: "1.0"\ndate: 2026-11-21\n'


def block_types() -> list[str]:
    """Every block type of the model, so that tests cover a new one without being told."""
    from typing import get_args

    from generator.schema.model import Block

    return [get_args(kind.model_fields["type"].annotation)[0] for kind in get_args(get_args(Block)[0])]


@pytest.fixture(scope="session", autouse=True)
def shared_heights(request, tmp_path_factory):
    """One heights cache shared by the session's workers and kept from one session to the next, in pytest's cache
    folder (.pytest_cache/d/qrs-heights; `pytest --cache-clear` empties it): a block is measured once, not once
    a test or a run. generator.renderer.heights keys every measurement by all that decides it, qrs's own source
    files included, so a height measured before a change to the generator is not used after it. Without pytest's
    cache (-p no:cacheprovider) the folder lasts one session. Tests of the cache itself unset it."""
    cache = getattr(request.config, "cache", None)
    if cache is not None:
        folder = cache.mkdir("qrs-heights")
    else:
        folder = tmp_path_factory.getbasetemp().parent / "qrs-heights"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("QRS_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture
def own_heights(monkeypatch):
    """This test's build folder keeps its own heights (build/.cache), as without QRS_CACHE_DIR."""
    monkeypatch.delenv("QRS_CACHE_DIR", raising=False)


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Build a sheet once per session into a temporary build folder; returns the PDF path."""
    build_dir = tmp_path_factory.mktemp("build")
    cache: dict[tuple, Path] = {}

    def build(sources: Path, sheet: str, lang: str | None = None) -> Path:
        from generator import pipeline

        key = (sources, sheet, lang)
        if key not in cache:
            project = Project.at(sources, build_dir / sources.name)
            path = sources / f"{sheet}.yaml"
            cache[key] = pipeline.build(project, path, lang or pipeline.check(path).lang)
        return cache[key]

    return build
