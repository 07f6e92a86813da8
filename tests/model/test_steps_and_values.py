"""Nested steps and modifiers with several values (issue #48 items 2 and 7): a step's bullets beside its sub-steps, a
numbering style a level, the separator between a step's title and its text; `value_titles` and a list of values an
item, checked, translated, compared and found printed."""

from __future__ import annotations

import pytest

from generator.composing import catalogue_update, diff
from generator.composing import translate as i18n
from generator.errors import UserError
from generator.output import pipeline
from generator.output.completeness import missing, printed
from generator.rendering.inline import Inline
from tests.conftest import check_problems, fill_catalogue, source_head, written_source

SHEET = (
    source_head("hexes", "Tir")
    + """\
sections:
  - id: turn
    title: Tour
    blocks:
      - id: activation
        type: sequence
        numbering: ["1", "1"]
        separator: ": "
        steps:
          - title: Ordre
            text: piochez un pion
            items: [Hors commandement, Au commandement]
          - title: Actions
            steps:
              - title: Bouger
              - title: Tirer
                steps:
                  - title: Viser
      - id: fire
        type: modifiers
        value_titles: [Pour toucher, Pour être touché]
        items:
          - {value: ["-1", "+1"], text: A bougé}
          - {value: ["+2 & relance", ""], text: Visée}
"""
)


def write(tmp_path, text: str = SHEET):
    return written_source(tmp_path, "hexes", text)


def problems(tmp_path, text: str) -> list[tuple[int, int, str]]:
    return check_problems(write(tmp_path, text))


def test_a_numbering_style_a_level_and_the_rule_under_the_last_one(tmp_path):
    sequence, _ = pipeline.check(write(tmp_path)).blocks()
    assert [sequence.numbering_at(level) for level in range(3)] == ["1", "1", "a"]  # the third: under "1", as ever
    assert sequence.steps[0].items == ["Hors commandement", "Au commandement"]
    single = list(pipeline.check(write(tmp_path, SHEET.replace('numbering: ["1", "1"]', 'numbering: "A"'))).blocks())[0]
    assert [single.numbering_at(level) for level in range(3)] == ["A", "1", "a"]  # one value: today's levels
    default = list(pipeline.check(write(tmp_path, SHEET.replace('        numbering: ["1", "1"]\n', ""))).blocks())[0]
    assert default.numbering == ["1"] and default.numbering_at(1) == "a"


def test_an_unknown_numbering_style_is_named_where_it_is(tmp_path):
    assert problems(tmp_path, SHEET.replace('["1", "1"]', '["1", "i"]')) == [
        (13, 26, "'i' is not allowed for 'numbering': expected '1', 'A', 'a' or 'none'")
    ]
    assert problems(tmp_path, SHEET.replace('["1", "1"]', "roman")) == [
        (13, 20, "'roman' is not allowed for 'numbering': expected '1', 'A', 'a' or 'none'")
    ]


def test_the_separator_takes_the_language_spacing(tmp_path):
    sheet = pipeline.check(write(tmp_path))
    french, english = Inline(sheet, "fr"), Inline(sheet, "en")
    assert french.between(": ") == "\u00a0: "  # a no-break space before the colon
    assert english.between(": ") == ": " and french.between(" – ") == " – "
    assert french.between(" ; ") == "\u202f; "


def test_values_in_columns_are_split_each_on_its_own(tmp_path):
    _, fire = pipeline.check(write(tmp_path)).blocks()
    assert fire.value_columns == 2
    assert [fire.cells(item) for item in fire.modifiers] == [[("-1", ""), ("+1", "")], [("+2", "& relance"), ("", "")]]
    assert fire.qualified_columns == [True, False] and fire.qualified


@pytest.mark.parametrize(
    "value, column, message",
    [
        ('"+1"', 21, "1 value where the block's value_titles name 2 columns (Pour toucher, Pour être touché)"),
        ('["-1", "+1", "0"]', 21, "3 values where the block's value_titles name 2 columns"),
        ('["-1", "plus un"]', 28, "'plus un' is not a modifier"),
        ('["", ""]', 21, "every value is empty"),
    ],
)
def test_a_value_list_that_does_not_fit_the_titles_is_named_where_it_is(tmp_path, value, column, message):
    found = problems(tmp_path, SHEET.replace('["-1", "+1"]', value))
    assert [(line, col) for line, col, _ in found] == [(29, column)] and message in found[0][2], found


def test_a_value_list_without_titles_and_both_titles_are_refused(tmp_path):
    found = problems(tmp_path, SHEET.replace("value_titles: [Pour toucher, Pour être touché]", "value_title: Mod."))
    assert found[0][:2] == (29, 21) and "2 values where the block has one column of values" in found[0][2]
    both = SHEET.replace("        value_titles:", "        value_title: Mod.\n        value_titles:")
    assert (28, 23, "'value_title' or 'value_titles', not both: value_titles names each column of values") in problems(
        tmp_path, both
    )


def test_titles_values_and_step_bullets_are_offered_for_translation_and_translated(tmp_path):
    located, sheet = pipeline.load(write(tmp_path))
    contexts = {entry.source: entry.context for entry in i18n.entries(located, sheet, "en")}
    assert contexts["Pour être touché"] == "sections/turn/blocks/fire/value_titles/2"
    assert contexts["+2 & relance"] == "sections/turn/blocks/fire/items/+2 & relance/value/1"
    assert contexts["Au commandement"] == "sections/turn/blocks/activation/steps/Ordre/items/2"
    assert "-1" not in contexts and "+1" not in contexts  # numbers are not offered
    catalogue = i18n.catalogue_path(tmp_path, "hexes", "en")
    catalogue_update.update(located, sheet, "en", catalogue)
    fill_catalogue(catalogue, lambda message: {"+2 & relance": "+2 & re-roll"}.get(message.id, f"[{message.id}]"))
    translated, untranslated = i18n.translate(located, sheet, "en", catalogue, allow_fallback=False)
    sequence, fire = translated.blocks()
    assert untranslated == 0 and fire.value_titles == ["[Pour toucher]", "[Pour être touché]"]
    assert fire.modifiers[1].value == ["+2 & re-roll", ""] and fire.modifiers[0].value == ["-1", "+1"]
    assert sequence.steps[0].items == ["[Hors commandement]", "[Au commandement]"]


def test_a_translated_value_that_is_no_modifier_is_refused_at_its_catalogue_line(tmp_path):
    located, sheet = pipeline.load(write(tmp_path))
    catalogue = i18n.catalogue_path(tmp_path, "hexes", "en")
    catalogue_update.update(located, sheet, "en", catalogue)
    fill_catalogue(catalogue, lambda message: {"+2 & relance": "two & re-roll"}.get(message.id, message.id))
    with pytest.raises(UserError) as caught:
        i18n.translate(located, sheet, "en", catalogue, allow_fallback=False)
    assert ["'two & re-roll' is not a modifier" in problem.message for problem in caught.value.problems] == [True]


def test_qrs_diff_tells_which_column_of_values_changed(tmp_path):
    old = pipeline.check(write(tmp_path))
    new = pipeline.check(write(tmp_path, SHEET.replace('["-1", "+1"]', '["-1", "+2"]')))
    assert [str(change) for change in diff.compare(old, new)] == ["changed  Tour, A bougé (Pour être touché): +1 → +2"]


def test_the_completeness_check_wants_every_title_value_bullet_and_step(tmp_path):
    sheet = pipeline.check(write(tmp_path))
    sequence, fire = sheet.blocks()
    assert [text for _, text in printed(fire, sheet)] == [
        "Pour toucher",
        "Pour être touché",
        "-1",
        "+1",
        "A bougé",
        "+2 & relance",
        "Visée",
    ]
    assert [text for _, text in printed(sequence, sheet)] == [
        "Ordre",
        "piochez un pion",
        "Hors commandement",
        "Au commandement",
        "Actions",
        "Bouger",
        "Tirer",
        "Viser",
    ]
    page = (
        "Ordre : piochez un pion Hors commandement Au commandement Actions Bouger Tirer Viser "
        "Pour toucher Pour être touché −1 +1 A bougé +2 & relance Visée"
    )
    assert missing(page, sheet) == []
    lacking = missing(page.replace("+1 A bougé", "A bougé").replace("Au commandement", ""), sheet)
    assert [(gap.block, gap.loc[-2:], gap.text) for gap in lacking] == [
        ("activation", ("items", 1), "Aucommandement"),
        ("fire", ("value", 1), "+1"),
    ]
