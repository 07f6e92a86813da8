"""Rosters: a BattleScribe / New Recruit army list (.ros, or .rosz: the same XML zipped) as a handout file.

`reading.rosters` reads the roster as hostile input and finds its units as BattleScribe means them; `names`
matches a roster's names to a sheet's; `making` makes the handout's data from the roster alone, `on_sheet` drawn on
a sheet; `text` makes the roster's words source text.
Here the sheet is chosen (the one whose game the roster names, unless one is given), and the handout is checked in
memory as `qrs check` and `qrs handout` would check it, in every language it lists, before a byte is written: an
import that fails writes nothing."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

import yaml

from generator.composing.roster.making import Report, Text, Unmatched, alone, literal, slug
from generator.composing.roster.names import SheetNames, answers_to, folded
from generator.composing.roster.on_sheet import with_sheet
from generator.composing.roster.sections import unused
from generator.errors import Problem, UserError
from generator.model.types import Sheet
from generator.model.validate import load
from generator.reading.rosters.files import quoted, read
from generator.reading.rosters.selections import Roster, model_types, profile_types, read_roster

__all__ = ["Import", "folded", "handout_of", "import_roster", "literal", "quoted", "read", "roster_of"]
ROSTER_LANGUAGE = "en"  # BattleScribe's and New Recruit's data are English


@dataclass
class Import:
    """The handout made from a roster, and what of the roster the sheet could not name."""

    handout: dict
    unmatched: list[Unmatched]
    game: str = ""
    left_out: list[str] = field(default_factory=list)
    sections_left_out: list[str] = field(default_factory=list)  # a line each: the section, and why

    def report(self, roster: str) -> str:
        """The one report of what the sheet could not name: a heading, then a line per name (its units beside it)."""
        sheet = self.handout.get("sheet")
        heading = (
            f"{roster}: {len(self.unmatched)} name(s) match nothing of the sheet '{sheet}', printed as the "
            "roster has them:"
            if sheet
            else f"{roster}: no sheet answers to the game {_named(self.game)}: the handout "
            "prints the roster's own profiles and rules"
        )
        lines = [heading, *(str(item) for item in self.unmatched)]
        if self.left_out:
            lines.append(
                f"left out, holding no profile, rule or cost of its own: {', '.join(map(quoted, self.left_out))}"
            )
        lines += self.sections_left_out
        return "\n".join(lines)


def _named(game: str) -> str:
    shown = quoted(game)
    return shown if shown != game else f"'{game}'" if game else "(none named)"


def sheet_for(project, game: str, sheet_name: str | None, force: bool, label: str) -> tuple[Path, Sheet] | None:
    """The sheet the handout draws on: the one given (refused when it is of another game, unless forced), else the
    one whose game the roster names, else none."""
    if sheet_name is not None:
        path = project.sheet_paths((sheet_name,))[0]
        _, sheet = load(path)
        if game and not answers_to(sheet, game) and not force:
            answers = ", ".join(f"'{name}'" for name in [sheet.game, *sheet.game_names])
            raise UserError.at(
                label,
                1,
                1,
                f"the roster is for the game {_named(game)}, the sheet '{sheet.sheet}' "
                f"for {answers}: expected a roster of the sheet's game (leave --sheet out "
                "to pick the sheet by the roster's game, or give --force)",
            )
        return path, sheet
    for path in project.sheet_paths(()):
        _, sheet = load(path)
        if answers_to(sheet, game):
            return path, sheet
    return None


def roster_of(root: Element, names: SheetNames | None = None) -> Roster:
    """The roster's units, their stat lines of the profile types that carry the sheet's characteristics (without a
    sheet: those named like no weapon or ability that carry a game's usual characteristics)."""
    types = profile_types(root)
    stat_types = (model_types(types, names.matches_stat_line) if names else set()) or model_types(types)
    if not stat_types and names:  # a roster's line that gives only some of the sheet's characteristics
        scored = {
            kind: len({names.characteristics.find(name) for name in found} - {None}) for kind, found in types.items()
        }
        stat_types = {max(scored, key=scored.get)} if scored and max(scored.values()) else set()
    return read_roster(root, stat_types)


def handout_of(
    root: Element,
    label: str,
    sheet: Sheet | None,
    handout_id: str,
    languages: list[str],
    translations: list[Sheet] = (),
) -> Import:
    """The handout's data from a parsed roster, drawn on `sheet` (or, without one, on the roster alone)."""
    names = SheetNames(sheet, translations) if sheet else None
    roster = roster_of(root, names)
    if not roster.units:
        raise UserError.at(
            label,
            1,
            1,
            "no unit in any force: expected at least one selection typed unit or model, or carrying a model's profile",
        )
    report = Report()
    army = roster.name or Path(label.split(":")[0]).stem
    sections = []
    if sheet is not None:
        data = with_sheet(roster, sheet, names, handout_id, "", languages, report)
        unusable = unused(sheet, list(translations), root)
        data["exclude"] = unusable.exclude  # the rest of the sheet prints: the army's reference, edited down at will
        if unusable.kept:
            data["except"] = unusable.kept
        sections = unusable.lines
    else:
        data = alone(roster, handout_id, "", ROSTER_LANGUAGE, report)
    data["army"] = _army(army, report)
    return Import(data, report.list(), roster.game, roster.left_out, sections)


def _army(name: str, report: Report) -> str:
    return Text(report)(name, 200, "army") or "-"


HEADER = "# yaml-language-server: $schema=../../schema/handout.schema.json\n# Imported from the roster {roster}.\n"


def as_yaml(handout: dict, roster: str) -> str:
    name = quoted(Path(roster.split(":")[0]).name).replace("\n", " ")
    return HEADER.format(roster=name) + yaml.safe_dump(
        handout, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None
    )


def strict_problems(unmatched: list[Unmatched], label: str) -> list[Problem]:
    return [Problem(label, 0, 0, f"{item} (--strict: everything must match)") for item in unmatched]


def import_roster(
    project, roster_path: Path, sheet_name: str | None, handout_id: str | None, strict: bool, force: bool = False
) -> tuple[Path, Import, str]:
    """Read the roster, make its handout and check it in memory, then write sources/handouts/<id>.yaml (never over
    a file): the path written, the import (with what did not match) and the roster's name in reports. Anything
    wrong (with `strict`, anything unmatched) is an error, and nothing is written."""
    from generator import write
    from generator.composing import languages as translations
    from generator.composing import translate as i18n

    root, label = read(roster_path)
    chosen = sheet_for(project, (root.get("gameSystemName") or "").strip(), sheet_name, force, label)
    handout_id = handout_id or slug(roster_path.stem, set(), "roster")
    target = project.handouts / f"{handout_id}.yaml"
    if target.exists() or target.is_symlink():
        raise UserError.at(target, 0, 0, "a handout of this id exists: give another with --id, or remove it")
    if chosen:
        path, sheet = chosen
        languages = i18n.languages(project.sources, sheet)
        others = [translations.translated(project, path, lang, allow_fallback=True) for lang in languages[1:]]
        made = handout_of(root, label, sheet, handout_id, languages, others)
    else:
        made = handout_of(root, label, None, handout_id, [ROSTER_LANGUAGE])
    if strict and made.unmatched:
        raise UserError(strict_problems(made.unmatched, label))
    text = as_yaml(made.handout, label)
    checked(project, text, handout_id, label)
    try:
        write.text(target, text, overwrite=False)
    except FileExistsError:
        raise UserError.at(target, 0, 0, "a handout of this id exists: give another with --id, or remove it") from None
    return target, made, label


def checked(project, text: str, handout_id: str, label: str) -> None:
    """The handout as `qrs check` and `qrs handout` take it, in every language it lists, from a temporary copy:
    any problem is the roster's, reported with where in the handout it arose, and nothing is written."""
    from generator.composing import languages as translations
    from generator.composing import words
    from generator.composing.handout import compose, load_handout
    from generator.model import glyphs
    from generator.model.validate import keyword_index

    with tempfile.TemporaryDirectory(prefix="qrs-import-") as folder:
        path = Path(folder) / f"{handout_id}.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            located, handout, sheet_located, sheet = load_handout(project, path)
            for lang in handout.outputs:
                pair = translations.translated_pair(project, located, handout, sheet_located, sheet, lang, False)
                composed = compose(pair[0], pair[1], words.ui_words(project, lang, False))
                found = list(glyphs.glyph_findings(composed, composed.lang, keyword_index(composed)))
                if found:
                    raise UserError(glyphs.one_per_character(located.problem(loc, message) for loc, message in found))
        except UserError as error:
            raise UserError(
                [
                    Problem(
                        label,
                        1,
                        1,
                        f"the handout made from the roster does not check "
                        f"({_where(problem, path)}{problem.message}): nothing was written",
                    )
                    for problem in error.problems
                ]
            ) from None


def _where(problem: Problem, path: Path) -> str:
    return f"its line {problem.line}: " if problem.path == str(path) and problem.line else ""
