"""Makes the sample files of docs/examples/ from the project's test fixtures (docs/examples/README.md says which).

    .venv/bin/python docs/examples/make_examples.py

The rosters are copied as they are (the .rosz packed again, its one member named as the archive, so that a message
naming the member names the sample); the Word file is written by the round-trip tests' writer; the PDF is built by
qrs itself, as any user's sheet is."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
WORD_SHEET = FIXTURES / "sheets" / "skirmish-one-page.yaml"  # Ashen Barrows, an invented game's one-page sheet
PDF_SHEET = ROOT / "sources" / "shadow-war.yaml"  # a shipped sheet, one page, in English
FIXED_TIME = (2026, 11, 23, 0, 0, 0)  # the same bytes at every run


def copy_rosters() -> None:
    shutil.copyfile(FIXTURES / "rosters" / "bsdata" / "whfb8-dwarfs.ros", HERE / "karak-hirn.ros")
    with zipfile.ZipFile(FIXTURES / "rosters" / "bsdata" / "wh40k-10e-newrecruit.rosz") as packed:
        [member] = packed.namelist()
        roster = packed.read(member)
    with zipfile.ZipFile(HERE / "strike-force.rosz", "w") as repacked:
        entry = zipfile.ZipInfo("strike-force.ros", date_time=FIXED_TIME)
        repacked.writestr(entry, roster, compress_type=zipfile.ZIP_DEFLATED)


def write_word_file() -> None:
    sys.path.insert(0, str(ROOT))
    from generator.output import pipeline
    from tests.composing.drafts.sheets import docx

    (HERE / "ashen-barrows.docx").write_bytes(docx(pipeline.check(WORD_SHEET)))


def build_pdf() -> None:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "generator", "--quiet", "--sources", str(PDF_SHEET.parent), "--build-dir",
                        folder, "build", PDF_SHEET.stem, "--lang", "en"], cwd=ROOT, check=True)
        shutil.copyfile(Path(folder) / f"{PDF_SHEET.stem}.en.pdf", HERE / "shadow-war.pdf")


if __name__ == "__main__":
    copy_rosters()
    write_word_file()
    build_pdf()
    for sample in sorted(HERE.glob("*.*")):
        print(f"{sample.relative_to(ROOT)}: {sample.stat().st_size / 1000:.0f} kB")
