"""Per-army handouts: a handout file names an army's units; the sheet supplies everything they use.

A handout is checked against its sheet (generator.composing.handout_checks: every characteristic, weapon,
armour, keyword and section it names must exist there), then composed into an ordinary Sheet: the roster, the
rows of the sheet's tables the units use, the special rules they reference (followed through
the definitions that mention other keywords) and the sections the author chose. That sheet
renders through the same templates as every other, so a correction to the canonical sheet
reaches every handout drawn from it.
"""

from __future__ import annotations

import re
from collections import defaultdict

from generator.composing.handout_checks import findings, load_handout, row_index, saves_block  # noqa: F401 - named here
from generator.composing.handout_profiles import (
    choices_block,
    compose_alone,
    glossary,
    keywords_of,
    profile_blocks,
    unit_tables,
)
from generator.composing.handout_roster import roster
from generator.model import markup
from generator.model.types import (
    Block,
    GlossaryBlock,
    Handout,
    Keyword,
    MatrixBlock,
    Modifier,
    ModifiersBlock,
    SavesBlock,
    Section,
    Sheet,
    TableBlock,
    prose,
)
from generator.model.validate import keyword_index, mentioned_keywords


def compose(handout: Handout, sheet: Sheet | None, words: dict[str, str]) -> Sheet:
    """The handout as a sheet: roster, equipment, special rules, chosen sections (both in one language); without a
    sheet, the units and the tables of what they carry alone."""
    if sheet is None:
        return compose_alone(handout, words)
    saves = saves_block(sheet)
    used_rows = _used_rows(handout, sheet)
    worn = {ref for unit in handout.units for ref in unit.armour}
    chosen = _chosen_sections(handout, sheet)
    chosen_ids = {block.id for _, blocks in chosen for block in blocks}

    index = keyword_index(sheet)
    army_values = _army_values(handout, sheet, used_rows)
    army_tags = _army_tags(handout, index)

    def trimmed(block: Block) -> Block | None:
        if isinstance(block, TableBlock) and block.id in used_rows:
            return _only_rows(block, used_rows[block.id])
        if isinstance(block, MatrixBlock) and (block.row_characteristic or block.column_characteristic):
            return block.only(army_values.get(block.row_characteristic), army_values.get(block.column_characteristic))
        if isinstance(block, SavesBlock) and worn:
            return _only_items(block, worn)
        if isinstance(block, ModifiersBlock) and any(item.concerns for item in block.modifiers):
            return _only_concerning(block, army_tags, index)
        return None if isinstance(block, GlossaryBlock) else block  # the handout prints its own glossary

    equipment = [
        trimmed(block)
        for block in sheet.blocks()
        if block.id not in chosen_ids and (block.id in used_rows or (block is saves and worn))
    ]
    sections = [
        Section(
            id="handout-units",
            title=words["units"],
            blocks=choices_block(handout, words)
            + [roster(handout, sheet, saves, words)]
            + unit_tables(handout, words, sheet),
        )
    ]
    own_equipment, own_abilities = profile_blocks(handout, words, sheet)
    if equipment or own_equipment:
        sections.append(Section(id="handout-equipment", title=words["equipment"], blocks=equipment + own_equipment))
    army_rules = special_rules(handout, sheet, equipment)
    printed = chosen_ids | {block.id for block in equipment}
    rules = _rules_blocks(army_rules, sheet, printed) + own_abilities + glossary(handout)
    rules += _where_rules_act(army_rules, sheet, handout, printed | {block.id for block in rules}, index)
    if rules:
        sections.append(Section(id="handout-special-rules", title=words["special_rules"], blocks=rules))
    for section, blocks in chosen:
        kept = [block for block in map(trimmed, blocks) if block is not None]
        if kept:
            sections.append(section.model_copy(update={"blocks": kept}))
    named = _named_results(sections, sheet)
    if named:
        sections.append(Section(id="handout-results", title=words["results"], blocks=named))
    return Sheet(
        sheet=handout.handout,
        game=sheet.game,
        title=handout.army,
        subtitle=handout.subtitle or sheet.title,
        lang=sheet.lang,
        edition=sheet.edition,
        date=sheet.date or handout.date,
        credits=sheet.credits,
        accent=handout.accent or sheet.accent,
        paper=handout.paper,
        keywords=keywords_of(handout, sheet),
        characteristics=sheet.characteristics,
        column_sets=sheet.column_sets,
        heading_case=sheet.heading_case,
        notes=sheet.notes,
        sections=sections,  # the sheet's shared notes: under the last printed block marking each
    )


def _named_results(sections: list[Section], sheet: Sheet) -> list[Block]:
    """The dice tables whose results the printed texts name ({result:BLOCK/ROW}) but the handout does not print,
    and those their own texts name: a reader can look each named result up, as each keyword."""
    printed = {block.id for section in sections for block in section.blocks}
    texts = [text for section in sections for block in section.blocks for _, text in prose(block)]
    glossed = {
        key
        for section in sections
        for block in section.blocks
        if isinstance(block, GlossaryBlock)
        for key in block.keywords or ()
    }
    texts += [keyword.text or "" for keyword in sheet.keywords if keyword.id in glossed]
    brought: list[Block] = []
    while True:
        wanted = {
            token.ref.split("/")[0]
            for text in texts
            for token in markup.walk(markup.parse(text))
            if isinstance(token, markup.ResultRef)
        } - printed
        found = [block for block in sheet.blocks() if block.id in wanted]
        if not found:
            return brought
        brought += found
        printed |= {block.id for block in found}
        texts = [text for block in found for _, text in prose(block)]


def _army_values(handout: Handout, sheet: Sheet, used_rows: dict[str, set[int]]) -> dict[str, set[str]]:
    """Each characteristic's values in the army: its units' profiles, and the cells of the weapons they carry in
    columns that give a characteristic ("3 (4)": a Strength of 3, and 4 at short range)."""
    values: dict[str, set[str]] = defaultdict(set)
    weapons = {weapon.id: weapon for weapon in handout.weapons}
    for unit in handout.units:
        for line in [unit.profile, *(model.profile for model in unit.models)]:  # a crew's WS beside its gun's "-"
            for characteristic, value in line.items():
                values[characteristic] |= set(re.findall(r"\d+", value))
        for weapon in (weapons[ref] for ref in unit.weapons if ref in weapons):
            for characteristic, change in weapon.profile.items():
                own = re.findall(r"\d+", unit.profile.get(characteristic, ""))
                values[characteristic] |= (
                    {str(int(base) + int(change)) for base in own} if change[0] in "+-" else {change}
                )
    for table in (block for block in sheet.blocks() if isinstance(block, TableBlock) and block.id in used_rows):
        for c, column in enumerate(table.header):
            if column.characteristic:
                for index in used_rows[table.id]:
                    cell = _cell_under(table.rows[index], c)
                    values[column.characteristic] |= set(re.findall(r"\d+", cell or ""))
    return values


def _tag(name: str, index: dict[str, Keyword]) -> str:
    """A keyword (by id or term) as its id; anything else, a unit type, as written, whatever its case."""
    return index[name.casefold()].id if name.casefold() in index else name.casefold()


def _army_tags(handout: Handout, index: dict[str, Keyword]) -> set[str]:
    """What a modifier's `concerns` may name in this army: its units' keywords and profile values."""
    lines = [line for unit in handout.units for line in [unit.profile, *(model.profile for model in unit.models)]]
    return {_tag(name, index) for unit in handout.units for name in unit.rules} | {
        _tag(value, index) for line in lines for value in line.values()
    }


def _only_concerning(block: ModifiersBlock, tags: set[str], index: dict[str, Keyword]) -> ModifiersBlock | None:
    """The modifiers that apply to the army: those concerning nothing in particular, or one of its tags."""

    def applies(item) -> bool:
        return not item.concerns or any(_tag(name, index) in tags for name in item.concerns)

    kept = block.lines_kept(
        {position for position, item in enumerate(block.items) if isinstance(item, Modifier) and applies(item)}
    )
    return block.model_copy(update={"items": kept}) if kept else None


def _cell_under(row, column: int) -> str | None:
    """The text of the row's cell that covers this column (cells may span columns)."""
    position = 0
    for cell in row.cells:
        if position <= column < position + cell.span:
            return markup.without_footnotes(cell.text)
        position += cell.span
    return None


def _used_rows(handout: Handout, sheet: Sheet) -> dict[str, set[int]]:
    rows = row_index(sheet)
    used: dict[str, set[int]] = defaultdict(set)
    for unit in handout.units:
        for ref in unit.weapons:
            if ref in rows and ref not in {weapon.id for weapon in handout.weapons}:
                table, index = rows[ref][0]
                used[table.id].add(index)
    return used


def _chosen_sections(handout: Handout, sheet: Sheet) -> list[tuple[Section, list[Block]]]:
    """The sheet's sections (or single blocks) the handout prints, in the sheet's order."""
    if handout.include is None and handout.exclude is None:
        return []
    chosen = []
    for section in sheet.sections:
        if handout.include is not None:
            blocks = (
                section.blocks
                if section.id in handout.include
                else [block for block in section.blocks if {block.id, block.group} & set(handout.include)]
            )
        else:
            kept = set(handout.kept or ())
            blocks = (
                [block for block in section.blocks if block.id in kept]
                if section.id in handout.exclude
                else [block for block in section.blocks if not {block.id, block.group} & set(handout.exclude)]
            )
        if blocks:
            chosen.append((section, blocks))
    return chosen


def _only_rows(table: TableBlock, kept: set[int]) -> TableBlock:
    rows = table.lines_kept(kept)
    return _with_used_notes(table.model_copy(update={"rows": rows}))


def _only_items(saves: SavesBlock, worn: set[str]) -> SavesBlock:
    return _with_used_notes(saves.model_copy(update={"items": [item for item in saves.items if item.id in worn]}))


def _with_used_notes(block):
    """Keep the footnotes the remaining rows still reference."""
    referenced = {key for _, key in block.footnote_refs()}
    return block.model_copy(update={"notes": [note for note in block.notes if note.id in referenced]})


def _rules_blocks(rules: list[str], sheet: Sheet, chosen_ids: set[str]) -> list[Block]:
    """A glossary of the rules defined in a line, then the blocks that define the others at length."""
    keywords = [keyword for keyword in sheet.keywords if keyword.id in rules]
    blocks: list[Block] = []
    if any(keyword.text for keyword in keywords):
        blocks.append(
            GlossaryBlock(
                id="handout-special-rules",
                type="glossary",
                keywords=[keyword.id for keyword in keywords if keyword.text],
            )
        )
    defining = {keyword.see for keyword in keywords if keyword.see} - chosen_ids
    return blocks + [block for block in sheet.blocks() if block.id in defining]


def _where_rules_act(
    rules: list[str], sheet: Sheet, handout: Handout, printed: set[str], index: dict[str, Keyword]
) -> list[Block]:
    """The tables whose rows name one of the army's rules (a Resolve trigger for Pious units): where those rules
    act in play. Blocks the handout prints already, and those it excludes, are not brought."""
    excluded = set(handout.exclude or ())
    found = []
    for section in sheet.sections:
        for block in section.blocks:
            if (
                block.id in printed
                or {section.id, block.id, block.group} & excluded
                or isinstance(block, GlossaryBlock)
            ):
                continue
            rows = [text for loc, text in prose(block) if loc[0] in ("rows", "items")]
            if mentioned_keywords(rows, index) & set(rules):
                found.append(block)
    return found


def special_rules(handout: Handout, sheet: Sheet, equipment: list[Block]) -> list[str]:
    """The keywords the units name or their equipment mentions, and those their definitions mention, in sheet order."""
    index = keyword_index(sheet)
    texts = [text for block in equipment for _, text in prose(block)]
    texts += [unit.equipment for unit in handout.units if unit.equipment] + [weapon.name for weapon in handout.weapons]
    wanted = {index[rule.casefold()].id for unit in handout.units for rule in unit.rules if rule.casefold() in index}
    wanted |= mentioned_keywords(texts, index)
    frontier = set(wanted)
    while frontier:
        found = (
            mentioned_keywords([text for key in frontier for text in _definition(index[key], sheet)], index) - wanted
        )
        wanted |= found
        frontier = found
    return [keyword.id for keyword in sheet.keywords if keyword.id in wanted]


def _definition(keyword: Keyword, sheet: Sheet) -> list[str]:
    """The texts that define a keyword: its own line and the block it points to."""
    texts = [keyword.text or ""]
    texts += [text for block in sheet.blocks() if block.id == keyword.see for _, text in prose(block)]
    return texts
