"""The marks of a roster's texts as New Recruit's app reads them: `^^Infantry^^` a keyword, `**x**` bold.

BSData's 40k 10th-edition data writes a keyword in every way the two marks combine: `^^**Necrons**^^`,
`^^**Necrons^^**` (crossed), `**^^Necrons^^**`, `^^ Vehicle^^`, even `^**Artillery**^^` (a caret lost). Each is one keyword, printed
bold without its marks; a bold text keeps the keywords inside it bold. A mark left alone touching a word (its pair
lost) is left out; `***x***` prints bold; one standing apart ("a ^^ alone", "2 * 3") prints as written."""

from __future__ import annotations

import re
from typing import Callable

_WORDS = r" ?([^\s^*](?:[^\^*]*?[^\s^*])?) ?"  # no mark inside; a space at either end left out (^^ Vehicle^^)
KEYWORD = re.compile(r"(?:\*\*\^\^|\^\^\*\*|\^\*\*|\^\^)" + _WORDS + r"(?:\*\*\^\^|\^\^\*\*|\^\^)")
BOLD = re.compile(r"\*\*\*? ?([^\s*](?:[^*]*?[^\s*])?) ?\*\*\*?")  # ***x*** (bold italic in Age of Sigmar's oaths) bold
STRAY = re.compile(r"(?<=\S)(?:\^\^|\*\*)+|(?:\^\^|\*\*)+(?=\S)")
# what stands for a keyword and a bold text's ends while the rest is escaped: control characters, which a roster's
# text no longer holds (Text made them spaces)
_KEY, _END, _OPEN, _CLOSE = "\x00", "\x01", "\x02", "\x03"


def marked(text: str, escape: Callable[[str], str]) -> str:
    """The text as handout markup: its keywords and bold texts in bold, the rest escaped (`escape`) to print as
    written."""
    keywords: list[str] = []

    def keep(match: re.Match) -> str:
        keywords.append(match.group(1))
        return f"{_KEY}{len(keywords) - 1}{_END}"

    text = KEYWORD.sub(keep, text)
    text = BOLD.sub(lambda match: f"{_OPEN}{match.group(1)}{_CLOSE}", text)
    text = STRAY.sub("", text)
    shown = escape(text)
    shown = re.sub(
        f"{_OPEN}(.*?){_CLOSE}",
        lambda match: (
            "**" + re.sub(f"{_KEY}(\\d+){_END}", lambda key: escape(keywords[int(key[1])]), match.group(1)) + "**"
        ),
        shown,
    )
    return re.sub(f"{_KEY}(\\d+){_END}", lambda key: f"**{escape(keywords[int(key[1])])}**", shown)
