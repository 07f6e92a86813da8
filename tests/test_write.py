"""The one writer (generator.write): files appear whole, and nothing is written through a link out of its folder.

Each command that writes is run against a link planted where it writes (a cloned repository may hold one): dangling,
to an existing file outside, to an empty file outside. The outside must stay as it was (same bytes, or still absent)
and the command must say which link it refused, with exit code 2 and no traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator import write
from generator.cli.main import main
from generator.errors import UserError
from generator.output.manifest import Manifest
from tests.conftest import FIXTURES, LIBRARY, ROOT, Ran, run_qrs

OUTSIDE_CONTENT = {"dangling": None, "existing": b"the outside file's own bytes\n", "empty": b""}


@dataclass(frozen=True)
class Outside:
    """A file outside the project, and what it holds (None: absent, as a dangling link's target)."""

    path: Path
    content: bytes | None


@pytest.fixture(params=sorted(OUTSIDE_CONTENT))
def outside(request, tmp_path) -> Outside:
    found = Outside(tmp_path / "outside" / "target.txt", OUTSIDE_CONTENT[request.param])
    found.path.parent.mkdir()
    if found.content is not None:
        found.path.write_bytes(found.content)
    return found


def assert_untouched(outside: Outside) -> None:
    if outside.content is None:
        assert not outside.path.exists(), f"{outside.path} was created through the link"
    else:
        assert outside.path.read_bytes() == outside.content, f"{outside.path} was written through the link"
    left = sorted(path.name for path in outside.path.parent.iterdir())
    assert left == ([] if outside.content is None else [outside.path.name]), left


def plant(link: Path, outside: Outside) -> Path:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside.path)
    return link


def qrs(tmp_path: Path, *args: str) -> Ran:
    return run_qrs("--sources", str(tmp_path / "sources"), "--build-dir", str(tmp_path / "build"), *args)


def printed(path: Path) -> Path:
    """A path as qrs prints it: relative to the library, the folder holding sources/."""
    library = next((parent for parent in path.parents if (parent / "sources").is_dir()), None)
    return path.relative_to(library) if library else path  # outside any library: whole


def assert_refused(result: subprocess.CompletedProcess, link: Path, why: str = "this is a symbolic link") -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{printed(link)}:1:1: {why}" in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_i18n_update_writes_no_catalogue_through_a_link(tmp_path, outside):
    (tmp_path / "sources").mkdir()
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "sources")
    link = plant(tmp_path / "sources" / "i18n" / "every-block.en.po", outside)
    assert_refused(qrs(tmp_path, "i18n", "update", "every-block", "--lang", "en"), link)
    assert_untouched(outside)
    assert link.is_symlink()


def test_schema_writes_no_schema_through_a_link(tmp_path, outside):
    link = plant(tmp_path / "schema" / "sheet.schema.json", outside)
    result = subprocess.run(
        [sys.executable, "-m", "generator", "schema", "--out", str(tmp_path / "schema")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert_refused(result, link)
    assert_untouched(outside)


def test_new_writes_no_scaffold_through_a_link(tmp_path, outside):
    link = plant(tmp_path / "sources" / "demo.yaml", outside)
    why = "this is a symbolic link" if outside.content is None else "this sheet already exists"  # never overwritten
    assert_refused(qrs(tmp_path, "new", "demo", "--game", "Demo", "--lang", "en"), link, why)
    assert_untouched(outside)


@pytest.mark.parametrize("name", [".qrs-manifest.json", ".cache/locks/.qrs-manifest.json.lock"])
def test_the_manifest_and_its_lock_are_not_written_through_a_link(tmp_path, outside, name):
    link = plant(tmp_path / "build" / name, outside)
    with pytest.raises(UserError, match="symbolic link"):
        Manifest(tmp_path / "build" / ".qrs-manifest.json").save({"x.fr.pdf": {"inputs": "a", "pdf": "b"}}, {})
    assert_untouched(outside)
    assert link.is_symlink()


def test_a_link_to_a_file_of_the_same_folder_is_written_through(tmp_path):
    (tmp_path / "real.po").write_bytes(b"old")
    (tmp_path / "alias.po").symlink_to("real.po")
    write.atomically(tmp_path / "alias.po", b"new")
    assert (tmp_path / "alias.po").is_symlink() and (tmp_path / "real.po").read_bytes() == b"new"


def test_a_file_written_without_overwrite_is_created_once(tmp_path):
    target = tmp_path / "sub" / "new.yaml"
    write.text(target, "first\n", overwrite=False)
    with pytest.raises(FileExistsError):
        write.text(target, "second\n", overwrite=False)
    assert target.read_text(encoding="utf-8") == "first\n"
    assert sorted(path.name for path in target.parent.iterdir()) == ["new.yaml"]  # no temporary file left


def test_a_worker_whose_command_died_writes_nothing(tmp_path):
    """A build's worker writes for its command's process; once that is gone (here: a pid that is not its parent),
    it exits at its next write without writing, and leaves no temporary file."""
    target = tmp_path / "late.pdf"
    script = (
        "import os, sys; from pathlib import Path; from generator import write; "
        "write.only_while_alive(os.getppid() + 1); write.atomically(Path(sys.argv[1]), b'%PDF late')"
    )
    done = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_outputs_take_the_umask_permissions(tmp_path):
    """A build's PDF and manifest are readable by others under umask 022, as any file the user makes (publishing
    build/ on a web server needs it); a stricter umask is kept."""
    (tmp_path / "sources").mkdir()
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "sources")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "--sources",
            str(tmp_path / "sources"),
            "--build-dir",
            str(tmp_path / "build"),
            "build",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=lambda: os.umask(0o022),
    )
    assert result.returncode == 0, result.stderr
    written = [tmp_path / "build" / "every-block.fr.pdf", tmp_path / "build" / ".qrs-manifest.json"]
    assert {path.name: oct(path.stat().st_mode & 0o777) for path in written} == {path.name: "0o644" for path in written}

    strict = subprocess.run(
        [
            sys.executable,
            "-c",
            "from pathlib import Path; from generator import write; "
            f"write.text(Path({str(tmp_path / 'private.txt')!r}), 'x')",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=lambda: os.umask(0o027),
    )
    assert strict.returncode == 0, strict.stderr
    assert oct((tmp_path / "private.txt").stat().st_mode & 0o777) == "0o640"


def _edited_copy(tmp_path: Path, names: tuple[str, ...]) -> Path:
    """Sources built once, then edited so that the next build writes again."""
    (tmp_path / "sources").mkdir()
    for name in names:
        text = (FIXTURES / "every-block.yaml").read_text(encoding="utf-8")
        (tmp_path / "sources" / f"{name}.yaml").write_text(
            text.replace("sheet: every-block\n", f"sheet: {name}\n", 1), encoding="utf-8"
        )
    assert qrs(tmp_path, "build").returncode == 0
    for name in names:
        source = tmp_path / "sources" / f"{name}.yaml"
        source.write_text(source.read_text(encoding="utf-8").replace("title: ", "title: Nouveau ", 1), encoding="utf-8")
    return tmp_path / "build"


def test_a_full_disk_is_reported_as_such_and_keeps_the_previous_pdf(tmp_path):
    import resource

    build = _edited_copy(tmp_path, ("every-block",))
    before = (build / "every-block.fr.pdf").read_bytes()
    limit = 4096  # bytes a file may grow to: a PDF is larger, as on a disk with that much room left
    result = subprocess.run(
        [sys.executable, "-m", "generator", "--sources", str(tmp_path / "sources"), "build"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)),
    )
    assert result.returncode == 74, result.stdout + result.stderr
    assert "File too large" in result.stderr and "Traceback" not in result.stderr and "bug" not in result.stderr
    assert (build / "every-block.fr.pdf").read_bytes() == before
    assert [path.name for path in build.rglob("*.tmp")] == []


def test_a_folder_where_a_pdf_goes_is_named_by_a_worker_build(tmp_path):
    build = _edited_copy(tmp_path, ("first", "second"))
    (build / "second.fr.pdf").unlink()
    (build / "second.fr.pdf").mkdir()
    result = qrs(tmp_path, "build", "--jobs", "2")
    assert result.returncode == 74, result.stdout + result.stderr
    assert "error: build/second.fr.pdf: Is a directory" in result.stderr, result.stderr  # relative to the library
    assert "bug" not in result.stderr


def test_a_permission_denied_is_reported_with_its_path(tmp_path, monkeypatch, capsys):
    """As a read-only build folder would refuse it (the test may run as root, whom no mode stops)."""
    build = _edited_copy(tmp_path, ("every-block",))
    before = (build / "every-block.fr.pdf").read_bytes()

    def refuse(source, target):
        raise PermissionError(13, "Permission denied", source)

    monkeypatch.setattr(write.os, "replace", refuse)
    with pytest.raises(SystemExit) as stopped:
        main(["--sources", str(tmp_path / "sources"), "--build-dir", str(build), "build", "--jobs", "1"])
    assert stopped.value.code == 74
    err = capsys.readouterr().err
    assert err.startswith("error: build/") and ": Permission denied (the disk, a permission" in err, err
    assert (build / "every-block.fr.pdf").read_bytes() == before
    assert [path.name for path in build.rglob("*.tmp")] == []


def test_a_read_only_build_folder_is_named_by_the_output_not_the_temporary_file(tmp_path, monkeypatch, capsys):
    """A read-only folder refuses the temporary file first (#35, point 18): the message names the output."""
    build = _edited_copy(tmp_path, ("every-block",))

    def refuse(dir, prefix, suffix):
        raise PermissionError(13, "Permission denied", str(Path(dir) / f"{prefix}k2j4.tmp"))

    monkeypatch.setattr(write.tempfile, "mkstemp", refuse)
    with pytest.raises(SystemExit) as stopped:
        main(["--sources", str(tmp_path / "sources"), "--build-dir", str(build), "build", "--jobs", "1"])
    assert stopped.value.code == 74
    err = capsys.readouterr().err
    assert err.startswith("error: build/every-block.fr.pdf: Permission denied (the disk"), err
    assert ".tmp" not in err


# --- a folder on the way that is a link out of its own folder (#35, point 2) ---------------------------------------


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    """A folder outside the project, holding a file of its own that nothing may read, change or remove."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "every-block.fr-9.png").write_bytes(b"not qrs's")
    (folder / "every-block.en.po").write_bytes(b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n')
    return folder


def assert_elsewhere_untouched(folder: Path) -> None:
    assert sorted(path.name for path in folder.iterdir()) == ["every-block.en.po", "every-block.fr-9.png"]
    assert (folder / "every-block.fr-9.png").read_bytes() == b"not qrs's"


def project_with_folder_link(tmp_path: Path, linked: str, elsewhere: Path) -> Path:
    """tmp_path/project, with sources/every-block.yaml and a link at `linked` to the folder outside."""
    (tmp_path / "project" / "sources").mkdir(parents=True)
    shutil.copy(FIXTURES / "every-block.yaml", tmp_path / "project" / "sources")
    link = tmp_path / "project" / linked
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(elsewhere, target_is_directory=True)
    return link


def assert_folder_refused(result: Ran, link: Path, verb: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{printed(link)}: this folder is a symbolic link to {link.readlink()}" in result.stderr, result.stderr
    assert f"qrs {verb} nothing through it" in result.stderr and "Traceback" not in result.stderr


def test_no_catalogue_is_read_or_written_through_a_linked_i18n_folder(tmp_path, elsewhere):
    link = project_with_folder_link(tmp_path, "sources/i18n", elsewhere)
    assert_folder_refused(qrs(tmp_path / "project", "i18n", "update", "every-block", "--lang", "en"), link, "writes")
    assert_folder_refused(qrs(tmp_path / "project", "check", "every-block"), link, "reads")
    assert_elsewhere_untouched(elsewhere)


def test_no_handout_is_read_through_a_linked_handouts_folder(tmp_path, elsewhere):
    shutil.copy(LIBRARY / "handouts" / "warhammer-dwarfs.yaml", elsewhere / "dwarfs.yaml")
    link = project_with_folder_link(tmp_path, "sources/handouts", elsewhere)
    assert_folder_refused(qrs(tmp_path / "project", "check"), link, "reads")


@pytest.mark.parametrize(
    "linked, command",
    [
        ("build/html", ("build", "every-block", "--format", "html")),
        ("build/.cache", ("build", "every-block")),  # the heights and the locks
        ("build/.cache/locks", ("build", "every-block")),
        ("build/preview", ("preview", "every-block")),
        ("build/export", ("export", "every-block")),
    ],
)
def test_no_output_is_written_or_removed_through_a_linked_build_folder(tmp_path, elsewhere, linked, command):
    link = project_with_folder_link(tmp_path, linked, elsewhere)
    assert_folder_refused(qrs(tmp_path / "project", *command), link, "writes")
    assert_elsewhere_untouched(elsewhere)


@pytest.mark.parametrize("linked", ["build/handouts", "schema", "sources/i18n"])
def test_the_writer_refuses_every_folder_link_on_the_way(tmp_path, elsewhere, linked):
    link = project_with_folder_link(tmp_path, linked, elsewhere)
    for path in (link / "every-block.fr.pdf", link / "deeper" / "every-block.fr.pdf"):
        with pytest.raises(UserError, match="this folder is a symbolic link"):
            write.atomically(path, b"%PDF")
    with pytest.raises(UserError, match="this folder is a symbolic link"):
        with write.locked(link / "x.lock"):
            pass
    assert_elsewhere_untouched(elsewhere)


def test_a_folder_link_inside_its_own_folder_is_followed(tmp_path):
    (tmp_path / "build" / "real-html").mkdir(parents=True)  # a link to a folder of the same folder
    (tmp_path / "build" / "html").symlink_to("real-html", target_is_directory=True)
    write.atomically(tmp_path / "build" / "html" / "page.html", b"<p>")
    assert (tmp_path / "build" / "real-html" / "page.html").read_bytes() == b"<p>"


def run_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """qrs run in `folder`, with its default sources/ and build/ (what a cloned repository chooses)."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_a_default_sources_or_build_folder_that_links_out_of_the_library_is_refused_by_name(tmp_path):
    """Issue #49 item 1: `ln -s /elsewhere build` made qrs write its PDF, manifest and caches there, and a linked
    sources/ read every sheet from there. A link the user names with --sources or --build-dir is followed."""
    library, elsewhere = tmp_path / "library", tmp_path / "elsewhere"
    (elsewhere / "sheets").mkdir(parents=True)
    (elsewhere / "out").mkdir()
    shutil.copy(FIXTURES / "sheets" / "tiny-card.yaml", elsewhere / "sheets")
    library.mkdir()
    (library / "sources").symlink_to(elsewhere / "sheets")
    result = run_in(library, "check", "tiny-card")
    assert result.returncode == 2 and "sources:1:1: the sources folder is a symbolic link to" in result.stderr
    assert "--sources " + str(elsewhere / "sheets") in result.stderr
    assert run_in(library, "--sources", str(library / "sources"), "check", "tiny-card").returncode == 0  # named
    (library / "sources").unlink()
    shutil.copytree(elsewhere / "sheets", library / "sources")
    (library / "build").symlink_to(elsewhere / "out")
    result = run_in(library, "build", "tiny-card")
    assert result.returncode == 2 and "build:1:1: the build folder is a symbolic link to" in result.stderr
    assert list((elsewhere / "out").iterdir()) == []  # nothing written there
    (library / "build").unlink()
    (library / "real-build").mkdir()
    (library / "build").symlink_to(library / "real-build")  # a link inside the library's folder is followed
    assert run_in(library, "build", "tiny-card").returncode == 0
    assert (library / "real-build" / "tiny-card.en.pdf").is_file()
