"""`qrs new`: a new source with one commented example of each block type, from templates/scaffold/sheet.<lang>.yaml.j2
(its examples and comments in the source's language: French or English, English for any other), and of a type the
template does not show, derived from its model (generator.cli.scaffold_examples).

The new file is checked like any source before it is written, so `qrs new` never leaves a file that
`qrs check` refuses; it never overwrites one. Its first line names the JSON Schema by a path that resolves from
where it is written: the schema folder beside the sources folder, written there if it is missing or out of date.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import tempfile
from pathlib import Path
from typing import get_args

import jinja2
from babel import Locale, UnknownLocaleError

from generator import files, write
from generator.cli import scaffold_examples
from generator.errors import UserError
from generator.model.types import Block
from generator.project import Project

TEMPLATE = "scaffold/sheet.{lang}.yaml.j2"
FIGURE = "scaffold/blast.svg.j2"  # the figure example's picture: a blast template 3 inches across, true size
TEMPLATE_LANGUAGES = ("fr", "en")  # the others get the English examples
ID = re.compile(r"^[a-z0-9][a-z0-9-]*\Z")  # as model.Id
LANGUAGE = re.compile(r"^[a-z]{2}(-[A-Z]{2})?\Z")  # as model.LanguageCode
_MARKUP = re.compile(r"([*{}\[\]\\])")
DEFAULT_TITLES = {"fr": "Feuille de référence", "en": "Quick reference"}
CREDITS = {"fr": "Feuille de référence de {game}", "en": "{game}: quick-reference sheet"}


def block_types() -> list[str]:
    """Every block type the model knows (the `type` of each member of model.Block)."""
    return [scaffold_examples.type_name(member) for member in get_args(get_args(Block)[0])]


def _not_shown(template_source: str) -> list:
    """The block types (model classes) the scaffold template has no example of: derived from their models."""
    shown = set(re.findall(r"^\s*type: ([a-z][a-z-]*)", template_source, re.M))
    return [member for member in get_args(get_args(Block)[0]) if scaffold_examples.type_name(member) not in shown]


def _yaml_string(text: str) -> str:
    """A double-quoted YAML scalar (JSON's string syntax is valid YAML), with the sheet's markup escaped."""
    return json.dumps(_MARKUP.sub(r"\\\1", text), ensure_ascii=False)


def _environment(project: Project) -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(project.templates),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    environment.filters["yaml"] = _yaml_string
    return environment


def figure_path(sheet_id: str) -> Path:
    """Where the figure example's picture goes, relative to the sources folder (as the scaffold's `src` says)."""
    return Path("figures") / f"{sheet_id}-blast.svg"


def text(
    project: Project,
    sheet_id: str,
    game: str,
    lang: str,
    title: str | None = None,
    today: datetime.date | None = None,
    schema: str = "../schema/sheet.schema.json",
) -> str:
    """The new source's text; `schema` is the path its first line gives to the JSON Schema."""
    environment = _environment(project)
    primary = lang.split("-")[0]
    written_in = primary if primary in TEMPLATE_LANGUAGES else "en"
    name = TEMPLATE.format(lang=written_in)
    source = environment.loader.get_source(environment, name)[0]
    return environment.get_template(name).render(
        more_blocks=scaffold_examples.section(_not_shown(source), written_in),
        sheet_id=sheet_id,
        game=game,
        lang=lang,
        title=title or DEFAULT_TITLES[written_in],
        schema=schema,
        date=(today or datetime.date.today()).isoformat(),
        credits=CREDITS[written_in].format(game=game),
    )


def schema_reference(project: Project) -> tuple[str, list[Path]]:
    """The path from the sources folder to the sheet schema, and the schema files written so that it resolves."""
    from generator.output import json_schema

    folder = project.sources.parent / json_schema.FOLDER
    written = json_schema.write(folder)
    return Path(os.path.relpath(folder / "sheet.schema.json", project.sources)).as_posix(), written


def create(project: Project, sheet_id: str, game: str, lang: str, title: str | None = None) -> list[Path]:
    """Write sources/<sheet_id>.yaml (and the schema it names, if missing); refuse a bad id or language, an
    existing file, or a scaffold that does not check. The files written, the source first."""
    from generator.output import pipeline

    target = project.sources / f"{sheet_id}.yaml"
    if not ID.match(sheet_id) or len(sheet_id) > 60:
        raise UserError.at(
            project.sources,
            1,
            1,
            f"{sheet_id!r} is not a valid sheet id: use lowercase letters, "
            "digits and hyphens, starting with a letter or digit (wab2, shadow-war)",
        )
    if files.device_problem(sheet_id):
        raise UserError.at(project.sources, 1, 1, files.device_problem(sheet_id))
    if not LANGUAGE.match(lang):
        raise UserError.at(
            project.sources, 1, 1, f"'{lang}' is not a language code: expected two lowercase letters (fr, en, de)"
        )
    try:
        Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise UserError.at(
            project.sources, 1, 1, f"'{lang}' is not a language qrs knows (dates are written with Babel's locales)"
        ) from None
    if not game.strip():
        raise UserError.at(project.sources, 1, 1, "--game needs the game's name")
    if target.exists():
        raise UserError.at(
            target,
            1,
            1,
            "this sheet already exists: qrs new never overwrites a source (choose another id or remove the file)",
        )
    picture = project.sources / figure_path(sheet_id)
    drawing = _environment(project).get_template(FIGURE).render()
    if picture.exists() and picture.read_bytes() != drawing.encode("utf-8"):
        raise UserError.at(
            picture,
            1,
            1,
            "this file already exists: qrs new never overwrites one (the new sheet's "
            "figure example draws it; choose another id or move the file)",
        )
    schema, schemas_written = schema_reference(project)
    content = text(project, sheet_id, game, lang, title, schema=schema)
    with tempfile.TemporaryDirectory() as folder:  # check it under its own name before it appears in sources/
        trial = Path(folder) / target.name
        write.text(trial, content)
        write.text(Path(folder) / figure_path(sheet_id), drawing)
        try:
            pipeline.check(trial)
        except UserError as error:
            raise UserError(
                [
                    problem.__class__(str(target), problem.line, problem.column, problem.message)
                    for problem in error.problems
                ]
            ) from None
    try:
        write.text(target, content, overwrite=False)  # never overwrite, even in a race
    except FileExistsError:
        raise UserError.at(target, 1, 1, "this sheet already exists: qrs new never overwrites a source") from None
    drawn = [] if picture.exists() else [picture]  # the same drawing, left by an earlier `qrs new` of this id
    for path in drawn:
        write.text(path, drawing, overwrite=False)
    return [target, *drawn, *schemas_written]


def template_words_missing(project: Project, lang: str) -> bool:
    """True when the templates have no catalogue of their words in this language (needed to build it)."""
    return lang != "en" and not any(path.exists() for path in project.ui_catalogues(lang))
