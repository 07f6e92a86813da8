"""The facts of a roster, read from the roster file alone (the stdlib parser: the fixtures are trusted), and the
share of them a built handout's PDF prints: unit names, model counts, points, each characteristic of each profile,
each rule's name, the army's choices and its total (#46's "Done when").

A fact is found when its words are in the PDF's text once both are made plain (case, accents, spacing, dashes,
quotes and New Recruit's ^^ ** marks aside; words the line broke with a hyphen or after a slash joined again). A
profile's values are looked for after its name (within the next few hundred characters of the text), a long text by
its first words. `python -m tests.composing.roster.facts ROSTER PDF` prints the count of one roster."""

from __future__ import annotations

import re
import sys
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

NS = "{http://www.battlescribe.net/schema/rosterSchema}"
POINTS = {"pts", "points", "point(s)", "point"}
UNIT_TYPES = {"unit", "model"}
WINDOW = 1200  # how far after a profile's name its values are looked for
TEXT_WORDS = 8  # a long value is looked for by its first words
JOINED = re.compile(r"(?<=\w)-(?=\w)")  # a word's own hyphen
STRAY = re.compile(r"^'(?=[-+]?\d)")  # BSData's WHFB '+2: the handout leaves the apostrophe out, and says so


def roster_root(path: Path) -> ElementTree.Element:
    if path.suffix == ".rosz":
        with zipfile.ZipFile(path) as archive:
            return ElementTree.fromstring(archive.read(archive.namelist()[0]))
    return ElementTree.parse(path).getroot()


def plain(text: str) -> str:
    """Text made comparable: NFKC, marks and typography undone, lower case, one space between words."""
    text = unicodedata.normalize("NFKC", text).replace("^^", "").replace("**", "")
    text = re.sub("[\u2010-\u2015\u2212\u2011]", "-", text)
    text = re.sub("[\u2018\u2019\u201a\u2032']", "'", text)
    text = re.sub("[\u201c\u201d\u201e\u2033]", '"', text)
    text = text.replace("\u00ad", "").replace("\u2800", " ").replace("\u2022", " ").replace("\u25a0", " ")
    text = re.sub(r"(\w)-\s*\n\s*(?=[a-z])", r"\1", text)  # a word the line broke
    text = re.sub(r"/[ \t]*\n\s*", "/", text)  # a line broken after a slash ('Explodes (6+/6"/' 'D3)')
    text = re.sub(r"\s+(?=[.,;:!?])", "", text)  # a space the PDF's text puts before a stop ('2" .')
    return " ".join(text.casefold().split())


@dataclass
class Count:
    roster: str
    found: int = 0
    missing: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.found + len(self.missing)

    @property
    def share(self) -> float:
        return self.found / self.total if self.total else 1.0

    def __str__(self) -> str:
        return f"{self.roster}: {self.found}/{self.total} = {self.share:.1%}"


def _held(selection: ElementTree.Element) -> list[ElementTree.Element]:
    """The selection and those it holds, but a unit nested in it (a WHFB detachment: a unit of its own) and its own."""
    nested = {
        id(inner)
        for child in selection.iter(f"{NS}selection")
        if child is not selection and child.get("type") == "unit"
        for inner in child.iter(f"{NS}selection")
    }
    return [element for element in selection.iter(f"{NS}selection") if id(element) not in nested]


def _cost(selection: ElementTree.Element) -> float:
    return sum(
        float(cost.get("value") or 0)
        for element in _held(selection)
        for cost in element.findall(f"{NS}costs/{NS}cost")
        if cost.get("name", "").strip().casefold() in POINTS
    )


def _number(points: float) -> str:
    return f"{points:.2f}".rstrip("0").rstrip(".")


def facts(root: ElementTree.Element) -> list[tuple[str, str, str | None]]:
    """The roster's facts: (kind, what is looked for, the name it is looked for after or None)."""
    found: list[tuple[str, str, str | None]] = []
    for force in root.iter(f"{NS}force"):
        top = force.findall(f"{NS}selections/{NS}selection")
        nested = [
            child
            for selection in top
            for child in selection.iter(f"{NS}selection")
            if child is not selection and child.get("type") == "unit"
        ]
        for selection in top + nested:
            name = (selection.get("customName") or selection.get("name") or "").strip()
            found.append(("name", name, None))
            points = _cost(selection)
            if points:
                found.append(("points", _number(points), name))
            lines = [int(float(child.get("number") or 1)) for child in _held(selection) if child.get("type") == "model"]
            if sum(lines) > 1:  # "10 × Necron Warriors", or each line's own: "4 × Space Marine"
                found.append(("count", " ".join(map(str, [sum(lines), *lines])), name))
            if not selection.findall(f".//{NS}profile") and not selection.findall(f".//{NS}rule"):
                chosen = [child.get("name", "").strip() for child in selection.findall(f"{NS}selections/{NS}selection")]
                found += [("choice", value, None) for value in chosen if value]
    seen = set()
    for profile in root.iter(f"{NS}profile"):
        name = (profile.get("name") or "").strip()
        for characteristic in profile.iter(f"{NS}characteristic"):
            value = " ".join((characteristic.text or "").split())
            key = (name, characteristic.get("name"), value)
            if value and value not in ("-", ".") and key not in seen:
                seen.add(key)
                found.append(("value", value, name))
        if name and ("name", name) not in seen:
            seen.add(("name", name))
            found.append(("profile", name, None))
    for rule in root.iter(f"{NS}rule"):
        name = (rule.get("name") or "").strip()
        if name and ("rule", name) not in seen:
            seen.add(("rule", name))
            found.append(("rule", name, None))
    total = [cost for cost in root.findall(f"{NS}costs/{NS}cost") if cost.get("name", "").strip().casefold() in POINTS]
    if total and float(total[0].get("value") or 0):
        found.append(("total", _number(float(total[0].get("value"))), None))
    return found


def _words(text: str) -> str:
    words = plain(text).split()
    return " ".join(words[:TEXT_WORDS])


def _looked_for(kind: str, value: str) -> list[str]:
    """What prints for a fact: its words, or a name's without what BSData puts before it (a die face, ➤ ⌖ ⚔)."""
    wanted = _words(value)
    bare = re.sub(r"^[^\w\[]+", "", wanted)
    return _broken([wanted, bare] if kind in ("name", "profile", "rule", "choice") else [wanted])


def _broken(forms: list[str]) -> list[str]:
    """The forms and each as it reads once a line broke it at one of its own hyphens: "Multi-" "laser" joined, as
    `plain` joins a word the line broke (it cannot tell a hyphen the line added from the word's own), "Mega-"
    "Shoota" spaced."""
    broken = [JOINED.sub(glue, each) for glue in ("", "- ") for each in forms]
    return list(dict.fromkeys(forms + broken))


def count(roster: Path, text: str) -> Count:
    """The roster's facts found in the PDF's text."""
    printed = plain(text)
    result = Count(roster.name)
    for kind, value, after in facts(roster_root(roster)):
        names = _broken([_words(after)]) if after else []
        starts = [found.start() for name in names for found in re.finditer(re.escape(name), printed)]
        near = [printed[start : start + WINDOW] for start in starts]
        if (
            kind == "count"
        ):  # the whole, or the lines under the unit's name adding up to it (19 × Soldier, 1 × Sergeant)
            whole = int(value.split()[0])
            ok = f"{whole} ×" in printed or any(whole in _sums(each) for each in near)
        elif kind == "value":  # after its profile's name (one of the places it prints)
            ok = any(form in each for form in _broken([_words(STRAY.sub("", value))]) for each in near)
        else:
            ok = any(each and each in printed for each in _looked_for(kind, value))
        if ok:
            result.found += 1
        else:
            result.missing.append(f"{kind} {value!r}" + (f" of {after!r}" if after else ""))
    return result


def _sums(text: str) -> set[int]:
    """The running sums of the model counts ("4 ×") the text begins with, a unit's lines: 4, 5."""
    sums, total = set(), 0
    for number in re.findall(r"(\d+) ×", text[:300]):
        total += int(number)
        sums.add(total)
    return sums


def pdf_text(pdf: Path) -> str:
    import pypdf

    return "\n".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)


if __name__ == "__main__":
    counted = count(Path(sys.argv[1]), pdf_text(Path(sys.argv[2])))
    print(counted)
    print("\n".join(f"  missing {item}" for item in counted.missing))
