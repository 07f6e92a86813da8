"""Rows printed under the row above them (`under: true`, #46): a long text across the table beneath a row of short
values, part of that row: refused where there is no row above, kept with it by a handout's cut and by the packer."""

from __future__ import annotations

import re

from pypdf import PdfReader

from generator.output import pipeline
from generator.rendering import measure, told
from generator.rendering.items import items
from tests.conftest import check_problems, run_qrs, source_head, written_source

SHEET = (
    source_head("powers", "Pouvoirs")
    + """\
sections:
  - id: magic
    title: Magie
    blocks:
      - id: powers
        type: table
        columns: [{title: Pouvoir}, {title: Durée}]
        rows:
          - [Immobiliser, Temporaire]
          - cells: [{text: "**Règle** : la cible ne peut plus bouger.", span: 2}]
            under: true
          - [Furie, Épuisement]
          - cells: [{text: "**Règle** : les alliés réussissent leurs tests de bravoure.", span: 2}]
            under: true
"""
)


def test_a_row_under_the_first_row_or_a_sub_heading_is_refused_where_it_is(tmp_path):
    first = SHEET.replace("          - [Immobiliser, Temporaire]\n", "", 1)
    assert check_problems(written_source(tmp_path, "powers", first)) == [
        (16, 20, "'under: true' prints a row under the row above it: there is none")
    ]
    headed = SHEET.replace("          - [Immobiliser, Temporaire]\n", "          - subheading: Sorts\n", 1)
    assert check_problems(written_source(tmp_path, "powers", headed)) == [
        (17, 20, "'under: true' prints a row under the row above it: there is none")
    ]


def test_a_handouts_cut_keeps_the_text_under_each_row_it_keeps(tmp_path):
    [table] = pipeline.check(written_source(tmp_path, "powers", SHEET)).blocks()
    assert table.lines_kept({2}) == table.rows[2:4]
    assert table.lines_kept({0}) == table.rows[0:2]


def test_the_packer_never_starts_a_column_at_a_row_under_another(tmp_path):
    sheet = pipeline.check(written_source(tmp_path, "powers", SHEET))
    [item] = items(sheet)
    measured = measure.Measured(height=40.0, units=(4.0, 12.0, 4.0, 12.0), head=8.0)
    piece = told.piece(item, measured, 1.0)
    assert piece.kept == frozenset({1, 3})
    assert [start for start in range(1, 4) if piece.keeps(0, start) and start not in piece.kept] == [2]


def test_a_row_and_the_text_under_it_share_a_stripe_beside_a_sub_heading_in_print_and_on_the_web(tmp_path):
    source = SHEET.replace("        rows:\n", "        rows:\n          - subheading: Sorts\n", 1)
    written_source(tmp_path, "powers", source)
    ran = run_qrs(
        "--sources", str(tmp_path), "--build-dir", str(tmp_path / "build"), "build", "powers", "--format", "html"
    )
    assert ran.returncode == 0, ran.stderr
    page = (tmp_path / "build" / "html" / "powers.fr.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr[^>]*class="(u[^"]*)"', page)
    assert rows == ["u subheading", "u stripe over", "u stripe under", "u over", "u under"], rows
    assert (
        run_qrs("--sources", str(tmp_path), "--build-dir", str(tmp_path / "build"), "build", "powers").returncode == 0
    )
    text = " ".join(PdfReader(tmp_path / "build" / "powers.fr.pdf").pages[0].extract_text().split())
    assert "Immobiliser Temporaire Règle : la cible ne peut plus bouger." in text, text
