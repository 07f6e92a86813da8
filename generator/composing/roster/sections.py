"""The sections of a sheet an army cannot use: those whose blocks are all about something the roster never has.

A sheet marks a block with what it is about when an army may have none of it (`concerns: [sorcier]`: a magic
phase's casting tables, its miscasts). The import leaves out of the handout each block whose every concern the
roster names nowhere (no selection, profile, rule or category holds its word, in any language of the sheet): a
whole section when that is every block of it, else the section but for its other blocks (a dwarf army without
wizards keeps the dispel dice it rolls in the enemy's magic phase). Names only, never a rule's text: "if two enemy
wizards are present" makes no wizard of the army."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from generator.model.types import Block, Section, Sheet
from generator.model.validate import keyword_index
from generator.reading.rosters.files import NAMESPACE
from generator.reading.rosters.names import folded

NAMED = ("selection", "profile", "rule", "category")  # what a roster names the army's things in


@dataclass
class LeftOut:
    """What the import leaves out of the handout: `exclude` and `except` as the handout writes them, and a line
    of the report for each section."""

    exclude: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def roster_words(root: Element) -> list[tuple[str, ...]]:
    """Every name the roster gives the army's things, as folded words."""
    return [
        tuple(folded(element.get("name", "")).split())
        for element in root.iter()
        if element.tag.removeprefix(NAMESPACE) in NAMED and element.get("name")
    ]


def unused(sheet: Sheet, translations: list[Sheet], root: Element) -> LeftOut:
    """The sections (or their blocks) about something the roster never names."""
    names = roster_words(root)
    left_out = LeftOut()
    for section in sheet.sections:
        missing = [block for block in section.blocks if block.concerns and not _has(block, sheet, translations, names)]
        if not missing:
            continue
        left_out.exclude.append(section.id)
        others = [block.id for block in section.blocks if block not in missing]
        left_out.kept += others
        left_out.lines.append(_line(section, missing, others, sheet))
    return left_out


def _has(block: Block, sheet: Sheet, translations: list[Sheet], names: list[tuple[str, ...]]) -> bool:
    """The roster names one of the block's concerns: one of its names holds the concern's words."""
    wanted = {words for concern in block.concerns for words in _spellings(concern, sheet, translations)}
    return any(_holds(name, words) for name in names for words in wanted)


def _spellings(concern: str, sheet: Sheet, translations: list[Sheet]) -> set[tuple[str, ...]]:
    """A concern as a roster may write it: the keyword's term in each language of the sheet and its original term;
    a concern that is no keyword, as written."""
    spellings = {concern}
    for each in [sheet, *translations]:
        keyword = keyword_index(each).get(concern.casefold())
        if keyword is not None:
            spellings |= {keyword.term, keyword.original or ""}
    return {tuple(folded(spelling).split()) for spelling in spellings if folded(spelling)}


def _holds(name: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """The name holds the words in a row, each whole or plural (Wizard Level 2, Battle Wizards)."""
    width = len(words)
    return any(
        all(found in (wanted, wanted + "s") for found, wanted in zip(name[start : start + width], words))
        for start in range(len(name) - width + 1)
    )


def _line(section: Section, missing: list[Block], others: list[str], sheet: Sheet) -> str:
    """The report's line: the section, what it is about (the keyword and the roster's word for it), what stays."""
    index = keyword_index(sheet)
    about = " or ".join(
        _named(index.get(concern.casefold()), concern)
        for concern in dict.fromkeys(concern for block in missing for concern in block.concerns)
    )
    title = f"'{section.title}' ({section.id})" if section.title else f"'{section.id}'"
    kept = f" (kept: {', '.join(others)})" if others else ""
    return (
        f"left out: the section {title}{kept}: it is about {about}, which no selection, profile, rule or "
        "category of the roster names"
    )


def _named(keyword, concern: str) -> str:
    if keyword is None:
        return f"'{concern}'"
    return f"'{keyword.term}'" + (f" ('{keyword.original}')" if keyword.original else "")
