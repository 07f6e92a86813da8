"""What each field of a source means, for the editors' JSON Schemas (generator.output.json_schema): shown on
hover and in completion lists. A field is described in the model, beside it (`Field(description=…)`, and
`examples=…` for a field whose form is not obvious): every block type's fields are, in generator/model/blocks/. The
others here take `FIELDS["Model.field"]` (a field a subclass inherits but means otherwise), else `COMMON[field]` (the
fields every block or row shares). A test fails when a field of the model has no description anywhere, so a new field
is documented where authors look.

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
    "edition": 'An edition number: digits and dots, quoted ("2.1").',
    "subtitle": "A line printed under the title.",
    "accent": "The colour of headings and rules, as #rrggbb.",
    "paper": "The paper: size, orientation, the most pages the sheet may take, columns a page.",
    "lang": "The language it is written in, as a code (fr, en, en-GB).",
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
    "Keyword.id": "The keyword's id, referenced in any text as {id}.",
    "Keyword.term": "The term as the game names it in the sheet's language, printed in small capitals.",
    "Characteristic.id": "The characteristic's id, as handouts name it in a unit's profile (WS, Ld).",
    "Section.title": "The section's heading, printed in a band.",
    "Section.blocks": "The section's blocks, in reading order; each has a type (table, dice, matrix…).",
    "HandoutUnit.name": "The unit's name, printed as written.",
}

EXAMPLES = {
    "Sheet.edition": ["2.1"],
    "Sheet.date": ["2026-11-21"],
    "Sheet.accent": ["#1f4e79"],
    "Sheet.lang": ["fr", "en"],
    "Handout.lang": ["en"],
    "Edition.edition": ["2.1"],
    "Keyword.id": ["fearless"],
}


def describe(definition: str, field: str) -> str | None:
    """The description of `definition.field` (a $defs name, or Sheet/Handout for the top level), or None."""
    return FIELDS.get(f"{definition}.{field}") or COMMON.get(field)
