"""The cards' options on the command line (generator.cli.options.card_options): a size qrs cannot print, options
that do not go together, and a handout's own `cards:` of a size no card has, each refused before anything is
rendered, with its exit code and what is accepted."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import LIBRARY, run_qrs


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["handout", "warhammer-dwarfs", "--cards", "bridge"], "poker, tarot, a6, or WIDTHxHEIGHT"),
        (["handout", "warhammer-dwarfs", "--cards", "10x10"], "between 30 and 200 mm"),
        (["handout", "warhammer-dwarfs", "--backs", "long-edge"], "--backs goes with --cards"),
        (["handout", "warhammer-dwarfs", "--cards", "poker", "--impose", "2up"], "--cards does not go with --impose"),
        (["build", "warhammer", "--section", "magic"], "takes the sheet, --cards SIZE and --section ID"),
        (["build", "warhammer", "--cards", "poker"], "takes the sheet, --cards SIZE and --section ID"),
        (["build", "warhammer-dwarfs", "--cards", "poker", "--section", "magic"], "qrs handout ID --cards"),
    ],
)
def test_what_cards_cannot_do_is_a_usage_error(args, said):
    result = run_qrs(*args)
    assert result.returncode == 64 and said in result.stderr, result.stderr


def test_a_handouts_own_card_size_no_card_has_is_placed_in_it(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(LIBRARY, sources)
    source = sources / "handouts" / "warhammer-dwarfs.yaml"
    lines = source.read_text(encoding="utf-8").rstrip("\n").split("\n")
    source.write_text("\n".join([*lines, "cards: 20x300"]) + "\n", encoding="utf-8")
    result = run_qrs("--sources", str(sources), "handout", "warhammer-dwarfs", "--lang", "fr", "--format", "html")
    assert result.returncode == 2
    assert f"warhammer-dwarfs.yaml:{len(lines) + 1}:8: '20x300': a card between 30 and 200 mm" in result.stderr
    source.write_text("\n".join([*lines, "cards: bridge"]) + "\n", encoding="utf-8")
    result = run_qrs("--sources", str(sources), "check", "warhammer-dwarfs")
    assert result.returncode == 2 and f"warhammer-dwarfs.yaml:{len(lines) + 1}:8:" in result.stderr
