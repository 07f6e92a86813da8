"""Shipped sheets written out as their authors would have kept them (Markdown, Word), and the facts of a sheet (its
cells and items, as plain words) to count how many of them an import brings back."""

from __future__ import annotations

import io
import re
import unicodedata

from generator.model.types import Sheet, Subheading


def plain(sheet: Sheet, text: str) -> str:
    """A text as printed: keywords and results by their words, footnote marks as (1), no emphasis marks."""
    text = words(sheet, text)
    text = re.sub(r"(?<!\\)\*\*", "", text)
    text = re.sub(r"(?<!\\)\*", "", text)
    text = re.sub(r"(?<!\\)\[([^\]]*)\]\((?:https?|mailto):[^)\s]*\)", r"\1", text)  # a link: its text
    return re.sub(r"\\([*{}\[\]\\])", r"\1", text)


def words(sheet: Sheet, text: str) -> str:
    """A text with keywords and results by their words and footnote marks as (1); emphasis kept."""
    terms = {keyword.id: keyword.term for keyword in sheet.keywords}
    terms |= {keyword.term.casefold(): keyword.term for keyword in sheet.keywords}
    results = sheet.result_names()
    text = re.sub(r"\{result:([^{}|]+)(?:\|([^{}]+))?\}", lambda m: m.group(2) or results.get(m.group(1), ""), text)
    text = re.sub(
        r"(?<!\\)\{([^{}|]+)(?:\|([^{}]+))?\}",
        lambda m: m.group(2) or terms.get(m.group(1).casefold(), terms.get(m.group(1), m.group(1))),
        text,
    )
    return re.sub(r"\[\^([^\]]+)\]", lambda mark: " (" + mark.group(1).replace("*", "\\*") + ")", text)  # "\*": a star


def facts(sheet: Sheet) -> list[str]:
    """Every cell and item of the sheet's blocks, as printed words."""
    out = []
    for block in sheet.blocks():
        kind = block.type
        if kind == "table":
            out += [text for row in block.rows for text in _row_texts(row) if text]
        elif kind == "dice":
            for row in block.rows:
                out += [row.roll] + [part for part in (row.name, row.text) if part]
                for inner in row.then.rows if row.then else []:
                    out += [inner.roll] + [part for part in (inner.name, inner.text) if part]
        elif kind == "modifiers":
            out += [part for item in block.items for part in _item_texts(item) if part]
        elif kind == "matrix":
            out += list(block.cells)
        elif kind == "sequence":

            def steps(items):
                for step in items:
                    yield from (part for part in (step.title, step.text, *step.items) if part)
                    yield from steps(step.steps)

            out += list(steps(block.steps))
        elif kind == "text":
            for item in block.content:
                out += (
                    [item.p]
                    if item.p
                    else item.bullets
                    or item.numbered
                    or [part for term in item.terms or [] for part in (term.term, term.text)]
                )
        elif kind == "glossary":
            out += [part for keyword in sheet.keywords if keyword.text for part in (keyword.term, keyword.text)]
        elif kind == "saves":
            out += [item.name for item in block.items]
    return [plain(sheet, fact) for fact in out]


def _row_texts(row) -> list[str]:
    return [row.subheading] if isinstance(row, Subheading) else [cell.text for cell in row.cells]


def _item_texts(item) -> tuple:
    if isinstance(item, Subheading):
        return (item.subheading,)
    return (*(item.value if isinstance(item.value, list) else [item.value]), item.text, item.detail)


def normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("−", "-").replace("–", "-")
    text = re.sub(r"[\u00a0\u202f\u2009]", " ", text)
    # a term's colon is the template's, between the term and its text: not compared
    return " ".join(re.sub(r"\s*:(?=\s|$)", "", re.sub(r"[*\\]", "", text)).split()).casefold()


def returned(expected: list[str], draft_text: str) -> tuple[int, int, list[str]]:
    """(facts found in the draft, facts in all, those missing): each fact's words, in the draft's words."""
    import json

    strings = re.findall(r'"((?:[^"\\]|\\.)*)"', draft_text)
    printed = " ".join(json.loads(f'"{string}"') for string in strings)
    haystack = normal(re.sub(r"\[\^([^\]]+)\]", r" (\1)", printed))  # a footnote's mark as the original prints it
    haystack_tight = haystack.replace(" ", "")
    missing = [
        fact
        for fact in expected
        if normal(fact) not in haystack and normal(fact).replace(" ", "") not in haystack_tight
    ]
    return len(expected) - len(missing), len(expected), missing


def _lead(lead) -> str:
    """A block's intro or after sentence: a text, or {text, style}."""
    return getattr(lead, "text", lead)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(sheet: Sheet) -> str:
    """The sheet as a Markdown file: sections ##, groups ###, block titles ####, tables as pipe tables."""
    return words(sheet, _markdown(sheet))


def _markdown(sheet: Sheet) -> str:
    out = [f"# {sheet.title}", ""]
    for section in sheet.sections:
        out += [f"## {section.title}", ""] if section.title else []
        group = None
        for block in section.blocks:
            if block.group and block.group != group:
                out += [f"### {section.group_of(block).title}", ""]
            group = block.group
            if block.title:
                out += [f"#### {block.title}", ""]
            if block.intro:
                out += [_lead(block.intro), ""]
            header, rows, items = _shape(sheet, block)
            if header is not None:
                out += ["| " + " | ".join(_cell(cell) for cell in header) + " |", "|" + "---|" * len(header)]
                out += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
                out.append("")
            for kind, text, depth in items:
                marker = {"p": "", "bullet": "- ", "numbered": "1. "}[kind]
                out += ["   " * depth + marker + text, "" if kind == "p" else None]
            out = [line for line in out if line is not None]
            out.append("")
            for note in sheet.notes_under(block):
                out += [f"({note.id}) {note.text}", ""]
            if block.after:
                out += [_lead(block.after), ""]
    return "\n".join(out)


def _shape(sheet: Sheet, block):
    """(header, rows) of a tabular block, or (None, None, items) of a block of text, each in the sheet's words."""
    kind = block.type
    if kind == "table":
        header = [column.title for column in block.header]
        rows = []
        for row in block.rows:
            if isinstance(row, Subheading):  # a row of its own, its other cells empty
                rows.append([row.subheading] + [""] * (len(header) - 1))
                continue
            cells = []
            for cell in row.cells:
                cells += [cell.text] + [""] * (cell.span - 1)
            rows.append(cells)
        return header, rows, []
    if kind == "dice":
        named = any(row.name for row in block.rows)
        header = (
            [block.roll_title or block.die or "Roll"]
            + ([block.name_title or "Result"] if named else [])
            + [block.text_title or ""]
        )
        rows = []
        for row in block.rows:
            text = row.text + "".join(
                f" {inner.roll}: {inner.text or inner.name}" for inner in (row.then.rows if row.then else [])
            )
            rows.append([row.roll] + ([row.name or ""] if named else []) + [text])
        return header, rows, []
    if kind == "modifiers":
        detail = any(item.detail for item in block.items)
        titles = list(block.value_titles or [block.value_title or "Mod."])
        header = [*(title or "" for title in titles), block.text_title or ""] + (
            [block.detail_title or ""] if detail else []
        )
        return (
            header,
            [
                [item.subheading] + [""] * len(titles) + ([""] if detail else [])
                if isinstance(item, Subheading)
                else [*(item.value if isinstance(item.value, list) else [item.value]), item.text]
                + ([item.detail or ""] if detail else [])
                for item in block.items
            ],
            [],
        )
    if kind == "matrix":
        header = [block.corner or block.row_title or block.column_title or ""] + list(block.column_keys)
        return (
            header,
            [[key, *values] for key, values in zip(block.row_keys, block.grid())],
            [("p", line, 0) for line in block.legend],
        )
    if kind == "saves":
        header = [block.item_title or ""] + [troop.title for troop in block.troops]
        return header, [[item.name] + ["" for _ in block.troops] for item in block.items], []
    items = []
    if kind == "sequence":

        def steps(list_, depth):
            for step in list_:
                title = f"**{step.title}**" if step.title and step.text else step.title or ""
                items.append(("numbered", " ".join(part for part in (title, step.text) if part), depth))
                items.extend(("bullet", item, depth + 1) for item in step.items)
                steps(step.steps, depth + 1)

        steps(block.steps, 0)
    elif kind == "text":
        for item in block.content:
            if item.p:
                items.append(("p", item.p, 0))
            for text in item.bullets or []:
                items.append(("bullet", text, 0))
            for text in item.numbered or []:
                items.append(("numbered", text, 0))
            for term in item.terms or []:
                items.append(("bullet", f"**{term.term}**: {term.text}", 0))
    elif kind == "glossary":
        items += [("bullet", f"**{keyword.term}**: {keyword.text}", 0) for keyword in sheet.keywords if keyword.text]
    return None, None, items


def docx(sheet: Sheet) -> bytes:
    """The sheet as a Word file: Title, Heading 1-3, List Number and List Bullet paragraphs, tables."""
    import docx as word

    document = word.Document()
    document.add_heading(sheet.title, 0)

    def styled(paragraph, text):
        # a link as a Word author keeps it: its text (the address is in a field python-docx does not write)
        text = re.sub(r"(?<!\\)\[([^\]]*)\]\((?:https?|mailto):[^)\s]*\)", r"\1", words(sheet, text))
        for part in re.split(r"(\*\*[^*]+\*\*|\*[^*]+\*)", text):
            if part.startswith("**"):
                paragraph.add_run(part[2:-2]).bold = True
            elif part.startswith("*") and len(part) > 1:
                paragraph.add_run(part[1:-1]).italic = True
            elif part:
                paragraph.add_run(part)

    for section in sheet.sections:
        if section.title:
            document.add_heading(section.title, 1)
        group = None
        for block in section.blocks:
            if block.group and block.group != group:
                document.add_heading(section.group_of(block).title, 2)
            group = block.group
            if block.title:
                document.add_heading(block.title, 3)
            if block.intro:
                styled(document.add_paragraph(), _lead(block.intro))
            header, rows, items = _shape(sheet, block)
            if header is not None:
                table = document.add_table(rows=len(rows) + 1, cols=len(header))
                for r, row in enumerate([header, *rows]):
                    for c, cell in enumerate(row):
                        table.cell(r, c).text = plain(sheet, cell)
            for kind, text, depth in items:
                style = {"p": None, "bullet": "List Bullet", "numbered": "List Number"}[kind]
                if style and depth:
                    style += f" {min(depth + 1, 3)}"
                styled(document.add_paragraph(style=style), text)
            for note in sheet.notes_under(block):
                document.add_paragraph(plain(sheet, f"({note.id.replace('*', chr(92) + '*')}) {note.text}"))
            if block.after:
                styled(document.add_paragraph(), _lead(block.after))
    stream = io.BytesIO()
    document.save(stream)
    return stream.getvalue()
