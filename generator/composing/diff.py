"""Semantic differences between two editions of a sheet, in the game's words.

Each sheet is flattened into facts: a stable key (ids, row keys, column titles — never positions
where an id or a key exists, so a moved row is not a changed one), the place in the sheet's own
words ("Table pour blesser, Force 3, Endurance 5"), the value, and where it is printed (block,
row, cell) so that changed rows and cells can be marked.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from generator.model.types import Section, Sheet

# Metadata that changes with every edition, or that the changelog already reports.
_NOT_COMPARED = {"edition", "date", "changelog"}


@dataclass(frozen=True)
class Fact:
    key: tuple  # stable: section/block ids, row keys, column titles
    where: str  # in the sheet's words
    value: str
    block: str | None = None  # the block id it is printed in
    row: int | None = None  # its row's position in the block
    cell: int | None = None  # its cell's position in the row


@dataclass(frozen=True)
class Change:
    kind: str  # "added", "removed", "changed"
    where: str
    old: str | None = None
    new: str | None = None

    def __str__(self) -> str:
        if self.kind == "changed":
            return f"changed  {self.where}: {_shown_change(self.old, self.new)}"
        return f"{self.kind:<8} {self.where}" + (f": {self.new or self.old}" if (self.new or self.old) else "")


def _shown_change(old: str, new: str, context: int = 4) -> str:
    """Short values in full ("5 → 6"); in a long text, only the words that changed, with a few around them."""
    if len(old) + len(new) < 80:
        return f"{old} → {new}"
    before, after = old.split(), new.split()
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag == "equal":
            kept = before[i1:i2]
            if len(kept) > 2 * context:
                head = kept[:context] if parts else []  # nothing changed before it: no need to lead in
                tail = kept[-context:] if i2 < len(before) else []
                kept = head + ["…"] + tail
            parts.append(" ".join(kept))
        else:
            parts.append(
                " ".join(
                    filter(
                        None,
                        [
                            f"[-{' '.join(before[i1:i2])}-]" if i2 > i1 else "",
                            f"{{+{' '.join(after[j1:j2])}+}}" if j2 > j1 else "",
                        ],
                    )
                )
            )
    return " ".join(parts)


def facts(sheet: Sheet) -> dict[tuple, Fact]:
    found: dict[tuple, Fact] = {}
    for name in type(sheet).model_fields:
        value = getattr(sheet, name)
        if name not in _NOT_COMPARED and isinstance(value, (str, int, bool)):
            found[("sheet", name)] = Fact(("sheet", name), name, str(value))
    for keyword in sheet.keywords:
        for part in ("term", "text", "original", "see"):
            value = getattr(keyword, part)
            if value:
                found[("keyword", keyword.id, part)] = Fact(
                    ("keyword", keyword.id, part), f"{keyword.term} ({part})", value
                )
    for note in sheet.notes:  # the sheet's shared notes
        found[("note", note.id)] = Fact(("note", note.id), f"note {note.id}", note.text)
    for section in sheet.sections:
        named = section.title or section.id
        found[("section", section.id)] = Fact(("section", section.id), named, section.title or "")
        for group in section.groups:
            key = ("section", section.id, "group", group.id)
            found[key] = Fact(key, f"{named}, {group.title}", group.title)
        for block in section.blocks:
            label = block.title or named
            for key, where, value, row, cell in block.facts():
                fact_key = ("block", block.id) + key
                found[fact_key] = Fact(fact_key, f"{label}, {where}" if where else label, value, block.id, row, cell)
    return found


def compare(old: Sheet, new: Sheet) -> list[Change]:
    """Sections, blocks and rows added or removed (once each), then single values added, removed, changed."""
    before, after = facts(old), facts(new)
    changes: list[Change] = []
    reported: set[tuple] = set()
    for gone, kept, kind in ((old, new, "removed"), (new, old, "added")):
        kept_blocks = {block.id for block in kept.blocks()}
        for section in gone.sections:
            if section.id not in {other.id for other in kept.sections}:
                changes.append(Change(kind, f"section {section.title or section.id}"))
                reported.add(("section", section.id))
                reported |= {("block", block.id) for block in section.blocks if block.id not in kept_blocks}
    for group_size in (2, 4):  # ("block", id), then ("block", id, "row", key)
        for present, absent, kind in ((after, before, "added"), (before, after, "removed")):
            groups = {key[:group_size] for key in present if len(key) >= group_size}
            groups -= {key[:group_size] for key in absent if len(key) >= group_size}
            for group in sorted(groups, key=str):
                if _is_group(group) and not _covered(group, reported):
                    changes.append(Change(kind, _group_label(group, present)))
                    reported.add(group)
    for key in after:
        if _covered(key, reported):
            continue
        if key not in before:
            changes.append(Change("added", after[key].where, new=after[key].value))
        elif before[key].value != after[key].value:
            changes.append(Change("changed", after[key].where, before[key].value, after[key].value))
    for key in before:
        if key not in after and not _covered(key, reported):
            changes.append(Change("removed", before[key].where, old=before[key].value))
    return changes


def _is_group(group: tuple) -> bool:
    return group[0] == "block" and (len(group) == 2 or group[2] == "row")


def _covered(key: tuple, groups: set[tuple]) -> bool:
    return any(key[: len(group)] == group for group in groups)


def _group_label(group: tuple, found: dict[tuple, Fact]) -> str:
    first = next(fact for key, fact in found.items() if key[: len(group)] == group)
    if len(group) == 2:
        return f"block {first.where.split(', ')[0]}"
    return f"row {', '.join(first.where.split(', ')[:2])}"


@dataclass
class Marks:
    """Where a sheet changed since an earlier edition: what the templates mark with a bar."""

    blocks: set[str] = field(default_factory=set)
    rows: set[tuple[str, int]] = field(default_factory=set)
    cells: set[tuple[str, int, int]] = field(default_factory=set)

    def block(self, block_id: str) -> str:
        """A bar beside the whole block, for blocks whose changes are not in rows of their own."""
        in_rows = any(row_block == block_id for row_block, _ in self.rows)
        return "changed" if block_id in self.blocks and not in_rows else ""

    def row(self, block_id: str, row: int) -> str:
        return "changed" if (block_id, row) in self.rows else ""

    def cell(self, block_id: str, row: int, cell: int) -> str:
        return "changed" if (block_id, row, cell) in self.cells else ""

    def __bool__(self) -> bool:
        return bool(self.blocks or self.rows)


def marks(old: Sheet, new: Sheet) -> Marks:
    """The blocks, rows and cells of `new` whose facts differ from `old`'s."""
    before, after = facts(old), facts(new)
    found = Marks()
    for key, fact in after.items():
        if fact.block is None or (key in before and before[key].value == fact.value):
            continue
        found.blocks.add(fact.block)
        if fact.row is not None:
            found.rows.add((fact.block, fact.row))
            if fact.cell is not None and key in before:
                found.cells.add((fact.block, fact.row, fact.cell))
    removed_from = {before[key].block for key in before.keys() - after.keys() if before[key].block}
    found.blocks |= removed_from & {fact.block for fact in after.values()}
    return found


def named_marks(sheet: Sheet, since: str, old: Sheet | None = None) -> Marks:
    """What the rules and clarifications since `since` name: their blocks, and their rows (block/row).
    With the earlier edition at hand (`old`), also the rows and cells that changed inside those blocks;
    a difference the changelog does not name (a spelling fix) is not marked."""
    found, rows = Marks(), sheet.row_refs()
    for _, changes in sheet.changes_after(since):
        for ref in (ref for change in changes for ref in change.blocks):
            found.blocks.add(ref.partition("/")[0])
            if ref in rows:
                found.rows.add(rows[ref])
    if old is not None:
        changed = marks(old, sheet)
        whole = found.blocks - {block for block, _ in found.rows}
        found.rows |= {(block, row) for block, row in changed.rows if block in whole}
        found.cells = {cell for cell in changed.cells if cell[:2] in found.rows}
    return found


def errata(old: Sheet, new: Sheet, since: str, words: dict[str, str]) -> Sheet:
    """The errata sheet: per edition since `since`, a table of its rules and clarifications, each followed by
    the values it changed, old beside new, in the blocks it names. Many changes to a page."""
    before, after = facts(old), facts(new)
    blocks = []
    for edition, changes in new.changes_after(since):
        rows, listed = [], set()  # a value two changes of an edition name is listed once, under the first
        for change in changes:
            rows.append([{"text": f"**{change.text}**", "span": 3}])
            for where, old_value, new_value in _changed_values(before, after, change.blocks):
                if (where, old_value, new_value) not in listed and (old_value or new_value):
                    listed.add((where, old_value, new_value))
                    rows.append([where, old_value or "—", new_value or "—"])
        if changes:
            blocks.append(
                {
                    "type": "table",
                    "id": f"errata-{edition.edition.replace('.', '-')}",
                    "title": f"{words['errata_of']} {edition.edition}",
                    "columns": [
                        {"title": words["errata_where"]},
                        {"title": words["errata_before"]},
                        {"title": words["errata_now"]},
                    ],
                    "rows": rows,
                }
            )
    sections = (
        [{"id": "errata", "title": words["errata_since"].format(edition=since), "blocks": blocks}] if blocks else []
    )
    return new.model_copy(
        update={"sections": [Section.model_validate(section) for section in sections], "changes_box": False}
    )


def _changed_values(before: dict[tuple, Fact], after: dict[tuple, Fact], refs: list[str]):
    """(where, old, new) for each value of the named blocks (or block/row) that differs between the editions."""

    def named(fact: Fact, key: tuple) -> bool:
        return any(
            ref == fact.block or (ref.startswith(f"{fact.block}/") and key[2:4] == ("row", ref.split("/", 1)[1]))
            for ref in refs
        )

    for key in [*after, *(key for key in before if key not in after)]:  # in the order the sheet prints them
        fact = after.get(key) or before[key]
        old_value, new_value = before.get(key), after.get(key)
        if named(fact, key) and (old_value and old_value.value) != (new_value and new_value.value):
            yield fact.where, old_value.value if old_value else None, new_value.value if new_value else None
