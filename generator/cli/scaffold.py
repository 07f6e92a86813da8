"""`qrs new`: a new source with one commented example of each block type, from templates/scaffold/sheet.yaml.j2.

The new file is checked like any source before it is written, so `qrs new` never leaves a file that
`qrs check` refuses; it never overwrites one.
"""

from __future__ import annotations

import datetime
import json
import re
import tempfile
from pathlib import Path
from typing import get_args

import jinja2
from babel import Locale, UnknownLocaleError

from generator.output import write
from generator.errors import UserError
from generator.schema.model import Block
from generator.project import Project

TEMPLATE = "scaffold/sheet.yaml.j2"
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # as model.Id
LANGUAGE = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")  # as model.LanguageCode
_MARKUP = re.compile(r"([*{}\[\]\\])")
DEFAULT_TITLES = {"fr": "Feuille de référence", "en": "Quick reference"}


def block_types() -> list[str]:
    """Every block type the model knows (the `type` of each member of model.Block)."""
    union = get_args(Block)[0]
    return [value for member in get_args(union) for value in get_args(member.model_fields["type"].annotation)]


def _yaml_string(text: str) -> str:
    """A double-quoted YAML scalar (JSON's string syntax is valid YAML), with the sheet's markup escaped."""
    return json.dumps(_MARKUP.sub(r"\\\1", text), ensure_ascii=False)


def text(project: Project, sheet_id: str, game: str, lang: str, title: str | None = None,
         today: datetime.date | None = None) -> str:
    """The new source's text."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(project.templates), autoescape=False,
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    environment.filters["yaml"] = _yaml_string
    return environment.get_template(TEMPLATE).render(
        sheet_id=sheet_id, game=game, lang=lang, title=title or DEFAULT_TITLES.get(lang.split("-")[0], "Quick reference"),
        date=(today or datetime.date.today()).isoformat(), credits=f"{game}: quick-reference sheet",
    )


def create(project: Project, sheet_id: str, game: str, lang: str, title: str | None = None) -> Path:
    """Write sources/<sheet_id>.yaml; refuse a bad id or language, an existing file, or a scaffold that does not check."""
    from generator import pipeline

    target = project.sources / f"{sheet_id}.yaml"
    if not ID.match(sheet_id) or len(sheet_id) > 60:
        raise UserError.at(project.sources, 1, 1, f"'{sheet_id}' is not a valid sheet id: use lowercase letters, "
                                                  "digits and hyphens, starting with a letter or digit (wab2, shadow-war)")
    if not LANGUAGE.match(lang):
        raise UserError.at(project.sources, 1, 1, f"'{lang}' is not a language code: expected two lowercase letters (fr, en, de)")
    try:
        Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise UserError.at(project.sources, 1, 1, f"'{lang}' is not a language qrs knows (dates are written with Babel's locales)") from None
    if not game.strip():
        raise UserError.at(project.sources, 1, 1, "--game needs the game's name")
    if target.exists():
        raise UserError.at(target, 1, 1, "this sheet already exists: qrs new never overwrites a source (choose another id or remove the file)")
    content = text(project, sheet_id, game, lang, title)
    with tempfile.TemporaryDirectory() as folder:  # check it under its own name before it appears in sources/
        trial = Path(folder) / target.name
        write.text(trial, content)
        try:
            pipeline.check(trial)
        except UserError as error:
            raise UserError([problem.__class__(str(target), problem.line, problem.column, problem.message)
                             for problem in error.problems]) from None
    try:
        write.text(target, content, overwrite=False)  # never overwrite, even in a race
    except FileExistsError:
        raise UserError.at(target, 1, 1, "this sheet already exists: qrs new never overwrites a source") from None
    return target


def template_words_missing(project: Project, lang: str) -> bool:
    """True when the templates have no catalogue of their words in this language (needed to build it)."""
    return lang != "en" and not any(path.exists() for path in project.ui_catalogues(lang))
