"""Modules imported on first use, so that a command with nothing to do does not pay for them.

`qrs build` with every output up to date needs only the manifest (generator.output.manifest); the pipeline, the model
(pydantic) and WeasyPrint are imported by the first attribute read of the module `lazy.module` returns.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def module(name: str) -> ModuleType:
    """The module `name`, loaded (by importlib's LazyLoader) when one of its attributes is first read."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    found = importlib.util.module_from_spec(spec)
    sys.modules[name] = found
    loader.exec_module(found)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, found)
    return found
