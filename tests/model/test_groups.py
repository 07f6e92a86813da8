"""Groups: a third heading level between a section and its blocks, printed once above the group's first block,
bookmarked under the section, selected by handouts and compared by diffs."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from generator.composing import diff
from generator.errors import UserError
from generator.output import pipeline
from generator.project import Project
from tests.conftest import source_head

SHEET = (
    source_head("prices", "Tarifs")
    + """\
paper: {pages: 1}
sections:
  - id: price-charts
    title: Tarifs
    groups:
      - {id: missile, title: Armes de tir}
      - {id: melee, title: Armes de mêlée}
    blocks:
      - {id: pistols, type: table, title: Pistolets, group: missile, columns: [{title: Objet}, {title: Coût}], rows: [[Pistolet, 15 co]]}
      - {id: upgrades, type: table, title: Améliorations, group: missile, columns: [{title: Objet}, {title: Coût}], rows: [[Viseur, 5 co]]}
      - {id: blades, type: table, title: Lames, group: melee, columns: [{title: Objet}, {title: Coût}], rows: [[Épée, 10 co]]}
"""
)


def write(tmp_path, text: str = SHEET):
    (tmp_path / "prices.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "prices.yaml"


def outline(reader: PdfReader, entries=None, depth: int = 0) -> list[tuple[int, str]]:
    found = []
    for entry in reader.outline if entries is None else entries:
        found += outline(reader, entry, depth + 1) if isinstance(entry, list) else [(depth, entry.title)]
    return found


def test_a_group_heading_prints_once_above_its_blocks_and_is_bookmarked_under_its_section(tmp_path):
    output = pipeline.build(
        Project.at(tmp_path, tmp_path / "build"), pipeline.SheetTarget(write(tmp_path)), "fr", "pdf"
    ).path
    reader = PdfReader(output)
    text = " ".join(reader.pages[0].extract_text().split())
    # once, and again marked continued above a column that starts inside the group (the sheet balances its columns)
    assert text.count("ARMES DE TIR") - text.count("ARMES DE TIR (suite)") == 1  # "(suite)" as typed (#32)
    assert (
        text.index("ARMES DE TIR")
        < text.index("Pistolets")
        < text.index("Améliorations")
        < text.index("ARMES DE MÊLÉE")
        < text.index("Lames")
    )
    assert outline(reader) == [(0, "Tarifs"), (1, "Armes de tir"), (1, "Armes de mêlée")]


@pytest.mark.parametrize(
    "edit, found",
    [
        (
            ("group: melee, columns", "group: melees, columns"),
            [
                (13, "group 'melee' holds no block: give blocks 'group: melee'"),
                (17, "no group 'melees' in section 'price-charts' (its groups: missile, melee)"),
            ],
        ),
        (
            (
                "id: pistols, type: table, title: Pistolets, group: missile",
                "id: pistols, type: table, title: Pistolets, group: melee",
            ),
            [(17, "the blocks of group 'melee' must follow one another: move this block up to them")],
        ),
        (("group: melee, columns", "columns"), [(13, "group 'melee' holds no block: give blocks 'group: melee'")]),
    ],
)
def test_groups_are_checked(tmp_path, edit, found):
    with pytest.raises(UserError) as caught:
        pipeline.check(write(tmp_path, SHEET.replace(*edit)))
    assert [(problem.line, problem.message) for problem in caught.value.problems] == found


def test_a_renamed_group_is_a_change_in_the_diff(tmp_path):
    old = pipeline.check(write(tmp_path))
    new = old.model_copy(
        update={
            "sections": [
                old.sections[0].model_copy(
                    update={
                        "groups": [
                            old.sections[0].groups[0].model_copy(update={"title": "Armes à distance"}),
                            old.sections[0].groups[1],
                        ]
                    }
                )
            ]
        }
    )
    assert [str(change) for change in diff.compare(old, new)] == [
        "changed  Tarifs, Armes à distance: Armes de tir → Armes à distance"
    ]


def gunners_handout(tmp_path):
    """A handout of the sheet written in tmp_path that includes the group 'missile', composed in French."""
    (tmp_path / "handouts").mkdir()
    (tmp_path / "handouts" / "gunners.yaml").write_text(
        "handout: gunners\nsheet: prices\narmy: Tireurs\nlang: fr\ndate: 2026-11-21\ninclude: [missile]\n"
        "units:\n  - {id: gunner, name: Tireur, profile: {M: '4'}}\n",
        encoding="utf-8",
    )
    project = Project.at(tmp_path, tmp_path / "build")
    return pipeline.HandoutTarget(tmp_path / "handouts" / "gunners.yaml").compose(project, "fr").sheet


def test_a_handout_selects_a_group_by_its_id(tmp_path):
    write(tmp_path, SHEET.replace("sections:\n", "characteristics: [{id: M, label: M}]\nsections:\n", 1))
    composed = gunners_handout(tmp_path)
    assert [block.id for block in composed.blocks() if block.type == "table"] == ["pistols", "upgrades"]


def test_a_handout_brings_the_table_of_a_result_its_texts_name_and_keeps_column_sets(tmp_path):
    sheet = SHEET.replace(
        "sections:\n",
        "characteristics: [{id: M, label: M}]\ncolumn_sets:\n  price: [{title: Objet}, {title: Coût}]\nsections:\n",
        1,
    )
    sheet = sheet.replace(
        "group: missile, columns: [{title: Objet}, {title: Coût}], rows: [[Pistolet, 15 co]]",
        "group: missile, columns: price, after: 'Enrayé : {result:jams/jammed}.', rows: [[Pistolet, 15 co]]",
    )
    sheet += (
        "  - id: shooting\n    title: Tir\n    blocks:\n      - {id: jams, type: dice, die: D6, rows: "
        "[{id: jammed, roll: 1, name: Enrayé, text: Perd son tir.}, {roll: 2-6, text: Rien.}]}\n"
    )
    write(tmp_path, sheet)
    composed = gunners_handout(tmp_path)
    assert [section.id for section in composed.sections][-1] == "handout-results"
    assert [block.id for block in composed.sections[-1].blocks] == ["jams"]
    pistols = next(block for block in composed.blocks() if block.id == "pistols")
    assert [column.title for column in pistols.header] == ["Objet", "Coût"]
