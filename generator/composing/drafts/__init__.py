"""`qrs import`: an existing sheet (Markdown, plain text, HTML, Word, PDF) into a draft source, with a report.

Each reader makes one intermediate document (`document`); the typing (`blocks`) chooses the blocks; `draft` writes
and checks the YAML in memory; nothing is written unless the draft checks, and an existing source is never
replaced. The file is read through `files.read_regular`, with a size limit, and each reader bounds what it
unpacks (a zip bomb as .docx, a PDF of a million operators)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from generator import files, write
from generator.composing.drafts import draft
from generator.composing.drafts.report import Report
from generator.errors import MissingInput, UserError
from generator.project import Project
from generator.reading.documents.document import Document
from generator.report import shown

MAX_IMPORT_BYTES = 20 * 1024 * 1024  # a sheet is a few pages: 20 MiB holds a PDF with its pictures
READERS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".docx": "docx",
    ".pdf": "pdf",
}
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}\Z")


def reader_of(path: Path, head: bytes) -> str:
    """The reader a file needs: by its extension, else by its first bytes."""
    if path.suffix.lower() in READERS:
        return READERS[path.suffix.lower()]
    if head.startswith(b"%PDF"):
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return "docx"
    if head.lstrip()[:1] == b"<":
        return "html"
    return "text"


def decoded(path: Path, raw: bytes) -> tuple[str, str | None]:
    """A text file's characters: UTF-8 (a byte-order mark dropped), else Windows-1252 as word processors save it."""
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        try:
            return raw.decode(
                "cp1252"
            ), f"not UTF-8 (byte 0x{raw[error.start]:02x} at offset {error.start}): read as Windows-1252"
        except UnicodeDecodeError:
            line = raw[: error.start].count(b"\n") + 1
            raise UserError.at(
                path,
                line,
                1,
                f"byte 0x{raw[error.start]:02x} is neither UTF-8 nor Windows-1252: save the file as UTF-8",
            ) from None


def read_document(path: Path) -> Document:
    """The intermediate document of any supported file; UserError (file:line:column) for what cannot be read."""
    try:
        raw = files.read_regular(path, MAX_IMPORT_BYTES, what="a sheet to import")
    except FileNotFoundError:
        raise MissingInput.of(path, "a sheet as .md, .txt, .html, .docx or .pdf") from None
    kind = reader_of(path, raw[:8])
    if kind == "pdf":
        from generator.reading.documents import pdf

        return pdf.read(path, raw)
    if kind == "docx":
        from generator.reading.documents import docx

        return docx.read(path, raw)
    text, note = decoded(path, raw)
    if kind == "markdown":
        from generator.reading.documents import markdown

        document = markdown.read(text)
    elif kind == "html":
        from generator.reading.documents import html

        document = html.read(path, text)
    else:
        from generator.reading.documents import text as plain_text

        document = plain_text.read(text)
    if note:
        document.dropped.append(("encoding", note))
    return document


def sheet_id_for(path: Path, given: str | None) -> str:
    if given is not None:
        if not ID.match(given):
            raise UserError.at(path, 0, 0, f"'{given}' is not a sheet id: lower-case letters, digits and hyphens")
        if files.device_problem(given):
            raise UserError.at(path, 0, 0, files.device_problem(given))
        return given
    words = re.findall(r"[a-z0-9]+", _ascii(path.stem.lower()))
    made = "-".join(words)[:60].strip("-") or "imported"
    return f"{made}-sheet" if files.device_problem(made) else made  # con.md: con-sheet


def _ascii(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def import_sheet(
    project: Project,
    path: Path,
    sheet_id: str | None = None,
    game: str | None = None,
    lang: str | None = None,
    dry_run: bool = False,
    narrow: dict[str, int] | None = None,
    fits: Callable[[str, Report], dict[str, int]] | None = None,
) -> tuple[str, Report, Path | None]:
    """(the draft's YAML, the report, the file written or None with dry_run). UserError, nothing written, when the
    file cannot be read, the source exists already, or the draft does not check (the report says why).
    `fits`: the layout's verdict on a draft that checks (the command line lays it out through the build, a stage
    this one may not import): the tables to cut narrower, by origin, with the most columns each keeps; the draft
    is made again until nothing more can be narrowed."""
    path = Path(path)
    ident = sheet_id_for(path, sheet_id)
    target = project.sources / f"{ident}.yaml"
    if not dry_run and target.exists():
        raise UserError.at(
            target,
            1,
            1,
            "this sheet already exists: qrs import never replaces a source (give another --id, or remove the file)",
        )
    document = read_document(path)
    if not document.nodes:
        what = (
            "no text: a scanned PDF holds pictures of its text (run it through OCR first)"
            if document.fmt == "pdf"
            else "no text"
        )
        raise UserError.at(path, 1, 1, f"the file holds {what}; nothing to import, nothing written")
    content, report = _drafted(document, path, target, ident, (game, lang), dict(narrow or {}), fits)
    if report.problems and not dry_run:
        return content, report, None
    if not dry_run:
        try:
            write.text(target, content, overwrite=False)
        except FileExistsError:
            raise UserError.at(target, 1, 1, "this sheet already exists: qrs import never replaces a source") from None
        return content, report, target
    return content, report, None


def _drafted(
    document: Document, path: Path, target: Path, ident: str, named: tuple, narrow: dict[str, int], fits
) -> tuple[str, Report]:
    """The draft and its report, made again with its too-wide tables cut narrower while the layout asks it."""
    while True:
        report = Report(original=str(shown(path)), draft=str(shown(target)), reader=document.fmt)
        report.dropped = [draft.Note(origin, text, "dropped by the reader") for origin, text in document.dropped]
        try:
            content = draft.make(document, target, ident, *named, report, narrow)
        except draft.TooLarge as error:
            raise UserError.at(
                path,
                1,
                1,
                f"the draft would be {error.size} bytes; a source holds at most "
                f"{files.MAX_SOURCE_BYTES}: more than a sheet holds: split the document "
                "and import each part; nothing written",
            ) from None
        narrower = fits(content, report) if fits and not report.problems else {}
        if not narrower or all(narrow.get(origin) == most for origin, most in narrower.items()):
            return content, report
        narrow.update(narrower)


def draft_problem(report: Report, problem):
    """A problem of the draft as the command line reports it: at its line in the draft, with its place in the
    original (the draft is not written: `--dry-run` prints it)."""
    from generator.errors import Problem

    return Problem(
        report.draft,
        problem.line,
        problem.column,
        f"{problem.message} (original: {problem.origin}; nothing written: --dry-run prints the draft)",
    )
