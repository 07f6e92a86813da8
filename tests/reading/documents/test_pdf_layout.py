"""PDFs read as a layout (pdfplumber): documents other people made, each with the blocks expected of it, and the
PDF twin of a Markdown file, which keeps what the Markdown file's import keeps.

- mdsrd5-magic-items.pdf: pages 278 to 284 of mdsrd5.pdf (gguillotte/mdsrd5, Open Game License 1.0a, commit
  f4cba5b39acb66414baccde9f383c8cad63f0d3a), The Markdown SRD5 printed by wkhtmltopdf from its Markdown: tables
  ruled between their rows (a rule over and under the header, every other row shaded), cells that wrap over three
  lines beside a key centred in its row, a running footer; its Markdown twin mdsrd5-magic-items.md holds the same
  tables as raw HTML.
- bme-critical-tables.pdf: pages 50 to 54 of dist/bme-main.pdf (PeterRudin-Burgess/Bare-Metal-Edition, CC BY 4.0,
  commit 8dfd2f375f683e6d9da4c45ace922113fa274ed7), a web page printed to PDF: tables without rules whose cells
  wrap and are centred in their rows, a running header and footer on each page, keys broken at their hyphen
  ("01-" over "05")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator.composing.drafts import draft, read_document
from generator.composing.drafts.blocks import Typing
from generator.composing.drafts.report import Report
from generator.reading.documents import pdf
from generator.reading.documents.document import Heading, ListBlock, Paragraph, Table, plain, walk_items
from tests.composing.drafts.original_facts import kept, original_facts
from tests.reading.documents import making

FIXTURES = Path(__file__).parents[2] / "fixtures" / "imports"


@pytest.fixture(scope="module")
def critical():
    return read_document(FIXTURES / "bme-critical-tables.pdf")


def tables(document) -> list[Table]:
    return [node for node in document.nodes if isinstance(node, Table)]


def typed(document) -> list[dict]:
    return Typing(document, Report("in.pdf", "out.yaml")).run()


def blocks(sections) -> list[dict]:
    return [block for section in sections for block in section.get("blocks", [])]


def test_tables_whose_cells_wrap_keep_each_row_whole(critical):
    found = tables(critical)
    slash = found[0]
    assert slash.rows[0] == ["Roll", "A", "B", "C", "D", "E"]
    assert slash.rows[1] == [
        "01-05",
        "Blow cuts victims chest +1 hits",
        "Strike slices poor fools chest +3 hits",
        "blast impales poor fools chest +1 hits",
        "Slash impales victims chest +1 hits",
        "Slash slices poor fools chest +1 hits",
    ]
    assert slash.rows[6][0] == "31-35" and slash.rows[6][4] == (
        "Slash cuts foes side +3 hits, stunned for 1 rnd, bleeding 1/rnd, -5 to actions"
    )
    keys = [row[0] for table in found for row in table.rows[1:]]
    whole = [key for key in keys if re.fullmatch(r"\d\d-\d\d|00|UM 66", key)]
    assert len(whole) >= 0.9 * len(keys), [key for key in keys if key not in whole]


def test_a_table_continued_on_the_next_page_is_one_table_its_header_once(critical):
    slash = tables(critical)[0]
    assert [row[0] for row in slash.rows][-3:] == ["91-95", "96-99", "00"] and len(slash.rows) == 22


def test_running_headers_and_footers_are_left_out(critical):
    text = critical.text()
    assert "2/27/2021" not in text and "file:///" not in text.replace("ﬁ", "fi")
    assert sum("the default" in text for _, text in critical.dropped) == 5


def facts(document) -> set[tuple[str, ...]]:
    """What a reader keeps, counted strictly: each table cell with its row's first cell, each paragraph's and each
    item's words."""
    out = set()
    for node in document.nodes:
        if isinstance(node, Table):
            out |= {(plain(row[0]), plain(cell)) for row in node.rows for cell in row if cell.strip()}
        elif isinstance(node, Paragraph):
            out |= {(word,) for word in plain(node.text).split()}
        elif isinstance(node, ListBlock):
            out |= {(word,) for item in walk_items(node.items) for word in plain(item.text).split()}
    return out


def test_the_pdf_twin_of_a_markdown_file_keeps_what_its_import_keeps():
    markdown, pdf = read_document(FIXTURES / "panels.md"), read_document(FIXTURES / "panels.pdf")
    wanted = facts(markdown)
    kept = wanted & facts(pdf)
    assert len(kept) >= 0.95 * len(wanted), sorted(wanted - kept)
    assert [block["type"] for block in blocks(typed(pdf))].count("dice") == 1


def test_a_page_printed_by_its_author_keeps_what_the_import_of_its_markdown_keeps():
    """bme-action-points: Bare Metal Edition's AP costs (CC BY 4.0) in its Markdown source and on the page of the
    book its author printed from it: two tables set side by side in one."""
    markdown = read_document(FIXTURES / "bme-action-points.md")
    printed = read_document(FIXTURES / "bme-action-points.pdf")
    wanted = facts(markdown)
    kept = wanted & facts(printed)
    assert len(kept) >= 0.95 * len(wanted), sorted(wanted - kept)


def test_a_table_of_contents_is_left_out_and_listed_and_the_rest_kept():
    """bme-systems.pdf: Bare Metal Edition's chapter of skill resolution (CC BY 4.0), printed from HTML as a book
    is, a "Contents" page of its headings with dot leaders and page numbers before it."""
    markdown, pdf = read_document(FIXTURES / "bme-systems.md"), read_document(FIXTURES / "bme-systems.pdf")
    contents = [text for origin, text in pdf.dropped if text.startswith("a table of contents")]
    assert len(contents) == 12 and all(
        origin.startswith("page 1,") for origin, text in pdf.dropped if text.startswith("a table of contents")
    )
    assert "...." not in pdf.text() and "Contents" not in pdf.text()
    headings = [plain(node.text) for node in pdf.nodes if isinstance(node, Heading)]
    assert headings.count("Unskilled Rolls") == 1  # its heading, not its line in the contents
    wanted = facts(markdown)
    kept = wanted & facts(pdf)
    assert len(kept) >= 0.95 * len(wanted), sorted(wanted - kept)


def test_tables_set_side_by_side_without_a_blank_column_are_told_apart():
    """bme-side-by-side.pdf: two tables of bme-systems.md set side by side as a web page sets them, a little apart,
    their columns centred under headers wider than their cells."""
    found = tables(read_document(FIXTURES / "bme-side-by-side.pdf"))
    assert found[0].rows[0] == ["Distance", "Critical Type"] and found[0].rows[-1] == ["26 m+", "E Impact"]
    assert found[1].rows == [
        ["RR Effect Level", "Severity"],
        ["1-4", "Mild"],
        ["5-7", "Moderate"],
        ["8-9", "Serious"],
        ["10+", "Extreme"],
    ]


def _centred_matrix_pdf() -> bytes:
    """A to-hit matrix as a sheet prints it, unruled: its column title centred over a header row of figures, a row
    key ("D6") left of a row of figures, each cell centred in its column, so "10" starts left of where "1" does."""
    figure = 7 * 0.556  # a figure's width in Helvetica 7 pt
    middles = [60 + 15 * n for n in range(10)]

    def centred(middle: float, text: str) -> float:
        return middle - len(text) * figure / 2

    words = [(centred(middles[5], "BS") - 1, 190, "BS")]
    words += [(centred(middle, str(n)), 181, str(n)) for n, middle in enumerate(middles, start=1)]
    scores = "6 5 4 3 2 1 0 -1 -2 -3".split()
    words += [(20, 172, "D6")] + [(centred(middle, score), 172, score) for middle, score in zip(middles, scores)]
    return making.pdf([words], ("300", "220"))


def test_a_matrix_of_centred_figures_keeps_its_row_key_apart_from_its_first_column():
    """The row key is the only word starting in the first column; it ends short of the next column, so that column
    is its own, not a header's words running on from the left."""
    document = pdf.read(None, _centred_matrix_pdf())
    assert tables(document)[0].rows[1:] == [
        ["", *map(str, range(1, 11))],
        ["D6", "6", "5", "4", "3", "2", "1", "0", "-1", "-2", "-3"],
    ]
    matrix = blocks(typed(document))[0]
    assert matrix["type"] == "matrix" and matrix["column_title"] == "BS" and matrix["row_keys"] == ["D6"]
    assert matrix["column_keys"] == [str(n) for n in range(1, 11)]
    assert matrix["cells"] == ["6 5 4 3 2 1 0 -1 -2 -3"]


def _tight_lookup_pdf() -> bytes:
    """The "to hit on 7+" lookup as a sheet prints it: its cells centred in columns 18 pt apart, so "9" and "10",
    "6+" and "miss" stand less than an em apart (7 pt Helvetica), though further apart than words."""
    widths = {"4+": 7.8, "5+": 7.8, "6+": 7.8, "miss": 14.0, "10": 7.8}  # Helvetica 7 pt, about
    middles = [100 + 18 * n for n in range(4)]

    def centred(middle: float, text: str) -> float:
        return middle - widths.get(text, 3.9) / 2

    words = [(centred(middle, text), 190, text) for middle, text in zip(middles, ["7", "8", "9", "10"])]
    words += [(40, 181, "2nd D6 roll")]
    words += [(centred(middle, text), 181, text) for middle, text in zip(middles, ["4+", "5+", "6+", "miss"])]
    return making.pdf([words], ("300", "220"))


def test_figures_centred_closer_than_an_em_are_cells_of_their_own():
    """A number's cell ends where a gap wider than three quarters of an em follows it: "9 10" and "6+ miss" were
    read as one cell each, and the lookup as a table of three columns instead of a matrix keyed 7 to 10."""
    document = pdf.read(None, _tight_lookup_pdf())
    assert tables(document)[0].rows == [["", "7", "8", "9", "10"], ["2nd D6 roll", "4+", "5+", "6+", "miss"]]
    matrix = blocks(typed(document))[0]
    assert matrix["type"] == "matrix" and matrix["column_keys"] == ["7", "8", "9", "10"]
    assert matrix["row_keys"] == ["2nd D6 roll"]


def test_a_table_going_on_over_pages_keeps_the_first_line_of_a_page_s_first_row(critical):
    """Each page repeats the table's header (left out as a running line); the first row under it has its key and
    its first cells centred lower than its tallest cells' first line ("Blow to chest drives" over "ribs into
    lungs"). That line was read as a heading titling a new table; now it opens its row, and the table goes on."""
    headings = [node.text for node in critical.nodes if isinstance(node, Heading)]
    assert headings == [
        "Critical Result Tables",
        "Slash Critical Table",
        "Krush Critical Table",
        "Puncture Critical Table",
    ]
    krush = tables(critical)[1]
    assert len(krush.rows) == 22 and krush.rows[13][0] == "UM 66"
    assert krush.rows[13][4].startswith("Blow to chest drives ribs into lungs. +25 hits")


def test_a_narrow_key_column_less_than_an_em_from_the_next_keeps_its_own_cells(critical):
    """The puncture table's keys ("01-" over "05") stand closer to column A than a cell's gap: found from the
    words that start column A on most lines, its rows come back whole and it goes on over the next page."""
    puncture = tables(critical)[2]
    assert puncture.rows[0] == ["Roll", "A", "B", "C", "D", "E"]
    assert puncture.rows[1][:3] == ["01-05", "Blow through poor fool’s kidneys", "Blow to victim’s kidneys +3 hits"]
    assert [row[0] for row in puncture.rows][-3:] == ["UM 66", "66-70", "71-75"]


def _centred_keys_pdf() -> bytes:
    """A two-column table whose cells are centred in their columns, as a web page prints it: keys as narrow as "-80"
    and as wide as "-19 to 09", so that the key column's cells start more than an em apart."""
    widths = {"Roll": 13.0, "-100": 14.0, "-80": 10.1, "-60": 10.1, "-40": 10.1, "-19 to 09": 27.6, "160-179": 25.0}
    rows = [("Roll", "Result"), ("-100", "E crit"), ("-80", "D crit"), ("-60", "C crit"), ("-40", "B crit")]
    rows += [("-19 to 09", "Fail"), ("160-179", "130%")]
    words = []
    for at, (key, result) in enumerate(rows):
        y = 200 - 10 * at
        words += [(60 - widths[key] / 2, y, key), (110 - len(result) * 1.9, y, result)]
    return making.pdf([words], ("300", "220"))


def test_a_centred_column_whose_cells_start_far_apart_stays_one_column():
    """ "-19 to 09" starts 1.4 em left of "-80": two groups of starts, which no line has both of, are one column (the
    maneuver table read its header and first rows as one row of four columns)."""
    found = tables(pdf.read(None, _centred_keys_pdf()))
    assert found[0].rows == [
        ["Roll", "Result"],
        ["-100", "E crit"],
        ["-80", "D crit"],
        ["-60", "C crit"],
        ["-40", "B crit"],
        ["-19 to 09", "Fail"],
        ["160-179", "130%"],
    ]


@pytest.fixture(scope="module")
def magic_items():
    return read_document(FIXTURES / "mdsrd5-magic-items.pdf")


def test_a_table_ruled_between_its_rows_keeps_each_wrapped_cell_whole_in_its_row(magic_items):
    """The Bag of Beans' d100: each result wraps over up to three lines, its key centred on the middle one, a rule or
    a shaded row's edge between rows. Its rows were cut at every line (the key beside the second), and the last line
    of the paragraph above the table's top rule ("effect.") was read as its first row."""
    beans = tables(magic_items)[1]
    assert beans.rows[0] == ["d100", "Effect"] and len(beans.rows) == 13
    assert beans.rows[1] == [
        "01",
        "5d4 toadstools sprout. If a creature eats a toadstool, roll any die. On an odd roll, the eater must succeed on "
        "a DC 15 Constitution saving throw or take 5d6 poison damage and become poisoned for 1 hour. On an even roll, "
        "the eater gains 5d6 temporary hit points for 1 hour.",
    ]
    assert [row[0] for row in beans.rows[1:]] == [
        "01",
        "02-10",
        "11-20",
        "21-30",
        "31-40",
        "41-50",
        "51-60",
        "61-70",
        "71-80",
        "81-90",
        "91-99",
        "00",
    ]
    assert beans.rows[4][1].endswith("it knows where you are. The statue becomes inanimate after 24 hours.")
    resistance = tables(magic_items)[0]
    assert resistance.rows[0] == ["d10", "Damage Type"] and resistance.rows[-1] == ["10", "Thunder"]
    paragraphs = [node.text for node in magic_items.nodes if isinstance(node, Paragraph)]
    assert any(text.endswith("from the options below.") for text in paragraphs)
    assert any(text.endswith("or create an\neffect.") for text in paragraphs)


def test_the_dice_tables_of_a_printed_web_page_ruled_between_rows_are_typed_under_their_titles(magic_items):
    found = blocks(typed(magic_items))
    dice = [(block.get("group") or block["id"], block["die"]) for block in found if block["type"] == "dice"]
    assert dice == [
        ("armor-of-resistance-2", "D10"),
        ("bag-of-beans-2", "D100"),
        ("gray-bag-of-tricks", "D8"),
        ("rust-bag-of-tricks", "D8"),
        ("tan-bag-of-tricks", "D8"),  # going on over the next page, its header repeated there and left out
        ("candle-of-invocation-2", "D20"),
        ("carpet-of-flying-2", "D100"),
    ]


def test_a_link_coloured_at_a_wrapped_line_s_start_stays_in_its_sentence(magic_items):
    """A title in the sheet's colour is split from the cells on its line; a spell's name linked in colour at the
    start of a paragraph's line, a word space before the rest, is not: it was read as the title of the table under
    the paragraph ("detect evil and good"), the sentence cut in two."""
    candle = next(
        node.text for node in magic_items.nodes if isinstance(node, Paragraph) and "slender taper" in node.text
    )
    assert "can be detected with the\ndetect evil and good spell. The GM chooses" in candle
    assert not any(isinstance(node, Heading) and "detect evil" in node.text for node in magic_items.nodes)


def test_a_page_printed_from_markdown_with_ruled_tables_keeps_95_percent_of_its_originals_facts(magic_items):
    """The draft of the printed pages against their Markdown twin read without qrs's readers (markdown-it-py, its
    raw HTML tables through html5lib): each cell whole, in its row. Only the d100's "00" is lost, written 100."""
    report = Report("mdsrd5-magic-items.pdf", "sources/d.yaml")
    text = draft.make(magic_items, Path("sources/d.yaml"), "d", None, None, report)
    facts = original_facts(FIXTURES / "mdsrd5-magic-items.md")
    found, lost = kept(facts, text)
    assert sum(len(fact) == 2 for fact in facts) > 120  # the tables' cells, not only words
    assert len(found) >= 0.95 * len(facts), sorted(lost)


def _booktabs_pdf() -> bytes:
    """A table as LaTeX's booktabs rules it: a rule over its header, one under it, one between two groups of rows,
    one under the last; several rows under one rule."""
    rows = [("Roll", "Reaction"), ("2", "Hostile"), ("3-5", "Unfriendly"), ("6-8", "Uncertain"), ("9-12", "Friendly")]
    ys = [200, 186, 176, 164, 154]
    words = [(40, 220, "The monsters react to the party:")]
    words += [word for (key, result), y in zip(rows, ys) for word in ((40, y, key), (80, y, result))]
    rules = [(38, 140, 209), (38, 140, 196), (38, 140, 171.5), (38, 140, 149)]
    return making.pdf([words], ("300", "260"), [rules])


def test_a_table_ruled_only_between_groups_of_rows_keeps_each_row():
    """Three rules part its lines, but two rows stand under one of them: rules that part groups of rows (booktabs'
    top, middle and bottom rules) are no rows' borders, and its rows are read from its lines."""
    found = tables(pdf.read(None, _booktabs_pdf()))
    assert found[0].rows == [
        ["Roll", "Reaction"],
        ["2", "Hostile"],
        ["3-5", "Unfriendly"],
        ["6-8", "Uncertain"],
        ["9-12", "Friendly"],
    ]


def test_a_latex_pdf_keeps_its_booktabs_tables_headers_and_headings():
    """d666-magic-latex.pdf, the twin of d666-magic.md as pdflatex sets it: longtables ruled with booktabs (each
    header between the top rule and the one under it, repeated atop the next page), headings in a larger Computer
    Modern or its bold (CMBX), the scroll table's results still empty."""
    markdown = read_document(FIXTURES / "d666-magic.md")
    latex = read_document(FIXTURES / "d666-magic-latex.pdf")
    wanted = facts(markdown)
    kept = wanted & facts(latex)
    assert len(kept) >= 0.95 * len(wanted), sorted(wanted - kept)
    spells, scrolls = tables(latex)
    assert spells.rows[0] == ["d66 Roll", "Spell"] and len(spells.rows) == 37
    assert scrolls.rows[0] == ["d66 Roll", "Scroll"] and len(scrolls.rows) == 13 and scrolls.rows[-1] == ["4-6.6", ""]
    headings = [(node.level, node.text) for node in latex.nodes if isinstance(node, Heading)]
    assert headings[:4] == [(1, "Magic"), (2, "Wizardry"), (4, "Spell List"), (2, "Read Magic")]
    report = Report("d666-magic-latex.pdf", "sources/d.yaml")
    data = yaml.safe_load(draft.make(latex, Path("sources/d.yaml"), "d", None, None, report))
    dice = [block for block in blocks(data["sections"]) if block["type"] == "dice"]
    assert [(block["die"], len(block["rows"])) for block in dice] == [("D66", 36)]
