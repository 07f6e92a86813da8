"""The block types, one module each (`<type>.py`, beside `templates/blocks/<type>.html.j2`).

A module here that defines a subclass of BlockBase with a `type: Literal["…"]` field adds a block type: `Block`,
the union a section's blocks are read as, is gathered from the modules of this folder, in the order of BLOCK_TYPES
and then by name."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Annotated, Union, get_args

from pydantic import Field

from generator.model.blocks.block import BlockBase

# The order the JSON Schema and the error messages list the types in: the common ones first.
BLOCK_TYPES = (
    "sequence",
    "table",
    "dice",
    "modifiers",
    "matrix",
    "text",
    "glossary",
    "saves",
    "roster",
    "figure",
    "preformatted",
)


def _block_classes() -> dict[str, type[BlockBase]]:
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BlockBase) and "type" in value.model_fields:
                (name,) = get_args(value.model_fields["type"].annotation)
                found[name] = value
    order = {name: index for index, name in enumerate(BLOCK_TYPES)}
    return dict(sorted(found.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


CLASSES = _block_classes()
Block = Annotated[Union[tuple(CLASSES.values())], Field(discriminator="type")]
