"""The output tests' shared fixtures: a copy of the fixture library, and the build's rendering replaced by a
stand-in that writes a line naming what it built (what is built when, without WeasyPrint)."""

from __future__ import annotations

import shutil

import pytest

from generator import pipeline, write
from generator.output import formats
from generator.project import Project
from tests.conftest import LIBRARY


@pytest.fixture
def project(tmp_path) -> Project:
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    return Project.at(sources, tmp_path / "build")


@pytest.fixture
def built(monkeypatch) -> list[str]:
    """Replace rendering by a stand-in; returns the list of outputs built (relative to build/), in order."""
    calls: list[str] = []

    def build(project, target, lang, form="pdf", options=pipeline.BuildOptions(), output=None):
        if target.kind == "sheet":  # a broken source fails here as in the real build
            name, title = pipeline.check(target.source).sheet, pipeline.check(target.source).game
        else:
            name = title = pipeline.load_handout(project, target.source)[1].handout
        writer = formats.writer(form)
        output = output or writer.path(project, target, lang, writer.variant(options))
        text = (f"%PDF stand-in {name} {lang} {options}\n" if form == "pdf"
                else f"<!DOCTYPE html><title>{title} {lang}</title>\n")
        write.atomically(output, text.encode())
        calls.append(output.relative_to(project.build).as_posix())
        return pipeline.Written(output)

    monkeypatch.setattr(pipeline, "build", build)
    return calls
