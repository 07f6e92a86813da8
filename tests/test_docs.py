"""The docs name only commands and options that exist: every `qrs …` in README.md and docs/*.md, in code
blocks or inline code, is a command of the CLI (its --help works) with options it has."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from generator.cli.main import GLOBAL_FLAGS, GLOBAL_WITH_VALUE, cli, global_options_first
from tests.conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`([^`\n]*\bqrs\b[^`\n]*)`")
SHELL_OPERATORS = {"|", ">", ">>", ";", "&&", "||"}  # a shell line goes on after qrs's arguments


def commands_in(text: str) -> list[list[str]]:
    """The arguments after `qrs` (or `python -m generator`) in each command line of the text."""
    lines = [
        line
        for language, block in FENCE.findall(text)
        for line in block.splitlines()
        if language.strip() != "console" or line.startswith("$ ")
    ]  # a console block's other lines are output
    lines += INLINE.findall(text)
    found = []
    for line in lines:
        try:
            words = shlex.split(line.removeprefix("$ "), comments=True)
        except ValueError:
            continue
        for index, word in enumerate(words):
            if word == "qrs" or word.endswith("/qrs"):
                after = words[index + 1 :]
                ends = [at for at, other in enumerate(after) if other in SHELL_OPERATORS]
                found.append(after[: ends[0]] if ends else after)
            elif word == "generator" and words[index - 1 : index] == ["-m"]:
                found.append(words[index + 1 :])
    return found


def resolve(arguments: list[str]) -> tuple[list[str], list[str]]:
    """(the command path, e.g. ["i18n", "update"]; the options given to it)."""
    words = global_options_first(list(arguments))
    while words and (words[0] in GLOBAL_FLAGS or words[0] in GLOBAL_WITH_VALUE):
        words = words[2:] if words[0] in GLOBAL_WITH_VALUE else words[1:]
    path, group = [], cli
    while words and hasattr(group, "commands") and words[0] in group.commands:
        group = group.commands[words[0]]
        path.append(words.pop(0))
    return path, [word.split("=")[0] for word in words if word.startswith("-")]


MENTIONS = sorted(
    {
        (doc.name, shlex.join(args))
        for doc in DOCS
        for args in commands_in(doc.read_text(encoding="utf-8"))
        if args and args[0] not in ("...", "…")
    }
)


def test_the_docs_mention_the_author_tools():
    mentioned = {resolve(shlex.split(line))[0][0] for _, line in MENTIONS if resolve(shlex.split(line))[0]}
    assert {"new", "preview", "watch", "schema", "i18n", "build", "check"} <= mentioned


@pytest.mark.parametrize("doc, line", MENTIONS)
def test_each_command_in_the_docs_exists_with_its_options(doc, line):
    path, options = resolve(shlex.split(line))
    assert path or options, f"{doc}: 'qrs {line}' names no command of the CLI"  # `qrs --version`: options alone
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    unknown = [option for option in options if option not in result.output]
    assert not unknown, f"{doc}: 'qrs {line}': {' '.join(path)} has no option {unknown}"


def test_the_publishing_workflow_builds_every_part_once():
    """docs/ci/publish.yml: a runner per shard, the shards 1/N … N/N, and options the build command has."""
    import yaml

    workflow = yaml.safe_load((ROOT / "docs" / "ci" / "publish.yml").read_text(encoding="utf-8"))
    build = workflow["jobs"]["build"]
    shards = build["strategy"]["matrix"]["shard"]
    [command] = [step["run"] for step in build["steps"] if "qrs build" in step.get("run", "")]
    assert re.search(rf"--shard \$\{{\{{ matrix.shard \}}\}}/{len(shards)}\b", command), command
    assert shards == list(range(1, len(shards) + 1))
    path, options = resolve(shlex.split(command.split("qrs", 1)[1].replace("${{ matrix.shard }}", "1")))
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert path == ["build"] and all(option in result.output for option in options), options
