"""The shipped JSON Schemas load as json.load reads them, once each."""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import pytest

from toolcontract.core.schema.bundled import load_schema

SCHEMAS = Path(str(resources.files("toolcontract").joinpath("schemas")))  # the shipped schemas/ folder
SHIPPED = sorted(p.name for p in SCHEMAS.glob("*.json"))


def _same(a: object, b: object) -> bool:
    """Equal, with the same types all the way down (1 is not 1.0 or True) and NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_schemas_load_as_json_load_reads_them(name: str) -> None:
    load_schema.cache_clear()
    with open(SCHEMAS / name, encoding="utf-8") as handle:
        assert _same(load_schema(name), json.load(handle))


def test_every_schema_is_checked() -> None:
    assert "descriptor.schema.json" in SHIPPED and len(SHIPPED) >= 4
