"""Every variant the README shows, of the sheets and handouts of the fixture library (#31, #42): each output keeps
the sheet's own page count or takes the pages it needs and says so (exit 0), and no warning tells the author to
declare fewer pages. One test a variant and command, so that the session's workers share them.

`make test` builds a sample (#45): each variant two of the sheets and one handout with `build`, in one language,
and another handout with `qrs handout` in the other language, turn by turn, so that every sheet is built in two
variants and every handout in three or four; QRS_EVERY_VARIANT=1 builds every sheet and handout in every language in every
variant (about five times as long), as a release should."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from generator import write
from tests.conftest import LIBRARY, SHEETS, kept_folder, run_qrs

HANDOUTS = sorted(path.stem for path in (LIBRARY / "handouts").glob("*.yaml"))

VARIANTS = [("--ink-saver",), ("--marks",), ("--paper", "letter"), ("--impose", "2up"), ("--impose", "booklet")]
COMMANDS = [("build", "--all"), ("handout",)]
SAMPLED = {"--ink-saver": "fr", "--marks": "en", "--paper": "en", "--impose 2up": "fr", "--impose booklet": "en"}
OTHER = {"fr": "en", "en": "fr"}
EVERY = os.environ.get("QRS_EVERY_VARIANT") == "1"


def sampled(variant: tuple[str, ...]) -> tuple[list[str], list[str], str]:
    """The sheets and the handout `build` builds in a variant, and the handout `qrs handout` builds: the variant's
    turn in VARIANTS picks them, two sheets a turn and a handout after another."""
    turn = VARIANTS.index(variant)
    sheets = [SHEETS[(2 * turn + step) % len(SHEETS)] for step in range(2)]
    return sheets, [HANDOUTS[turn % len(HANDOUTS)]], HANDOUTS[(turn + 1) % len(HANDOUTS)]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
@pytest.mark.parametrize("variant", VARIANTS, ids=" ".join)
def test_every_variant_of_every_sheet_and_handout_builds_without_advice_it_cannot_follow(
    request, tmp_path_factory, variant, command
):
    """Its build folder kept from one session to the next (conftest.kept_folder): what the manifest finds up to date
    is not built again, and its "up_to_date" event tells the layout its build told (warnings included)."""
    folder = kept_folder(request, tmp_path_factory, "qrs-variants") / re.sub(r"\W+", "-", request.node.callspec.id)
    folder.mkdir(parents=True, exist_ok=True)
    with write.locked(folder / ".lock"):  # a session at a time
        checked(folder / "build", variant, command)


def checked(build: Path, variant: tuple[str, ...], command: tuple[str, ...]) -> None:
    language = SAMPLED.get(" ".join(variant), SAMPLED.get(variant[0]))
    lang = None if EVERY else language if command[0] == "build" else OTHER[language]
    sheets, handouts, handout = sampled(variant)
    named = [] if EVERY else [*sheets, *handouts] if command[0] == "build" else [handout]
    ran = run_qrs(
        "--json",
        "--sources",
        str(LIBRARY),
        "--build-dir",
        str(build),
        *(command if EVERY else command[:1]),
        *named,
        *variant,
        *(("--lang", lang) if lang else ()),
    )
    assert ran.returncode == 0, (variant, command, ran.stderr)
    events = [json.loads(line) for line in ran.stdout.splitlines()]
    wrote = [event for event in events if event["event"] in ("wrote", "up_to_date")]
    assert wrote and all("layout" in event for event in wrote), ran.stdout
    advice = [
        (event["path"], warning)
        for event in wrote
        for warning in event["layout"]["warnings"]
        if "declare fewer" in warning
    ]
    assert not advice, advice
    for event in wrote:  # pages beyond the sheet's own are told, with the count taken
        report = event["layout"]
        beyond = [warning for warning in report["warnings"] if " where the sheet" in warning]
        longer = len(report["pages"]) > report["kept_pages"]
        assert longer == bool(beyond) and all(warning.startswith(f"{len(report['pages'])} ") for warning in beyond), (
            event["path"],
            beyond,
        )
    if command[0] == "build":
        built = {path.name for path in build.rglob("*.pdf")}
        kind = {"--ink-saver": "ink-saver", "--marks": "marks", "--paper": "letter", "--impose": variant[-1]}[
            variant[0]
        ]
        for language in [lang] if lang else ["fr", "en"]:
            wanted = SHEETS if EVERY else sheets
            assert all(f"{name}.{kind}.{language}.pdf" in built for name in wanted), (kind, language, sorted(built))


def test_the_sample_builds_every_sheet_in_two_variants_and_every_handout_in_three_or_more():
    sheets = [sheet for variant in VARIANTS for sheet in sampled(variant)[0]]
    handouts = [name for variant in VARIANTS for name in [*sampled(variant)[1], sampled(variant)[2]]]
    assert all(sheets.count(sheet) == 2 for sheet in SHEETS), sheets
    assert all(handouts.count(handout) >= 3 for handout in HANDOUTS), handouts
