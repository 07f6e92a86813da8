"""Shared column sets: tables name a set of the sheet's column_sets; its titles are written, and translated, once."""

from __future__ import annotations

import pytest

from generator.composing import catalogue_update
from generator.composing import translate as i18n
from generator.errors import UserError
from generator.output import pipeline
from generator.project import Project
from generator.rendering import render
from tests.conftest import source_head

SHEET = (
    source_head("prices", "Tarifs")
    + """\
column_sets:
  price: [{title: Objet}, {title: Coût, align: right, nowrap: true}, {title: Rareté}]
sections:
  - id: arsenal
    title: Arsenal
    blocks:
      - id: pistols
        type: table
        title: Pistolets
        columns: price
        rows:
          - [Pistolet laser, 15 co, Commun]
      - id: blades
        type: table
        title: Lames
        columns: {columns}
        rows:
          - [Épée, 10 co, Commun]
"""
)


def write(tmp_path, columns: str = "price"):
    (tmp_path / "prices.yaml").write_text(SHEET.replace("{columns}", columns), encoding="utf-8")
    return tmp_path / "prices.yaml"


def test_tables_print_the_columns_of_the_set_they_name(tmp_path):
    sheet = pipeline.check(write(tmp_path))
    html = render.html(Project.at(tmp_path, tmp_path / "build"), sheet, pipeline.BuildOptions())
    assert html.count('<th class="align-right nowrap">Coût</th>') == 2


def test_the_set_is_translated_once_for_every_table_that_names_it(tmp_path):
    path = write(tmp_path)
    located, sheet = pipeline.load(path)
    titles = [
        entry.context for entry in i18n.entries(located, sheet, "en") if entry.source in ("Objet", "Coût", "Rareté")
    ]
    assert titles == ["column_sets/price/Objet/title", "column_sets/price/Coût/title", "column_sets/price/Rareté/title"]


def test_an_unknown_set_is_named_with_the_sheets_sets(tmp_path):
    with pytest.raises(UserError) as caught:
        pipeline.check(write(tmp_path, columns="prices"))
    (problem,) = caught.value.problems
    assert (problem.line, problem.message) == (22, "no column set 'prices' (the sheet's: price)")


def test_a_translated_edition_prints_the_translated_set_in_every_table(tmp_path):
    from babel.messages.pofile import read_po, write_po

    path = write(tmp_path)
    located, sheet = pipeline.load(path)
    catalogue = i18n.catalogue_path(tmp_path, "prices", "en")
    catalogue_update.update(located, sheet, "en", catalogue)
    with catalogue.open("rb") as file:
        messages = read_po(file)
    english = {"Objet": "Item", "Coût": "Cost", "Rareté": "Rarity"}
    for message in messages:
        if message.id:
            message.string = english.get(message.id, f"[{message.id}]")
    with catalogue.open("wb") as file:
        write_po(file, messages)
    translated, untranslated = i18n.translate(located, sheet, "en", catalogue, allow_fallback=False)
    assert untranslated == 0 and [table.header[1].title for table in translated.blocks()] == ["Cost", "Cost"]
