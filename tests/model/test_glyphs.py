"""Characters the font lacks (generator.model.glyphs): `qrs check` says what `qrs build` says, without WeasyPrint."""

from __future__ import annotations

import shutil

import pytest

from generator.cli.main import main
from tests.conftest import ROOT


def problems_of(args: list[str], capsys) -> list[str]:
    with pytest.raises(SystemExit) as exit:
        main(args)
    assert exit.value.code == 2
    return capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("fixture", ["font-lacks-bidi-mark", "font-lacks-zero-width-space", "font-lacks-emoji"])
def test_check_and_build_report_the_same_missing_characters(tmp_path, capsys, fixture):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copy(ROOT / "tests" / "bad_inputs" / f"{fixture}.yaml", sources)
    where = ["--sources", str(sources), "--build-dir", str(tmp_path / "build")]
    checked = problems_of([*where, "check"], capsys)
    assert "not in the sheet's font" in checked[0]
    assert problems_of([*where, "build", "--jobs", "1"], capsys) == checked
