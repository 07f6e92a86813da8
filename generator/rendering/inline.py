"""The inline markup of a sheet's texts as the page prints it: safe HTML in the language's typography."""

from __future__ import annotations

import re

from markupsafe import Markup

from generator.model import markup, typography
from generator.model.sheet import Sheet
from generator.model.validate import keyword_index


def css_string(text: str) -> Markup:
    """Text for the inside of a CSS string in a <style> element: HTML escaping does not apply there,
    so the quote, the backslash, line breaks and '<' (which could close the element) are CSS-escaped."""
    escaped = "".join(f"\\{ord(char):x} " if char in '"\\<>\n\r\x0c' else char for char in str(text))
    return Markup(escaped)


class Inline:
    """Turns the sheet's inline markup into safe HTML, with the language's typography. A text printed in another
    language (the canonical text where a translation lacked) is marked with its language, and set in its typography."""

    def __init__(self, sheet: Sheet, lang: str, gloss: bool = False, anchors: dict[str, str] | None = None):
        self.sheet, self.lang = sheet, lang
        self.keywords = keyword_index(sheet)
        self.results = sheet.result_names()
        self.gloss = gloss
        self.glossed: set[str] = set()
        self.anchors = anchors  # keyword id → the id of its definition on the page: references become links

    def keyword_anchor(self, key: str) -> str | None:
        return self.anchors.get(self.keywords[key.casefold()].id)

    def name_keyword(self, key: str, shown: str | None) -> str:
        """The words a reference prints: the author's, else the keyword's term, read as markup as the glossary
        reads it (its escapes undone: `Brave \\{x\\}` prints `Brave {x}`)."""
        return shown or markup.to_plain(
            markup.parse(self.keywords[key.casefold()].term), str, lambda inner, words: words or inner
        )

    def name_keyword_glossed(self, key: str, shown: str | None) -> str:
        """With --gloss: the game's English term beside the first mention of each keyword."""
        name = self.name_keyword(key, shown)
        keyword = self.keywords[key.casefold()]
        if keyword.original and keyword.original != keyword.term and keyword.id not in self.glossed:
            self.glossed.add(keyword.id)
            return f"{name} ({keyword.original})"
        return name

    def __call__(self, text: str | None) -> Markup:
        if not text:
            return Markup("")
        namer = self.name_keyword_glossed if self.gloss else self.name_keyword
        lang = self.sheet.language_of(text)
        link = self.keyword_anchor if self.anchors else None
        typeset, broken = self.typeset(lang), typography.breaks(lang)  # the listed words' own breaks, printed only
        html = markup.to_html(
            markup.parse(typography.quotes(text, lang)),
            lambda words: broken(typeset(words)),
            namer,
            link,
            self.results.get,
        )
        if lang == self.lang:
            return html
        return Markup('<span lang="{}">{}</span>').format(lang, html)  # its own hyphenation, its own quotes

    def heading(self, text: str | None, continued: str | None = None) -> Markup:
        """A heading set in capitals keeps what is typed in lower case inside parentheses as typed: "(p.45)", and
        the "(cont.)" of a heading repeated atop a column, alike."""
        html = self(text) + (Markup(" ") + continued if continued else "")
        return Markup(_IN_PARENTHESES.sub(r'<span class="as-typed">(\1)</span>', str(html)))

    def between(self, separator: str) -> str:
        """What joins two words (a step's title to its text), as typed, in the language's spacing: French ": "
        prints with a no-break space before the colon. Plain text, escaped by the template."""
        return typography.for_language(self.lang)(f"a{separator}a")[1:-1]

    def plain(self, text: str) -> str:
        lang = self.sheet.language_of(text)
        return markup.to_plain(
            markup.parse(typography.quotes(text, lang)), self.typeset(lang), self.name_keyword, self.results.get
        )

    def typeset(self, lang: str):
        """The language's typography, the names printed as written left as they are."""
        return typography.keeping(getattr(self.sheet, "untranslatable", ()), typography.for_language(lang))


# A parenthesis of the printed text that holds a lower-case letter; no tag inside it (the markup's own are whole).
_IN_PARENTHESES = re.compile(r"\(([^()<>]*[a-zà-ÿ][^()<>]*)\)")
