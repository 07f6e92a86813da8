"""Property: whatever the source, qrs either succeeds or names a user error; it never fails with a bug.

Hypothesis writes sheet sources as YAML text: well-formed sheets of every block type, then mutated (wrong types,
missing and unknown keys, odd strings, unicode, huge numbers, random dice ranges and matrix cells) and sometimes
damaged as text (a stray tab, quote, bracket, anchor, BOM…), with now and then a translation catalogue; and sheets
whose bullets, numbered lines, steps and dice results are long enough to be cut between their lines. Each is
run through the command line: the exit code is 0 or 2, never 1, and nothing prints a traceback. The seed is fixed
(derandomize) and the examples bounded, so `make test` runs the same cases every time.
"""

from __future__ import annotations

import copy
import re
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.model import rules
from tests.conftest import run_qrs

SETTINGS = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

# --- a well-formed sheet ------------------------------------------------------------------------

WORDS = st.from_regex(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9 ,.'!?;()-]{0,40}", fullmatch=True)
# A text of 1,500 characters or more: a bullet, step or dice result taller than a third of a column, which the page
# cuts between its lines (generator.rendering.cuts)
LONG = st.lists(WORDS, min_size=1, max_size=4).map(lambda words: ((". ".join(words) + ". ") * 1500)[:1500].strip())
TEXT = st.one_of(WORDS, WORDS, WORDS, LONG)
CLEAN_DICE = ["D3", "D6", "2D6", "3D6", "D66", "D10"]


def _ids(prefix: str, items: list[dict]) -> list[dict]:
    return [{"id": f"{prefix}{index}", **item} for index, item in enumerate(items, 1)]


@st.composite
def dice_block(draw, text=TEXT):
    die = draw(st.sampled_from(CLEAN_DICE))
    results = rules.die_results(die)
    cuts = sorted(draw(st.sets(st.integers(1, len(results) - 1), max_size=5)))
    bounds = list(zip([0, *cuts], [*cuts, len(results)]))
    rows = []
    for number, (low, high) in enumerate(bounds):
        first, last = results[low], results[high - 1]
        roll = (
            f"{first}+"
            if number == len(bounds) - 1 and high - low > 1
            else str(first)
            if first == last
            else f"{first}-{last}"
        )
        rows.append({"roll": roll, "text": draw(text)})
    if draw(st.booleans()):  # a roll on the last result, printed under its text
        rows[-1]["then"] = {
            "die": "D3",
            "rows": [{"roll": "1-2", "text": draw(text)}, {"roll": "3", "text": draw(WORDS)}],
        }
    return {"type": "dice", "die": die, "rows": rows}


@st.composite
def matrix_block(draw):
    rule = draw(st.sampled_from([None, "to-wound", "to-hit-ws", "to-hit-ws-wab", "bs-to-hit"]))
    height, width = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    rows = [str(r) for r in range(1, height + 1)]
    columns = [str(c) for c in range(1, width + 1)]
    if rule:
        value = lambda r, c: rules.matrix_value(rule, 0 if rule == "bs-to-hit" else int(r), int(c))
        cells = [" ".join("N" if value(r, c) is None else str(value(r, c)) for c in columns) for r in rows]
    else:
        cells = [
            " ".join(draw(st.lists(st.sampled_from(["1", "2+", "N", "–", "½"]), min_size=width, max_size=width)))
            for _ in rows
        ]
    return {
        "type": "matrix",
        "row_keys": rows,
        "column_keys": columns,
        "cells": cells,
        "impossible": "N",
        **({"rule": rule} if rule else {}),
    }


@st.composite
def table_block(draw):
    width = draw(st.integers(1, 4))
    columns = [{"title": draw(WORDS)} for _ in range(width)]
    rows = draw(st.lists(st.lists(WORDS, min_size=width, max_size=width), min_size=1, max_size=4))
    return {"type": "table", "columns": columns, "rows": rows}


def steps(depth: int = 0, text=TEXT):
    children = st.lists(st.deferred(lambda: steps(depth + 1, text)), max_size=2) if depth < 2 else st.builds(list)
    return st.fixed_dictionaries(
        {"title": WORDS}, optional={"text": text, "items": st.lists(text, max_size=2), "steps": children}
    )


def sequence_block(text=TEXT):
    return st.fixed_dictionaries(
        {"type": st.just("sequence"), "steps": st.lists(steps(0, text), min_size=1, max_size=3)}
    )


def text_block(text=TEXT):
    return st.fixed_dictionaries(
        {
            "type": st.just("text"),
            "content": st.lists(
                st.one_of(
                    st.fixed_dictionaries({"p": WORDS}),
                    st.fixed_dictionaries({"bullets": st.lists(text, min_size=1, max_size=3)}),
                    st.fixed_dictionaries({"numbered": st.lists(text, min_size=1, max_size=3)}),
                    st.fixed_dictionaries(
                        {
                            "terms": st.lists(
                                st.fixed_dictionaries({"term": WORDS, "text": WORDS}), min_size=1, max_size=2
                            )
                        }
                    ),
                ),
                min_size=1,
                max_size=3,
            ),
        }
    )


BLOCKS = [
    dice_block(),
    matrix_block(),
    table_block(),
    sequence_block(),
    st.fixed_dictionaries(
        {
            "type": st.just("modifiers"),
            "items": st.lists(
                st.fixed_dictionaries({"value": st.sampled_from(["+1", "-1", "-2", "x2", "½", "0"]), "text": WORDS}),
                min_size=1,
                max_size=4,
            ),
        }
    ),
    text_block(),
    st.just({"type": "glossary"}),
]
# Blocks whose units are long more often than not: bullets, numbered lines, steps (their sub-steps and bullets) and
# dice results cut between their lines
LONG_BLOCKS = [
    dice_block(st.one_of(LONG, WORDS)),
    sequence_block(st.one_of(LONG, WORDS)),
    text_block(st.one_of(LONG, WORDS)),
]


@st.composite
def sheet(draw, blocks_drawn=BLOCKS):
    blocks = iter(range(1, 100))
    sections = [
        {
            "id": f"s{number}",
            "title": draw(WORDS),
            "blocks": [
                {"id": f"b{next(blocks)}", **draw(st.one_of(*blocks_drawn))} for _ in range(draw(st.integers(1, 3)))
            ],
        }
        for number in range(1, draw(st.integers(1, 2)) + 1)
    ]
    return {
        "sheet": "p",
        "game": draw(WORDS),
        "title": draw(WORDS),
        "lang": draw(st.sampled_from(["fr", "en"])),
        "edition": "1.0",
        "date": "2026-11-21",
        "paper": {"size": "A4", "orientation": "landscape", "pages": draw(st.integers(1, 2)), "columns": 3},
        "keywords": _ids("k", [{"term": draw(WORDS), "text": draw(WORDS)} for _ in range(draw(st.integers(0, 2)))]),
        "sections": sections,
    }


# --- what a mutation puts in -------------------------------------------------------------------

ODD_TEXT = [
    "**gras**",
    "*italique*",
    "{k1}",
    "{k1|Sauvages}",
    "{nope}",
    "[^1]",
    "a\\*b",
    "\\{",
    "<b>x</b>",
    "<script>alert(1)</script>",
    "url(http://example.com/x.png)",
    "@import 'x.css'",
    "file:///etc/passwd",
    "../../etc/passwd",
    "",
    " ",
    "a\nb",
    "« guillemets »",
    "½",
    "-1",
    "+1",
    "4+",
    "2D6",
    "x" * 4001,
    "\u202e\u200b",
    "😀",
    "yes",
    "No",
    "1:30",
    "0777",
    "~",
    "null",
    "true",
    "#",
    "- a",
    ": b",
    "\x07",
    "\x1b[31m",
    "\u0085",
]
SMALL_INT = st.integers(min_value=-3, max_value=70)
NUMBER = st.one_of(
    SMALL_INT, st.integers(min_value=-(10**30), max_value=10**30), st.sampled_from([0, 1, 2, 12, 13, 31])
)
DIE = st.one_of(
    st.sampled_from(["D0", "0D6", "D1", "D1000", "99D99", "1000000D1000000", "D", "6", "D66", "2D6"]),
    st.from_regex(r"[0-9]{0,3}D[0-9]{1,4}", fullmatch=True),
)
ROLL = st.one_of(
    SMALL_INT.map(str),
    st.tuples(SMALL_INT, SMALL_INT).map(lambda pair: f"{pair[0]}-{pair[1]}"),
    SMALL_INT.map(lambda low: f"{low}+"),
    st.sampled_from(["1 - 3", "3–4", "10 +", "99999999999999999999-1", "-1", ""]),
)
MATRIX_ROW = st.lists(st.one_of(SMALL_INT.map(str), st.sampled_from(["N", "-", "–", "4+", "7+"])), max_size=7).map(
    " ".join
)
SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    NUMBER,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(ODD_TEXT),
    st.text(max_size=30),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=30),
    DIE,
    ROLL,
    MATRIX_ROW,
    st.sampled_from(["+1u", "plus", "−1", "+1.5", "dice", "matrix", "table", "nope", "A5", "to-wound"]),
)
JUNK = st.recursive(
    SCALAR,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)


# --- mutations ---------------------------------------------------------------------------------


def _places(value, found):
    """Every (container, key) inside a structure, to pick one to mutate."""
    if isinstance(value, dict):
        for key in list(value):
            found.append((value, key))
            _places(value[key], found)
    elif isinstance(value, list):
        for index in range(len(value)):
            found.append((value, index))
            _places(value[index], found)
    return found


@st.composite
def mutated(draw, data, most: int):
    for _ in range(draw(st.integers(0, most))):
        places = _places(data, [])
        if not places:
            break
        container, key = draw(st.sampled_from(places))
        action = draw(st.sampled_from(["replace", "delete", "unknown", "duplicate"]))
        if action == "replace":
            container[key] = draw(JUNK)
        elif action == "delete":
            del container[key]
        elif action == "unknown" and isinstance(container[key], dict):
            container[key][draw(st.text(min_size=1, max_size=8))] = draw(SCALAR)
        elif action == "duplicate" and isinstance(container, list):
            container.insert(key, copy.deepcopy(container[key]))  # a shared object would be dumped as an anchor
    return data


TEXT_DAMAGE = [
    "\t",
    "&a ",
    "*a ",
    "!!python/object ",
    "<<: ",
    ": ",
    "- ",
    "{",
    "[",
    "]",
    '"',
    "'",
    "#",
    "\ufeff",
    "\x00",
    "\x1b",
    "%YAML 1.1\n",
    "---\n",
    "|",
    ">",
    "@",
    "`",
    "\n  ",
    "? ",
    ",",
    "\\",
]


@st.composite
def source(draw, most_mutations: int = 3, damage: bool = True, blocks=BLOCKS):
    """YAML text of a sheet, perhaps mutated as data and damaged as text."""
    data = draw(mutated(draw(sheet(blocks)), most_mutations))
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    if damage and draw(st.sampled_from([False, False, False, True])):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.one_of(st.sampled_from(TEXT_DAMAGE), st.text(max_size=4))) + text[at:]
    return text


TRANSLATIONS = st.lists(st.one_of(WORDS, WORDS, WORDS, SCALAR.map(str)), max_size=12)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def qrs(*args: str) -> tuple[int, str]:
    ran = run_qrs(*args)
    return ran.returncode, ran.stdout + ran.stderr


def run(text: str, command: str, translations: list[str] | None = None) -> tuple[int, str]:
    """Run `qrs COMMAND` on the source; with translations, first on a catalogue made for it and filled with them."""
    with tempfile.TemporaryDirectory() as folder:
        sources, build = Path(folder) / "sources", Path(folder) / "build"
        sources.mkdir()
        (sources / "p.yaml").write_bytes(text.encode("utf-8", errors="surrogatepass"))
        where = ["--sources", str(sources), "--build-dir", str(build)]
        if translations is not None:
            lang = "fr" if "\nlang: en\n" in text else "en"
            code, output = qrs(*where, "i18n", "update", "--lang", lang)
            if code != 0:
                return code, output
            catalogue = sources / "i18n" / f"p.{lang}.po"
            pending = iter(translations)
            filled = re.sub(
                r'^msgstr ""$',
                lambda found: "msgstr " + _quoted(next(pending, "Translated")),
                catalogue.read_text(encoding="utf-8"),
                flags=re.M,
            )
            catalogue.write_text(filled, encoding="utf-8")
        return qrs(*where, command)


def assert_user_outcome(code: int, output: str, text: str) -> None:
    assert code in (0, 2) and "Traceback" not in output and "internal error" not in output, (
        f"exit code {code}\n{output}\n--- source ---\n{text}"
    )


@settings(max_examples=400, **SETTINGS)
@given(text=source(), translations=st.one_of(st.none(), TRANSLATIONS))
def test_check_never_fails_with_an_internal_error(text, translations):
    code, output = run(text, "check", translations)
    assert_user_outcome(code, output, text)


@settings(max_examples=10, **SETTINGS)
@given(text=source(most_mutations=1, damage=False))
def test_build_never_fails_with_an_internal_error(text):
    code, output = run(text, "build")
    assert_user_outcome(code, output, text)


@settings(max_examples=4, **SETTINGS)
@given(text=source(most_mutations=0, damage=False, blocks=LONG_BLOCKS))
def test_a_sheet_of_long_units_cut_between_their_lines_builds_without_an_internal_error(text):
    code, output = run(text, "build")
    assert_user_outcome(code, output, text)
