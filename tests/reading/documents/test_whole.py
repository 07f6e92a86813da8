"""Documents read whole: Markdown's raw HTML left out and listed (its words that only look like tags kept), a Word
file without heading styles read with its headings, hyperlinks and lists, an HTML page's captions and spans, and
a Word table merged down thousands of rows read without recursion."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.reading.documents import docx, html, markdown
from generator.reading.documents.document import Heading, ListBlock, Paragraph, Table
from tests.reading.documents import making

FIXTURES = Path(__file__).parents[2] / "fixtures" / "imports"


def test_markdown_raw_html_and_comments_are_dropped_and_listed_and_tag_like_text_stays():
    document = markdown.read((FIXTURES / "panels.md").read_text(encoding="utf-8"))
    dropped = {origin: text for origin, text in document.dropped}
    assert dropped["line 5"].startswith("raw HTML: <!-- panels:start -->")
    assert dropped["line 9"] == 'raw HTML: <div class="left-panel"> </div> (its words kept)'
    assert dropped["line 23"] == "raw HTML: <!-- the sum -->"
    assert Paragraph("Roll to hit for every shot.", "line 9") in document.nodes  # the <div>'s words, in place
    table = next(node for node in document.nodes if isinstance(node, Table))
    assert table.rows[2][1] == "Graze: -1 to the target's next roll"  # the <span>'s words, without its tags
    messages = [node.text for node in document.nodes if isinstance(node, Paragraph)][-1]
    assert messages == "The bot answers <@user> rolled **8** and waits for the next player.\nHearts: <3 and a < b."


def test_markdown_raw_html_is_listed_at_its_own_line_and_a_script_or_comment_leaves_no_words():
    document = markdown.read(
        "# Notes\n\nFirst line\nsecond <!-- a note --> line\nthird <span>x</span>.\n\n"
        "<script>alert(1)</script>\n\n<!--\nmany\nlines\n-->\n\nEnd.\n"
    )
    assert document.dropped == [
        ("line 4", "raw HTML: <!-- a note -->"),
        ("line 5", "raw HTML: <span>"),
        ("line 5", "raw HTML: </span>"),
        ("line 7", "raw HTML: <script>alert(1)</script>"),
        ("line 9", "raw HTML: <!-- many lines -->"),
    ]
    assert [node.text for node in document.nodes] == ["Notes", "First line\nsecond line\nthird x.", "End."]


def test_a_static_site_s_front_matter_is_left_out_and_listed_its_title_used_where_no_heading_gives_one():
    """Cairn's chapters (and most Markdown of GitHub Pages) open with Jekyll's front matter; read as Markdown it was
    a heading of its keys ("layout: default title: Character Creation …") over a thematic break."""
    document = markdown.read((FIXTURES / "cairn-character-creation.md").read_text(encoding="utf-8"))
    assert document.dropped[0] == (
        "line 1",
        "front matter: layout: default, title: Character Creation, parent: Player's Guide, "
        "grand_parent: Second Edition",
    )
    assert document.nodes[0] == Heading(1, "Character Creation", "line 8")  # its own heading, at its own line
    untitled = markdown.read('---\ntitle: "Rules: summary"\nlayout: page\n---\nRoll a D6.\n')
    assert [(type(node), node.text) for node in untitled.nodes] == [
        (Heading, "Rules: summary"),
        (Paragraph, "Roll a D6."),
    ]
    assert untitled.nodes[1].origin == "line 5"
    assert markdown.read("---\n\nA break, then text.\n\n---\n").dropped == []  # a thematic break, no keys


def test_text_that_reads_as_a_tag_keeps_its_words_escaped_and_prints_them(tmp_path):
    """Issue #49 item 6: text that reads as a tag is kept with the markup's escape \\< (it printed the look-alike
    U+2039 before there was one), and the sheet prints "<"."""
    from pypdf import PdfReader

    from tests.conftest import FIXTURES, run_qrs

    document = markdown.read("# Sheet\n\nA <notatag> in a sentence, and <unclosed too.\n")
    assert document.nodes[1].text == "A \\<notatag> in a sentence, and \\<unclosed too."
    assert document.dropped == []
    (tmp_path / "sources").mkdir()
    shutil.copy(FIXTURES / "sheets" / "tiny-card.yaml", tmp_path / "sources")
    source = tmp_path / "notes.md"
    source.write_text("# Notes\n\nA <notatag> in a sentence, and <unclosed too.\n", encoding="utf-8")
    assert run_qrs("--sources", str(tmp_path / "sources"), "import", str(source), "--id", "notes").returncode == 0
    built = run_qrs("--sources", str(tmp_path / "sources"), "--build-dir", str(tmp_path / "build"), "build", "notes")
    assert built.returncode == 0, built.stderr
    text = " ".join(page.extract_text() for page in PdfReader(next((tmp_path / "build").glob("notes.*.pdf"))).pages)
    assert "A <notatag> in a sentence, and <unclosed too." in " ".join(text.split())


def test_a_word_file_without_heading_styles_hyperlinks_and_lists():
    document = docx.read(None, (FIXTURES / "rulebook.docx").read_bytes())
    headings = [(node.level, node.text) for node in document.nodes if isinstance(node, Heading)]
    assert headings == [(1, "Iron Marches: Skirmish Rules"), (2, "The Turn"), (2, "Weapons"), (2, "Skills")]
    table = next(node for node in document.nodes if isinstance(node, Table))
    assert [row[0] for row in table.rows] == ["Weapon", "Short bow", "Crossbow", "Sling", "Pistol"]
    assert [row[3] for row in table.rows[1:3]] == ["Move or fire", ""]  # merged down: once, at its top
    lists = [node for node in document.nodes if isinstance(node, ListBlock)]
    assert [(block.ordered, len(block.items)) for block in lists] == [(True, 4), (False, 3)]
    assert lists[1].items[1].text == 'Sprint: the model runs 2D6".'


def test_a_word_table_merged_down_3000_rows_is_read_without_recursion():
    def build(document):
        table = document.add_table(rows=3000, cols=2)
        table.cell(0, 0).text = "Every row"
        column = table.columns[0].cells
        for row in range(1, 3000):  # the XML a merge writes, without python-docx's merge (which is slow)
            column[row]._tc.get_or_add_tcPr().append(_vmerge())
        table.cell(2999, 1).text = "the last"

    document = docx.read(None, making.word(build))
    rows = document.nodes[0].rows
    assert len(rows) == 3000 and rows[0][0] == "Every row" and rows[1][0] == "" and rows[2999] == ["", "the last"]


def _vmerge():
    from docx.oxml import OxmlElement

    return OxmlElement("w:vMerge")


def test_html_captions_spans_and_a_table_of_sixteen_columns():
    document = html.read(None, (FIXTURES / "charts.html").read_text(encoding="utf-8"))
    tables = [node for node in document.nodes if isinstance(node, Table)]
    assert [table.title for table in tables] == [
        "To hit in close combat",
        "Critical hits",
        "Hired swords by month of the campaign",
    ]
    assert tables[0].rows[:2] == [
        ["Attacker's WS", "Defender's WS", "", "", "", "", ""],
        ["", "1", "2", "3", "4", "5", "6"],
    ]  # a header spanning down: once
    assert tables[1].rows[1:3] == [
        ["1-2", "Legs", "Half move until the end of the game."],
        ["1-2", "Feet", "Cannot run."],
    ]  # a key spanning down: in each of its rows
    assert tables[1].rows[3] == ["3-4", "Arm: −1 to hit with that hand.", ""]
    assert len(tables[2].rows[0]) == 16 and tables[2].rows[1][-1] == "+25"
    assert not any(isinstance(node, Paragraph) and "Critical" in node.text for node in document.nodes)
    assert "a \\<b> in text stays text" in document.nodes[-1].text  # "&lt;b&gt;": text, not a tag


def test_a_real_word_file_whose_later_chapters_have_no_heading_style_keeps_them_and_its_tabbed_tables():
    """Bare Metal Edition's Word text (CC BY 4.0, cut): chapters 2 to 5 in Heading styles, from "6.0 Professions"
    on numbered Normal paragraphs; skill lists typed as lines of tab-separated cells. It read as one section
    "5.0 Culture" of paragraphs ("Driving 2 ranks"); now each numbered heading is a heading of the level its styled
    twins have, and each run of tabbed lines a table."""
    document = docx.read(None, (FIXTURES / "bme-bare-text.docx").read_bytes())
    headings = {node.text.strip(): node.level for node in document.nodes if isinstance(node, Heading)}
    assert headings["5.0 Culture"] == headings["6.0 Professions"] == headings["7.0 Skills"]
    assert (
        headings["5.1 Cosmopolitan"]
        == headings["6.3 Professions"]
        == headings["7.5 Skill Descriptions"]
        == headings["5.0 Culture"] + 1
    )
    assert "Example Profession - Aristocrat" not in headings and "Professional Skills:" not in headings
    tables = [node for node in document.nodes if isinstance(node, Table)]
    assert tables[0].rows[:2] == [["Driving", "2 ranks"], ["Languages", "5 ranks"]] and len(tables[0].rows) == 9
    star_faring = next(table for table in tables if table.rows[0] == ["Space Pilot", "2 ranks"])
    assert ["Scanners", "2 ranks"] in star_faring.rows and ["Science: General", "2 ranks"] in star_faring.rows
    assert not any(isinstance(node, Paragraph) and "\t" in node.text for node in document.nodes)


def test_a_word_file_of_bold_lines_and_no_styles_has_its_bold_lines_as_headings():
    def build(document):
        for text, bold in (
            ("Movement", True),
            ("Each model moves up to 6 inches.", False),
            ("Shooting", True),
            ("Roll a D6 for each shot.", False),
            ("Quick shot: twice.", False),
            ("Close combat", True),
            ("Models in contact fight.", False),
            ("1. Charge", False),
            ("2. Strike", False),
            ("3. Break", False),
        ):
            document.add_paragraph().add_run(text).bold = bold

    document = docx.read(None, making.word(build))
    assert [(node.level, node.text) for node in document.nodes if isinstance(node, Heading)] == [
        (1, "Movement"),
        (1, "Shooting"),
        (1, "Close combat"),
    ]
    assert [node.text for node in document.nodes[-3:]] == ["1. Charge", "2. Strike", "3. Break"]  # a typed list


def test_a_word_file_in_bold_throughout_says_nothing_of_headings_by_its_bold():
    def build(document):
        for text in ("Movement", "Each model moves up to 6 inches.", "Shooting", "Roll a D6 for each shot."):
            document.add_paragraph().add_run(text).bold = True

    document = docx.read(None, making.word(build))
    assert not any(isinstance(node, Heading) for node in document.nodes)


def test_a_heading_inside_a_list_item_parts_the_list_as_a_browser_shows_it():
    """Cairn's first edition as Jekyll published it (cairn-srd.html): "<li>…forward.<h3>Talking</h3></li>", the
    heading read as the item's last word ("…forward. Talking"), no heading at all."""
    document = html.read(
        Path("page.html"),
        "<h1>Rules</h1><ol><li>Ask.</li><li>Go forward.<h3>Talking</h3></li><li>Treat NPCs as people.</li>"
        "<li>Listen.</li></ol>",
    )
    first, heading, second = document.nodes[1:]
    assert [item.text for item in first.items] == ["Ask.", "Go forward."]
    assert heading == Heading(3, "Talking", heading.origin)
    assert [item.text for item in second.items] == ["Treat NPCs as people.", "Listen."]
    assert second.ordered and second.start == 3  # numbered on from the part before
    in_cairn = html.read(FIXTURES / "cairn-srd.html", (FIXTURES / "cairn-srd.html").read_text(encoding="utf-8"))
    assert not any(isinstance(node, ListBlock) and "Talking" in node.items[-1].text for node in in_cairn.nodes)
    assert Heading(3, "Talking", "line 142") in in_cairn.nodes
