"""Where things are: sources, templates, outputs. One object, passed down, no globals."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.errors import UserError

PACKAGE_ROOT = Path(__file__).resolve().parent
TEMPLATES = PACKAGE_ROOT.parent / "templates"


@dataclass(frozen=True)
class Project:
    sources: Path
    build: Path
    templates: Path = TEMPLATES

    @classmethod
    def at(cls, sources: Path, build: Path | None = None) -> "Project":
        sources = sources.resolve()
        return cls(sources=sources, build=(build or sources.parent / "build").resolve())

    def sheet_paths(self, names: tuple[str, ...] = ()) -> list[Path]:
        """The source of each named sheet, or of every sheet; an unknown name is an error."""
        available = {path.stem: path for path in sorted(self.sources.glob("*.yaml"))}
        if not names:
            return list(available.values())
        unknown = [name for name in names if name not in available]
        if unknown:
            known = ", ".join(available) or "none"
            raise UserError.at(self.sources, 1, 1, f"no sheet named {', '.join(unknown)} (sheets: {known})")
        return [available[name] for name in names]

    def pdf_path(self, sheet_id: str, lang: str) -> Path:
        return self.build / f"{sheet_id}.{lang}.pdf"
