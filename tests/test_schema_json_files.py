"""schemas_data.parse_json (the C scanner json.loads uses, called without importing `json`)
gives what json.loads gives: the same value for every text it accepts, the same error otherwise."""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from toolcontract.schemas_data import load_schema, parse_json

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


def _outcome(parse, text: str) -> tuple:
    try:
        return ("value", parse(text))
    except json.JSONDecodeError as exc:
        return ("error", str(exc))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_schemas_load_as_json_load_reads_them(name: str) -> None:
    load_schema.cache_clear()
    with open(SCHEMAS / name, encoding="utf-8") as handle:
        assert _same(load_schema(name), json.load(handle))


def test_every_schema_is_checked() -> None:
    assert "descriptor.schema.json" in SHIPPED and len(SHIPPED) >= 4


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@pytest.mark.long
@settings(max_examples=examples(200), deadline=None)
@given(value=JSON_VALUES, indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans(),
       pad=st.sampled_from(["", " ", "\n", " \t\r\n"]))
def test_parse_json_reads_what_json_dumps_writes(value: object, indent: int | None, ascii_only: bool, pad: str) -> None:
    text = pad + json.dumps(value, indent=indent, ensure_ascii=ascii_only) + pad
    assert _same(parse_json(text), json.loads(text))


BROKEN = ["", " ", "{", '{"a": 1,}', "[1] [2]", '{"a": 1} x', "\ufeff{}", "nul", '"\\x"', "[1,]", "01",
          '{"a" 1}', "\x00", "1 ", "[NaN, -Infinity, Infinity]", '"\ud800"', '{"a": 1, "a": 2}']


@pytest.mark.parametrize("text", BROKEN)
def test_parse_json_fails_and_succeeds_as_json_loads(text: str) -> None:
    fast, slow = _outcome(parse_json, text), _outcome(json.loads, text)
    assert fast[0] == slow[0] and (fast[0] == "error" and fast == slow or _same(fast[1], slow[1]))


@pytest.mark.long
@settings(max_examples=examples(200), deadline=None)
@given(text=st.text(alphabet='{}[]",:0123456789.eE+-truefalsnul \n\\u', max_size=20))
def test_parse_json_agrees_on_arbitrary_text(text: str) -> None:
    fast, slow = _outcome(parse_json, text), _outcome(json.loads, text)
    assert fast[0] == slow[0], text
    assert fast == slow if fast[0] == "error" else _same(fast[1], slow[1])
