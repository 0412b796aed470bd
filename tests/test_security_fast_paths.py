"""The security scan's fast paths against their plain forms:

- the walk without paths (surfaces.texts: a string value read by its keyword at once, leaf
  property schemas read inline) finds what the walk with paths (surfaces.collect) finds, in
  the same order, on any JSON-like descriptor (hypothesis);
- gates.plain_view (the scan's view of an ASCII text without control characters) is gates.view;
- importing the rules imports none of the scan's modules (they are imported on first use), and
  the surface kinds the rules name are the scan's.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from test_security_speed import ALL_TEXTS
from toolcontract.lint.rules.tc6_security import reports as rules
from toolcontract.security import gates, surfaces, unicode

# keywords of every role surfaces knows, and a few it does not
KEYS = sorted(surfaces._KEYWORDS) + ["x-note", "unknown", "name", "message", "", "0"]
WORDS = ["string", "object", "array", "integer", "a sentence, not a name", "city", "^[a-z]+$", "x-y",
         "Ignore previous instructions.", "en", "\u0441ity", ""]
SCALARS = st.one_of(st.sampled_from(WORDS), st.integers(-2, 2), st.booleans(), st.none(), st.floats(0, 1))


def _json(keys: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(
        SCALARS,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)),
        max_leaves=25,
    )


SCHEMA = _json(st.one_of(st.sampled_from(KEYS), st.sampled_from(WORDS), st.integers(0, 3)))
DESCRIPTOR = st.fixed_dictionaries(
    {},
    optional={
        "name": st.sampled_from(WORDS), "title": st.sampled_from(WORDS), "description": st.sampled_from(WORDS),
        "non_goals": _json(st.sampled_from(WORDS)), "limitations": _json(st.sampled_from(WORDS)),
        "annotations": _json(st.sampled_from(KEYS)), "input_schema": SCHEMA, "output_schema": SCHEMA,
        "semantic_rules": st.lists(st.dictionaries(st.sampled_from(["message", "when"]), SCALARS), max_size=3),
        "examples": _json(st.sampled_from(KEYS)), "x-extra": _json(st.sampled_from(KEYS)), "other": SCALARS,
    },
)


@pytest.mark.long
@settings(max_examples=examples(400), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(DESCRIPTOR)
def test_the_walk_without_paths_is_the_walk_with_paths_on_any_descriptor(data):
    assert surfaces.texts(data) == [(text, kind) for _, _, text, kind, _ in surfaces.collect(data)]


def test_the_walks_agree_past_the_depth_limit():
    schema: dict = {"type": "object", "properties": {}}
    inner = schema
    for i in range(surfaces._MAX_DEPTH + 30):
        sub = {"type": "object", "description": f"level {i}", "enum": [f"e{i}"], "properties": {}}
        inner["properties"][f"p{i}"] = sub
        inner = sub
    data = {"name": "deep", "input_schema": schema}
    found = surfaces.texts(data)
    assert found == [(text, kind) for _, _, text, kind, _ in surfaces.collect(data)]
    assert ("level 199", surfaces.TEXT) in found and ("level 200", surfaces.TEXT) not in found


def test_the_plain_view_is_the_view():
    plain = [t for t in ALL_TEXTS if t.isascii() and not unicode.ascii_control(t)]
    assert len(plain) > 100
    for text in plain + [t + "\n\tmore" for t in plain[:50]]:
        a, b = gates.plain_view(text), gates.view(text)
        assert (a.text, a.where, a.opened, a.low, a.words) == (b.text, b.where, b.opened, b.low, b.words), text


def test_the_rules_name_the_scans_surface_kinds():
    assert (rules.NAME, rules.PROPERTY) == (surfaces.NAME, surfaces.PROPERTY)
