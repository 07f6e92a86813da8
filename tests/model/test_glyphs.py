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


@pytest.mark.parametrize("fixture", ["font-lacks-bidi-mark", "font-lacks-zero-width-space", "font-lacks-hieroglyph"])
def test_check_and_build_report_the_same_missing_characters(tmp_path, capsys, fixture):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copy(ROOT / "tests" / "bad_inputs" / f"{fixture}.yaml", sources)
    where = ["--sources", str(sources), "--build-dir", str(tmp_path / "build")]
    checked = problems_of([*where, "check"], capsys)
    assert "in none of the sheet's fonts" in checked[0]
    assert problems_of([*where, "build", "--jobs", "1"], capsys) == checked


def test_the_symbols_rosters_use_print_through_the_vendored_fonts_and_a_hieroglyph_does_not():
    from generator.model import glyphs

    printable = glyphs.printable_characters()
    symbols = "\u2680\u2681\u2682\u2683\u2684\u2685\u2739\u2694\u2316\u2b1f\u2b24\u27a4"  # ⚀–⚅ ✹ ⚔ ⌖ ⬟ ⬤ ➤
    assert {char for char in symbols if ord(char) not in printable} == set()
    assert {char for char in symbols if ord(char) in glyphs.font_characters()} == set()  # Source Sans has none
    assert ord("\U00013000") not in printable  # an Egyptian hieroglyph: no font of the sheet has it


def test_the_emoji_authors_use_print_through_the_emoji_font_alone():
    """Issue #48: an ancients game's matrices code their cells with emoji (arrows, a skull, coloured squares, a horse,
    a trap, a horn); no font before the emoji font has them, and the emoji variation selector prints with them."""
    from fontTools.ttLib import TTFont

    from generator.model import glyphs

    emoji = "\U0001f480\U0001f7e5\U0001f7e9\U0001f7e6\U0001f40e\U0001faa4\U0001f4ef\u2b06\u2197\u27a1\ufe0f"
    in_emoji_font = TTFont(glyphs.SYMBOLS / glyphs.SYMBOL_FONTS[-1], lazy=True).getBestCmap()
    assert {char for char in emoji if ord(char) not in in_emoji_font} == set()
    assert {char for char in emoji if ord(char) not in glyphs.printable_characters()} == set()
    before = glyphs.font_characters() | frozenset().union(
        *(TTFont(glyphs.SYMBOLS / name, lazy=True).getBestCmap() for name in glyphs.SYMBOL_FONTS[:-1])
    )
    assert {char for char in "\U0001f480\U0001f7e5\U0001f40e\U0001faa4\U0001f4ef" if ord(char) in before} == set()


def test_a_symbol_or_an_emoji_in_a_source_checks(tmp_path, capsys):
    sources = tmp_path / "sources"
    sources.mkdir()
    source = (ROOT / "tests" / "bad_inputs" / "font-lacks-hieroglyph.yaml").read_text(encoding="utf-8")
    (sources / "font-lacks-hieroglyph.yaml").write_text(
        source.replace("\U00013000", "\u2681 \U0001f480\ufe0f"), encoding="utf-8"
    )
    main(["--sources", str(sources), "check"])  # returns: no problem to exit with
    assert "sheet's fonts" not in capsys.readouterr().err  # the die face and the skull print through the fallbacks


def test_preformatted_text_prints_in_the_monospace_font_alone_and_is_never_read_as_markup():
    from generator.model import glyphs
    from generator.model.types import Sheet

    def findings(text: str) -> list[str]:
        sheet = Sheet.model_validate(
            {
                "sheet": "x",
                "game": "G",
                "title": "T",
                "lang": "en",
                "sections": [{"id": "s", "blocks": [{"id": "d", "type": "preformatted", "text": text}]}],
            }
        )
        return [message for _, message in glyphs.glyph_findings(sheet, "en", {})]

    assert findings("┌─┐ ← → ▲ é\n│*{x}[^1]│ <b\n└─┘ ×°") == []  # box drawing, arrows, Latin-1; no markup read
    assert findings("⚔ ⚀") == [  # in the symbol fonts, not in the monospace one: they would not line up
        f"'{char}' (U+{ord(char):04X}) not in the monospace font of preformatted text (DejaVu Sans Mono, cut to Latin, "
        "box drawing, arrows and shapes): its lines would not line up; draw with those"
        for char in "⚀⚔"
    ]


def test_a_character_no_font_has_is_refused_once_naming_every_line_it_is_on(tmp_path, capsys):
    """Issue #48: a sheet coding its cells with a character the fonts lack got one problem a line (fifty)."""
    sources = tmp_path / "sources"
    sources.mkdir()
    source = (ROOT / "tests" / "bad_inputs" / "font-lacks-hieroglyph.yaml").read_text(encoding="utf-8")
    source = source.replace(
        "          - p: Tour suivant \U00013000",
        "\n".join(
            [
                "          - p: Tour suivant \U00013000",
                "          - p: Puis \U00013000 et \U00013001",
                '          - {bullets: ["Encore \U00013000", "Fin"]}',
            ]
        ),
    )
    (sources / "font-lacks-hieroglyph.yaml").write_text(source, encoding="utf-8")
    problems = problems_of(["--sources", str(sources), "check"], capsys)
    fonts = "in none of the sheet's fonts (Source Sans Pro, then its symbol and emoji fonts)"
    assert [line.split(": it would")[0] for line in problems[:-1]] == [
        f"sources/font-lacks-hieroglyph.yaml:16:16: '\U00013000' (U+13000), on lines 16, 17 and 18, {fonts}",
        f"sources/font-lacks-hieroglyph.yaml:17:16: '\U00013001' (U+13001) {fonts}",
    ]
    assert problems[-1] == "2 problem(s) found"
