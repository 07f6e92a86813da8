"""What each field of a source means, for the editors' JSON Schemas (generator.output.json_schema): shown on
hover and in completion lists. A field described in the model (`Field(description=…)`) keeps its own; the others
take `FIELDS["Model.field"]`, else `COMMON[field]` (the fields every block or row shares). A test fails when a
field of the model has no description anywhere, so a new field is documented where authors look.

`EXAMPLES` gives, for the fields whose form is not obvious, values an author may type."""

from __future__ import annotations

COMMON = {
    "id": "A stable identifier: lowercase letters, digits and hyphens. Translations, handouts and diffs refer to it.",
    "title": "The title printed above it.",
    "type": "The block's type; it decides which other fields the block takes.",
    "text": "The text printed, with the sheet's markup: **bold**, *italic*, {keyword}, [^note], [a link](https://…).",
    "name": "The name printed.",
    "rows": "The rows, in printed order.",
    "items": "The entries, in printed order.",
    "steps": "The steps, in order; a step may hold steps of its own.",
    "units": "The units, in printed order.",
    "save": "The armour save, as the game writes it (5+).",
    "rules": "The special rules, as printed; {keyword} links to their definition.",
    "equipment": "The equipment, as printed.",
    "detail": "A detail printed at the right of the row, in a smaller type.",
    "date": "The date, as YYYY-MM-DD (quoted or not).",
    "edition": "An edition number: digits and dots, quoted (\"2.1\").",
    "subtitle": "A line printed under the title.",
    "accent": "The colour of headings and rules, as #rrggbb.",
    "paper": "The paper: size, orientation, the most pages the sheet may take, columns a page.",
    "lang": "The language it is written in, as a code (fr, en, en-GB).",
    "wide": "Span the page's columns (2 or all: both take the whole width today): the block starts a new page, "
            "across its top, and the columns go on under it. A block too wide for a column spans the page without it.",
    "profile": "The unit's characteristics, one value each, in the order the block lists them.",
}

FIELDS = {
    "Sheet.sheet": "The sheet's id; the source's file name without .yaml.",
    "Sheet.game": "The game's name, printed at the top of the sheet.",
    "Sheet.title": "The sheet's title, printed beside the game's name; optional: without it, the header prints the "
                   "game alone.",
    "Sheet.keywords": "The game's special rules and terms, referenced in any text as {id} or {Term}.",
    "Sheet.sections": "The sheet's sections, in reading order.",
    "Handout.handout": "The handout's id; the file name without .yaml.",
    "Handout.army": "The army's name, printed at the top.",
    "Handout.units": "The army's units, in printed order.",
    "Paper.size": "A4 or letter (a build may override it with --paper).",
    "Paper.orientation": "portrait or landscape.",
    "Paper.pages": "The most pages the sheet may take (optional; without it, as few as its content takes at 100 % "
                   "type, or at smaller type where that saves a whole page). Type is set smaller, down to 90 %, "
                   "to fit them before the build fails; it is never set larger to fill them.",
    "Paper.columns": "Columns a page.",
    "Edition.changes": "What this edition changed; the box at the sheet's end prints those that change play.",
    "Footnote.id": "The note's mark, referenced in a text as [^id] (1, a, *).",
    "Footnote.text": "The note's text.",
    "Keyword.id": "The keyword's id, referenced in any text as {id}.",
    "Keyword.term": "The term as the game names it in the sheet's language, printed in small capitals.",
    "Characteristic.id": "The characteristic's id, as handouts name it in a unit's profile (WS, Ld).",
    "Column.title": "The column's header.",
    "Column.align": "left (default), center or right.",
    "Cell.span": "How many columns the cell covers.",
    "Row.cells": "The row's cells, one a column.",
    "Section.title": "The section's heading, printed in a band.",
    "Section.blocks": "The section's blocks, in reading order; each has a type (table, dice, matrix…).",
    "SequenceBlock.numbering": "How steps are numbered: \"1\", \"A\", \"a\" or \"none\"; or a list, one style a level "
                               "([\"1\", \"1\"]: sub-steps numbered 1, 2… too). A level the list does not reach takes "
                               "the style under the level above (1 → a → 1, A → 1).",
    "SequenceBlock.separator": "What joins a step's title to its text, as typed (\": \"), in the language's spacing; "
                               "an en dash ( – ) without it.",
    "Step.items": "Bullets under the step's text, above its sub-steps.",
    "Step.title": "The step's name, printed in bold.",
    "Step.text": "What happens in the step.",
    "TableBlock.columns": "The table's columns: title, align, width, nowrap.",
    "TableBlock.rows": "The rows: a list of cells, {id, cells} for a row others refer to, or {subheading: …} for a "
                       "sub-heading over the rows after it.",
    "ModifiersBlock.items": "The modifiers, in printed order; {subheading: …} heads the items after it.",
    "DiceBlock.die": "The dice rolled: D6, 2D6, D66… Every result must appear in exactly one row.",
    "DiceBlock.name_title": "Header of the result names' column.",
    "DiceBlock.text_title": "Header of the text column.",
    "DiceRow.roll": "The results this row covers: 4, 3-5, 7+, 2-.",
    "DiceRow.text": "What happens on these results.",
    "ModifiersBlock.value_title": "Header of the values' column.",
    "ModifiersBlock.value_titles": "Several columns of values, one header each (To hit, To be hit): every item's "
                                   "value is then a list of as many values.",
    "ModifiersBlock.text_title": "Header of the conditions' column.",
    "ModifiersBlock.detail_title": "Header of the details' column.",
    "Modifier.value": "The signed value: +1, -1, x2; under the block's value_titles, a list of one value a column "
                      "([\"-1\", \"+1\"], \"\" for none).",
    "Modifier.text": "When it applies.",
    "MatrixBlock.row_title": "What the rows stand for (Strength), printed beside the row keys.",
    "MatrixBlock.column_title": "What the columns stand for (Toughness), printed above the column keys.",
    "MatrixBlock.row_keys": "The rows' keys, in order.",
    "MatrixBlock.column_keys": "The columns' keys, in order.",
    "MatrixBlock.rule": "A rule every value is checked against (to-wound, to-hit…).",
    "Paragraph.p": "A paragraph.",
    "Paragraph.bullets": "A bulleted list.",
    "Paragraph.numbered": "A numbered list.",
    "Paragraph.terms": "Terms followed by their explanation.",
    "Term.term": "The term, printed in bold.",
    "Term.text": "Its explanation.",
    "TextBlock.content": "The block's paragraphs and lists; each item is one of p, bullets, numbered, terms.",
    "GlossaryBlock.keywords": "The keywords to define, by id; every keyword that has a text by default.",
    "Troop.title": "The troop type's column header (On foot, Mounted).",
    "SavesBlock.item_title": "Header of the items' column (Equipment).",
    "SavesBlock.troops": "The troop types, one column each.",
    "SavesBlock.items": "The pieces of equipment and what each gives to each troop type.",
    "RosterBlock.characteristics": "The profile's column headers (M, WS, S…).",
    "HandoutUnit.name": "The unit's name, printed as written.",
    "DiceAlign.roll": "The roll column's alignment (centred by default).",
    "DiceAlign.name": "The named results' column alignment (left by default).",
    "DiceAlign.text": "The results' text column alignment (left by default).",
}

EXAMPLES = {
    "Sheet.edition": ["2.1"],
    "Sheet.date": ["2026-11-21"],
    "Sheet.accent": ["#1f4e79"],
    "Sheet.lang": ["fr", "en"],
    "Handout.lang": ["en"],
    "DiceBlock.die": ["D6", "2D6", "D66"],
    "DiceRow.roll": ["4", "3-5", "7+"],
    "Modifier.value": ["+1", "-1", "+2 & Quick Kill", ["-1", "+1"]],
    "MatrixBlock.cells": ["4 5 6 6"],
    "Column.width": ["20mm", "15%"],
    "Protection.save": ["5+"],
    "Protection.bonus": ["+1"],
    "RosterUnit.profile": [["4", "3", "3", "3", "7"]],
    "Edition.edition": ["2.1"],
    "Footnote.id": ["1", "a"],
    "Keyword.id": ["fearless"],
}


def describe(definition: str, field: str) -> str | None:
    """The description of `definition.field` (a $defs name, or Sheet/Handout for the top level), or None."""
    return FIELDS.get(f"{definition}.{field}") or COMMON.get(field)
