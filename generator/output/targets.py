"""What is built: a target, a sheet or a handout, one kind each of one `Target`.

A target knows what it composes (`compose`: the sheet a language prints, and where its findings are placed), how it
is checked without rendering (`check`), what its outputs are made from (`inputs`) and the languages it is printed
in. Everything else (the build, the formats, the manifest, the commands) takes a target and asks it.
Making one reads nothing: the model, the translations and the composing are imported when a target is composed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar

from generator import files
from generator.errors import Problem, UserError
from generator.options import BuildOptions
from generator.project import Project


@dataclass(frozen=True)
class Prepared:
    """A target as one language prints it: the sheet to render, how many strings fell back to the canonical text,
    the change marks and the edition compared with, and `problem`, which places a finding in the source edited."""

    sheet: Any  # generator.model.types.Sheet
    untranslated: int
    problem: Callable[[tuple, str], Problem]
    marks: Any = None
    since: str | None = None
    # a handout's own parts as printed (its located source, the handout and its sheet, translated): what a format
    # that prints them otherwise than as a sheet takes (the cards: a unit a card)
    parts: tuple | None = None


@dataclass(frozen=True)
class Target:
    source: Path
    kind: ClassVar[str]
    folder: ClassVar[str]  # where its outputs go inside each format's folder

    @property
    def ident(self) -> str:
        """Its id: the file name of its source."""
        return self.source.stem

    def compose(self, project: Project, lang: str, options: BuildOptions = BuildOptions()) -> Prepared:
        raise NotImplementedError

    def check(self, project: Project, languages: tuple[str, ...] = (), allow_fallback: bool = False) -> list[str]:
        """What `qrs check` finds without rendering: raises the problems, returns notes (languages in progress)."""
        raise NotImplementedError

    def inputs(self, project: Project, lang: str, sheet: str | None = None) -> list[Path]:
        """The files an output in `lang` is made from (besides the templates, fonts and generator all share)."""
        raise NotImplementedError

    def languages(self, project: Project) -> tuple[str, ...]:
        """The languages it is drawn in by default (qrs preview): its own, or those a handout lists."""
        raise NotImplementedError

    def printed_languages(self, project: Project) -> tuple[str, ...]:
        """Every language it is printed in (qrs export): a sheet's own and its catalogues', a handout's outputs."""
        raise NotImplementedError


@dataclass(frozen=True)
class SheetTarget(Target):
    kind: ClassVar[str] = "sheet"
    folder: ClassVar[str] = ""

    def compose(self, project: Project, lang: str, options: BuildOptions = BuildOptions()) -> Prepared:
        """The sheet in `lang`, at the edition the options ask for (errata only, or with changes marked)."""
        from generator.composing import diff, words
        from generator.composing import editions as history
        from generator.composing import translate as i18n
        from generator.model.validate import load

        located, sheet = load(self.source)
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
            old = history.sheet_at_edition(self.source, since, lang, required=options.errata_only)
            if options.errata_only:
                sheet = diff.errata(old, sheet, since, words.ui_words(project, lang, options.allow_fallback))
            else:
                marks = diff.named_marks(sheet, since, old)
        if sheet is not validated:  # a translation or an errata sheet prints other strings than those validated
            glyph_problems(sheet, located.problem)
        return Prepared(sheet, untranslated, located.problem, marks, since)

    def check(self, project: Project, languages: tuple[str, ...] = (), allow_fallback: bool = False) -> list[str]:
        from generator.composing import languages as translations
        from generator.model.validate import load

        located, sheet = load(self.source)  # the source's own problems first, before its catalogues'
        pending = {} if languages or allow_fallback else translations.in_progress(project, located, sheet)
        problems = translations.translation_problems(project, located, sheet, languages, allow_fallback, tuple(pending))
        _raise(problems + page_findings(project, sheet, located.problem))
        return [translations.progress_note(project, sheet.sheet, lang, count) for lang, count in pending.items()]

    def inputs(self, project: Project, lang: str, sheet: str | None = None) -> list[Path]:
        return [
            self.source,
            project.sources / "i18n" / f"{self.ident}.{lang}.po",
            project.ui_catalogues(lang)[0],
            *_figures(project, self.source),
        ]

    def languages(self, project: Project) -> tuple[str, ...]:
        from generator.model.validate import check

        return (check(self.source).lang,)

    def printed_languages(self, project: Project) -> tuple[str, ...]:
        from generator.composing import translate as i18n
        from generator.model.validate import check

        return tuple(i18n.languages(project.sources, check(self.source)))


@dataclass(frozen=True)
class HandoutTarget(Target):
    kind: ClassVar[str] = "handout"
    folder: ClassVar[str] = "handouts"

    def compose(self, project: Project, lang: str, options: BuildOptions = BuildOptions()) -> Prepared:
        """Its sheet's parts the army uses, in `lang`, composed into a sheet."""
        from generator.composing import handout as handouts
        from generator.composing import languages as translations
        from generator.composing import words

        located, handout, sheet_located, sheet = handouts.load_handout(project, self.source)
        handout, sheet, untranslated = translations.translated_pair(
            project, located, handout, sheet_located, sheet, lang, options.allow_fallback
        )
        composed = handouts.compose(handout, sheet, words.ui_words(project, lang, options.allow_fallback))
        composed.mark_fallback_of(*(document for document in (handout, sheet) if document))  # canonical texts printed
        glyph_problems(composed, handout_problem(located))
        return Prepared(composed, untranslated, handout_problem(located), parts=(located, handout, sheet))

    def check(self, project: Project, languages: tuple[str, ...] = (), allow_fallback: bool = False) -> list[str]:
        """Its sheet, its catalogues and the templates' words in every language it is printed in (or `languages`),
        then what its own paper cannot hold in its own language, as a sheet's."""
        from generator.composing import handout as handouts
        from generator.composing import languages as translations
        from generator.composing import words

        located, handout, sheet_located, sheet = handouts.load_handout(project, self.source)
        problems = []
        for lang in [lang for lang in handout.outputs if lang in languages] if languages else handout.outputs:
            problems.extend(words.catalogue_problems(project, lang))  # the templates' words the build fills in
            try:
                translations.translated_pair(project, located, handout, sheet_located, sheet, lang, allow_fallback)
            except UserError as error:
                problems.extend(error.problems)
        _raise(problems)
        composed = self.compose(project, handout.lang, BuildOptions(allow_fallback=True)).sheet
        _raise(page_findings(project, composed, handout_problem(located)))
        return []

    def inputs(self, project: Project, lang: str, sheet: str | None = None) -> list[Path]:
        own = [self.source, project.handouts / "i18n" / f"{self.ident}.{lang}.po"]
        if not sheet:
            return [*own, project.ui_catalogues(lang)[0]]
        sheet_source = project.sources / f"{sheet}.yaml"
        return [
            *own,
            sheet_source,
            project.sources / "i18n" / f"{sheet}.{lang}.po",
            project.ui_catalogues(lang)[0],
            *_figures(project, sheet_source),
        ]

    def languages(self, project: Project) -> tuple[str, ...]:
        from generator.composing.handout import load_handout

        found = load_handout(project, self.source)[1]
        return tuple(found.languages or [found.lang])

    def printed_languages(self, project: Project) -> tuple[str, ...]:
        from generator.composing.handout import load_handout

        return tuple(load_handout(project, self.source)[1].outputs)


KINDS: dict[str, type[Target]] = {kind.kind: kind for kind in (SheetTarget, HandoutTarget)}


def handout_problem(located) -> Callable[[tuple, str], Problem]:
    """A finding in the composed sheet is about the handout as a whole: what it includes, on what paper."""
    return lambda _, message: located.problem(("paper",), message)


def page_findings(project: Project, sheet, problem: Callable[[tuple, str], Problem]) -> list[Problem]:
    """What the sheet's own paper cannot hold, found without rendering: a true-size figure wider than its column,
    a matrix too wide for the page even spanning its columns (a build on other paper checks its own)."""
    from generator.rendering import figures, layout, widths  # none imports WeasyPrint

    frame = layout.page_frame(sheet, BuildOptions())
    return [
        problem(loc, message)
        for loc, message in [*figures.findings(sheet, frame, project.sources), *widths.findings(sheet, frame)]
    ]


def named(project: Project, names: tuple[str, ...] = (), handouts: bool = True) -> list[Target]:
    """The sheets and handouts named (by id or source path), sheets first; none named: every sheet, and every
    handout unless `handouts` is False. A handout named by path and by id is one target."""
    if names:
        sheets, handout_paths = project.sources_named(names)
    else:
        sheets, handout_paths = project.sheet_paths(), project.handout_paths() if handouts else []
    found = [SheetTarget(path) for path in sheets] + [HandoutTarget(path) for path in handout_paths]
    return list(dict.fromkeys(found))


def sheets(targets: list[Target]) -> list[Target]:
    return [target for target in targets if target.kind == "sheet"]


def _figures(project: Project, source: Path) -> list[Path]:
    """The pictures a sheet's figures name (read from its text, as `src:` fields: no model is loaded to plan)."""
    return [project.sources / name for name in files.figures_named_in(source)]


def glyph_problems(sheet, problem: Callable[[tuple, str], Problem]) -> None:
    """Characters no font of the sheet has: the page would show them in a system font, or as boxes; each once."""
    from generator.model import glyphs
    from generator.model.validate import keyword_index

    _raise(
        glyphs.one_per_character(
            problem(loc, message) for loc, message in glyphs.glyph_findings(sheet, sheet.lang, keyword_index(sheet))
        )
    )


def _raise(problems: list[Problem]) -> None:
    if problems:
        raise UserError(problems)
