"""The whole pipeline on one screen: load → validate → render → write."""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path
from typing import Callable

from generator.schema import handout as handouts
from generator.schema import diff
from generator.renderer import glyphs, words
from generator.source import history, i18n
from generator.errors import Problem, UserError
from generator.source.load import Located, load_file
from generator.schema.model import Handout, Sheet
from generator.project import SHEET_ID, Project, variant_of
from generator.schema.validate import keyword_index, markup_findings, parse, validate


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


def check(path: Path) -> Sheet:
    """Load and validate one source; raise UserError naming every problem."""
    return validate(load_file(path))


def load(path: Path) -> tuple[Located, Sheet]:
    """A validated sheet, with the located data that maps it back to its file."""
    located = load_file(path)
    return located, validate(located)


def check_with_translations(project: Project, path: Path, languages: tuple[str, ...] = (),
                            allow_fallback: bool = False) -> None:
    """A source and its catalogues (every one, or those of `languages`), every problem at once: a stale or
    missing translation (unless `allow_fallback`) and the problems of the translated strings, at file:line."""
    located, sheet = load(path)
    problems = []
    for lang in languages or i18n.translated_languages(project.sources, sheet):
        if lang == sheet.lang:
            continue
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        try:
            i18n.translate(located, sheet, lang, catalogue, allow_fallback)
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)


def translation_status(project: Project, path: Path) -> list[tuple[str, str, i18n.Status]]:
    """(sheet, language, status) for every catalogue of a sheet."""
    located, sheet = load(path)
    return [
        (sheet.sheet, lang, i18n.status(i18n.read(i18n.catalogue_path(project.sources, sheet.sheet, lang)),
                                        i18n.entries(located, sheet, lang)))
        for lang in i18n.translated_languages(project.sources, sheet)
    ]


def update_translations(project: Project, path: Path, languages: tuple[str, ...] = ()) -> list[tuple[Path, i18n.Status]]:
    """Create or refresh a sheet's catalogues (the given languages, or those it has)."""
    located, sheet = load(path)
    # the other sheets of its game, read once, and only if some catalogue is refreshed
    siblings = cache(lambda: [other.stem for other in project.sheet_paths()
                              if other.stem != sheet.sheet and _game_of(other) == sheet.game])
    results = []
    for lang in languages or i18n.translated_languages(project.sources, sheet):
        if lang != sheet.lang:  # the sheet's own language needs no catalogue of the sheet, only the templates' words
            catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
            results.append((catalogue, i18n.update(located, sheet, lang, catalogue, _memory(project, siblings(), lang))))
        template_words = words.update_catalogue(project, lang)  # a language the templates do not carry
        if template_words:
            results.append(template_words)
    return results


def _memory(project: Project, siblings: list[str], lang: str) -> list:
    """The catalogues whose translations a sheet's new strings are offered: those of the other sheets of its game
    (`siblings`, by id), in this language."""
    catalogues = [i18n.catalogue_path(project.sources, sheet_id, lang) for sheet_id in siblings]
    return [i18n.read(catalogue) for catalogue in catalogues if catalogue.is_file()]


def _game_of(path: Path) -> str | None:
    try:
        return check(path).game
    except UserError:  # another sheet's problems are its own: it only offers no translations
        return None


def translated(project: Project, path: Path, lang: str | None, allow_fallback: bool = False) -> Sheet:
    """A sheet in one of its languages (its own by default)."""
    located, sheet = load(path)
    if lang and lang != sheet.lang:
        sheet, _ = i18n.translate(located, sheet, lang, i18n.catalogue_path(project.sources, sheet.sheet, lang), allow_fallback)
    return sheet


def build(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions(),
          output: Path | None = None, layouts: list[dict] | None = None) -> Path:
    """Build one sheet in one language; the previous PDF stays until the new one is complete."""
    from generator.output import write

    located, sheet, untranslated, marks, since = _prepared(project, path, lang, options)
    output = output or project.pdf_path(sheet.sheet, lang, _variant(options, since))
    write.atomically(output, _checked_pdf(project, sheet, options, untranslated, marks, located.problem, layouts))
    return output


def build_web(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()) -> Path:
    """The web edition of one sheet in one language: build/html/<sheet>.<lang>.html, one self-contained page."""
    from generator.output import write

    located, sheet, untranslated, marks, since = _prepared(project, path, lang, options)
    output = project.html_path(sheet.sheet, lang, _edition_variant(options, since))
    write.atomically(output, _web_page(project, sheet, options, untranslated, marks))
    return output


def _prepared(project: Project, path: Path, lang: str, options: BuildOptions):
    """A sheet as an edition prints it: (located source, sheet in `lang`, strings left untranslated,
    change marks, the edition compared with)."""
    located, sheet = load(path)
    validated = sheet
    since = options.changes_since or (previous_edition(located, sheet) if options.errata_only else None)
    untranslated = 0
    if lang != sheet.lang:
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        sheet, untranslated = i18n.translate(located, sheet, lang, catalogue, options.allow_fallback)
    marks = None
    if since:
        _check_edition(located, sheet, since)
        # the earlier edition gives old values (required by errata) and the changed cells (when committed)
        old = sheet_at_edition(path, since, lang, required=options.errata_only)
        if options.errata_only:
            sheet = diff.errata(old, sheet, since, words.ui_words(project, lang, options.allow_fallback))
        else:
            marks = diff.named_marks(sheet, since, old)
    if sheet is not validated:  # a translation or an errata sheet prints other strings than those validated
        _glyph_problems(sheet, located.problem)
    return located, sheet, untranslated, marks, since


def _glyph_problems(sheet: Sheet, problem: Callable[[tuple, str], Problem]) -> None:
    """Characters the font lacks: the page would show them in another font, or as boxes."""
    problems = [problem(loc, message) for loc, message in glyphs.glyph_findings(sheet, sheet.lang, keyword_index(sheet))]
    if problems:
        raise UserError(problems)


def _web_page(project: Project, sheet: Sheet, options: BuildOptions, untranslated: int, marks) -> bytes:
    from generator.renderer import web  # imports the renderer, and so WeasyPrint: only when something is rendered

    return web.page(project, sheet, options, untranslated, marks).encode("utf-8")


def _checked_pdf(project: Project, sheet: Sheet, options: BuildOptions, untranslated: int, marks,
                 problem: Callable[[tuple, str], Problem], layouts: list[dict] | None = None) -> bytes:
    """Render (the font's characters were checked where the sheet was made: validated, translated or composed),
    then measure the layout on the laid-out pages. `problem` places a finding in the source the author edits;
    the layout's report goes to `layouts`, with the count of strings printed in the canonical language under
    UNTRANSLATED."""
    from generator.renderer import render  # render imports WeasyPrint: only when something is rendered

    laid = render.layout(project, sheet, options, untranslated, marks)
    problems = [problem(loc, message) for loc, message in render.layout_findings(sheet, laid, options)]
    if problems:
        raise UserError(problems)
    if layouts is not None:  # with the count of strings printed untranslated, which the build reports beside it
        layouts.append({**laid.report(), UNTRANSLATED: untranslated})
    pdf = render.pdf(sheet, laid.document, options.pdf_variant)
    if options.impose:
        from generator.output import impose

        return impose.imposed(pdf, options.impose, options.paper or sheet.paper.size)
    return pdf


def _variant(options: BuildOptions, since: str | None) -> str | None:
    """What sets this PDF apart from the sheet's own: build/wab2.letter.errata-2.0.fr.pdf."""
    return ".".join(filter(None, [variant_of(asdict(options)), _edition_variant(options, since)])) or None


def _edition_variant(options: BuildOptions, since: str | None) -> str | None:
    """What the edition compared with adds to a name (paper, marks and ink belong to PDFs only): errata-2.0."""
    return f"errata-{since}" if options.errata_only else f"since-{since}" if since else None


def previous_edition(located: Located, sheet: Sheet) -> str:
    if len(sheet.changelog) < 2:
        raise UserError([located.problem(("changelog",), "no earlier edition in the changelog to compare with: "
                                                          "give one with --changes-since")])
    return sheet.changelog[1].edition


def _check_edition(located: Located, sheet: Sheet, since: str) -> None:
    known = [edition.edition for edition in sheet.changelog]
    if since not in known[1:]:
        raise UserError([located.problem(("changelog",), f"edition {since} is not an earlier edition of the changelog "
                                                          f"(it lists {', '.join(known) or 'none'})")])


def sheet_at_edition(path: Path, edition: str, lang: str | None = None, required: bool = True) -> Sheet | None:
    """The sheet as last committed with this edition number, in `lang` (its own by default);
    None when the edition was never committed and `required` is false."""
    revision = history.revision_of_edition(path, edition, required)
    return sheet_at_revision(path, revision, lang) if revision else None


def sheet_at_revision(path: Path, revision: str, lang: str | None = None) -> Sheet:
    """The sheet at a git revision; in another language, translated by its catalogue of then (the canonical
    text where that catalogue lacked a translation: an old edition is not checked again)."""
    with tempfile.TemporaryDirectory(prefix="qrs-") as folder:
        earlier_sources = Path(folder) / f"{path.stem}@{revision[:12]}"
        earlier = history.materialise(path.parent, path.stem, revision, earlier_sources)
        with _named_at_revision(earlier_sources, path.parent, revision):
            located, sheet = load(earlier)
            if lang and lang != sheet.lang:
                catalogue = i18n.catalogue_path(earlier_sources, sheet.sheet, lang)
                sheet, _ = i18n.translate(located, sheet, lang, catalogue, allow_fallback=True)
            return sheet


@contextmanager
def _named_at_revision(materialised: Path, sources: Path, revision: str):
    """Problems found in a sheet materialised in a temporary folder name the file as the author knows it,
    sources/wab2.yaml@v2.0 (the temporary folder is gone when they are read)."""
    try:
        yield
    except UserError as error:
        raise UserError([replace(problem, path=_at_revision(problem.path, materialised, sources, revision))
                         for problem in error.problems]) from None


def _at_revision(path: str, materialised: Path, sources: Path, revision: str) -> str:
    if not Path(path).is_relative_to(materialised):
        return path  # a template or the sources folder: a real path
    return f"{sources / Path(path).relative_to(materialised)}@{revision}"


def compare(old: Path | Sheet, new: Path | Sheet) -> list[diff.Change]:
    """The semantic differences between two sources (or sheets)."""
    return diff.compare(*(check(side) if isinstance(side, Path) else side for side in (old, new)))


def build_at_revision(project: Project, sheet_id: str, revision: str, lang: str | None,
                      options: BuildOptions = BuildOptions()) -> list[Path]:
    """A sheet as it was at a git revision or tag, in build/<sheet>@<revision>.<lang>.pdf."""
    if not SHEET_ID.match(sheet_id):
        raise UserError.at(project.sources, 1, 1, f"'{sheet_id}' is not a sheet id: SHEET@REVISION takes the file "
                                                  "name of a sheet in the sources folder, without .yaml (wab2@v2.0)")
    with tempfile.TemporaryDirectory(prefix="qrs-") as folder:
        sources = Path(folder) / f"{sheet_id}@{revision}".replace("/", "-")
        earlier = history.materialise(project.sources, sheet_id, revision, sources)
        past = Project(sources=sources, build=Path(folder) / "build", templates=project.templates)
        outputs = []
        with _named_at_revision(sources, project.sources, revision):
            for language in [lang] if lang else i18n.languages(sources, check(earlier)):
                target = project.pdf_path(f"{sheet_id}@{revision}".replace("/", "-"), language)
                outputs.append(build(past, earlier, language, options, output=target))
        return outputs


def load_handout(project: Project, path: Path) -> tuple[Located, Handout, Located, Sheet]:
    """A handout checked against its sheet, with both located sources."""
    located = load_file(path)
    handout = parse(located, Handout)
    sheet_path = project.sources / f"{handout.sheet}.yaml"
    if not sheet_path.is_file():
        raise UserError([located.problem(("sheet",), f"no sheet '{handout.sheet}' in {project.sources}")])
    sheet_located, sheet = load(sheet_path)
    keywords = keyword_index(sheet)
    found = [*handouts.findings(handout, sheet), *markup_findings(handout, keywords, sheet.result_names()),
             *glyphs.glyph_findings(handout, handout.lang, keywords)]
    if handout.handout != path.stem:
        found.append((("handout",), f"the handout id '{handout.handout}' must match the file name '{path.stem}'"))
    if found:
        raise UserError([located.problem(loc, message) for loc, message in found])
    return located, handout, sheet_located, sheet


def check_handout(project: Project, path: Path, languages: tuple[str, ...] = (), allow_fallback: bool = False) -> None:
    """A handout, its sheet, and the catalogues of every language it is printed in (or of `languages`)."""
    located, handout, sheet_located, sheet = load_handout(project, path)
    problems = []
    for lang in [lang for lang in handout.outputs if lang in languages] if languages else handout.outputs:
        try:
            _translated_pair(project, located, handout, sheet_located, sheet, lang, allow_fallback)
        except UserError as error:
            problems.extend(error.problems)
    if problems:
        raise UserError(problems)


def _translated_pair(project: Project, located: Located, handout: Handout, sheet_located: Located, sheet: Sheet,
                     lang: str, allow_fallback: bool) -> tuple[Handout, Sheet, int]:
    """The handout and its sheet in one language, and how many strings fell back to the canonical text."""
    untranslated = 0
    if lang != sheet.lang:
        catalogue = i18n.catalogue_path(project.sources, sheet.sheet, lang)
        sheet, missing = i18n.translate(sheet_located, sheet, lang, catalogue, allow_fallback)
        untranslated += missing
    if lang != handout.lang:
        catalogue = i18n.catalogue_path(project.handouts, handout.handout, lang)
        handout, missing = i18n.translate(located, handout, lang, catalogue, allow_fallback)
        untranslated += missing
    return handout, sheet, untranslated


def update_handout_translations(project: Project, path: Path, languages: tuple[str, ...] = ()) -> list[tuple[Path, i18n.Status]]:
    """Create or refresh a handout's catalogues (the given languages, or those it is printed in)."""
    located, handout, _, _ = load_handout(project, path)
    results = []
    for lang in languages or [lang for lang in handout.outputs if lang != handout.lang]:
        catalogue = i18n.catalogue_path(project.handouts, handout.handout, lang)
        sheet_catalogue = i18n.catalogue_path(project.sources, handout.sheet, lang)
        memory = [i18n.read(sheet_catalogue)] if sheet_catalogue.is_file() else []
        results.append((catalogue, i18n.update(located, handout, lang, catalogue, memory)))
    return results


def composed_handout(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()
                     ) -> tuple[Located, Sheet, int]:
    """A handout in one language composed into a sheet (the parts of its sheet the army uses), and how many
    strings fell back to the canonical text."""
    located, handout, sheet_located, sheet = load_handout(project, path)
    handout, sheet, untranslated = _translated_pair(project, located, handout, sheet_located, sheet, lang, options.allow_fallback)
    composed = handouts.compose(handout, sheet, words.ui_words(project, lang, options.allow_fallback))
    composed.mark_fallback_of(handout, sheet)  # the canonical texts either printed are marked as such
    _glyph_problems(composed, _handout_problem(located))
    return located, composed, untranslated


def build_handout(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions(),
                  layouts: list[dict] | None = None) -> Path:
    """Build one handout in one language: its sheet's parts the army uses, composed into a sheet and rendered."""
    from generator.output import write

    located, composed, untranslated = composed_handout(project, path, lang, options)
    output = project.handout_pdf_path(located.path.stem, lang, variant_of(asdict(options)))
    write.atomically(output, _checked_pdf(project, composed, options, untranslated, None, _handout_problem(located), layouts))
    return output


def build_handout_web(project: Project, path: Path, lang: str, options: BuildOptions = BuildOptions()) -> Path:
    """The web edition of one handout in one language: build/html/handouts/<id>.<lang>.html."""
    from generator.output import write

    located, composed, untranslated = composed_handout(project, path, lang, options)
    output = project.handout_html_path(located.path.stem, lang)
    write.atomically(output, _web_page(project, composed, options, untranslated, None))
    return output


def _handout_problem(located: Located) -> Callable[[tuple, str], Problem]:
    """A finding in the composed sheet is about the handout as a whole: what it includes, on what paper."""
    return lambda _, message: located.problem(("paper",), message)
