"""Every variant the README shows, of every sheet and handout of the fixture library (#31, #42): each output keeps
the sheet's own page count or takes the pages it needs and says so (exit 0), and no warning tells the author to
declare fewer pages. One test a variant and command, so that the session's workers share them.

`make test` builds the sheets in one language a variant (every sheet in every variant, every language in some);
`build --all` builds the handouts in that language and `qrs handout` in the other, so that each handout is built
once in each language in each variant; QRS_EVERY_VARIANT=1 builds every sheet in every language in every variant (about twice as long)."""

from __future__ import annotations

import json
import os

import pytest

from tests.conftest import LIBRARY, SHEETS, run_qrs

VARIANTS = [("--ink-saver",), ("--marks",), ("--paper", "letter"), ("--impose", "2up"), ("--impose", "booklet")]
COMMANDS = [("build", "--all"), ("handout",)]
SAMPLED = {"--ink-saver": "fr", "--marks": "en", "--paper": "en", "--impose 2up": "fr", "--impose booklet": "en"}
OTHER = {"fr": "en", "en": "fr"}
EVERY = os.environ.get("QRS_EVERY_VARIANT") == "1"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
@pytest.mark.parametrize("variant", VARIANTS, ids=" ".join)
def test_every_variant_of_every_sheet_and_handout_builds_without_advice_it_cannot_follow(tmp_path, variant, command):
    build = tmp_path / "build"
    sampled = SAMPLED.get(" ".join(variant), SAMPLED.get(variant[0]))
    lang = None if EVERY else sampled if command[0] == "build" else OTHER[sampled]
    ran = run_qrs(
        "--json",
        "--sources",
        str(LIBRARY),
        "--build-dir",
        str(build),
        *command,
        *variant,
        *(("--lang", lang) if lang else ()),
    )
    assert ran.returncode == 0, (variant, command, ran.stderr)
    events = [json.loads(line) for line in ran.stdout.splitlines()]
    wrote = [event for event in events if event["event"] == "wrote"]
    assert wrote, ran.stdout
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
            assert all(f"{name}.{kind}.{language}.pdf" in built for name in SHEETS), (kind, language, sorted(built))
