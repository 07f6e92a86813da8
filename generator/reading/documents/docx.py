"""Word files (.docx) through python-docx, which opens the package; the body is read from its XML directly:
paragraphs in body order with their runs (bold, italic; a hyperlink's runs too, which python-docx's `runs`
leaves out), tabs kept between a paragraph's cells; lists numbered or bulleted as their numbering defines them;
tables with their cells, a merged cell once. Which paragraphs are headings (by style, outline level, number, size
or bold) and which lines typed with tabs are a table, `docx_nodes` says. Styles are looked up in one table made once: python-docx's `paragraph.style`
scans every style for each paragraph. The zip is measured before it is opened: too many parts, or parts that
unpack to more than a sheet could hold (a zip bomb), are refused."""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from pathlib import Path

from generator.errors import UserError
from generator.reading.documents.document import Document, Table
from generator.reading.documents.docx_nodes import Para, nodes
from generator.reading.documents.inline import runs

MAX_UNPACKED = 64 * 1024 * 1024  # every part of the zip unpacked: a sheet's text and pictures hold far less
MAX_PARTS = 2000
MAX_RATIO = 200  # a part that unpacks to 200 times its packed size is no document's (text packs about 5 to 1)


def guard(path: Path, raw: bytes) -> None:
    """UserError (file:1:1) for a zip that is no Word file, or that would unpack to too much."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise UserError.at(path, 1, 1, f"not a Word file (.docx is a zip archive: {error})") from None
    if len(members) > MAX_PARTS:
        raise UserError.at(
            path, 1, 1, f"the archive holds {len(members)} parts; a Word file of a sheet holds at most {MAX_PARTS}"
        )
    total = sum(member.file_size for member in members)
    if total > MAX_UNPACKED:
        raise UserError.at(
            path,
            1,
            1,
            f"the archive unpacks to {total} bytes; a sheet's Word file unpacks to at most "
            f"{MAX_UNPACKED} bytes (a zip bomb?): refused, nothing written",
        )
    for member in members:
        if (
            member.compress_size
            and member.file_size / member.compress_size > MAX_RATIO
            and member.file_size > 1_000_000
        ):
            raise UserError.at(
                path,
                1,
                1,
                f"the part {member.filename} unpacks to {member.file_size} bytes from "
                f"{member.compress_size} (a zip bomb?): refused, nothing written",
            )
    if "word/document.xml" not in {member.filename for member in members}:
        raise UserError.at(
            path,
            1,
            1,
            "not a Word file: the archive has no word/document.xml (.odt and .doc are not "
            "read: save the sheet as .docx)",
        )


W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OFF = {"0", "false", "off", "none"}
_SKIPPED_RUNS = {W + "del", W + "moveFrom"}  # deleted text of a tracked change
MAX_DEPTH = 20  # a style based on a style…, a content control in one: a loop or a deep nest ends here


def read(path: Path, raw: bytes) -> Document:
    guard(path, raw)
    import docx

    try:
        word = docx.Document(io.BytesIO(raw))
    except Exception as error:  # noqa: BLE001 - python-docx raises many kinds for a damaged file
        raise UserError.at(path, 1, 1, f"cannot read the Word file: {type(error).__name__}: {error}") from None
    styles, numbering = _styles(word), _numbering(word)
    found: list = []
    for count, child in enumerate(_body(word.element.body), start=1):
        if child.tag == W + "p":
            found.append(_paragraph_of(child, styles, numbering, f"paragraph {count}"))
        elif child.tag == W + "tbl":
            found.append(Table(_rows(child, styles), None, f"table at paragraph {count}"))
    return Document(nodes(found), "docx")


def _body(body):
    """The body's paragraphs and tables in order, those inside content controls (w:sdt) included, without recursion."""
    stack = [iter(body)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif child.tag == W + "sdt" and len(stack) < MAX_DEPTH:
            content = child.find(W + "sdtContent")
            if content is not None:
                stack.append(iter(content))
        elif child.tag in (W + "p", W + "tbl"):
            yield child


def _val(element, name: str):
    found = element.find(name) if element is not None else None
    return None if found is None else found.get(W + "val")


def _flag(rpr, name: str) -> bool | None:
    """A run property's on/off value (<w:b/> is on, <w:b w:val="0"/> off), None when not set."""
    found = rpr.find(W + name) if rpr is not None else None
    if found is None:
        return None
    return (found.get(W + "val") or "true").lower() not in _OFF


def _styles(word) -> dict[str, dict]:
    """Each style's id → its name, outline level, type size, bold and numbering, with what it is based on
    resolved: one table, made once."""
    own = {}
    for style in word.styles.element.iterchildren(W + "style"):
        ppr, rpr = style.find(W + "pPr"), style.find(W + "rPr")
        size = _val(rpr, W + "sz")
        numpr = ppr.find(W + "numPr") if ppr is not None else None
        own[style.get(W + "styleId")] = {
            "name": _val(style, W + "name") or "",
            "based": _val(style, W + "basedOn"),
            "outline": _val(ppr, W + "outlineLvl"),
            "size": float(size) / 2 if size and size.isdigit() else None,
            "bold": _flag(rpr, "b"),
            "italic": _flag(rpr, "i"),
            "num": (_val(numpr, W + "numId"), _val(numpr, W + "ilvl")) if numpr is not None else None,
        }
    resolved = {}
    for ident, style in own.items():
        merged, based, depth = dict(style), style["based"], 0
        while based in own and depth < MAX_DEPTH:
            for key, value in own[based].items():
                if merged.get(key) is None:
                    merged[key] = value
            based, depth = own[based]["based"], depth + 1
        merged["name"] = style["name"]
        resolved[ident] = merged
    return resolved


def _numbering(word) -> dict[str, dict[int, str]]:
    """Each list's numId → its levels' number formats ("decimal", "bullet", "upperLetter"…)."""
    try:
        part = word.part.numbering_part.element
    except (NotImplementedError, KeyError, AttributeError):
        return {}
    formats = {}
    for abstract in part.iterchildren(W + "abstractNum"):
        levels = {}
        for level in abstract.iterchildren(W + "lvl"):
            ilvl = level.get(W + "ilvl") or "0"
            if ilvl.isdigit():
                levels[int(ilvl)] = _val(level, W + "numFmt") or "decimal"
        formats[abstract.get(W + "abstractNumId")] = levels
    return {
        num.get(W + "numId"): formats.get(_val(num, W + "abstractNumId"), {}) for num in part.iterchildren(W + "num")
    }


def _runs_of(paragraph, styles: dict, default: dict) -> tuple[str, list[tuple[str, float]], bool, list[str]]:
    """(markup, (text, size) of each run, every run bold, its cells: the markup cut at its tabs) of a paragraph:
    every run in it, a hyperlink's, a field's and an insertion's included, a deletion's left out."""
    parts, sized = [], []
    for run in paragraph.iter(W + "r"):
        if _deleted(run, paragraph):
            continue
        text = _run_text(run)
        if not text:
            continue
        rpr = run.find(W + "rPr")
        style = styles.get(_val(rpr, W + "rStyle"), {})
        bold = _first(_flag(rpr, "b"), style.get("bold"), default.get("bold"))
        italic = _first(_flag(rpr, "i"), style.get("italic"), default.get("italic"))
        size = _val(rpr, W + "sz")
        size = float(size) / 2 if size and size.isdigit() else style.get("size") or default.get("size") or 0.0
        parts.append((text, bool(bold), bool(italic)))
        sized.append((text, size))
    every_bold = bool(parts) and all(bold for text, bold, _ in parts if text.strip())
    return runs(parts), sized, every_bold, _cells(parts)


def _cells(parts: list[tuple[str, bool, bool]]) -> list[str]:
    """A paragraph's runs cut at its tabs, each piece as markup, empty ones at either end left out; [] where it
    holds no tab between words."""
    if not any("\t" in text for text, _, _ in parts):
        return []
    pieces: list[list] = [[]]
    for text, bold, italic in parts:
        for number, piece in enumerate(text.split("\t")):
            if number:
                pieces.append([])
            pieces[-1].append((piece, bold, italic))
    cells = [runs(piece) for piece in pieces]
    while cells and not cells[-1]:
        cells.pop()
    while cells and not cells[0]:
        cells.pop(0)
    return cells if len(cells) > 1 else []


def _first(*values):
    return next((value for value in values if value is not None), None)


def _deleted(run, paragraph) -> bool:
    parent = run.getparent()
    while parent is not None and parent is not paragraph:
        if parent.tag in _SKIPPED_RUNS:
            return True
        parent = parent.getparent()
    return False


def _run_text(run) -> str:
    out = []
    for child in run:
        if child.tag == W + "t":  # an entity left unexpanded (never resolved: no XXE) is a node: its tail is text
            out.append((child.text or "") + "".join(inner.tail or "" for inner in child))
        elif child.tag in (W + "tab", W + "ptab"):
            out.append("\t")
        elif child.tag in (W + "br", W + "cr"):
            out.append("\n")
        elif child.tag in (W + "noBreakHyphen",):
            out.append("-")
    return "".join(out)


def _paragraph_of(paragraph, styles: dict, numbering: dict, origin: str) -> Para:
    ppr = paragraph.find(W + "pPr")
    style = styles.get(_val(ppr, W + "pStyle"), {}) if ppr is not None else {}
    if not style:
        style = next((s for s in styles.values() if s["name"] == "Normal"), {})
    text, sized, bold, cells = _runs_of(paragraph, styles, style)
    made = Para(text, origin, bold=bold, cells=cells)
    weights = Counter()
    for piece, size in sized:
        weights[size] += len(piece.strip())
    made.size = weights.most_common(1)[0][0] if weights else 0.0
    name = style.get("name", "")
    numbered = re.match(r"^heading (\d)$", name, re.I)
    outline = _val(ppr, W + "outlineLvl") or style.get("outline")
    if name.lower() == "title":
        made.level = 1
    elif numbered:
        made.level = int(numbered.group(1)) + 1  # the Title is the level above Heading 1
    elif outline and outline.isdigit() and int(outline) < 9:  # 9 is "body text"
        made.level = int(outline) + 2
    _list_of(made, ppr, style, numbering)
    return made


def _list_of(made: Para, ppr, style: dict, numbering: dict) -> None:
    """An item of a list: numbered (its numbering's format is not a bullet) or bulleted, at its depth."""
    numpr = ppr.find(W + "numPr") if ppr is not None else None
    num = (_val(numpr, W + "numId"), _val(numpr, W + "ilvl")) if numpr is not None else style.get("num")
    name = style.get("name", "")
    if num and num[0] and num[0] != "0":
        depth = int(num[1]) if num[1] and num[1].isdigit() else 0
        made.list_level = depth + 1
        made.ordered = numbering.get(num[0], {}).get(depth, "decimal") not in ("bullet", "none")
    elif name.startswith("List"):
        made.list_level = int(name[-1]) if name[-1].isdigit() else 1
        made.ordered = "Number" in name


def _rows(table, styles: dict) -> list[list[str]]:
    """A table's rows from its w:tc: a cell spanning columns (gridSpan) once then empty cells, a cell merged down
    (vMerge) once, at its top, then empty. python-docx finds a merged cell's top by recursion, row by row: a
    table merged down 3000 rows ended in RecursionError."""
    rows = []
    for tr in table.iterchildren(W + "tr"):
        cells = []
        for tc in tr.iterchildren(W + "tc"):
            tcpr = tc.find(W + "tcPr")
            span = _val(tcpr, W + "gridSpan")
            merge = tcpr.find(W + "vMerge") if tcpr is not None else None
            below = merge is not None and (merge.get(W + "val") or "continue") == "continue"
            text = "" if below else " ".join(" ".join(_runs_of(p, styles, {})[0] for p in tc.iter(W + "p")).split())
            cells += [text] + [""] * (min(int(span), 63) - 1 if span and span.isdigit() and int(span) > 1 else 0)
        rows.append(cells)
    return rows
