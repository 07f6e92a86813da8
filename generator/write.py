"""Stage 4, write: an output appears whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomically(path: Path, content: bytes) -> None:
    """Write to a temporary file beside the target, then rename: readers never see half a PDF."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
