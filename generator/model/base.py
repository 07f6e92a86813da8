"""The ground every part of the model stands on: the base model, the kinds of text and ids, and the walk
over a document's prose that markup checks and translators share."""

from __future__ import annotations

import datetime
from functools import cache
from typing import Annotated, Any, ForwardRef, Iterator, Literal, get_args, get_origin

from babel import Locale, UnknownLocaleError
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints


class Translatable:
    """Marks a string field as prose that translators translate."""

    def __repr__(self) -> str:
        return "Translatable"


TRANSLATABLE = Translatable()


class Verbatim:
    """Marks a translatable string printed as typed, character for character: no markup, no typography (a
    preformatted diagram). The walk over prose leaves it out unless asked (`prose(..., verbatim=True)`)."""

    def __repr__(self) -> str:
        return "Verbatim"


VERBATIM = Verbatim()

MAX_TEXT = 4000


def _without_final_newline(text: str) -> str:
    """A YAML block scalar (`|`) ends with a line break that ends the value, not a line of it."""
    return text.rstrip("\n")


Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)]
Text = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_TEXT), AfterValidator(_without_final_newline), TRANSLATABLE
]
OptionalText = Annotated[
    str, StringConstraints(max_length=MAX_TEXT), AfterValidator(_without_final_newline), TRANSLATABLE
]


def _printing(text: str) -> str:
    if not text.strip():
        raise ValueError("the text is empty: type at least one line that prints something")
    return text


# Lines printed as typed (a diagram): a YAML block scalar's last line break ends the value; spaces are kept.
AsTyped = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_TEXT),
    AfterValidator(_without_final_newline),
    AfterValidator(_printing),
    TRANSLATABLE,
    VERBATIM,
]
EARLIEST_DATE = datetime.date(1970, 1, 1)  # the PDF's timestamps (SOURCE_DATE_EPOCH, font tables) start in 1970


def _calendar_day(value: str) -> str:
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"'{value}' is not a day of the calendar: expected YYYY-MM-DD, such as 2026-11-21") from None
    if day < EARLIEST_DATE:
        raise ValueError(f"'{value}' is too early: a date is {EARLIEST_DATE.isoformat()} or later")
    return value


def known_language(code: str) -> bool:
    """A language code the renderer can format dates and hyphenate for (fr, en, en-GB)."""
    try:
        Locale.parse(code.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return False
    return True


def _known_language(code: str) -> str:
    if not known_language(code):
        raise ValueError(f"unknown language '{code}': expected an ISO 639-1 language code such as fr, en or de")
    return code


MIN_CONTRAST = 4.5  # WCAG AA for text: white headings on the accent, and the accent's text on white


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _dark_enough(colour: str) -> str:
    """The accent fills headings set in white, and prints grey in black and white: it must stay dark."""
    contrast = 1.05 / (_luminance(colour) + 0.05)
    if contrast < MIN_CONTRAST:
        raise ValueError(
            f"the accent {colour} is too light: white text on it has a contrast of {contrast:.1f}, "
            f"at least {MIN_CONTRAST} is needed to read it, in colour or printed in black and white"
        )
    return colour


Accent = Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$"), AfterValidator(_dark_enough)]
Date = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(_calendar_day)]
LanguageCode = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}(-[A-Z]{2})?$"), AfterValidator(_known_language)]
MAX_ROWS = 500
# A block, or a row of one of the sheet's tables ("longbow"), or "table/row" where two tables share a row id.
RowRef = Annotated[str, StringConstraints(pattern=r"^([a-z0-9][a-z0-9-]*/)?[a-z0-9][a-z0-9-]*$", max_length=121)]

# A problem found by a block's own check: where in the block (a path of keys) and what is wrong.
Finding = tuple[tuple, str]
# What an edition diff compares: stable key, where in the sheet's words, value, row and cell printed.
Fact = tuple[tuple, str, str, "int | None", "int | None"]


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False, validate_default=True, populate_by_name=True)


Align = Literal["left", "center", "right"]
CharacteristicId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9]{0,11}$")]
Aliases = Annotated[list[Annotated[str, StringConstraints(min_length=1, max_length=60)]], Field(max_length=20)]

EditionNumber = Annotated[str, StringConstraints(pattern=r"^\d+(\.\d+)*$", max_length=20)]  # 2.1, 1.10.3


def edition_key(edition: str) -> tuple[int, ...]:
    """Editions compare as numbers: 2.10 comes after 2.9."""
    return tuple(int(part) for part in edition.split("."))


def _mentions(annotation, marker) -> bool:
    if annotation is marker:
        return True
    return any(_mentions(arg, marker) for arg in get_args(annotation))


@cache
def _prose_fields(model_class: type[BaseModel]) -> frozenset[str]:
    return frozenset(
        name
        for name, info in model_class.model_fields.items()
        if TRANSLATABLE in info.metadata or _mentions(info.annotation, TRANSLATABLE)
    )


@cache
def _verbatim_fields(model_class: type[BaseModel]) -> frozenset[str]:
    return frozenset(
        name
        for name, info in model_class.model_fields.items()
        if VERBATIM in info.metadata or _mentions(info.annotation, VERBATIM)
    )


def prose(model: BaseModel, loc: tuple = (), verbatim: bool = False) -> Iterator[tuple[tuple, str]]:
    """Every prose string of a model, with its path: what markup checks see; with `verbatim`, the strings printed
    as typed too (a preformatted diagram), which translators and diffs see and markup checks do not."""
    found: list[tuple[tuple, str]] = []
    _prose_of(model, loc, verbatim, found)
    return iter(found)


def verbatim_texts(model: BaseModel) -> Iterator[tuple[tuple, str]]:
    """The strings of a model printed as typed (AsTyped), with their paths: those prose(model, verbatim=True) finds
    under a field printed as typed."""
    found: list[tuple[tuple, str]] = []
    _typed_of(model, (), found)
    return iter(found)


def _typed_of(value, loc: tuple, found: list) -> None:
    if isinstance(value, BaseModel):
        for name, is_prose, as_typed in _walked_fields(type(value)):
            if as_typed:
                _prose_in(getattr(value, name), loc + (name,), is_prose, True, found)
            else:
                _typed_of(getattr(value, name), loc + (name,), found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _typed_of(item, loc + (index,), found)
    elif isinstance(value, dict):
        for key, item in value.items():
            _typed_of(item, loc + (key,), found)


@cache
def _walked_fields(model_class: type[BaseModel]) -> tuple[tuple[str, bool, bool], ...]:
    """The fields of a model class that may hold prose: (name, whether it is prose, whether it is printed as typed).
    Not an id, a number or a choice: a field that is not prose and can hold no model is never walked."""
    prose_fields, kept = _prose_fields(model_class), _verbatim_fields(model_class)
    return tuple(
        (name, name in prose_fields, name in kept)
        for name, info in model_class.model_fields.items()
        if name in prose_fields or name in kept or _may_hold_model(info.annotation)
    )


def _may_hold_model(annotation) -> bool:
    """Whether a field so annotated may hold a model: a model class, or a type made of one (a list, a union, a
    dict); what cannot be told (Any, a name not resolved) is walked."""
    args = get_args(annotation)
    if args:  # list[X], X | None, Annotated[X, …], dict[K, V], Literal["a", "b"]
        return get_origin(annotation) is not Literal and any(_may_hold_model(arg) for arg in args)
    if isinstance(annotation, type):
        return annotation is object or issubclass(annotation, BaseModel)
    return annotation is Any or isinstance(annotation, (str, ForwardRef))


# Collected into one list, not yielded: a generator a level deep passed each string up through every level above it
# (a sheet is eight deep), and checking a sheet walks its prose several times.
def _prose_of(model: BaseModel, loc: tuple, verbatim: bool, found: list) -> None:
    for name, is_prose, as_typed in _walked_fields(type(model)):
        if as_typed and not verbatim:
            continue
        _prose_in(getattr(model, name), loc + (name,), is_prose, verbatim, found)


def _prose_in(value, loc: tuple, is_prose: bool, verbatim: bool, found: list) -> None:
    if isinstance(value, str):
        if is_prose and value:
            found.append((loc, value))
    elif isinstance(value, BaseModel):
        _prose_of(value, loc, verbatim, found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _prose_in(item, loc + (index,), is_prose, verbatim, found)
    elif isinstance(value, dict):
        for key, item in value.items():
            _prose_in(item, loc + (key,), is_prose, verbatim, found)
