"""A roster's words as handout text (generator.composing.roster.text.Text): New Recruit's markup read as its app
reads it, every character printed as itself where a font of the sheet has it, the others named and reported."""

from __future__ import annotations

from generator.composing.roster.text import Report, Text
from generator.model import markup


def plain(text: str) -> str:
    return markup.to_plain(markup.parse(text), typo=str, name_keyword=lambda key, shown: shown or key)


def test_new_recruits_keyword_and_bold_marks_print_bold_without_their_marks():
    shown = Text(Report())("Each ^^Infantry^^ model in a **Battleline** unit")
    styles = [token.style for token in markup.parse(shown) if isinstance(token, markup.Styled)]
    assert styles == ["strong", "strong"] and plain(shown) == "Each Infantry model in a Battleline unit"


def test_a_caret_or_a_star_alone_prints_as_written():
    assert plain(Text(Report())("A ^^ alone and 2 * 3")) == "A ^^ alone and 2 * 3"


def test_a_hive_fleet_keyword_prints_with_its_angle_brackets():
    shown = Text(Report())("Select one friendly <HIVE FLEET> CORE unit")
    assert markup.html_tag_at(shown) is None and plain(shown) == "Select one friendly <HIVE FLEET> CORE unit"


def test_die_faces_and_emoji_print_as_themselves_and_a_character_no_font_has_is_named_and_reported():
    report = Report()
    shown = Text(report)("\u2681 [Double] Rush \U0001f480 \U00013080", where="Shadow Piercer")
    assert plain(shown) == "\u2681 [Double] Rush \U0001f480 [egyptian hieroglyph d010]"
    (item,) = report.list()
    assert (item.kind, item.name, item.units) == ("character", "U+13080 \U00013080", ["Shadow Piercer"])
    assert "?" not in shown


def test_a_values_stray_apostrophe_is_cleaned_and_reported_a_names_is_kept():
    report = Report()
    text = Text(report)
    assert [text.value("'+2", where="Longbeards"), text.value("'4"), text.value("As User")] == ["+2", "4", "As User"]
    assert plain(text("Harker's Hounds")) == "Harker's Hounds"
    assert [(item.kind, item.name, item.units) for item in report.list()] == [
        ("value", "'+2", ["Longbeards"]),
        ("value", "'4", ["roster"]),
    ]


def test_every_way_bsdatas_40k_data_marks_a_keyword_prints_it_bold_without_a_mark():
    """As BSData/wh40k-10e writes them (Necrons.cat's Silent King, Leagues of Votann's Hearthband and Sagitaur,
    Chaos Space Marines' Warpsmith, Astra Militarum's Lord Solar, Genestealer Cults' relic): crossed, nested, a
    space inside, a caret lost."""
    cases = {
        "a ^^**Necrons**^^ unit (excluding ^^**Monster^^** units)": ("a Necrons unit (excluding Monster units)", 2),
        "transport ^**Artillery**^^, ^^**Exoframe^^** or ^^**Ironkin Steeljack**^^ models": (
            "transport Artillery, Exoframe or Ironkin Steeljack models",
            3,
        ),
        "That **^^ Vehicle**^^ model": ("That Vehicle model", 1),
        "friendly ^^Aeldari Psyker ^^ model": ("friendly Aeldari Psyker model", 1),
        "**^^Abominant ^^** or **^^Patriarch^^** model only": ("Abominant or Patriarch model only", 2),
        "**Hostile Acquisition** - Each time a ^^Leagues of Votann^^ model": (
            "Hostile Acquisition - Each time a Leagues of Votann model",
            2,
        ),
        "**Fortify ^^Infantry^^ Takeover**": ("Fortify Infantry Takeover", 1),
        "a ^^**Leagues of Votann** model": ("a Leagues of Votann model", 1),
    }
    for written, (printed, bold) in cases.items():
        shown = Text(Report())(written)
        styles = [token.style for token in markup.parse(shown) if isinstance(token, markup.Styled)]
        assert (plain(shown), styles) == (printed, ["strong"] * bold), written


def test_bold_italic_written_with_three_stars_prints_bold_without_a_star():
    """BSData's Age of Sigmar 4 Fyreslayers (Grimwrath Berzerker's oaths): `***'I will guard them with my life!':***`."""
    shown = Text(Report())("Pick 1:\n***'I will guard them!':*** While 2 * 3", lines=True)
    styles = [token.style for token in markup.parse(shown) if isinstance(token, markup.Styled)]
    assert (plain(shown), styles) == ("Pick 1:\n'I will guard them!': While 2 * 3", ["strong"])
