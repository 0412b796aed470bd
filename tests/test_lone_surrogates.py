"""JSON lets a string hold half of a UTF-16 pair (`"\\ud800"`); YAML refuses it. Such a document
is not linted (TC000 at the escape) instead of crashing the validators behind the rules."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from toolcontract.lint.engine import lint_files
from toolcontract.core.schema.validation import is_valid_schema, metaschema_errors

HEAD = '{"toolcontract": 1, "name": "a_b", "effect": "read", '


@pytest.mark.parametrize("rest", [
    '"input_schema": {"type": "object", "$anchor": "\\ud800"}}',
    '"purpose": "x \\udc00 y"}',
    '"input_schema": {"type": "object", "properties": {"\\ud800": {"type": "string", "pattern": "\\ud800"}}}}',
    '"input_schema": {"type": "object"}, "examples": [{"a": "\\udbff"}]}',
    '"\\uD800": 1}',
])
def test_a_lone_surrogate_is_a_parse_error_at_its_escape(rest):
    text = HEAD + rest
    result = lint_files([("t.json", text.encode())])
    assert [(f.rule, f.line, f.column) for f in result.findings] == [("TC000", 1, text.lower().index("\\ud") + 1)]
    assert "surrogate" in result.findings[0].message


def test_pairs_and_escaped_backslashes_are_fine():
    text = HEAD + '"purpose": "pair \\ud83d\\ude00; a backslash then u: \\\\ud800"}'
    assert "TC000" not in {f.rule for f in lint_files([("t.json", text.encode())]).findings}


def test_the_metaschema_check_itself_does_not_crash_on_one():
    assert not is_valid_schema({"$anchor": "\ud800"})
    assert ["surrogate" in e.message for e in metaschema_errors({"$anchor": "\ud800"})] == [True]


@pytest.mark.long
@settings(max_examples=examples(100), deadline=None)
@given(st.recursive(st.text(alphabet=st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010) | st.sampled_from("ab\\"),
                            max_size=4),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=6))
def test_any_escaped_code_point_lints_or_is_refused(value):
    text = json.dumps({"toolcontract": 1, "name": "a_b", "effect": "read", "purpose": value})
    decoded = json.loads(text)  # a high and a low escape in a row decode to one character
    lone = any(0xD800 <= ord(c) <= 0xDFFF for c in json.dumps(decoded, ensure_ascii=False))
    rules = [f.rule for f in lint_files([("t.json", text.encode())]).findings]
    assert ("TC000" in rules) == lone
