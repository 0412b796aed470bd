"""The JSON Schemas shipped with toolcontract (the files in schemas/), loaded once."""

from __future__ import annotations

import functools
import json
import os

# toolcontract/schemas/, two packages up from this one (toolcontract/core/schema/)
_HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "schemas")


@functools.cache
def load_schema(name: str) -> dict:
    """`name` is a file name in schemas/, e.g. "descriptor.schema.json".

    Read next to this module (an installed package or a checkout, where schemas/ is a
    link to the top-level folder); importlib.resources, whose import alone costs more
    than a lint of one file, only when the package is not on a file system (a zip).
    """
    path = os.path.join(_HERE, name)
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    from importlib import resources

    return json.loads(resources.files("toolcontract").joinpath("schemas", name).read_text("utf-8"))

