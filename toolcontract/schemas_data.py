"""The JSON Schemas shipped with toolcontract (the files in schemas/), loaded once."""

from __future__ import annotations

import functools
import json
from importlib import resources


@functools.cache
def load_schema(name: str) -> dict:
    """`name` is a file name in schemas/, e.g. "descriptor.schema.json"."""
    return json.loads(resources.files("toolcontract").joinpath("schemas", name).read_text("utf-8"))
