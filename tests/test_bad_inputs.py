"""Every bad input through the command line, as a user meets it.

Each fixture of tests/bad_inputs/ (a file) and of tests/bad_inputs/build/ (a folder of sources: a sheet, its
catalogues, a handout) is copied into a temporary sources folder and run with `qrs --sources … --build-dir …`.
Each must give: exit code 2; one `file:line:column: message` line per problem, exactly those its `# expect:`
lines name; no traceback; nothing written; and the PDF a previous build left at that output byte for byte intact.

Directives, in comment lines of any .yaml of a fixture:

    # expect: LINE:COLUMN: message          a problem in this file (the message is a substring)
    # expect: PATH:LINE:COLUMN: message     a problem in another file of the fixture (i18n/x.en.po)
    # run: build --lang en                  the command (default: build)
    # output: handouts/x.fr.pdf             an output the command would write (default: <sheet>.<lang>.pdf)
    # xfail: why                            a known defect: the test must fail until it is fixed
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from generator.cli.main import main

BAD_INPUTS = Path(__file__).resolve().parent / "bad_inputs"
BUILD_FIXTURES = BAD_INPUTS / "build"
ROOT = BAD_INPUTS.parent.parent

_DIRECTIVE = re.compile(r"^# (expect|run|output|xfail): (.+?)\s*$", re.M)
_EXPECT = re.compile(r"^(?:(?P<file>[^\s:]*[^\d\s:][^\s:]*):)?(?P<line>\d+):(?P<column>\d+): (?P<message>.+)$")
_SUMMARY = re.compile(r"^\d+ problem\(s\) found$")


@dataclass
class Case:
    name: str
    root: Path  # copied as the sources folder (a fixture folder), or holding the one fixture file
    files: list[Path]  # relative to root
    run: list[str] = field(default_factory=lambda: ["build"])
    expected: list[tuple[str, int, int, str]] = field(default_factory=list)  # (file, line, column, message)
    outputs: list[str] = field(default_factory=list)
    xfail: str | None = None


def _case(name: str, root: Path, files: list[Path]) -> Case:
    case = Case(name, root, files)
    canonical = "fr"
    for relative in (f for f in files if f.suffix == ".yaml"):
        text = (root / relative).read_text(encoding="utf-8", errors="replace")
        declared = re.search(r"^lang: ([a-z]{2})$", text, re.M)
        if declared and relative.parent == Path("."):  # the sheet's own language (not a handout's)
            canonical = declared.group(1)
        for kind, value in _DIRECTIVE.findall(text):
            if kind == "expect":
                found = _EXPECT.match(value)
                assert found, f"{relative}: unreadable expectation {value!r}"
                case.expected.append(
                    (found["file"] or str(relative), int(found["line"]), int(found["column"]), found["message"])
                )
            elif kind == "run":
                case.run = value.split()
            elif kind == "output":
                case.outputs.append(value)
            else:
                case.xfail = value
    if not case.outputs:  # the sheet's PDF in each language the command builds
        sheet = next(f.stem for f in files if f.suffix == ".yaml" and f.parent == Path("."))
        languages = [case.run[i + 1] for i, arg in enumerate(case.run) if arg == "--lang"] or [canonical]
        case.outputs = [f"{sheet}.{lang}.pdf" for lang in languages]
    return case


def cases() -> list:
    found = [_case(path.stem, BAD_INPUTS, [Path(path.name)]) for path in sorted(BAD_INPUTS.glob("*.yaml"))]
    for folder in sorted(path for path in BUILD_FIXTURES.iterdir() if path.is_dir()):
        files = sorted(path.relative_to(folder) for path in folder.rglob("*") if path.is_file())
        found.append(_case(f"build/{folder.name}", folder, files))
    return [
        pytest.param(
            case, id=case.name, marks=[pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
        )
        for case in found
    ]


@pytest.mark.parametrize("case", cases())
def test_bad_input_exits_2_names_each_problem_and_keeps_the_previous_pdf(case, tmp_path, capsys):
    assert case.expected, f"{case.name} declares no '# expect:' line"
    sources, build = tmp_path / "sources", tmp_path / "build"
    for relative in case.files:
        (sources / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(case.root / relative, sources / relative)
    previous = {}
    for relative in case.outputs:  # what an earlier, good build left
        output = build / relative
        output.parent.mkdir(parents=True, exist_ok=True)
        previous[output] = b"%PDF-1.7\n% the previous good build of " + relative.encode() + b"\n%%EOF\n"
        output.write_bytes(previous[output])

    try:
        main(["--sources", str(sources), "--build-dir", str(build), *case.run])
        code = 0
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()

    assert code == 2, f"exit code {code}\n{out}{err}"
    assert "Traceback" not in out + err and "internal error" not in err, err
    assert str(tmp_path) not in out + err, "a path printed whole, not relative to the library:\n" + out + err
    reported = [line for line in err.splitlines() if line and not _SUMMARY.match(line)]
    for file, line, column, message in case.expected:
        where = f"{Path(sources.name) / file}:{line}:{column}: "  # relative to the library
        assert any(r.startswith(where) and message in r[len(where) :] for r in reported), (
            f"expected {file}:{line}:{column}: {message!r}, got:\n" + "\n".join(reported)
        )
    assert len(reported) == len(case.expected), "unexpected extra problems:\n" + "\n".join(reported)
    # build/.cache keeps measured heights, failed build or not (the next attempt reuses them); it is no output.
    written = sorted(
        path for path in build.rglob("*") if path.is_file() and ".cache" not in path.relative_to(build).parts
    )
    assert written == sorted(previous), f"written: {written}"
    for output, content in previous.items():
        assert output.read_bytes() == content, f"{output.name} was overwritten"


def test_the_catalogue_covers_the_issue():
    """At least 45 fixtures in all, among them each kind of bad input issue 9 lists."""
    names = {param.id for param in cases()}
    assert len(names) >= 45
    wanted = [
        "yaml-",
        "tab-",
        "bom",
        "not-utf8",
        "duplicate-key",
        "implicit-boolean",
        "implicit-octal",
        "implicit-sexagesimal",
        "anchor",
        "alias",
        "alias-bomb",
        "unknown-field",
        "missing-field",
        "wrong-type-",
        "table-ragged-row",
        "table-empty",
        "dice-gap",
        "dice-overlap",
        "dice-impossible-result",
        "dice-malformed-range",
        "matrix-incomplete",
        "modifier-not-signed",
        "unknown-keyword",
        "unknown-footnote",
        "unknown-see-block",
        "build/handout-unknown-section",
        "circular-keyword",
        "build/translation-missing",
        "build/translation-stale",
        "unknown-language",
        "build/unknown-language-catalogue",
        "raw-html",
        "script-in-",
        "style-url-",
        "style-import-",
        "file-url-",
        "http-url-",
        "path-traversal-",
        "table-10000-rows",
        "cell-1mb",
        "build/page-overflow",
    ]
    assert [w for w in wanted if not any(name.startswith(w) for name in names)] == []


# --- limits -----------------------------------------------------------------------------------------


def _bound(model, name: str, attribute: str) -> int:
    """A limit as the model declares it (max_length or le in the field's constraints)."""
    found = [
        getattr(item, attribute)
        for item in model.model_fields[name].metadata
        if getattr(item, attribute, None) is not None
    ]
    assert len(found) == 1, (model, name, attribute)
    return found[0]


def test_the_documented_limits_are_the_enforced_ones():
    from typing import get_args

    from generator.model import types as model
    from generator.model import validate
    from generator.reading import sources as load

    def annotated_bound(annotated, attribute: str) -> int:  # a limit an Annotated type carries (Id, Columns)
        constraints = [item for arg in get_args(annotated)[1:] for item in [arg, *getattr(arg, "metadata", [])]]
        return next(getattr(item, attribute) for item in constraints if getattr(item, attribute, None))

    id_length = annotated_bound(model.Id, "max_length")
    limits = {
        "size of a source file": f"{load.MAX_SOURCE_BYTES} bytes ({load.MAX_SOURCE_BYTES // 2**20} MiB)",
        "lists and mappings nested in one another": f"{load.MAX_NESTING}",
        "characters in one text (a title, a paragraph, a cell)": f"{model.MAX_TEXT}",
        "rows of a table, a dice table or a list (steps, items, paragraphs, units)": f"{model.MAX_ROWS}",
        "items of all the lists of a source together": f"{load.MAX_SOURCE_ITEMS}",
        "columns of a table, cells in a row": f"{annotated_bound(model.Columns, 'max_length')}",
        "columns one cell spans": f"{_bound(model.Cell, 'span', 'le')}",
        "row keys × column keys of a matrix": (
            f"{_bound(model.MatrixBlock, 'row_keys', 'max_length')} × "
            f"{_bound(model.MatrixBlock, 'column_keys', 'max_length')}"
        ),
        "different results of a dice table's die": f"{validate.MAX_DIE_RESULTS}",
        "pages a sheet may take (`paper.pages`, the most an author may declare)": f"{_bound(model.Paper, 'pages', 'le')}",
        "columns of a page (`paper.columns`)": f"{_bound(model.Paper, 'columns', 'le')}",
        "characters in an id": f"{id_length}",
    }
    assert _bound(model.Row, "cells", "max_length") == annotated_bound(model.Columns, "max_length")
    for block, name in [
        (model.TableBlock, "rows"),
        (model.DiceBlock, "rows"),
        (model.ModifiersBlock, "items"),
        (model.SequenceBlock, "steps"),
        (model.TextBlock, "content"),
    ]:
        assert _bound(block, name, "max_length") == model.MAX_ROWS, (block, name)
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = doc.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    for limit, value in limits.items():
        assert f"| {limit} | {value} |" in section, f"docs/authoring.md, Limits: expected '| {limit} | {value} |'"
    assert f"{model.EARLIEST_DATE.isoformat()} or later" in section


def test_a_source_over_the_size_limit_is_refused_before_it_is_read(tmp_path, capsys):
    from generator.reading.sources import MAX_SOURCE_BYTES

    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "big.yaml").write_bytes(b"# " + b"x" * MAX_SOURCE_BYTES + b"\n")
    with pytest.raises(SystemExit) as exit:
        main(["--sources", str(sources), "--build-dir", str(tmp_path / "build"), "check"])
    err = capsys.readouterr().err
    assert (
        exit.value.code == 2
        and f"big.yaml:1:1: the file is {MAX_SOURCE_BYTES + 3} bytes; a source may be at most {MAX_SOURCE_BYTES} bytes"
        in err
    )


def test_an_internal_error_is_a_short_report_and_exit_code_1(tmp_path, capsys, monkeypatch):
    from generator.composing import languages as translations

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(translations, "translation_problems", broken)
    with pytest.raises(SystemExit) as exit:
        main(["--sources", str(ROOT / "tests" / "fixtures"), "--build-dir", str(tmp_path), "check"])
    err = capsys.readouterr().err
    assert exit.value.code == 1
    assert "internal error: ZeroDivisionError: a bug" in err and "Traceback" not in err and len(err.splitlines()) <= 3
