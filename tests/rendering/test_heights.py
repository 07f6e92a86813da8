"""Measured heights kept between builds (generator.rendering.heights): reused when nothing that decides them changed,
measured again only for the blocks that did, and never trusted when the file is damaged or foreign."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.errors import UserError
from generator.output import pipeline
from generator.project import Project
from generator.rendering import heights, layout, measure, render
from generator.rendering.measure import Cuts, Measured
from tests.conftest import FIXTURES


def fixture_project(folder: Path) -> Project:
    sources = folder / "sources"
    sources.mkdir(parents=True)
    shutil.copy(FIXTURES / "every-block.yaml", sources)
    return Project.at(sources, folder / "build")


@pytest.fixture
def project(tmp_path, own_heights):
    return fixture_project(tmp_path)


def spied(monkeypatch) -> list[list[str]]:
    """The ids of the blocks each layout measured (laid out in a measuring pass), one list a layout, from now on."""
    calls: list[list[str]] = []
    original = measure.measure

    def spy(document, ids):
        calls.append(list(ids))
        return original(document, ids)

    monkeypatch.setattr(measure, "measure", spy)
    return calls


@pytest.fixture
def measured_ids(monkeypatch):
    return spied(monkeypatch)


@dataclass(frozen=True)
class FirstLayout:
    report: dict  # the layout's report
    cache: Path  # the heights folder it wrote
    passes: int  # the measuring passes it took


@pytest.fixture(scope="module")
def first_layout(tmp_path_factory) -> FirstLayout:
    """every-block.yaml laid out once, cold, in a build folder keeping its own heights: the tests of a damaged cache
    start from a copy of what it wrote (a cold layout each is what made this file slow), and compare with its report
    and its count of measuring passes."""
    project = fixture_project(tmp_path_factory.mktemp("first"))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv("QRS_CACHE_DIR", raising=False)
        calls = spied(monkeypatch)
        report = lay_out(project).report()
    assert calls, "the first layout measured nothing: the tests comparing with it would compare with nothing"
    return FirstLayout(report, project.build / ".cache", len(calls))


def lay_out(project: Project) -> render.Laid:
    return render.layout(project, pipeline.check(project.sources / "every-block.yaml"), pipeline.BuildOptions())


def test_a_second_build_measures_nothing_and_plans_the_same(project, measured_ids, monkeypatch):
    first = lay_out(project)
    passes = len(measured_ids)  # one a type scale tried
    assert passes >= 1 and all("to-wound" in ids and "errata" in ids for ids in measured_ids)
    packed, pack = [], layout.pack
    monkeypatch.setattr(layout, "pack", lambda *args: packed.append(args) or pack(*args))
    cache_file = next((project.build / ".cache").glob("*.json"))
    written = (cache_file.stat().st_ino, cache_file.stat().st_mtime_ns)  # a new file each time it is written
    second = lay_out(project)
    assert len(measured_ids) == passes
    assert len(packed) == 1  # the scale decided before, alone
    assert second.report() == first.report()
    assert (cache_file.stat().st_ino, cache_file.stat().st_mtime_ns) == written  # nothing learned, nothing written


def test_a_damaged_scale_decision_is_ignored(project, first_layout):
    honest, cache_file = honest_cache(project, first_layout)
    data = json.loads(cache_file.read_text())
    assert len(data["decisions"]) == 1
    data["decisions"] = {key: "0.5" for key in data["decisions"]}
    cache_file.write_text(json.dumps(data))
    assert lay_out(project).report() == honest


def test_an_edited_block_is_the_only_one_measured_again(project, first_layout, measured_ids):
    honest_cache(project, first_layout)
    source = project.sources / "every-block.yaml"
    text = source.read_text(encoding="utf-8")
    assert "Touche de Force 6." in text
    source.write_text(text.replace("Touche de Force 6.", "Touche de Force 7."), encoding="utf-8")
    lay_out(project)
    edited = [block.id for block in pipeline.check(source).blocks() if "Touche de Force 7." in block.model_dump_json()]
    assert len(edited) == 1 and measured_ids and all(ids == edited for ids in measured_ids)


def copied(project: Project, name: str) -> Path:
    """every-block.yaml again, as sheet `name`: the same blocks under another id."""
    text = (project.sources / "every-block.yaml").read_text(encoding="utf-8")
    copy = project.sources / f"{name}.yaml"
    copy.write_text(text.replace("sheet: every-block\n", f"sheet: {name}\n", 1), encoding="utf-8")
    return copy


def test_a_sheet_under_another_id_measures_nothing_another_sheet_measured_and_prints_the_same(
    project, first_layout, measured_ids
):
    """A key is the block's: a sheet copied, renamed, or a handout drawing blocks from its sheet reads what the
    folder's other files hold, keeps it in its own file, and prints what it would have measured itself."""
    honest_cache(project, first_layout)
    copy = copied(project, "copy")
    options = pipeline.BuildOptions()
    after = pipeline.build(project, pipeline.SheetTarget(copy), "fr", "pdf", options).path.read_bytes()
    assert not measured_ids
    assert (project.build / ".cache" / "copy.fr.json").is_file()
    alone = Project.at(project.sources, project.build.parent / "alone")
    assert pipeline.build(alone, pipeline.SheetTarget(copy), "fr", "pdf", options).path.read_bytes() == after
    assert measured_ids  # measured: nothing to read in that folder


def test_another_sheets_file_holding_a_measurement_qrs_never_writes_is_not_read(project, first_layout, measured_ids):
    _, original = honest_cache(project, first_layout)
    data = json.loads(original.read_text())
    data["entries"][next(iter(data["entries"]))] = {"height": "slow"}
    original.write_text(json.dumps(data))
    copy = copied(project, "copy")
    pipeline.build(project, pipeline.SheetTarget(copy), "fr", "pdf", pipeline.BuildOptions())
    assert len(measured_ids) == first_layout.passes  # every block of the copy measured: none read from that file


@pytest.mark.parametrize(
    "damage",
    [
        "not json at all {",
        json.dumps(["a", "list"]),
        json.dumps({"format": 999, "entries": {}}),
        "ENTRIES",  # every entry replaced by one of the wrong shape
    ],
)
def test_a_damaged_or_foreign_cache_is_ignored_and_rewritten(project, first_layout, measured_ids, damage):
    honest, cache_file = honest_cache(project, first_layout)
    if damage == "ENTRIES":
        entries = json.loads(cache_file.read_text())["entries"]
        damage = json.dumps({"format": heights.FORMAT, "entries": {key: {"height": "slow"} for key in entries}})
    cache_file.write_text(damage)
    assert lay_out(project).report() == honest
    assert len(measured_ids) == first_layout.passes  # measured again, not read from the damaged file
    assert json.loads(cache_file.read_text())["format"] == heights.FORMAT


@pytest.mark.parametrize(
    "entry",
    [
        {"height": 1.0},
        {
            "height": True,
            "units": [],
            "head": 0,
            "tail": 0,
            "cont_head": 0,
            "cont_tail": 0,
            "heading": 0,
            "widths": None,
        },
        {"height": -1, "units": [], "head": 0, "tail": 0, "cont_head": 0, "cont_tail": 0, "heading": 0, "widths": None},
        {
            "height": float("nan"),
            "units": [],
            "head": 0,
            "tail": 0,
            "cont_head": 0,
            "cont_tail": 0,
            "heading": 0,
            "widths": None,
        },
        {
            "height": 1,
            "units": ["2"],
            "head": 0,
            "tail": 0,
            "cont_head": 0,
            "cont_tail": 0,
            "heading": 0,
            "widths": None,
        },
        {"height": 1, "units": [], "head": 0, "tail": 0, "cont_head": 0, "cont_tail": 0, "heading": 0, "widths": 3},
        {
            "height": 1,
            "units": [],
            "head": 0,
            "tail": 0,
            "cont_head": 0,
            "cont_tail": 0,
            "heading": 0,
            "widths": None,
            "x": 1,
        },
        "a string",
    ],
)
def test_a_measurement_of_the_wrong_shape_is_refused(entry):
    assert Measured.from_json(entry) is None


def test_a_measurement_survives_its_round_trip():
    value = Measured(
        height=12.5,
        units=(4.0, 4.5),
        head=3.0,
        tail=1.0,
        cont_head=2.0,
        cont_tail=0.5,
        heading=4.0,
        widths=(100.0, 241.0),
        cuts=(Cuts(unit=1, cell=1, top=0.4, bottom=0.5, lines=((1.5, 40),)),),
    )
    assert Measured.from_json(json.loads(json.dumps(value.to_json()))) == value


@pytest.mark.parametrize(
    "cut",
    [
        {"unit": 2, "cell": 1, "top": 0.4, "bottom": 0.5, "lines": [[1.5, 40]]},  # no such row
        {"unit": 1, "cell": -1, "top": 0.4, "bottom": 0.5, "lines": [[1.5, 40]]},
        {"unit": 1, "cell": 1, "top": 0.4, "bottom": 0.5, "lines": [[1.5, 4.5]]},
        {"unit": 1, "cell": 1, "top": 0.4, "bottom": 0.5, "lines": [[1.5]]},
        {"unit": 1, "cell": 1, "top": 0.4, "lines": [[1.5, 40]]},
    ],
)
def test_a_measurement_whose_cuts_are_of_the_wrong_shape_is_refused(cut):
    value = Measured(height=12.5, units=(4.0, 4.5), head=3.0, tail=1.0).to_json()
    assert Measured.from_json({**value, "cuts": [cut]}) is None


def _measured(height: float) -> Measured:
    return Measured(height=height, units=(), head=0.0, tail=0.0, cont_head=0.0, cont_tail=0.0, heading=0.0, widths=None)


def test_two_builds_saving_one_file_keep_each_others_heights(tmp_path):
    """A folder shared by several processes (QRS_CACHE_DIR: a test session's workers, CI runners): each read the
    file before the other saved; neither save loses what the other measured, nor the scale it chose."""
    path = tmp_path / "not-yet" / "wab2.fr.json"  # the first save makes the folder
    first, second = heights.Cache(path), heights.Cache(path)
    first.put(heights.key("a"), _measured(1.0))
    first.decide(heights.key("plan-a"), 0.9)
    second.put(heights.key("b"), _measured(2.0))
    second.decide(heights.key("plan-b"), 1.0)
    first.save()
    second.save()
    again = heights.Cache(path)
    assert (again.get(heights.key("a")), again.get(heights.key("b"))) == (_measured(1.0), _measured(2.0))
    assert again.decisions == {heights.key("plan-a"): 0.9, heights.key("plan-b"): 1.0}


def test_the_oldest_heights_go_first_beyond_what_a_file_keeps(tmp_path, monkeypatch):
    monkeypatch.setattr(heights, "KEPT_AT_LEAST", 2)
    path = tmp_path / "wab2.fr.json"
    for name in ("oldest", "older", "old", "new"):  # one build a measurement, each using only its own
        cache = heights.Cache(path)
        cache.put(heights.key(name), _measured(1.0))
        cache.save()
    kept = heights.Cache(path).known
    assert list(kept) == [
        heights.key(name) for name in ("new", "old", "older")
    ]  # what the last build used, then the newest of the others


def test_the_key_changes_with_what_decides_a_height():
    assert heights.key("style", "<p>a</p>") == heights.key("style", "<p>a</p>")
    assert heights.key("style", "<p>a</p>") != heights.key("style", "<p>b</p>")
    assert heights.key("style", "<p>a</p>") != heights.key("other style", "<p>a</p>")


def test_the_key_changes_with_the_renderers_own_source(tmp_path):
    """A tree being worked on keeps its version number: a change to a module of the renderer is a change to the
    key; a change elsewhere (the command line) reaches no measurement, and keeps it."""
    package = tmp_path / "generator"
    shutil.copytree(heights.PACKAGE_ROOT, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = heights._own_source(package)
    assert before == heights._own_source(heights.PACKAGE_ROOT)
    command_line = package / "cli" / "main.py"
    command_line.write_text(command_line.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert heights._own_source(package) == before
    measuring = package / "rendering" / "measure.py"
    measuring.write_text(measuring.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert heights._own_source(package) != before
    assert heights._own_source(heights.PACKAGE_ROOT) in heights._versions()


def test_a_cache_that_is_not_a_regular_file_is_ignored(project, first_layout):
    import os

    honest, cache_file = honest_cache(project, first_layout)
    cache_file.unlink()
    os.mkfifo(cache_file)  # reading it as a file would wait for a writer forever
    assert lay_out(project).report() == honest


def test_a_link_where_the_cache_goes_stops_the_build_and_nothing_is_written_through_it(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    cache = project.build / ".cache"
    cache.mkdir(parents=True)
    (cache / "every-block.fr.json").symlink_to(outside / "heights.json")
    with pytest.raises(UserError) as caught:
        pipeline.build(project, pipeline.SheetTarget(project.sources / "every-block.yaml"), "fr", "pdf")
    assert "symbolic link" in caught.value.problems[0].message
    assert list(outside.iterdir()) == []


# --- a cache is input: confined, checked, and never the cause of an error (issue #35, points 4, 9 and 17) ---------


def honest_cache(project, first: FirstLayout) -> tuple[dict, Path]:
    """The first layout's report, and the heights file it wrote, copied into this project's build folder."""
    shutil.copytree(first.cache, project.build / ".cache")
    return first.report, next((project.build / ".cache").glob("*.json"))


def test_a_cache_file_that_is_a_link_to_a_file_elsewhere_is_not_read(project, first_layout, measured_ids, tmp_path):
    honest, cache_file = honest_cache(project, first_layout)
    outside = tmp_path / "outside.json"
    cache_file.rename(outside)
    cache_file.symlink_to(outside)
    with pytest.raises(UserError, match="symbolic link"):  # what was measured again is not written through it
        lay_out(project)
    assert measured_ids  # measured again, not read through the link
    assert json.loads(outside.read_text())["format"] == heights.FORMAT


def test_a_cache_file_hard_linked_to_a_file_elsewhere_is_not_read(project, first_layout, measured_ids, tmp_path):
    import os

    honest, cache_file = honest_cache(project, first_layout)
    outside = tmp_path / "outside.json"
    os.link(cache_file, outside)
    assert lay_out(project).report() == honest
    assert measured_ids
    assert os.stat(outside).st_nlink == 1  # the cache file written anew, not through the other name


def test_a_cache_folder_linked_outside_the_build_folder_is_neither_read_nor_written(
    project, first_layout, measured_ids, tmp_path
):
    honest, cache_file = honest_cache(project, first_layout)
    outside = tmp_path / "elsewhere"
    (project.build / ".cache").rename(outside)
    (project.build / ".cache").symlink_to(outside)
    before = sorted(path.name for path in outside.iterdir())
    with pytest.raises(UserError, match="symbolic link"):
        lay_out(project)
    assert measured_ids
    assert sorted(path.name for path in outside.iterdir()) == before


def tampered(cache_file, change) -> None:
    data = json.loads(cache_file.read_text())
    change(data)
    cache_file.write_text(json.dumps(data))


@pytest.mark.parametrize("damage", ["nested", "huge width", "many widths", "many entries"])
def test_a_cache_of_a_shape_or_range_qrs_never_writes_is_ignored_whole(project, first_layout, measured_ids, damage):
    honest, cache_file = honest_cache(project, first_layout)
    if damage == "nested":
        cache_file.write_text("[" * 100_000 + "]" * 100_000)
    elif damage == "huge width":
        tampered(
            cache_file,
            lambda data: [
                entry.update(widths=[1e308] * len(entry["widths"]))
                for entry in data["entries"].values()
                if entry["widths"]
            ],
        )
    elif damage == "many widths":
        tampered(cache_file, lambda data: [entry.update(widths=[1.0] * 100_000) for entry in data["entries"].values()])
    else:
        tampered(
            cache_file,
            lambda data: data["entries"].update(
                {f"{number:064x}": next(iter(data["entries"].values())) for number in range(100_000)}
            ),
        )
    assert lay_out(project).report() == honest
    assert len(measured_ids) == first_layout.passes  # every block measured again: nothing of the file was trusted


def test_a_measurement_whose_parts_do_not_add_up_is_refused():
    assert Measured.from_json(dict(_measured(10.0).to_json(), units=[2.0, 2.0], head=1.0, tail=1.0)) is None
    assert Measured.from_json(dict(_measured(6.0).to_json(), units=[2.0, 2.0], head=1.0, tail=1.0)) is not None


def test_a_tampered_cache_never_fails_the_build(project, first_layout, measured_ids):
    """Heights of the right shape, but not those measured (every one a third as tall), and a scale decision of 90 %
    where 100 % fits: the layout they plan does not hold on the page, so it is planned again from heights measured
    now; the build neither fails nor blames the source."""
    honest, cache_file = honest_cache(project, first_layout)

    def shrink(data):
        for entry in data["entries"].values():
            for name, value in entry.items():
                if name in ("units", "repeats", "closes"):
                    entry[name] = [unit / 3 for unit in value]
                elif name not in ("widths", "cuts"):
                    entry[name] = value / 3

    tampered(cache_file, shrink)
    output = pipeline.build(project, pipeline.SheetTarget(project.sources / "every-block.yaml"), "fr", "pdf").path
    assert output.exists()
    assert lay_out(project).report() == honest
