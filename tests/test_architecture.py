"""The package's stages depend one way, as the data flows (docs/contributing.md): every `import generator…`,
at the top of a module or inside a function, points to the module's own stage or an earlier one; no import cycle
between modules nor between the stage folders; no module too long to read; a README a newcomer reads in minutes."""

from __future__ import annotations

import ast

from tests.conftest import ROOT

PACKAGE = ROOT / "generator"
# The stages in the order the data flows (docs/contributing.md numbers them 0-6 so); the package's top-level
# modules are the shared ground below them all.
STAGES = ["ground", "reading", "model", "composing", "rendering", "output", "cli"]
MAX_LINES = 600


def module_name(path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def stage(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in STAGES):
        return parts[1]
    # `python -m generator` is the command line
    return {"__main__": "cli"}.get(parts[-1], "ground")


def folder(module: str) -> str:
    return ".".join(module.split(".")[:2])


def imported(module: str) -> set[str]:
    """The package's modules this one imports (a name imported from a package counts as its module if it is one)."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in MODULES else node.module
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name not in (module, "generator"):
                found.add(name)
    return found


EDGES = {(module, target) for module in MODULES for target in imported(module)}


def cycles(edges: set[tuple[str, str]]) -> list[set[str]]:
    """The groups of nodes that reach each other (strongly connected components of more than one node)."""
    nodes = {node for edge in edges for node in edge}
    reach = {node: set() for node in nodes}
    for node in nodes:
        todo = [node]
        while todo:
            for source, target in edges:
                if source == todo[-1] and target not in reach[node]:
                    reach[node].add(target)
                    todo.append(target)
                    break
            else:
                todo.pop()
    groups = {frozenset(other for other in nodes if other in reach[node] and node in reach[other]) for node in nodes}
    return [set(group) for group in groups if len(group) > 1]


def test_every_import_points_to_the_same_stage_or_an_earlier_one():
    upward = sorted(
        f"{source} -> {target}" for source, target in EDGES if STAGES.index(stage(target)) > STAGES.index(stage(source))
    )
    assert not upward, upward


def test_no_module_imports_itself_through_others():
    assert not cycles(EDGES)


def test_no_stage_folder_depends_on_another_that_depends_on_it():
    assert not cycles(
        {(folder(source), folder(target)) for source, target in EDGES if folder(source) != folder(target)}
    )


def test_a_cycle_would_be_found():
    assert cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [{"a", "b", "c"}]


def test_every_block_type_has_a_module_and_a_template():
    from generator.model.blocks import CLASSES

    for name, model in CLASSES.items():
        assert model.__module__ == f"generator.model.blocks.{name}"
        assert (ROOT / "templates" / "blocks" / f"{name}.html.j2").is_file()


def test_no_module_is_too_long_to_read():
    long = {
        name: lines
        for name, path in MODULES.items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long


def test_the_readme_is_read_in_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) < 200


def test_the_contributors_guide_numbers_the_same_stages_in_the_same_order():
    import re

    guide = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d) \| [^|]+ \| ([^|]+) \|", guide, re.M)
    folders = {"ground": "`generator/errors.py`", "output": "`generator/output/`"}
    assert [int(number) for number, _ in rows] == list(range(len(STAGES)))
    for (_, where), name in zip(rows, STAGES):
        assert folders.get(name, f"`generator/{name}/`") in where, (name, where)
