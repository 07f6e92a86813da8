"""The draft: the typed sections with the sheet's metadata, written as YAML the strict loader reads, validated in
memory. A typed block the model refuses (a matrix with a ragged row, a dice table whose rolls overlap) is set back
to a table, with the model's words in the report; what is still wrong is reported at its line in the draft and
its place in the original."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from generator import files
from generator.composing.drafts.blocks import Typing
from generator.composing.drafts.metadata import guess_language, language_mismatch, stated_edition
from generator.composing.drafts.pieces import bold_terms
from generator.composing.drafts.report import DraftProblem, Note, Report
from generator.errors import UserError
from generator.model import validate
from generator.reading.documents.document import Document, plain
from generator.reading.sources import load_text


@dataclass(frozen=True)
class Missing:
    """A field the original does not state: the draft leaves it out, a commented line showing where it goes (the
    footer prints no edition or date until the author gives them: a placeholder would print as the sheet's)."""

    example: str
    why: str


def make(
    document: Document,
    path: Path,
    sheet_id: str,
    game: str | None,
    lang: str | None,
    report: Report,
    narrow: dict[str, int] | None = None,
) -> str:
    """The draft's YAML text, checked; UserError if the model still refuses it (the report lists why). `narrow`:
    the most columns a table keeps, by its origin (`blocks.Typing`)."""
    typing = Typing(document, report, narrow)
    sections = typing.run()
    title = typing.title or (sections[0]["title"] if sections else sheet_id)
    subtitle = typing.subtitle
    top = typing.top
    if len(top) >= 2 and (game is None or _same(game, top[0])):  # the game's name above the sheet's title
        if game is None:
            report.placeholders.append(
                Note(
                    "game",
                    plain(top[0]),
                    "the first of the headings above the sheet's title; give --game to name the game",
                )
            )
        game, title, subtitle = game or plain(top[0]), top[1], " ".join(top[2:]) or None
    if lang is None:
        lang, why = guess_language(document)
        report.placeholders.append(Note("lang", lang, f"guessed from the words ({why}); give --lang to choose"))
    elif (mismatch := language_mismatch(document, lang)) is not None:
        report.warnings.append(mismatch)
    if game is None:
        game = plain(title)
        report.placeholders.append(Note("game", game, "taken from the title; give --game to name the game"))
    edition, date, seen = stated_edition(document)
    stated: dict[str, str | Missing] = {}
    for field, value, example, what in (
        ("edition", edition, "1.0", "no edition"),
        ("date", date, "YYYY-MM-DD", "no date"),
    ):
        if value is None:
            stated[field] = Missing(example, f"TO FILL: the original states {what}; the footer prints none until given")
            report.placeholders.append(
                Note(
                    field,
                    f'fill in the line "# {field}:"',
                    f"the original states {what}: left out (the footer prints none)",
                )
            )
        else:
            stated[field] = value
            report.placeholders.append(
                Note(field, value, f'read from the original ("…{seen[field]}…"): check that it is the sheet\'s own')
            )
    # no page count: the build takes as few pages as the content needs (paper.pages is a most the author may add)
    data = {"sheet": sheet_id, "game": plain(game)}
    if not _same(plain(title), plain(game)):  # a game named after the title: the header prints it once
        data["title"] = plain(title)
    if subtitle:
        data["subtitle"] = plain(subtitle)
    data.update({"lang": lang, **stated, "paper": {"size": "A4", "orientation": "landscape", "columns": 3}})
    if typing.notes:
        data["notes"] = typing.notes
    data["sections"] = sections
    report.keywords = bold_terms(sections)
    for attempt in range(50):
        text = dump(data)
        if len(text.encode("utf-8")) > files.MAX_SOURCE_BYTES:  # checked before the model reads megabytes
            raise TooLarge(len(text.encode("utf-8")))
        problems, located = _problems(path, text)
        if not problems:
            break
        if not _demote_refused(data, problems, located, typing, report):
            break
    report.problems = [
        DraftProblem(problem.line, problem.column, problem.message, _origin_of(problem.line, located, data, typing))
        for problem in problems
    ]
    _lines(report, located, data)
    return text


class TooLarge(Exception):
    """The draft would be larger than a source may be: written, it would stop `qrs check` for the whole library."""

    def __init__(self, size: int):
        super().__init__(size)
        self.size = size


def _same(one: str, other: str) -> bool:
    words = lambda text: re.findall(r"\w+", plain(text).casefold())
    return words(one) == words(other)


def _problems(path: Path, text: str):
    located = None
    try:
        located = load_text(path, text)
        validate.validate(located)
    except UserError as error:
        return error.problems, located
    return [], located


def _block_at(line: int, located, data) -> tuple[int, int] | None:
    """The (section, block) whose lines hold `line` of the draft."""
    best = None
    if located is None:
        return None
    for s, section in enumerate(data["sections"]):
        for b, _ in enumerate(section["blocks"]):
            start, _ = located.position(("sections", s, "blocks", b))
            if start <= line:
                best = (s, b)
    return best


def _origin_of(line: int, located, data, typing: Typing) -> str:
    if located is None:
        return "unknown: the draft could not be read back"
    where = _block_at(line, located, data)
    if where is None:
        return "the sheet's metadata"
    return typing.origins.get(data["sections"][where[0]]["blocks"][where[1]]["id"], "the sheet's metadata")


def _lines(report: Report, located, data) -> None:
    if located is None:
        return
    lines = {}
    for s, section in enumerate(data["sections"]):
        for b, block in enumerate(section["blocks"]):
            lines[block["id"]] = located.position(("sections", s, "blocks", b))[0]
    for guess in report.guesses:
        guess.line = lines.get(guess.block, 0)


def _demote_refused(data, problems, located, typing: Typing, report: Report) -> bool:
    """Set back to a table (or text) each typed block a problem falls in; False when none could be."""
    changed = False
    for problem in problems:
        where = _block_at(problem.line, located, data)
        if where is None:
            continue
        s, b = where
        block = data["sections"][s]["blocks"][b]
        demoted = demote(block)
        if demoted is None:
            continue
        data["sections"][s]["blocks"][b] = demoted
        for guess in report.guesses:
            if guess.block == block["id"]:
                guess.type, guess.confident = demoted["type"], False
                guess.why += f"; set back to a {demoted['type']}: {problem.message}"
        report.untyped.append(
            Note(
                typing.origins.get(block["id"], ""),
                block.get("title") or block["id"],
                f"typed {block['type']}, refused by the model ({problem.message}); kept as a {demoted['type']}",
            )
        )
        changed = True
    return changed


def demote(block: dict) -> dict | None:
    """The block as a plain table (or a text of numbered items), keeping every cell; None for a text block."""
    head = {key: block[key] for key in ("id", "title", "group") if key in block}
    kind = block["type"]
    if kind == "dice":
        columns = [
            block.get("roll_title") or block.get("die") or block.get("range") or "",
            block.get("name_title", ""),
            block.get("text_title", ""),
        ]
        rows = [[row["roll"], row.get("name", ""), row.get("text", "")] for row in block["rows"]]
    elif kind == "modifiers":
        columns = [block.get("value_title", ""), block.get("text_title", ""), block.get("detail_title", "")]
        rows = [[item["value"], item["text"], item.get("detail", "")] for item in block["items"]]
    elif kind == "matrix":
        grid = [row.split() for row in block["cells"]]
        width = max(len(keys) for keys in [block["column_keys"], *grid])
        columns = [block.get("row_title", "")] + block["column_keys"] + [""] * (width - len(block["column_keys"]))
        rows = [[key, *values, *[""] * (width - len(values))] for key, values in zip(block["row_keys"], grid)]
        if block.get("column_title"):
            head["intro"] = block["column_title"]
    elif kind == "sequence":
        return {**head, "type": "text", "content": [{"numbered": [_step_text(step) for step in block["steps"]]}]}
    else:
        return None
    keep = [c for c in range(len(columns)) if columns[c] or any(row[c] for row in rows)] or [0]
    return {
        **head,
        "type": "table",
        "columns": [{"title": columns[c]} for c in keep],
        "rows": [[row[c] for c in keep] for row in rows],
    }


def _step_text(step: dict) -> str:
    parts = [
        f"**{step['title']}**" if step.get("text") and step.get("title") else step.get("title", ""),
        step.get("text", ""),
    ]
    parts += [_step_text(child) for child in step.get("steps", [])]
    return " ".join(part for part in parts if part)


def dump(data) -> str:
    """YAML in block style, every string double-quoted (JSON's syntax, which the strict loader reads as typed); a
    field Missing, a commented line."""
    lines = ["# A draft made by qrs import: check the report, then `qrs check` and `qrs build` it."]
    lines += _mapping(data, 0)
    return "\n".join(lines) + "\n"


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _mapping(data: dict, indent: int) -> list[str]:
    pad, out = " " * indent, []
    for key, value in data.items():
        if isinstance(value, Missing):
            out.append(f"{pad}# {key}: {_scalar(value.example)}  # {value.why}")
        elif isinstance(value, dict):
            if all(not isinstance(item, (dict, list)) for item in value.values()):
                inner = ", ".join(f"{k}: {_scalar(v)}" for k, v in value.items())
                out.append(f"{pad}{key}: {{{inner}}}")
            else:
                out.append(f"{pad}{key}:")
                out += _mapping(value, indent + 2)
        elif isinstance(value, list) and not value:
            out.append(f"{pad}{key}: []")
        elif isinstance(value, list):
            out.append(f"{pad}{key}:")
            out += _sequence(value, indent + 2)
        else:
            out.append(f"{pad}{key}: {_scalar(value)}")
    return out


def _sequence(items: list, indent: int) -> list[str]:
    pad, out = " " * indent, []
    for item in items:
        if isinstance(item, dict):
            inner = _mapping(item, indent + 2)
            out.append(f"{pad}- {inner[0].lstrip()}")
            out += inner[1:]
        elif isinstance(item, list):
            if all(not isinstance(cell, (dict, list)) for cell in item):
                out.append(f"{pad}- [{', '.join(_scalar(cell) for cell in item)}]")
            else:
                out.append(f"{pad}-")
                out += _sequence(item, indent + 2)
        else:
            out.append(f"{pad}- {_scalar(item)}")
    return out
