"""What is installed that qrs uses, found without importing WeasyPrint (`qrs doctor` answers in a fraction of a
second): versions from the packages' metadata, the C libraries asked by ctypes for their own version, programs found
on the PATH and asked for theirs.

Importing WeasyPrint would take most of a second (it opens Pango, HarfBuzz, fontconfig and more through cffi);
its version is in its metadata, and Pango and HarfBuzz answer `pango_version_string()` and `hb_version_string()`
once their library is open, which takes milliseconds."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from generator.output import manifest

# The file names WeasyPrint opens each library by (Linux, macOS, Windows), as cffi's dlopen tries them.
PANGO = ("libpango-1.0.so.0", "libpango-1.0.0.dylib", "libpango-1.0-0.dll")
HARFBUZZ = ("libharfbuzz.so.0", "libharfbuzz.0.dylib", "libharfbuzz-0.dll")
SOURCE_SANS = (
    "SourceSansPro-Regular.ttf",
    "SourceSansPro-It.ttf",
    "SourceSansPro-Semibold.ttf",
    "SourceSansPro-Bold.ttf",
    "SourceSansPro-BoldIt.ttf",
)  # the faces templates/sheet.css names
SYMBOL_FONTS = (
    "NotoSansSymbols2-Regular.subset.ttf",
    "DejaVuSans.subset.ttf",  # its fallbacks (model.glyphs)
    "NotoEmoji-Regular.subset.ttf",
)
PROGRAM_TIMEOUT = 5  # seconds: a program that does not answer its --version is said to hang, not waited for


@dataclass(frozen=True)
class Finding:
    """One thing looked for: `found` (its version, or where it is) or None; what it is for; how to get it."""

    name: str
    found: str | None
    enables: str
    required: bool = False
    install: str = ""

    def line(self) -> str:
        state = self.found if self.found is not None else "missing"
        why = f": {self.enables}" if self.enables else ""
        hint = f" ({self.install})" if self.found is None and self.install else ""
        return f"{self.name}: {state}{why}{hint}"


def package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def library_version(names: tuple[str, ...], function: str) -> str | None:
    """The version a C library reports of itself (`pango_version_string`), or None where it is not installed."""
    for name in names:
        try:
            library = ctypes.CDLL(name)
        except OSError:
            continue
        report = getattr(library, function)
        report.restype = ctypes.c_char_p
        return report().decode("ascii", "replace")
    return None


def program_version(command: str, *flags: str) -> str | None:
    """'VERSION (PATH)' of a program on the PATH (the first line it prints for `flags` naming it), or None."""
    path = shutil.which(command)
    if path is None:
        return None
    try:
        done = subprocess.run(
            [path, *flags],
            capture_output=True,
            text=True,
            timeout=PROGRAM_TIMEOUT,
            stdin=subprocess.DEVNULL,
            errors="replace",
        )
    except (OSError, subprocess.SubprocessError):
        return f"{path} (it did not say its version)"
    first = next((line.strip() for line in (done.stdout + done.stderr).splitlines() if line.strip()), "")
    return f"{first} ({path})" if first else path


def fonts(templates: Path) -> list[Finding]:
    found = manifest.fonts_folder()
    faces = [face for face in SOURCE_SANS if found and (found / face).is_file()]
    symbols = [name for name in SYMBOL_FONTS if (templates / "symbols" / name).is_file()]
    return [
        Finding(
            "Source Sans Pro",
            f"{len(faces)} of {len(SOURCE_SANS)} faces ({found})" if faces else None,
            "the sheets' type",
            required=True,
            install="pip install font-source-sans-pro, or make",
        ),
        Finding(
            "symbol fonts",
            f"{len(symbols)} of {len(SYMBOL_FONTS)} ({templates / 'symbols'})" if symbols else None,
            "dice faces, arrows, shapes and emoji Source Sans lacks",
            required=True,
            install="templates/symbols/ of the qrs package",
        ),
    ]


def browser() -> str | None:
    for command in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(command):
            return program_version(command, "--version")
    return None


def findings(templates: Path) -> list[Finding]:
    """Everything qrs uses: first what a build needs, then the optional programs, each with what it enables."""
    python = f"{sys.version.split()[0]} ({sys.executable})"
    subsetter = manifest.font_subsetter()
    return [
        Finding("Python", python, "", required=True),
        Finding(
            "WeasyPrint",
            package_version("weasyprint"),
            "lays out and writes every PDF",
            required=True,
            install="make, or pip install .",
        ),
        Finding(
            "Pango",
            library_version(PANGO, "pango_version_string"),
            "sets the text for WeasyPrint",
            required=True,
            install="apt-get install libpango-1.0-0; brew install pango",
        ),
        Finding(
            "HarfBuzz",
            library_version(HARFBUZZ, "hb_version_string"),
            "shapes the text for Pango",
            required=True,
            install="apt-get install libharfbuzz0b; brew install harfbuzz",
        ),
        Finding(
            "HarfBuzz subsetting",
            "libharfbuzz-subset" if subsetter == "harfbuzz" else None,
            "cuts the fonts into each PDF faster than fontTools, which is used without it (other bytes, the same "
            "pages)",
            install="apt-get install libharfbuzz-subset0",
        ),
        *fonts(templates),
        Finding(
            "pdftocairo",
            program_version("pdftocairo", "-v"),
            "qrs export --format svg",
            install="apt-get install poppler-utils; brew install poppler",
        ),
        Finding(
            "msgfmt",
            program_version("msgfmt", "--version"),
            "checks the catalogues as gettext does (msgfmt --check; a test of the project)",
            install="apt-get install gettext; brew install gettext",
        ),
        Finding(
            "Chromium",
            browser(),
            "opens the web edition in a real browser (a test of the project)",
            install="apt-get install chromium",
        ),
    ]


def missing_required(found: list[Finding]) -> list[Finding]:
    return [finding for finding in found if finding.required and finding.found is None]
