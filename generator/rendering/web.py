"""The web edition: a sheet as one self-contained HTML page, for reading on a phone at the table.

The page is made from the same model and the same block templates as the PDF (templates/blocks/), every block
whole, in reading order; `templates/web.html.j2` frames them (table of contents, footer) and `templates/web.css`
lays them out for screens: one column on a phone, more on a wide screen, tables scrolling sideways, dark mode
from the system's setting, print styles. A block that spans the PDF's columns (`wide`) spans the screen's. Nothing is fetched when the page is opened: the stylesheet is inside it
and the fonts too, cut down to the characters the page uses (WOFF2, in data: URLs).
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import replace
from pathlib import Path

from markupsafe import Markup

from generator import files, write
from generator.composing.diff import Marks
from generator.errors import UserError
from generator.model.glyphs import FONTS, MONO_FONT, SYMBOL_FONTS, SYMBOLS, font_characters
from generator.model.types import Sheet
from generator.project import Project
from generator.rendering import heights, templating, widths
from generator.rendering.inline import Inline
from generator.rendering.items import Item, items
from generator.rendering.layout import page_frame

# A face of the body's font as sheet.css declares it for the PDF: the web page's are the same (body_faces).
FACE = re.compile(
    r'@font-face\s*\{\s*font-family:\s*"Source Sans";\s*font-weight:\s*(\d+);\s*font-style:\s*(\w+);'
    r'\s*src:\s*url\("fonts/([^"/]+)"\);\s*\}'
)
FONTS_HERE = "/* the fonts */"  # where web.html.j2 puts the @font-face rules, the first thing in the page's style


def page(project: Project, sheet: Sheet, options, untranslated: int = 0, marks: Marks | None = None) -> str:
    """The sheet's web page: one HTML document holding its styles and fonts."""
    stylesheet = (project.templates / "web.css").read_text(encoding="utf-8")
    inline = Inline(sheet, sheet.lang, gloss=options.gloss, anchors=definition_anchors(sheet))
    document = templating.html(
        project,
        sheet,
        options,
        untranslated,
        marks,
        plan=[[spanning(sheet, options)]],
        template="web.html.j2",
        web=True,
        t=inline,
        fonts=Markup(FONTS_HERE),
        stylesheet=Markup(stylesheet),
    )
    # The fonts are cut to the characters of the page as rendered: put in the first style element afterwards.
    mono = any(block.type == "preformatted" for block in sheet.blocks())
    faces = font_faces(frozenset(document), heights.folder(project.build), body_faces(project), mono)
    return document.replace(FONTS_HERE, faces, 1)


def spanning(sheet: Sheet, options) -> list[Item]:
    """The sheet's blocks in reading order, those that span the PDF's columns marked wide: across the screen's
    columns too. The page measures nothing: a matrix is found too wide for a column from the font (widths)."""
    frame, points = page_frame(sheet, options), sheet.paper.type_points
    return [
        replace(item, wide=True) if item.block.wide or widths.too_wide(item.block, frame, points) else item
        for item in items(sheet)
    ]


def definition_anchors(sheet: Sheet) -> dict[str, str]:
    """Keyword id → the id of the element defining it on the page: its entry in the first glossary that prints
    it, else the block it names as its long definition (`see`). A keyword defined nowhere is not a link."""
    anchors = {}
    blocks = {block.id: block for block in sheet.blocks()}  # a handout prints only some of its sheet's blocks
    for keyword in sheet.keywords:
        glossaries = [
            block
            for block in blocks.values()
            if block.type == "glossary" and (block.keywords is None or keyword.id in block.keywords)
        ]
        if keyword.text and glossaries:
            anchors[keyword.id] = f"kw-{keyword.id}"
        elif keyword.see in blocks:
            anchors[keyword.id] = keyword.see
    return anchors


def body_faces(project: Project) -> list[tuple[int, str, str]]:
    """The faces of the body's font the project's sheet.css declares for the PDF (weight, style, file), read from it:
    the web page declares the same, so that both print alike."""
    stylesheet = (project.templates / "sheet.css").read_text(encoding="utf-8")
    return [(int(weight), style, name) for weight, style, name in FACE.findall(stylesheet)]


def font_faces(characters: frozenset[str], cache: Path, faces: list[tuple[int, str, str]], mono: bool = False) -> str:
    """@font-face rules for every face of the body's font (`faces`: body_faces), each cut down to the common Latin
    set and these characters, in a data: URL; with `mono`, preformatted text's monospace font too, cut to these
    characters. The cut fonts are kept in `cache` (most pages use the same characters: each face is cut once)."""
    rules = []
    for weight, style, name in faces:
        data = base64.b64encode(_subset(name, characters, cache)).decode("ascii")
        rules.append(
            f'@font-face {{ font-family: "Source Sans"; font-weight: {weight}; font-style: {style}; '
            f'font-display: block; src: url("data:font/woff2;base64,{data}") format("woff2"); }}'
        )
    # The symbols Source Sans lacks, as the PDF prints them (sheet.css): only on a page that prints one of them.
    symbols = frozenset(char for char in characters if ord(char) not in font_characters())
    fallbacks = [(family, name, symbols) for family, name in zip(SYMBOL_FAMILIES, SYMBOL_FONTS) if symbols]
    for family, name, wanted in fallbacks + ([(MONO_FAMILY, MONO_FONT, characters)] if mono else []):
        font = _subset(name, wanted, cache, SYMBOLS, frozenset())
        if font is not None:
            data = base64.b64encode(font).decode("ascii")
            rules.append(
                f'@font-face {{ font-family: "{family}"; font-display: block; '
                f'src: url("data:font/woff2;base64,{data}") format("woff2"); }}'
            )
    return "\n".join(rules)


SYMBOL_FAMILIES = (
    "QRS Symbols",
    "QRS Symbols DejaVu",
    "QRS Emoji",
)  # as sheet.css and web.css name the fonts of SYMBOL_FONTS
MONO_FAMILY = "QRS Mono"  # MONO_FONT's, for preformatted text


# Every page carries these, so that most pages share one cut of each face: Latin-1 and Latin Extended-A,
# general punctuation (dashes, quotes, thin spaces), the euro, minus, arrows and comparison signs.
COMMON = frozenset(
    chr(code) for code in [*range(0x20, 0x180), *range(0x2000, 0x2070), 0x20AC, 0x2192, 0x2212, 0x2264, 0x2265]
)
# The OpenType features the stylesheet asks for (small capitals, tabular figures) and those text needs to look right.
FEATURES = ["smcp", "c2sc", "tnum", "kern", "liga", "ccmp", "locl", "mark", "mkmk", "case"]


def _subset(
    name: str, characters: frozenset[str], cache: Path, folder: Path = FONTS, common: frozenset[str] = COMMON
) -> bytes | None:
    """The face cut to `common` and these characters, as WOFF2: from the cache when it was cut before; None when
    it has none of them (a symbols font on a page that prints no symbol)."""
    from fontTools.ttLib import TTFont

    face = TTFont(Path(folder) / name, recalcTimestamp=False, lazy=True)
    wanted = sorted(code for code in face.getBestCmap() if chr(code) in common or chr(code) in characters)
    if not wanted:
        return None
    kept = cache / "web-fonts" / f"{heights.key(name, repr(wanted), repr(FEATURES))}.woff2"
    font = _kept_font(kept, wanted)
    if font is None:
        font = _cut(Path(folder) / name, wanted)
        write.atomically(kept, font)
    return font


MAX_FONT_BYTES = 2 * 1024 * 1024  # a cut face is about 30 kB; the whole face as WOFF2, 150 kB


def _kept_font(kept: Path, wanted: list[int]) -> bytes | None:
    """A cut kept in the cache, or None where there is none or it is not what qrs wrote: a cache is input (a file
    put there, or a link to any file, would be embedded in a published page), so it is read only from its own
    folder (a link out is refused, UserError), and it must be a WOFF2 font with the characters asked for."""
    from fontTools.ttLib import TTFont

    write.destination(kept)  # a link out of the cache's folder is refused by name, as the writer refuses it
    try:
        data = files.read_regular(kept, MAX_FONT_BYTES, "a cached web font")
    except (FileNotFoundError, UserError):  # none yet; or a folder, a device, too large: cut again, written over
        return None
    try:
        font = TTFont(io.BytesIO(data), lazy=True)
        ok = data.startswith(b"wOF2") and font.flavor == "woff2" and set(wanted) <= set(font.getBestCmap())
    except Exception:  # noqa: BLE001 - whatever damage fontTools finds in it: cut again
        return None
    return data if ok else None


def _cut(path: Path, codes: list[int]) -> bytes:
    """The same codes give the same bytes: the font's own timestamp is kept."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(path, recalcTimestamp=False)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = FEATURES
    options.hinting = False  # screens draw unhinted outlines well; hints would double the size
    options.name_IDs = ["*"]  # the names carry the licence
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codes)
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue()
