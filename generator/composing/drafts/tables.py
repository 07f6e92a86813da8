"""The typing of a table (generator.composing.drafts.blocks.Typing's): keyed by rolls, a dice table (its die
inferred, its coverage checked); by signed numbers, a modifiers block; a grid with numeric column keys, a matrix
(its rule named only when every cell agrees); tables side by side in one, a table each; the rest, tables, cut into
parts that repeat their first column where wider than MAX_COLUMNS."""

from __future__ import annotations

import re

from generator.composing.drafts import footnotes, grids, kinds, pieces
from generator.composing.drafts.report import note
from generator.model.blocks.dice import MAX_RESULT_COLUMNS
from generator.reading.documents.document import ListBlock, ListItem, Table, plain

_NUMBER_LEAD = re.compile(r"^[+\-−]?\d")  # a cell opening with a number
MAX_COLUMNS = 12
# A dice table's header titles, by its width: the roll's, the named results' and the text's; a wider one titles its
# roll, then a column of results each (text_titles).
_TITLES = {2: ("roll_title", "text_title"), 3: ("roll_title", "name_title", "text_title")}


class TableTyping:
    """The table methods of Typing: they read and write its state (report, pending title, narrow tables)."""

    def table(self, node: Table) -> None:
        if node.header and node.rows and not any(cell.strip() for cell in node.rows[0]):
            # an empty header row ("| | |", <th> </th>) heads nothing: the rows under it are read as any table's
            node = Table(node.rows[1:], None, node.origin, node.title)
        rows = [row for row in node.padded() if any(cell.strip() for cell in row)]
        if not rows:
            return
        if node.title:  # its caption: its title, or under a heading that titles it already, its intro
            if self.pending_title and not self.pending_intro:
                self.pending_intro = node.title
            else:
                self.flush_title()
                self.pending_title = (node.title, node.origin)
        if len(rows[0]) == 1:
            return self.text_items(
                [{"bullets": [row[0] for row in rows]}], node.origin, "a table of one column: a bulleted list"
            )
        if len(rows) == 2 and len(rows[0]) > 2 and grids.on_its_side(rows):  # rolls across, results under them
            return self.table(Table([list(pair) for pair in zip(*rows)], None, node.origin))
        stacked = grids.stacked_halves(rows)  # one dice table set in halves side by side: read whole
        if stacked:
            return self.table(Table(stacked, node.header if len(stacked[0]) < len(rows[0]) else None, node.origin))
        parts = grids.side_by_side(rows)  # tables side by side, an empty column between: each its own
        for part in parts:
            self.table(Table(part, node.header, node.origin))
        if parts:
            return
        if self.matrix(rows, node):
            return
        header, body = (rows[0], rows[1:]) if node.header else (None, rows)
        if node.header is None and len(rows) > 1:
            header, body = self.guess_header(rows)
        if body and self.typed_table(header, body, node.origin):
            return
        self.plain_table(rows, node)

    def guess_header(self, rows: list[list[str]]) -> tuple[list[str] | None, list[str]]:
        """A text table's first row is its header when it is not of the kind of the rows below it."""
        first, rest = rows[0], rows[1:]
        off_key = sum(not kinds.is_roll(row[0]) for row in rest)  # a row or two keyed otherwise ("UM 66")
        if off_key <= len(rest) // 10 and not kinds.is_roll(first[0]) and (off_key == 0 or len(first) > 3):
            return first, rest
        for column in (0, len(first) - 1):
            if (
                kinds.modifier_unit([row[column] for row in rest]) is not False
                and kinds.modifier_unit([first[column]]) is False
            ):
                return first, rest
        return None, rows

    def typed_table(self, header, body, origin) -> bool:
        width = len(body[0])
        numbers = [plain(row[0]) for row in body]
        if (
            header is None
            and width == 2
            and len(body) >= 2
            and numbers == [str(n) for n in range(1, len(body) + 1)]
            and not self.rolled_results(body)
        ):
            items = [ListItem(row[1]) for row in body]
            self.sequence(ListBlock(items, True, "1", origin), "rows numbered 1, 2, 3… without a header: a sequence")
            return True
        if all(kinds.is_roll(row[0]) for row in body) and width <= 3:
            return self.dice(body, header, origin, "the first column holds rolls: ")
        if header and 3 < width <= MAX_RESULT_COLUMNS + 1 and self.result_columns(header, body, origin):
            return True
        if (
            width in (2, 3)
            and all(kinds.leading_modifier(row[0]) for row in body)
            and kinds.modifier_unit([row[0] for row in body]) is False
            and width == 2
        ):
            items = [[*kinds.leading_modifier(row[0]), row[1]] for row in body]
            titles = [header[0], "", header[1]] if header else None
            return self.modifiers(
                items,
                titles,
                origin,
                "the first column opens with signed values: a modifiers block, the words after each value its text",
            )
        if width in (2, 3):
            for column in (0, width - 1) if width == 2 else (0,):
                values = [row[column] for row in body]
                unit = kinds.modifier_unit(values)
                if unit is not False:
                    items = [[row[column], *[cell for c, cell in enumerate(row) if c != column]] for row in body]
                    titles = None
                    if header:
                        titles = [header[column], *[cell for c, cell in enumerate(header) if c != column]]
                    where = "first" if column == 0 else "last"
                    return self.modifiers(
                        items, titles, origin, f"the {where} column holds signed values: a modifiers block", unit
                    )
        return False

    def rolled_results(self, body: list[list[str]]) -> bool:
        """Rows numbered 1 to a die's size are its results, not steps, where the title over them names the die
        ("Spellbooks (d100)"), or where they are many (20, 100) or each a few words (a d10 of names or traits)."""
        if self.pending_title and kinds.die_named(self.pending_title[0]):
            return True
        if len(body) not in (4, 6, 8, 10, 12, 20, 100):
            return False
        return len(body) >= 20 or all(len(plain(row[1]).split()) <= 4 for row in body)

    def result_columns(self, header: list[str], body: list[list[str]], origin: str) -> bool:
        """Rolls keyed to a result a column (a critical table's A to E): a dice table of text_titles. A row keyed
        by no roll ("UM 66", an unmodified roll, beside 66-70) would break the die's coverage: it follows the dice
        table in a table of its own, under the same header."""
        apart = [row for row in body if not kinds.is_roll(row[0])]
        keyed = [row for row in body if kinds.is_roll(row[0])]
        if len(keyed) < 2 or len(apart) > len(body) // 10:
            return False
        why = "the first column holds rolls, each other column a result: "
        if not self.dice(keyed, header, origin, why, quiet=True):
            return False
        if apart:  # the report's line for it names it
            table = {"type": "table", "columns": [{"title": cell} for cell in header], "rows": apart}
            self.add(table, origin, "the rows of a dice table keyed by no roll, under its header")
        return True

    def dice(self, body, header, origin, why: str, quiet: bool = False) -> bool:
        rolls = [kinds.roll_text(row[0]) for row in body]
        named = kinds.die_named(header[0]) if header else None
        if not named and self.pending_title:  # "Spellbooks (d100)" over the table
            named = kinds.die_named(self.pending_title[0])
        below = [r for r, row in enumerate(body) if kinds.opens_below(row[0])]  # "2 ou moins"
        if named:  # of a D6, "2 ou moins" is 1-2
            rolls = [kinds.from_lowest(roll, named) if r in below else roll for r, roll in enumerate(rolls)]
        hundred = kinds.percentile(rolls)
        if hundred:
            rolls, why = hundred, why + "00 read as 100 (percentile dice); "
        die, range_, reason, confident = kinds.infer_die(rolls, named)
        if not die and not range_:
            if not quiet:
                self.report.untyped.append(
                    note(origin, " / ".join(rolls), f"rolls that fit no die ({reason}); kept as a table")
                )
            return False
        if below and not die:  # "3 ou moins" of a lookup ("Force de la touche"): no die's lowest result to read
            if not quiet:
                self.report.untyped.append(note(origin, plain(body[below[0]][0]), "a roll 'or less' of no die"))
            return False
        if below:  # the model's rolls have no open lower end: what a modifier takes under it is for the reader
            reason += f"; '{plain(body[below[0]][0])}' read as {rolls[below[0]]}, its 'or less' lost"
            confident = False
        block = {"type": "dice"}
        block["die" if die else "range"] = die or range_
        columns = len(body[0]) > 3  # a result a column, under the header's titles
        if header:
            for key, cell in zip(_TITLES.get(len(header), ("roll_title",)), header):
                if cell.strip():
                    block[key] = cell
            if columns:
                block["text_titles"] = header[1:]
        block["rows"] = [
            {"roll": roll, "text": row[1:]} if columns else pieces.dice_row(roll, row[1:])
            for roll, row in zip(rolls, body)
        ]
        self.add(block, origin, why + reason, confident)
        return True

    def modifiers(self, items, titles, origin, why: str, unit: str | None = None) -> bool:
        block = {"type": "modifiers"}
        if titles:
            for key, cell in zip(("value_title", "text_title", "detail_title"), titles):
                if cell.strip():
                    block[key] = cell
        if unit:
            block["unit"] = unit
        rows = []
        for item in items:
            row = {
                "value": kinds.modifier_value(item[0]),
                "text": item[1] if len(item) > 1 and item[1].strip() else "–",
            }
            if len(item) > 2 and item[2].strip():
                row["detail"] = item[2]
            rows.append(row)
        if any(row["text"] == "–" for row in rows):
            self.report.untyped.append(note(origin, "–", "a modifier without a text: '–' stands in its place"))
        block["items"] = rows
        self.add(block, origin, why + (f", the unit {unit}" if unit else ""))
        return True

    def matrix(self, rows: list[list[str]], node: Table) -> bool:
        original = rows
        rows, marks = footnotes.unmarked_rows(rows)
        found = grids.matrix_shape(rows)
        if found and any(r <= found[0] or c <= found[1] for r, c in marks):  # a mark on a key: read as written
            rows, marks, found = original, {}, grids.matrix_shape(original)
        if not found:
            return self.labelled_matrix(original, node)
        key_row, key_column, column_title, row_title = found
        column_keys = [plain(cell) for cell in rows[key_row][key_column + 1 :]]
        body = rows[key_row + 1 :]
        row_keys = [plain(row[key_column]) for row in body]
        numeric_rows = all(kinds.is_integer(key) or kinds.is_roll(key) for key in row_keys)  # 10, or 1-3, 10+
        codes = all(len(plain(cell).strip()) <= 4 for row in body for cell in row[key_column + 1 :])
        if not numeric_rows and len(body) > 2 and not codes:  # rows keyed by words: a matrix only of short codes
            return False
        cells = [" ".join(plain(cell) for cell in row[key_column + 1 :]) for row in body]
        block = {"type": "matrix"}
        if row_title:
            block["row_title"] = row_title
        if column_title:
            block["column_title"] = column_title
        block.update(row_keys=row_keys, column_keys=column_keys)
        rule, impossible = grids.agreeing_rule(row_keys, column_keys, cells)
        if impossible:
            block["impossible"] = impossible
        if rule:
            block["rule"] = rule
        block["cells"] = (
            [
                " ".join(
                    plain(cell) + (f"[^{marks[(r, c)]}]" if (r, c) in marks else "")
                    for c, cell in enumerate(row)
                    if c > key_column
                )
                for r, row in enumerate(rows)
                if r > key_row
            ]
            if marks
            else cells
        )
        why = (
            "a grid keyed by numbers on both sides: a matrix"
            if numeric_rows
            else "a lookup keyed by numbers: a matrix of one row"
            if len(body) == 1
            else "a grid keyed by numbers across, by words down, each cell a short code: a matrix"
        )
        why += f"; every cell agrees with the rule {rule}" if rule else "; no rule agrees with every cell: none named"
        if marks:
            why += f"; its cells' marks ({', '.join(sorted(set(marks.values())))}) footnotes"
        self.add(block, node.origin, why)
        if marks:
            self.marked.append((self.sections[-1]["blocks"][-1], set(marks.values()), original))
        return True

    def matrix_notes(self) -> list[dict]:
        """The notes that explain the marks of the matrices' cells, taken from the paragraphs after them; a matrix
        whose marks are not all explained goes back to the table it was, its cells as written."""
        found, _ = footnotes.harvested(self.sections, [(block, marks) for block, marks, _ in self.marked], take=False)
        explained = {note["id"] for note in found}
        for block, marks, rows in self.marked:
            if not marks <= explained:
                self.unmarked_matrix(block, rows, marks - explained)
        notes, gone = footnotes.harvested(
            self.sections, [(block, marks) for block, marks, _ in self.marked if block["type"] == "matrix"]
        )
        self.report.guesses = [guess for guess in self.report.guesses if guess.block not in gone]
        return notes

    def unmarked_matrix(self, block: dict, rows: list[list[str]], unexplained: set[str]) -> None:
        """A matrix whose marks no paragraph below explains: the table it was (the draft has no notes to name)."""
        kept = {key: block[key] for key in ("id", "title", "intro", "group") if key in block}
        block.clear()
        block.update(
            {
                "id": kept.pop("id"),
                "type": "table",
                **kept,
                "columns": [{"title": cell} for cell in rows[0]],
                "rows": rows[1:],
            }
        )
        for guess in self.report.guesses:
            if guess.block == block["id"]:
                guess.type, guess.why = (
                    "table",
                    (
                        f"a grid whose marks ({', '.join(sorted(unexplained))}) nothing "
                        "below explains: a table, its cells as written"
                    ),
                )

    def labelled_matrix(self, rows: list[list[str]], node: Table) -> bool:
        """A grid keyed by words on both sides, of one-code cells: a matrix (a table would hold at most 12 columns,
        and the page sets a wide matrix across its columns)."""
        if not grids.labelled_shape(rows, MAX_COLUMNS):
            return False
        corner = plain(rows[0][0]).strip()
        block = {
            "type": "matrix",
            **({"corner": corner} if corner else {}),
            "row_keys": [plain(row[0]).strip() for row in rows[1:]],
            "column_keys": [plain(cell).strip() for cell in rows[0][1:]],
            "cells": [" ".join(plain(cell).strip() for cell in row[1:]) for row in rows[1:]],
        }
        self.add(block, node.origin, "a grid keyed by words on both sides, each cell a short code: a matrix")
        return True

    def plain_table(self, rows: list[list[str]], node: Table) -> None:
        header = rows[0] if node.header or (node.header is None and _looks_like_header(rows)) else None
        body = rows[1:] if header else rows
        if not body:
            body, header = rows, None
        limit = self.narrow.get(node.origin, MAX_COLUMNS)
        if len(rows[0]) > limit:
            return self.wide_table(rows, header is not None, node, limit)
        block = {
            "type": "table",
            "columns": [{"title": cell} for cell in header] if header else [{"title": ""} for _ in rows[0]],
        }
        block["rows"] = [[cell if cell.strip() else "" for cell in row] for row in body]
        why = "a table with a header" if header else "a table without a header"
        self.add(block, node.origin, why + ", of no more specific kind")

    def wide_table(self, rows: list[list[str]], header: bool, node: Table, limit: int) -> None:
        """A table wider than the model's columns (or than its page's column holds): cut into tables of its first
        (key) column and the next columns, as many as fit, each titled as the whole with its part's number; no
        cell lost."""
        step = limit - 1
        starts = range(1, len(rows[0]), step)
        title = self.pending_title[0] if self.pending_title else None
        self.report.untyped.append(
            note(
                node.origin,
                " | ".join(rows[0]),
                f"a table of {len(rows[0])} columns, "
                f"more than {limit}: cut into {len(starts)} tables, each with the "
                "first column",
            )
        )
        for part, start in enumerate(starts, start=1):
            cut = [[row[0], *row[start : start + step]] for row in rows]
            if title:
                self.pending_title = (f"{title} ({part}/{len(starts)})", node.origin)
            self.plain_table(cut, Table(cut, header, node.origin))


def _looks_like_header(rows: list[list[str]]) -> bool:
    """A first row of short cells over longer rows reads as a header, unless it holds a number where every row
    below holds one ("Driving | 2 ranks" over "Languages | 5 ranks": a row like the others)."""
    if len(rows) < 2:
        return False
    first = [len(plain(cell)) for cell in rows[0]]
    numbered = [all(_NUMBER_LEAD.match(plain(row[c])) for row in rows) for c in range(len(rows[0]))]
    return (
        all(0 < length <= 60 for length in first)
        and not any(kinds.is_roll(cell) for cell in rows[0])
        and not any(numbered)
    )
