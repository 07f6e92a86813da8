"""The checks of a well-shaped sheet, as (path, message): each block's own `check()`, then what spans blocks:
ids, markup, footnotes, groups, keywords and their cycles, the changelog, the characteristics blocks name."""

from __future__ import annotations

import difflib
import re
from collections import Counter

from generator.model import glyphs, markup, rules
from generator.model.types import PLAYERS_KINDS, Keyword, Model, Sheet, edition_key, prose

MAX_DIE_RESULTS = 1000  # the results a dice table's die may show (10D100 shows 991, D66 36)


def findings(sheet: Sheet):
    """Every problem of a well-shaped sheet, as (path, message)."""
    yield from _metadata(sheet)
    yield from _duplicate_ids(sheet)
    yield from _markup(sheet)
    shared = {note.id for note in sheet.notes}
    yield from _sheet_notes(sheet)
    for here, block in sheet.placed_blocks():
        unrollable = _unrollable(block) if block.type == "dice" else None
        if unrollable:  # the block's own check would enumerate what the die rolls
            field, message = unrollable
            yield here + (field,), message
        elif hasattr(block, "check"):
            for loc, message in block.check():
                yield here + loc, message
        if block.type == "table" and isinstance(block.columns, str) and block.columns not in sheet.column_sets:
            sets = ", ".join(sheet.column_sets) or "none: declare them under column_sets"
            yield here + ("columns",), f"no column set '{block.columns}' (the sheet's: {sets})"
        yield from _characteristics_named(block, here, [c.id for c in sheet.characteristics])
        yield from _footnotes(block, here, shared)
        if block.type == "glossary":
            for k, key in enumerate(block.keywords or []):
                if key not in {kw.id for kw in sheet.keywords}:
                    known = ", ".join(kw.id for kw in sheet.keywords) or "none"
                    yield (
                        here + ("keywords", k),
                        f"unknown keyword '{key}': expected the id of one of the sheet's keywords ({known})",
                    )
    yield from _groups(sheet)
    yield from _keyword_cycles(sheet)
    yield from _changelog(sheet)
    yield from glyphs.glyph_findings(sheet, sheet.lang, keyword_index(sheet))  # what the build would refuse
    block_ids = {block.id for block in sheet.blocks()}
    for k, keyword in enumerate(sheet.keywords):
        if keyword.see is not None and keyword.see not in block_ids:
            yield (
                ("keywords", k, "see"),
                f"unknown block '{keyword.see}': 'see' names the block that defines the keyword",
            )


def _metadata(sheet: Sheet):
    """What the renderer takes as given: one-line names."""
    for name in ("game", "title", "subtitle"):  # the game's name is printed inside the page footer's style
        if "\n" in (getattr(sheet, name) or ""):
            yield (name,), f"'{name}' must be one line: it is printed in the header or footer"
    for k, keyword in enumerate(sheet.keywords):
        if "\n" in keyword.term:
            yield ("keywords", k, "term"), "a keyword's term must be one line"
        offset = markup.html_tag_at(keyword.original or "")  # printed beside the term with --gloss, as text is
        if offset is not None:
            yield (
                ("keywords", k, "original"),
                f"raw HTML is not allowed (at '{keyword.original[offset : offset + 12]}'): the English term is plain text",
            )


def _unrollable(block) -> tuple[str, str] | None:
    """Why a dice table's die or range cannot key it (no result, or too many to list): (field, message), or None."""
    if block.range:
        covered = len(rules.range_results(block.range, [row.roll for row in block.rows]))
        if covered > MAX_DIE_RESULTS:
            return (
                "range",
                f"the range {block.range} holds {covered} numbers: a lookup covers at most {MAX_DIE_RESULTS}",
            )
        return None
    why = _unrollable_die(block.die)
    return ("die", why) if why else None


def _unrollable_die(die: str) -> str | None:
    count, sides = re.fullmatch(r"(\d*)D(\d+)", die).groups()
    if len(count) > 6 or len(sides) > 6:
        return f"'{die[:20]}' rolls more than {MAX_DIE_RESULTS} different results: a dice table covers at most {MAX_DIE_RESULTS}"
    dice, faces = int(count or 1), int(sides)
    if dice < 1 or faces < 2:
        return f"'{die}' cannot be rolled: expected at least one die of at least 2 faces, such as D6, 2D6 or D66"
    results = 36 if die == "D66" else dice * (faces - 1) + 1
    if results > MAX_DIE_RESULTS:
        return f"'{die}' rolls {results} different results: a dice table covers at most {MAX_DIE_RESULTS}"
    return None


def keyword_index(sheet: Sheet) -> dict[str, Keyword]:
    """Keywords by id and by term (case-insensitive): {savage} and {Savage} both resolve."""
    index: dict[str, Keyword] = {}
    for keyword in sheet.keywords:
        index[keyword.term.casefold()] = keyword
        index[keyword.id] = keyword
    return index


def _duplicate_ids(sheet: Sheet):
    groups = {
        "section": [(("sections", s), section.id) for s, section in enumerate(sheet.sections)],
        "block": [
            (("sections", s, "blocks", b), block.id)
            for s, section in enumerate(sheet.sections)
            for b, block in enumerate(section.blocks)
        ],
        "keyword": [(("keywords", k), keyword.id) for k, keyword in enumerate(sheet.keywords)],
    }
    for kind, entries in groups.items():
        seen: set[str] = set()
        for loc, ident in entries:
            if ident in seen:
                yield loc + ("id",), f"duplicate {kind} id '{ident}': ids must be unique in a sheet"
            seen.add(ident)


def _markup(sheet: Sheet):
    yield from markup_findings(sheet, keyword_index(sheet), sheet.result_names())


def markup_findings(model: Model, keywords: dict[str, Keyword], results: dict[str, str]):
    """Raw HTML, links to refused addresses, unknown keyword and result references in the prose of a sheet or
    handout."""
    for loc, text in prose(model):
        offset = markup.html_tag_at(text)
        if offset is not None:
            yield (
                loc,
                f"raw HTML is not allowed (at '{text[offset : offset + 12]}'): use **bold**, *italic*, {{keyword}}",
            )
            continue
        if "{" not in text and "[" not in text:
            continue  # no link, keyword or result reference
        for token in markup.walk(markup.parse(text)):
            if isinstance(token, markup.Link) and markup.link_problem(token):
                yield loc, markup.link_problem(token)
            if isinstance(token, markup.KeywordRef) and token.key.casefold() not in keywords:
                near = difflib.get_close_matches(token.key.casefold(), sorted(keywords), n=1)
                hint = f"did you mean {{{near[0]}}}? Else define it" if near else "define it"
                yield loc, f"unknown keyword {{{token.key}}}: {hint} under keywords, or write \\{{ for a literal brace"
            if isinstance(token, markup.ResultRef) and token.ref not in results:
                near = difflib.get_close_matches(token.ref, sorted(results), n=1)
                hint = (
                    f": did you mean '{near[0]}'?"
                    if near
                    else (
                        f" (named results: {', '.join(sorted(results))})"
                        if results
                        else ": give the dice row an id and a name"
                    )
                )
                yield (
                    loc,
                    f"no named result '{token.ref}': expected BLOCK/ROW, a dice table's row with an id and a name{hint}",
                )


def _footnotes(block, here: tuple, shared: set[str] = frozenset()):
    """A block's notes and marks: each mark names the block's own note, else one of the sheet's (`shared`)."""
    defined = Counter(note.id for note in block.notes)
    for n, note in enumerate(block.notes):
        if note.id in (earlier.id for earlier in block.notes[:n]):
            yield here + ("notes", n, "id"), f"duplicate footnote '{note.id}': each note of a block needs its own id"
    referenced: set[str] = set()
    for loc, key in block.footnote_refs():
        referenced.add(key)
        if key not in defined and key not in shared:
            yield here + loc, f"unknown footnote [^{key}]: add it to this block's notes (or to the sheet's, shared)"
    for n, note in enumerate(block.notes):
        if note.id not in referenced:
            yield here + ("notes", n), f"footnote '{note.id}' is never referenced: mark it in a cell with [^{note.id}]"


def _sheet_notes(sheet: Sheet):
    """The sheet's shared notes: one id each, each referenced by a block that has no note of its own on that mark."""
    if not sheet.notes:
        return
    referenced = set().union(*(sheet.shared_refs(block) for block in sheet.blocks()))
    for n, note in enumerate(sheet.notes):
        if note.id in (earlier.id for earlier in sheet.notes[:n]):
            yield ("notes", n, "id"), f"duplicate footnote '{note.id}': each of the sheet's notes needs its own id"
        elif note.id not in referenced:
            yield (
                ("notes", n),
                (
                    f"the sheet's footnote '{note.id}' is never referenced: mark it in a block with "
                    f"[^{note.id}] (a block's own note '{note.id}' wins over it)"
                ),
            )


def _changelog(sheet: Sheet):
    """The changelog goes newest first, and its first entry is the sheet's own edition and date."""
    if not sheet.changelog:
        return
    missing = [field for field in ("edition", "date") if getattr(sheet, field) is None]
    if missing:
        yield (
            ("changelog",),
            (
                f"a changelog lists editions, and the sheet has no {' and no '.join(missing)}: give "
                f"the sheet its {' and '.join(missing)} (those of the changelog's first entry), or "
                "leave the changelog out"
            ),
        )
        return
    current = sheet.changelog[0]
    if (current.edition, current.date) != (sheet.edition, sheet.date):
        yield (
            ("changelog", 0, "edition"),
            (
                f"the changelog starts with edition {current.edition} of {current.date}; "
                f"the sheet is edition {sheet.edition} of {sheet.date}"
            ),
        )
    for index, (newer, older) in enumerate(zip(sheet.changelog, sheet.changelog[1:]), start=1):
        if edition_key(older.edition) >= edition_key(newer.edition) or older.date > newer.date:
            yield (
                ("changelog", index, "edition"),
                (
                    f"the changelog goes newest first: edition {older.edition} "
                    f"({older.date}) comes after {newer.edition} ({newer.date})"
                ),
            )
    yield from _changed_blocks(sheet)


def _changed_blocks(sheet: Sheet):
    """A change names the blocks (or block/row) it touches: each must exist."""
    known = {block.id for block in sheet.blocks()} | set(sheet.row_refs())
    for e, edition in enumerate(sheet.changelog):
        for c, change in enumerate(edition.changes):
            if change.kind in PLAYERS_KINDS and not change.blocks:
                yield (
                    ("changelog", e, "changes", c),
                    (
                        f"a {change.kind} change names the blocks (or block/row) it "
                        "touches, so that --changes-since marks them: add blocks: [...]"
                    ),
                )
            for b, ref in enumerate(change.blocks):
                if ref not in known:
                    near = difflib.get_close_matches(ref, sorted(known), n=1)
                    hint = f": did you mean '{near[0]}'?" if near else ""
                    yield (
                        ("changelog", e, "changes", c, "blocks", b),
                        f"no block or block/row '{ref}' in this sheet{hint}",
                    )


def _characteristics_named(block, here: tuple, profile: list[str]):
    """A characteristic a block names (a matrix's keys, a table column's values, the one armour's move penalties
    reduce) is one the sheet declares."""
    named = [
        (("row_characteristic",), getattr(block, "row_characteristic", None)),
        (("column_characteristic",), getattr(block, "column_characteristic", None)),
    ]
    if block.type == "table" and isinstance(block.columns, list):
        named += [(("columns", c, "characteristic"), column.characteristic) for c, column in enumerate(block.columns)]
    if block.type == "saves" and block.move_penalties:
        named.append((("move_penalties", "characteristic"), block.move_penalties.characteristic))
    declared = f"the sheet's profile is {' '.join(profile)}" if profile else "the sheet declares no characteristics"
    for loc, name in named:
        if name is not None and name not in profile:
            yield here + loc, f"unknown characteristic '{name}': {declared}"


def _groups(sheet: Sheet):
    """A block names a group of its section; a group's blocks follow one another; every group has blocks."""
    for s, section in enumerate(sheet.sections):
        known = [group.id for group in section.groups]
        ended: set[str] = set()
        previous = None
        for b, block in enumerate(section.blocks):
            here = ("sections", s, "blocks", b, "group")
            if block.group is not None and block.group not in known:
                yield (
                    here,
                    f"no group '{block.group}' in section '{section.id}' (its groups: {', '.join(known) or 'none'})",
                )
            elif block.group is not None and block.group in ended:
                yield here, f"the blocks of group '{block.group}' must follow one another: move this block up to them"
            if previous is not None and previous != block.group:
                ended.add(previous)
            previous = block.group
        used = {block.group for block in section.blocks}
        for g, group in enumerate(section.groups):
            if group.id not in used:
                yield (
                    ("sections", s, "groups", g),
                    f"group '{group.id}' holds no block: give blocks 'group: {group.id}'",
                )


def _keyword_cycles(sheet: Sheet):
    """A keyword whose definition leads back to itself cannot be followed to an end."""
    index = keyword_index(sheet)
    mentions = {keyword.id: mentioned_keywords([keyword.text or ""], index) for keyword in sheet.keywords}
    for k, keyword in enumerate(sheet.keywords):
        path = _path_back(keyword.id, mentions)
        if path:
            yield ("keywords", k, "text"), "circular keyword references: " + " → ".join(path)


def mentioned_keywords(texts: list[str], index: dict[str, Keyword]) -> set[str]:
    """The ids of the keywords these texts reference ({savage}, {Savage|savages})."""
    return {
        index[token.key.casefold()].id
        for text in texts
        for token in markup.walk(markup.parse(text))
        if isinstance(token, markup.KeywordRef) and token.key.casefold() in index
    }


def _path_back(start: str, mentions: dict[str, set[str]]) -> list[str] | None:
    stack = [(start, [start])]
    visited: set[str] = set()
    while stack:
        current, path = stack.pop()
        for target in sorted(mentions.get(current, ())):
            if target == start:
                return path + [start]
            if target not in visited:
                visited.add(target)
                stack.append((target, path + [target]))
    return None


# What a field with a pattern expects, in an author's words.
