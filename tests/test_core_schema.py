"""core.schema: the one table of subschema keywords and the one walker (node, schema path, instance location)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from test_schema_fast_paths import ANY_KEYWORD_VALUES, OBJECT_SCHEMAS, SCHEMAS
from toolcontract.core import schema as core
from toolcontract.lint import schema_walk


def test_the_table_is_the_2020_12_applicators_plus_the_older_ones():
    assert core.SUBSCHEMA_KEYWORDS == {
        "additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems",
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
        "allOf", "anyOf", "oneOf", "prefixItems",
    }
    assert {k for k, (form, _) in core.KEYWORDS.items() if form == "one"} == set(core.ONE)
    assert {k for k, (form, _) in core.KEYWORDS.items() if form == "map"} == set(core.MAP)
    assert {k for k, (form, _) in core.KEYWORDS.items() if form == "list"} == set(core.LIST)
    assert core.IN_PLACE | core.CONDITIONS <= core.SUBSCHEMA_KEYWORDS


def test_the_walk_gives_schema_paths_and_instance_locations():
    schema = {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}},
                       "when": {"anyOf": [{"type": "null"}, {"properties": {"at": {}}}]}},
        "additionalProperties": {"not": {"type": "null"}},
        "prefixItems": [{"const": 1}],
        "$defs": {"id": {"propertyNames": {"pattern": "^a"}}},
        "items": [{"type": "integer"}],  # the draft-07 tuple form
        "description": {"properties": "not a schema: data"},
    }
    assert [(path, location) for _, path, location in core.walk(schema)] == [
        ((), ()),
        (("additionalProperties",), ("*",)),
        (("additionalProperties", "not"), ("*",)),
        (("items", 0), (0,)),
        (("properties", "tags"), ("properties", "tags")),
        (("properties", "tags", "items"), ("properties", "tags", "[]")),
        (("properties", "when"), ("properties", "when")),
        (("properties", "when", "anyOf", 0), ("properties", "when")),
        (("properties", "when", "anyOf", 1), ("properties", "when")),
        (("properties", "when", "anyOf", 1, "properties", "at"), ("properties", "when", "properties", "at")),
        (("$defs", "id"), ("def", "$defs", "id")),
        (("$defs", "id", "propertyNames"), ("def", "$defs", "id", "~name")),
        (("prefixItems", 0), (0,)),
    ]
    assert next(core.walk(schema))[0] is schema
    assert list(core.walk(True)) == [] and list(core.walk([{}])) == []


def test_the_walk_stops_at_the_nesting_limit():
    deep: dict = {}
    node = deep
    for _ in range(core.MAX_DEPTH + 5):
        node["not"] = {}
        node = node["not"]
    assert len(list(core.walk(deep))) == core.MAX_DEPTH + 1


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(schema=SCHEMAS | OBJECT_SCHEMAS | ANY_KEYWORD_VALUES)
def test_the_rules_walk_visits_the_same_subschemas_at_the_same_locations(schema):
    """The TC4xx walk (which also gathers base URIs and marks) reaches what the plain walk reaches."""
    plain = sorted((path, location) for _, path, location in core.walk(schema))
    walked = schema_walk.walk(schema, "args")
    theirs = sorted((n.path, n.key if n.key[:1] == ("def",) else n.key[1:]) for n in walked.nodes)
    assert theirs == plain
