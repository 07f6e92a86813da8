"""Hostile files are refused with file:line:column and exit code 2, nothing written; a source is never replaced."""

from __future__ import annotations

import io
import zipfile

import pytest

from tests.conftest import run_qrs


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "sources").mkdir()
    return tmp_path


def refused(folder, name, *more, code: int = 2):
    ran = run_qrs("import", name, "--id", "hostile", *more, cwd=folder)
    assert ran.returncode == code and "Traceback" not in ran.stderr
    assert not (folder / "sources" / "hostile.yaml").exists()
    return ran.stderr


def test_a_zip_bomb_as_docx(folder):
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b"\0" * (80 * 1024 * 1024))
    (folder / "bomb.docx").write_bytes(stream.getvalue())
    assert len(stream.getvalue()) < 200_000
    assert "bomb.docx:1:1: the archive unpacks to" in refused(folder, "bomb.docx")


def test_a_pdf_of_a_million_operators(folder):
    content = b"0 0 1 1 re f\n" * 1_000_000
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    pdf, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(pdf)
    pdf += b"xref\n0 5\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    pdf += b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    (folder / "million.pdf").write_bytes(pdf)
    assert "million.pdf:1:1: page 1 of the PDF draws" in refused(folder, "million.pdf")


def test_a_50_mb_file_is_refused_before_it_is_read(folder):
    with open(folder / "huge.txt", "wb") as stream:
        stream.truncate(50 * 1024 * 1024)
    assert "huge.txt:1:1: the file is 52428800 bytes" in refused(folder, "huge.txt")


def test_a_folder_a_missing_file_and_a_file_that_is_no_word_file(folder):
    (folder / "dir.md").mkdir()
    (folder / "fake.docx").write_bytes(b"not a zip")
    assert "not a file" in refused(folder, "dir.md")
    assert "no such file" in refused(folder, "missing.md", code=66)  # a missing input, as for a roster (#45)
    assert "fake.docx:1:1: not a Word file" in refused(folder, "fake.docx")


def test_an_existing_source_is_never_replaced(folder):
    (folder / "sheet.md").write_text("# Sheet\n\n## Part\n\nText.\n", encoding="utf-8")
    (folder / "sources" / "hostile.yaml").write_text("mine\n", encoding="utf-8")
    ran = run_qrs("import", "sheet.md", "--id", "hostile", cwd=folder)
    assert ran.returncode == 2 and "never replaces a source" in ran.stderr
    assert (folder / "sources" / "hostile.yaml").read_text(encoding="utf-8") == "mine\n"


def test_dry_run_prints_the_draft_and_writes_nothing_and_json_gives_the_report(folder):
    (folder / "sheet.md").write_text(
        "# Sheet\n\n## Part\n\n| D6 | R |\n|---|---|\n| 1-3 | a |\n| 4-6 | b |\n", encoding="utf-8"
    )
    ran = run_qrs("import", "sheet.md", "--dry-run", cwd=folder)
    assert ran.returncode == 0 and 'die: "D6"' in ran.stdout and not list((folder / "sources").iterdir())
    import json

    ran = run_qrs("import", "sheet.md", "--json", cwd=folder)
    event = json.loads(ran.stdout.splitlines()[0])
    assert event["event"] == "import" and event["guesses"][0]["type"] == "dice" and event["guesses"][0]["line"] > 0
    assert (folder / "sources" / "sheet.yaml").exists()
    assert run_qrs("check", "sheet", cwd=folder).returncode == 0


def test_a_draft_that_does_not_check_names_its_line_and_the_originals_place_and_nothing_is_written(folder):
    (folder / "sheet.md").write_text("# Sheet\n\n## Part\n\nRoll the die \U00013000 now.\n", encoding="utf-8")
    ran = run_qrs("import", "sheet.md", cwd=folder)
    assert ran.returncode == 2
    assert "sources/sheet.yaml:" in ran.stderr and "U+13000" in ran.stderr and "(original: line 5" in ran.stderr
    assert not (folder / "sources" / "sheet.yaml").exists()
    ran = run_qrs("import", "sheet.md", "--dry-run", cwd=folder)
    assert "Roll the die \U00013000 now." in ran.stdout  # the draft, to fix by hand


def test_a_file_without_text_is_refused_with_its_reason(folder):
    import pypdfium2

    (folder / "empty.txt").write_text("  \n\t\n", encoding="utf-8")
    blank = pypdfium2.PdfDocument.new()
    blank.new_page(200, 200)
    blank.save(folder / "scan.pdf")
    assert "empty.txt:1:1: the file holds no text" in refused(folder, "empty.txt")
    assert "scan.pdf:1:1: the file holds no text: a scanned PDF" in refused(folder, "scan.pdf")


def test_a_pdf_page_two_billion_points_wide_is_refused_before_anything_is_allocated(folder):
    from tests.reading.documents import making

    (folder / "wide.pdf").write_bytes(making.pdf([[(40, 400, "word")]], ("2000000000", "800")))
    assert "wide.pdf:1:1: page 1 of the PDF measures 2e+09 × 800 pt" in refused(folder, "wide.pdf")


def test_a_draft_over_a_sources_size_limit_is_never_written(folder):
    from generator import files

    paragraph = "A sentence of the rules, long enough to be a rule of its own. " * 60
    sections = "".join(f"## Part {n}\n\n{paragraph}\n\n" for n in range(files.MAX_SOURCE_BYTES // len(paragraph) + 8))
    (folder / "book.md").write_text("# Book\n\n" + sections, encoding="utf-8")
    message = refused(folder, "book.md")
    assert "book.md:1:1: the draft would be" in message and "split the document" in message
