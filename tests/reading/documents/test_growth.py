"""Each reader takes time in proportion to its input: ten times the input takes about ten times the time, at most
twenty (a quadratic step takes a hundred). The inputs are those that were quadratic: a Markdown table of many rows
(`Table.padded` measured the width once a row), a text list item of many continuation lines and an HTML item of
many paragraphs (a string joined once a line), a PDF of many short lines (passes over every line until none
changed), a Word file of many paragraphs (python-docx's `paragraph.style` scans every style)."""

from __future__ import annotations

from generator.reading.documents import docx, html, markdown, pdf, text
from tests.reading.documents import making

MOST = 20


def test_a_markdown_table_of_many_rows_read_and_typed():
    from generator.composing.drafts.blocks import Typing
    from generator.composing.drafts.report import Report

    def read_and_type(page):  # the table's rows are padded where it is typed
        Typing(markdown.read(page), Report("a.md", "a.yaml")).run()

    make = lambda rows: "| a | b |\n|---|---|\n" + "".join(f"| {n} |\n" for n in range(rows))  # a cell short
    ratio = making.growth(make, read_and_type, 1500)
    assert ratio <= MOST, ratio


def test_a_text_list_item_of_many_continuation_lines():
    make = lambda lines: "Title\n\n- an item\n" + "".join(f"goes on {n}\n" for n in range(lines))
    ratio = making.growth(make, text.read, 10_000)
    assert ratio <= MOST, ratio


def test_an_html_item_of_many_paragraphs():
    make = lambda count: "<ul><li>" + "".join(f"<p>part {n}</p>" for n in range(count)) + "</li></ul>"
    ratio = making.growth(make, lambda page: html.read(None, page), 10_000)
    assert ratio <= MOST, ratio


def test_a_pdf_of_many_short_lines_over_a_table_row():
    def make(lines):  # short indented lines, each over the next, then a table's row: each joins the table in turn
        words = [(40, 7.5 * lines + 60, "Left")] + [(60, 7.5 * (lines - n) + 40, f"line {n}") for n in range(lines)]
        words += [(60, 30, "1-2"), (300, 30, "cell")]
        return making.pdf([words], ("595", str(7.5 * lines + 100)))

    ratio = making.growth(make, lambda raw: pdf.read(None, raw), 150)
    assert ratio <= MOST, ratio


def test_a_word_file_of_many_paragraphs_and_styles():
    from copy import deepcopy

    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    def make(count):  # a style for every fourth paragraph: a file saved from many templates has hundreds
        def build(document):  # written as XML: python-docx's add_style scans every style too
            styles, body = document.styles.element, document.element.body
            model = document.styles["Normal"].element
            for n in range(count // 4):
                style = deepcopy(model)
                style.set(style.tag.replace("style", "styleId"), f"Custom{n}")
                style.find(model[0].tag).set(model[0].tag.replace("name", "val"), f"Custom {n}")
                styles.append(style)
            for n in range(count):
                body.insert(
                    len(body) - 1,
                    parse_xml(
                        f'<w:p {nsdecls("w")}><w:pPr><w:pStyle w:val="Custom{n % (count // 4)}"/></w:pPr>'
                        f"<w:r><w:t>paragraph {n}</w:t></w:r></w:p>"
                    ),
                )

        return making.word(build)

    ratio = making.growth(make, lambda raw: docx.read(None, raw), 400)
    assert ratio <= MOST, ratio
