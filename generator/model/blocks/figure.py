"""Figure blocks: a picture (SVG or PNG) from the sources folder, with its alternative text and a caption; printed
to fit its column, or at its true size (templates, gauges: `scale: true-size`).

The picture is read like every source (generator.files): a regular file inside the sources folder, named by a path
relative to it (no '..', no absolute path, no URL), through no link out of it, of at most MAX_FIGURE_BYTES. Its
content is checked before anything is rendered: a PNG's signature and size in pixels; an SVG that parses as XML
without a DTD or entities, whose root is an <svg> with a viewBox, and that names nothing outside itself (a
reference is a #fragment or a data: raster image). `read` gives the checked bytes: validate calls it (each
problem at the block's `src`), the renderer embeds them as a data: URI (generator.rendering.figures)."""

from __future__ import annotations

import io
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, ClassVar, Iterator, Literal

from pydantic import Field, StringConstraints, model_validator

from generator import files
from generator.errors import UserError
from generator.model.base import Fact, OptionalText, Text
from generator.model.blocks.block import BlockBase

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6, "px": 25.4 / 96, "": 25.4 / 96}
MAX_PIXELS = 25_000_000  # a PNG's width × height (a page of A3 at 300 dpi is 17 million): a decompression bomb refused
MEDIA_TYPES = {".svg": "image/svg+xml", ".png": "image/png"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}"
# What an SVG may reference: a part of itself, or a raster image inside it (an SVG in a data: URI could name others).
_INSIDE = re.compile(r"^\s*(#|data:image/(png|jpeg|gif);base64,)", re.I)
_SIGNATURES = {"png": PNG_SIGNATURE, "jpeg": b"\xff\xd8\xff", "gif": b"GIF8"}
MAX_USE_ELEMENTS = 100_000  # the elements an SVG may draw once its <use> references are expanded
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|pt|pc|px|)\s*$")

Length = Annotated[str, StringConstraints(pattern=r"^\d{1,4}(\.\d{1,3})?(mm|in)$")]


class FigureBlock(BlockBase):
    """A picture from the sources folder (SVG or PNG), with its alternative text and an optional caption."""

    may_continue: ClassVar[bool] = False  # a picture is never cut across columns

    type: Literal["figure"]
    src: Annotated[str, StringConstraints(min_length=1, max_length=200)] = Field(
        description="The picture: a .svg or .png file, by its path relative to the sources folder (figures/blast.svg)."
    )
    alt: Text = Field(
        description="What the picture shows, in words: the alternative text of the PDF (PDF/UA) and of "
        "the web page, read aloud by screen readers."
    )
    caption: OptionalText | None = Field(None, description="A line printed under the picture.")
    width: Length | None = Field(
        None,
        description="The printed width, in mm or inches (76.2mm, 3in). fit: at most "
        "this (the column's width if not given); true-size: exactly this.",
    )
    scale: Literal["fit", "true-size"] = Field(
        "fit",
        description="fit: scaled to the column; true-size: printed at exactly `width` on every paper and at "
        "every type size (templates, gauges), refused where the column is narrower.",
    )

    @model_validator(mode="after")
    def _true_size_has_a_width(self) -> "FigureBlock":
        if self.scale == "true-size" and self.width is None:
            raise ValueError("a true-size figure needs its printed width: add width (76.2mm, 3in)")
        return self

    @property
    def width_mm(self) -> float | None:
        return length_mm(self.width) if self.width else None

    def row_facts(self) -> Iterator[Fact]:
        yield from super().row_facts()  # the alternative text and the caption
        for name in ("src", "width", "scale"):
            yield (name,), name, str(getattr(self, name) or ""), None, None


def length_mm(length: str) -> float | None:
    """A length of CSS (76.2mm, 3in, 96, 100px) in millimetres; None for what is not an absolute length (50%)."""
    found = _LENGTH.match(length or "")
    return float(found.group(1)) * MM_PER_UNIT[found.group(2)] if found else None


@dataclass(frozen=True)
class Picture:
    """A figure's checked file: its bytes, media type, and height as a share of its width."""

    data: bytes
    media_type: str
    aspect: float


class Refused(ValueError):
    """Why a figure's file is not printed, in the author's words."""


def read(sources: Path, src: str) -> Picture:
    """The checked picture `src` names in the sources folder; Refused says what is wrong."""
    problem = files.relative_problem(src)
    if problem:
        raise Refused(problem)
    path = sources / src
    if not path.resolve().is_relative_to(sources.resolve()):
        raise Refused(
            f"it leads out of the sources folder (a symbolic link to {path.resolve()}): a figure is read only "
            "from inside it; put the file itself there"
        )
    try:
        data = files.read_regular(path, files.MAX_FIGURE_BYTES, "a figure")
    except (FileNotFoundError, NotADirectoryError):
        raise Refused(f"no such file in {sources}: expected a .svg or .png file there") from None
    except UserError as error:
        raise Refused(error.problems[0].message) from None
    suffix = path.suffix.lower()
    aspect = _png_aspect(data) if suffix == ".png" else _svg_aspect(data)
    return Picture(data, MEDIA_TYPES[suffix], aspect)


def file_findings(sheet, sources: Path) -> Iterator[tuple[tuple, str]]:
    """Each figure of the sheet whose file is refused, at its `src`."""
    for place, block in sheet.placed_blocks():
        if block.type == "figure":
            try:
                read(sources, block.src)
            except Refused as why:
                yield place + ("src",), f"{block.src}: {why}"


def _png_aspect(data: bytes) -> float:
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR" or len(data) < 24:
        raise Refused("not a PNG image (its first bytes are not a PNG's signature): expected a PNG, or name an .svg")
    width, height = struct.unpack(">II", data[16:24])
    if not width or not height or width * height > MAX_PIXELS:
        raise Refused(f"the PNG is {width} × {height} pixels: expected at most {MAX_PIXELS:,} pixels, none empty")
    from PIL import Image  # the library WeasyPrint reads images with: only when a sheet has a PNG

    try:
        Image.open(io.BytesIO(data)).verify()
    except Exception as error:  # noqa: BLE001 - Pillow's errors have no common type
        why = re.sub(r"<[^<>]* object at 0x[0-9a-fA-F]+>", "the file", str(error))  # no object's repr
        raise Refused(f"the PNG is damaged ({why}): expected a PNG that image programs open") from None
    return height / width


def _svg_aspect(data: bytes) -> float:
    from xml.etree.ElementTree import ParseError

    import defusedxml
    import defusedxml.ElementTree

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused("the SVG is not UTF-8 text: expected an SVG file saved as UTF-8") from None
    for marker, what in (
        ("<!DOCTYPE", "a document type declaration (<!DOCTYPE>)"),
        ("<!ENTITY", "an entity declaration"),
        ("<?xml-stylesheet", "a stylesheet it would fetch"),
    ):
        if marker.lower() in text.lower():
            raise Refused(
                f"{what} at {_place(text, marker)} of the SVG: expected none (a DTD may define entities, "
                "a billion-laughs bomb; a figure names nothing outside itself)"
            )
    try:
        root = defusedxml.ElementTree.fromstring(text, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except ParseError as error:
        line, column = error.position
        raise Refused(
            f"not well-formed XML at line {line}, column {column + 1} of the SVG: expected an SVG file"
        ) from None
    except (defusedxml.DefusedXmlException, ValueError) as error:
        raise Refused(f"the SVG cannot be read safely ({error}): expected a plain SVG file") from None
    if root.tag != f"{SVG}svg":
        raise Refused(f'the root element is <{root.tag}>: expected <svg xmlns="http://www.w3.org/2000/svg">')
    for element in root.iter():
        _refuse_references(element, text)
    _refuse_use_bomb(root, text)
    return _viewbox_aspect(root)


def _refuse_references(element, text: str) -> None:
    """An SVG element that would make a renderer or a browser read something outside the file, or run code."""
    name = str(element.tag).rpartition("}")[2]
    if name in ("script", "foreignObject"):
        raise Refused(f"a <{name}> element at {_place(text, '<' + name)} of the SVG: expected a drawing only")
    for key, value in ((key.rpartition("}")[2], value) for key, value in element.attrib.items()):
        if key.lower().startswith("on"):
            raise Refused(
                f"an {key} attribute at {_place(text, key)} of the SVG: expected a drawing only (an event "
                "handler runs code in a browser)"
            )
        for target in [value] if key in ("href", "src") else _css_references(value, declarations=True):
            _refuse_outside(target, text)
    if name == "style" and element.text:
        for target in _css_references(element.text, declarations=False):
            _refuse_outside(target, text)


def _css_references(css: str, declarations: bool) -> list[str]:
    """What CSS (a <style> element's sheet, or an attribute's value) would fetch: every url() and @import, read with
    a CSS tokenizer, whatever their case or escapes (`\\75 rl(`, `@\\69mport`)."""
    import tinycss2  # WeasyPrint's own CSS tokenizer: what the renderer would read is what is checked

    nodes = tinycss2.parse_component_value_list(css) if declarations else tinycss2.parse_stylesheet(css)
    found: list[str] = []
    _walk_css(nodes, found)
    return found


def _walk_css(nodes, found: list[str]) -> None:
    for node in nodes:
        kind = getattr(node, "type", "")
        if kind == "url":
            found.append(node.value)
        elif kind == "function" and node.lower_name in ("url", "src", "image", "image-set"):
            strings = [argument.value for argument in node.arguments if getattr(argument, "type", "") == "string"]
            found += strings or ["url()"]
        elif kind == "at-rule" and node.lower_at_keyword == "import":
            found.append("@import")
        for children in ("prelude", "content", "arguments"):
            if getattr(node, children, None):
                _walk_css(getattr(node, children), found)


def _refuse_outside(target: str, text: str) -> None:
    """A reference to anything but the SVG itself, or a data: picture whose bytes are of its declared type."""
    if not target or target.lstrip().startswith("#") or _inline_picture(target):
        return
    shown = target if len(target) <= 60 else target[:60] + "…"
    raise Refused(
        f"a reference to '{shown}' at {_place(text, target[:40])} of the SVG: expected only references inside "
        "it (#id) or data: PNG, JPEG or GIF images; a figure never makes the renderer read another file or "
        "the network"
    )


def _inline_picture(target: str) -> bool:
    """Whether a reference is a data: PNG, JPEG or GIF image whose bytes carry that type's signature (an SVG in
    them, which could name the outside, is not one)."""
    import base64
    import binascii

    found = _INSIDE.match(target)
    if not found or found.group(2) is None:
        return False
    try:
        data = base64.b64decode(target[found.end() :].strip(), validate=False)
    except (binascii.Error, ValueError):
        return False
    return data.startswith(_SIGNATURES[found.group(2).lower()])


def _refuse_use_bomb(root, text: str) -> None:
    """An SVG whose <use> elements, expanded through their chain, draw more than MAX_USE_ELEMENTS elements (seven
    nested groups of ten <use> of the group below draw ten million), or refer to themselves."""
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}
    drawn: dict[int, int] = {}

    def count(element, path: frozenset) -> int:
        if id(element) in drawn:
            return drawn[id(element)]
        if id(element) in path:
            raise Refused(
                f"a <use> at {_place(text, '<use')} of the SVG refers to an element that holds it: expected "
                "references that end"
            )
        inner = path | {id(element)}
        total = 1 + sum(count(child, inner) for child in element)
        if str(element.tag).rpartition("}")[2] == "use":
            href = next((value for key, value in element.attrib.items() if key.rpartition("}")[2] == "href"), "")
            target = by_id.get(href.lstrip("#")) if href.startswith("#") else None
            total += count(target, inner) if target is not None else 0
        if total > MAX_USE_ELEMENTS:
            raise Refused(
                f"the <use> elements from {_place(text, '<use')} of the SVG draw more than "
                f"{MAX_USE_ELEMENTS:,} elements once expanded: expected a drawing, not a copy bomb"
            )
        drawn[id(element)] = total
        return total

    try:
        count(root, frozenset())
    except RecursionError:
        raise Refused(
            "the SVG's elements (or its <use> references) nest too deeply to be read: expected a drawing "
            "nested a few hundred levels at most"
        ) from None


def _viewbox_aspect(root) -> float:
    numbers = re.split(r"[\s,]+", root.get("viewBox", "").strip())
    try:
        _, _, width, height = (float(number) for number in numbers)
    except ValueError:
        width = height = 0.0
    if not (width > 0 and height > 0):
        raise Refused(
            'the <svg> has no viewBox (or an empty one): expected viewBox="0 0 W H", so that the drawing '
            "scales to its printed width"
        )
    declared = [length_mm(root.get(name, "")) for name in ("width", "height")]
    if all(declared) and abs(declared[1] / declared[0] - height / width) > 0.005 * height / width:
        raise Refused(
            f"its width and height ({root.get('width')} × {root.get('height')}) have other proportions than "
            f"its viewBox ({width:g} × {height:g}): expected the same, or the drawing would not fill its width"
        )
    return height / width


def _place(text: str, needle: str) -> str:
    """'line L, column C' of the first `needle` in the SVG's text (case aside)."""
    index = max(text.lower().find(needle.lower()), 0)
    line = text.count("\n", 0, index) + 1
    return f"line {line}, column {index - text.rfind(chr(10), 0, index)}"
