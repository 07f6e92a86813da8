"""The whole pipeline on one screen: load → validate → translate → render → write, for a sheet and for a handout.

Each stage is a module of its own: generator.reading.sources reads a YAML file with the place of every value,
generator.model checks it into the model, generator.composing translates it (and reads earlier editions),
generator.rendering lays it out and renders it, generator.write writes it atomically. `check` and `load`
(generator.model.validate) and `load_handout` (generator.composing.handout) are named here for the callers
of the pipeline."""

from __future__ import annotations

import re
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from generator import write
from generator.errors import Problem, UserError
from generator.reading.sources import Located
from generator.project import SHEET_ID, Project, page_variant_of, variant_of
from generator.composing import diff
from generator.model import glyphs
from generator.composing import handout as handouts
from generator.composing.handout import load_handout
from generator.model.types import Sheet
from generator.model.validate import check, keyword_index, load
from generator.composing import editions as history, translate as i18n, languages as translations, words

UNTRANSLATED = "untranslated"


@dataclass(frozen=True)
class BuildOptions:
    paper: str | None = None  # overrides the sheet's paper size: "A4" or "letter"
    allow_fallback: bool = False  # print canonical text where a translation is missing or stale
    gloss: bool = False  # show each keyword's English original beside its first mention
    changes_since: str | None = None  # mark with a bar what changed since this edition
    errata_only: bool = False  # print only what changed (since changes_since, or the previous edition)
    crop_marks: bool = False  # crop marks and 3 mm of bleed, for a print shop
    ink_saver: bool = False  # no solid fills, light rules
    impose: str | None = None  # "2up" or "booklet": half-size pages, two on each side of the paper
    pdf_variant: str | None = None  # a standard the PDF declares and follows: "pdf/ua-1" or "pdf/a-3b"


def build(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions(),
          output: Path | None = None, layouts: list[dict] | None = None) -> Path:
    """Build one sheet in one language; the previous PDF stays until the new one is complete."""
    located, sheet, untranslated, marks, since = _prepared(project, path, lang, options)
    output = output or project.pdf_path(sheet.sheet, lang, _variant(options, since))
    write.atomically(output, _checked_pdf(project, sheet, options, untranslated, marks, located.problem, layouts))
    return output


def build_web(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()) -> Path:
    """The web edition of one sheet in one language: build/html/<sheet>.<lang>.html, one self-contained page."""
    located, sheet, untranslated, marks, since = _prepared(project, path, lang, options)
    output = project.html_path(sheet.sheet, lang, ".".join(filter(None, [page_variant_of(asdict(options)),
                                                                         _edition_variant(options, since)])) or None)
    write.atomically(output, _web_page(project, sheet, options, untranslated, marks))
    return output


def _prepared(project: Project, path: Path, lang: str, options: BuildOptions):
    """A sheet as an edition prints it: (located source, sheet in `lang`, strings left untranslated,
    change marks, the edition compared with)."""
    located, sheet = load(path)
    validated = sheet
    since = options.changes_since or (history.previous_edition(located, sheet) if options.errata_only else None)
    untranslated = 0
    if lang != sheet.lang:
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        sheet, untranslated = i18n.translate(located, sheet, lang, catalogue, options.allow_fallback)
    marks = None
    if since:
        history.check_edition(located, sheet, since)
        # the earlier edition gives old values (required by errata) and the changed cells (when committed)
        old = history.sheet_at_edition(path, since, lang, required=options.errata_only)
        if options.errata_only:
            sheet = diff.errata(old, sheet, since, words.ui_words(project, lang, options.allow_fallback))
        else:
            marks = diff.named_marks(sheet, since, old)
    if sheet is not validated:  # a translation or an errata sheet prints other strings than those validated
        _glyph_problems(sheet, located.problem)
    return located, sheet, untranslated, marks, since


def check_sheet(project: Project, path: Path, languages: tuple[str, ...] = (), allow_fallback: bool = False
                ) -> list[str]:
    """What `qrs check` finds without rendering: the source and its catalogues, a true-size figure the column of the
    sheet's own paper cannot hold (a build on other paper checks its own), and a matrix too wide for the page even
    spanning its columns. Without languages named, those in progress are checked for what they translate, and
    returned as notes."""
    from generator.rendering import figures, layout, widths  # none imports WeasyPrint

    located, sheet = load(path)  # the source's own problems first, before its catalogues'
    pending = {} if languages or allow_fallback else translations.in_progress(project, located, sheet)
    problems = translations.translation_problems(project, located, sheet, languages, allow_fallback, tuple(pending))
    frame = layout.page_frame(sheet, BuildOptions())
    problems += [located.problem(loc, message) for loc, message in figures.findings(sheet, frame, project.sources)]
    problems += [located.problem(loc, message) for loc, message in widths.findings(sheet, frame)]
    if problems:
        raise UserError(problems)
    return [translations.progress_note(project, sheet.sheet, lang, count) for lang, count in pending.items()]


def _glyph_problems(sheet: Sheet, problem: Callable[[tuple, str], Problem]) -> None:
    """Characters the font lacks: the page would show them in another font, or as boxes."""
    problems = glyphs.one_per_character(problem(loc, message)
                                        for loc, message in glyphs.glyph_findings(sheet, sheet.lang, keyword_index(sheet)))
    if problems:
        raise UserError(problems)


def _web_page(project: Project, sheet: Sheet, options: BuildOptions, untranslated: int, marks) -> bytes:
    from generator.rendering import web  # the templates and fonts (not WeasyPrint): only when a page is made

    return web.page(project, sheet, options, untranslated, marks).encode("utf-8")


def _checked_pdf(project: Project, sheet: Sheet, options: BuildOptions, untranslated: int, marks,
                 problem: Callable[[tuple, str], Problem], layouts: list[dict] | None = None) -> bytes:
    """Render (the font's characters were checked where the sheet was made: validated, translated or composed),
    then measure the layout on the laid-out pages. `problem` places a finding in the source the author edits;
    the layout's report goes to `layouts`, with the count of strings printed in the canonical language under
    UNTRANSLATED."""
    from generator.rendering import figures, render, widths  # render imports WeasyPrint: only when something is rendered

    frame = render.page_frame(sheet, options)  # a true-size figure the column cannot hold: before any layout
    refused = [problem(loc, message) for loc, message in figures.findings(sheet, frame, project.sources)]
    refused += [problem(loc, message) for loc, message in widths.preformatted_findings(sheet, frame)]  # nor the page
    if refused:
        raise UserError(refused)
    laid = render.layout(project, sheet, options, untranslated, marks)
    problems = [problem(loc, message) for loc, message in render.layout_findings(sheet, laid, options)]
    if problems:
        raise UserError(problems)
    if layouts is not None:  # with the count of strings printed untranslated, which the build reports beside it
        layouts.append({**laid.report(), UNTRANSLATED: untranslated})
    pdf = render.pdf(sheet, laid.document, options.pdf_variant)
    if options.impose:
        from generator.rendering import impose

        return impose.imposed(pdf, options.impose, options.paper or sheet.paper.size)
    return pdf


def _variant(options: BuildOptions, since: str | None) -> str | None:
    """What sets this PDF apart from the sheet's own: build/wab2.letter.errata-2.0.fr.pdf."""
    return ".".join(filter(None, [variant_of(asdict(options)), _edition_variant(options, since)])) or None


def _edition_variant(options: BuildOptions, since: str | None) -> str | None:
    """What the edition compared with adds to a name (paper, marks and ink belong to PDFs only): errata-2.0."""
    return f"errata-{since}" if options.errata_only else f"since-{since}" if since else None


def compare(old: Path | Sheet, new: Path | Sheet) -> list[diff.Change]:
    """The semantic differences between two sources (or sheets)."""
    return diff.compare(*(check(side) if isinstance(side, Path) else side for side in (old, new)))


def build_at_revision(project: Project, sheet_id: str, revision: str, lang: str | None,
                      options: BuildOptions = BuildOptions(), layouts: list[dict] | None = None) -> list[Path]:
    """A sheet as it was at a git revision or tag, in build/<sheet>@<revision>.<lang>.pdf; each PDF's layout
    report goes to `layouts`, in the same order (as `build`'s)."""
    if not SHEET_ID.match(sheet_id):
        raise UserError.at(project.sources, 1, 1, f"{sheet_id!r} is not a sheet id: SHEET@REVISION takes the file "
                                                  "name of a sheet in the sources folder, without .yaml (wab2@v2.0)")
    with tempfile.TemporaryDirectory(prefix="qrs-") as folder:
        sources = Path(folder) / history.folder_name(sheet_id, revision)
        earlier = history.materialise(project.sources, sheet_id, revision, sources)
        past = Project(sources=sources, build=Path(folder) / "build", templates=project.templates)
        outputs = []
        with history.named_at_revision(sources, project.sources, revision):
            for language in [lang] if lang else i18n.languages(sources, check(earlier)):
                target = project.pdf_path(f"{sheet_id}@{_in_a_name(revision)}", language)
                outputs.append(build(past, earlier, language, options, output=target, layouts=layouts))
        return outputs


def composed_handout(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()
                     ) -> tuple[Located, Sheet, int]:
    """A handout in one language composed into a sheet (the parts of its sheet the army uses), and how many
    strings fell back to the canonical text."""
    located, handout, sheet_located, sheet = load_handout(project, path)
    handout, sheet, untranslated = translations.translated_pair(project, located, handout, sheet_located, sheet, lang, options.allow_fallback)
    composed = handouts.compose(handout, sheet, words.ui_words(project, lang, options.allow_fallback))
    composed.mark_fallback_of(*(document for document in (handout, sheet) if document))  # canonical texts printed
    _glyph_problems(composed, _handout_problem(located))
    return located, composed, untranslated


def build_handout(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions(),
                  layouts: list[dict] | None = None) -> Path:
    """Build one handout in one language: its sheet's parts the army uses, composed into a sheet and rendered."""
    located, composed, untranslated = composed_handout(project, path, lang, options)
    output = project.handout_pdf_path(located.path.stem, lang, variant_of(asdict(options)))
    write.atomically(output, _checked_pdf(project, composed, options, untranslated, None, _handout_problem(located), layouts))
    return output


def build_handout_web(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()) -> Path:
    """The web edition of one handout in one language: build/html/handouts/<id>.<lang>.html."""
    located, composed, untranslated = composed_handout(project, path, lang, options)
    output = project.handout_html_path(located.path.stem, lang, page_variant_of(asdict(options)))
    write.atomically(output, _web_page(project, composed, options, untranslated, None))
    return output


def _handout_problem(located: Located) -> Callable[[tuple, str], Problem]:
    """A finding in the composed sheet is about the handout as a whole: what it includes, on what paper."""
    return lambda _, message: located.problem(("paper",), message)


def _in_a_name(revision: str) -> str:
    """A revision as part of a file name: a character other than a letter, digit, dot or dash becomes a dash."""
    return re.sub(r"[^\w.-]", "-", revision)
