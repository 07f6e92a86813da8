"""The PDF: build/<sheet>.<lang>.pdf and build/handouts/<id>.<lang>.pdf, laid out and checked on its pages."""

from __future__ import annotations

from pathlib import Path

from generator.errors import UserError
from generator.output.formats import Rendered, file_path, joined

HELP = "a PDF in build/ (handouts in build/handouts/)"
FOLDER = ""  # under the build folder
OPTIONS: tuple = ()  # its options are the print options every command shares (cli/options.print_options)


def own_options(params: dict) -> None:
    return None


def variant(options) -> str | None:
    """What the build options add to a PDF's name, so that variants never overwrite the plain PDF:
    build/wab2.letter.ink-saver.fr.pdf."""
    return joined(
        (options.paper or "").lower(),
        "marks" if options.crop_marks else "",
        "ink-saver" if options.ink_saver else "",
        options.impose,
        (options.pdf_variant or "").removeprefix("pdf/"),
        "gloss" if options.gloss else "",
    )


def path(project, target, lang: str, variant: str | None = None) -> Path:
    return file_path(project, FOLDER, target, lang, variant, "pdf")


def render(project, prepared, options) -> Rendered:
    """Render (the font's characters were checked where the sheet was made: validated, translated or composed),
    then measure the layout on the laid-out pages; a finding is placed by `prepared.problem` in the source the
    author edits."""
    from generator.rendering import figures, render, widths  # render imports WeasyPrint: only when rendering

    sheet, problem = prepared.sheet, prepared.problem
    frame = render.page_frame(sheet, options)  # a true-size figure the column cannot hold: before any layout
    refused = [problem(loc, message) for loc, message in figures.findings(sheet, frame, project.sources)]
    refused += [problem(loc, message) for loc, message in widths.preformatted_findings(sheet, frame)]  # nor the page
    if refused:
        raise UserError(refused)
    laid = render.layout(project, sheet, options, prepared.untranslated, prepared.marks)
    problems = [problem(loc, message) for loc, message in render.layout_findings(sheet, laid, options)]
    if problems:
        raise UserError(problems)
    pdf = render.pdf(sheet, laid.document, options.pdf_variant)
    if options.impose:
        from generator.rendering import impose

        pdf = impose.imposed(pdf, options.impose, options.paper or sheet.paper.size)
    return Rendered(pdf, laid.report())
