"""Each reader makes the same intermediate document: headings, paragraphs, lists, tables, emphasis."""

from __future__ import annotations

import io
from pathlib import Path

from generator.reading.documents import docx, html, markdown, text
from generator.reading.documents.document import ListBlock, plain

MARKDOWN = """# Sheet

## Shooting

| D6 | Result |
|---|---|
| 1-3 | *Miss* |
| 4-6 | **Hit** |

1. Move
2. Shoot
   - aim first

A {brace} and a *star.
"""


def kinds(document):
    return [type(node).__name__ for node in document.nodes]


def test_markdown_gives_headings_tables_lists_and_escapes_the_markup_characters():
    document = markdown.read(MARKDOWN)
    assert kinds(document) == ["Heading", "Heading", "Table", "ListBlock", "Paragraph"]
    table = document.nodes[2]
    assert table.header and table.rows[1] == ["1-3", "*Miss*"] and table.rows[2][1] == "**Hit**"
    assert document.nodes[3].ordered and document.nodes[3].items[1].children[0].text == "aim first"
    assert document.nodes[4].text == "A \\{brace\\} and a \\*star."
    assert document.nodes[2].origin == "line 5"


def test_html_gives_the_same_document():
    from markdown_it import MarkdownIt

    page = "<html><head><script>x()</script></head><body>" + MarkdownIt("commonmark").enable("table").render(MARKDOWN)
    document = html.read(None, page)
    assert kinds(document) == ["Heading", "Heading", "Table", "ListBlock", "Paragraph"]
    assert document.nodes[2].header and document.nodes[2].rows[1] == ["1-3", "*Miss*"]
    assert "x()" not in document.text()


def test_word_styles_and_runs():
    import docx as word

    made = word.Document()
    made.add_heading("Sheet", 0)
    made.add_heading("Shooting", 1)
    table = made.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text, table.cell(1, 0).text, table.cell(1, 1).text = "D6", "R", "1-6", "x"
    made.add_paragraph("Move", style="List Number")
    paragraph = made.add_paragraph("A ")
    paragraph.add_run("bold").bold = True
    stream = io.BytesIO()
    made.save(stream)
    document = docx.read(None, stream.getvalue())
    assert [(type(node).__name__, getattr(node, "level", None)) for node in document.nodes] == [
        ("Heading", 1),
        ("Heading", 2),
        ("Table", None),
        ("ListBlock", None),
        ("Paragraph", None),
    ]
    assert document.nodes[4].text == "A **bold**"


def test_plain_text_tables_numbered_lines_bullets_and_headings_in_capitals():
    document = text.read(
        "REFERENCE\n\nSHOOTING\n\nD6\tResult\n1-3\tMiss\n4-6\tHit\n\n1) Move\n2) Shoot\n\n"
        "• one\n• two\n\nA line broken in the mid-\ndle of a word.\n"
    )
    assert kinds(document) == ["Heading", "Heading", "Table", "ListBlock", "ListBlock", "Paragraph"]
    assert document.nodes[0].level == 1 and document.nodes[1].level == 2
    assert document.nodes[2].rows == [["D6", "Result"], ["1-3", "Miss"], ["4-6", "Hit"]]
    assert document.nodes[3].ordered and not document.nodes[4].ordered
    assert "middle of a word." in document.nodes[5].text.replace("\n", " ")


def test_plain_text_detached_minus_signs_in_a_list_of_modifiers():
    document = text.read("Title\n\n- +1 Large target\n- 1 Moving\n")
    assert [item.text for item in document.nodes[1].items] == ["+1 Large target", "-1 Moving"]


def test_plain_text_typewriter_dashes_are_set_as_dashes():
    """Project Gutenberg's Little Wars writes "the game of kings--for players" and "pages 10--12"."""
    document = text.read("Title\n\nThe game of kings--for players -- and ranges 10--12.\n\n------\n")
    assert document.nodes[1].text.startswith("The game of kings—for players — and ranges 10–12.")
    assert "------" in document.text()


def test_an_illustrations_caption_in_plain_text_is_left_out_and_listed():
    """Project Gutenberg marks a picture the text file lacks: "[Illustration: …]", over one line or several."""
    document = text.read(
        "Title\n\nThe rules.\n\n[Illustration: Showing the war game in the open air]\n\n"
        "[Illustration: Fig. 1--Battle of Hook's Farm.  General View of the\nField.]\n\nThe end. [Not a caption]\n"
    )
    assert [plain(node.text) for node in document.nodes[1:]] == ["The rules.", "The end. [Not a caption]"]
    assert [text for _, text in document.dropped] == [
        "an illustration's caption, no picture: [Illustration: Showing the war game in the open air]",
        "an illustration's caption, no picture: [Illustration: Fig. 1—Battle of Hook's Farm.  General View of the Field.]",
    ]


def test_a_book_in_plain_text_its_contents_chapter_numbers_and_initials():
    """As Project Gutenberg sets a book (Little Wars, tests/fixtures/imports/): a contents of its chapters left out
    and listed, each chapter's number alone over its title in capitals, initials at a line's start ("H. G. Wells",
    a paragraph wrapped before "W."), none of them a list; a list lettered a, b, c stays a list."""
    document = text.read(
        "Little Wars\n\nBy\n\nH. G. Wells\n\n\nCONTENTS\n\n   I. OF THE PAST\n  II. THE RULES--\n        The Move\n\n"
        "APPENDIX--\n  KRIEGSPIEL\n\n\nI\n\nOF THE PAST\n\nA friend, Mr\nW. To him the idea was broached.\n\n"
        "II\n\nTHE RULES\n\nTHE MOVE\n\na. One.\nb. Two.\n\nAPPENDIX\n\nKRIEGSPIEL\n\nText.\n"
    )
    assert [(type(node).__name__, plain(node.text)) for node in document.nodes if not isinstance(node, ListBlock)] == [
        ("Heading", "Little Wars"),
        ("Paragraph", "By"),
        ("Paragraph", "H. G. Wells"),
        ("Heading", "I. OF THE PAST"),
        ("Paragraph", "A friend, Mr\nW. To him the idea was broached."),
        ("Heading", "II. THE RULES"),
        ("Heading", "THE MOVE"),
        ("Heading", "APPENDIX. KRIEGSPIEL"),
        ("Paragraph", "Text."),
    ]
    lettered = next(node for node in document.nodes if isinstance(node, ListBlock))
    assert [item.text for item in lettered.items] == ["One.", "Two."] and lettered.numbering == "a"
    assert [text for _, text in document.dropped] == [
        "a table of contents: " + line
        for line in ("CONTENTS", "I. OF THE PAST", "II. THE RULES--", "The Move", "APPENDIX--", "KRIEGSPIEL")
    ]


def test_html_tags_in_plain_text_become_emphasis():
    document = text.read("Title\n\nUnit with <b>Savage</b> and <i>Pious</i> ones\n")
    assert document.nodes[1].text == "Unit with **Savage** and *Pious* ones"


def test_a_doctype_with_an_internal_subset_leaves_nothing_behind():
    """Issue #49 item 7: html.parser ended the declaration inside the subset and its "]>" became a paragraph."""
    from generator.reading.documents import html

    document = html.read(Path("x.html"), '<!DOCTYPE html [<!ENTITY x "y">]>\n<h1>Title</h1><p>Text.</p>')
    assert [node.text for node in document.nodes] == ["Title", "Text."]


def test_a_word_entity_left_unexpanded_keeps_the_rest_of_its_run():
    """Issue #49 item 7: "Roll &xxe; two dice." read "Roll": the entity (declared in the file's own DTD, never
    resolved) is a node whose tail the reader dropped."""
    import zipfile

    import docx as word

    made = word.Document()
    made.add_paragraph("Roll MARK two dice.")
    stream = io.BytesIO()
    made.save(stream)
    source, patched = zipfile.ZipFile(io.BytesIO(stream.getvalue())), io.BytesIO()
    with zipfile.ZipFile(patched, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/document.xml":
                declaration, _, body = data.partition(b"?>")
                data = (
                    declaration
                    + b'?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>'
                    + body.replace(b"MARK", b"&xxe;")
                )
            target.writestr(item, data)
    document = docx.read(None, patched.getvalue())
    assert " ".join(document.nodes[0].text.split()) == "Roll two dice."  # the entity's file never read
