"""TC4xx beyond the rule examples: hostile values, references, patterns, positions."""

from __future__ import annotations

import json
import socket

import pytest

from toolcontract.lint.engine import Selection, lint_text

HEAD = "toolcontract: 1\nname: weather_current\neffect: read\n"


def tc4(text: str, rule: str = "TC4") -> list[tuple[str, int, str]]:
    result = lint_text(text, selection=Selection(select=(rule,)))
    return [(f.rule, f.line, f.message) for f in result.findings]


def rules_of(findings: list[tuple[str, int, str]]) -> set[str]:
    return {rule for rule, _, _ in findings}


def descriptor(**fields: object) -> str:
    """A JSON descriptor (JSON is YAML), so hostile values can be written exactly."""
    return json.dumps({"toolcontract": 1, "name": "weather_current", "effect": "read", **fields})


HOSTILE = [
    "a string", ["a", "list"], True, False, None, 7,
    {"type": "object", "properties": ["city"], "required": "city"},
    {"type": "object", "properties": {"city": "string", "n": None, "x": []}, "required": [1, None, "city"]},
    {"type": 5, "properties": {"a": {"$ref": 5, "pattern": 7, "patternProperties": []}}},
    {"type": "object", "allOf": "x", "anyOf": [1, "b"], "items": [1], "$defs": [], "$id": 3, "$schema": []},
    {"type": "object", "additionalProperties": "no", "unevaluatedProperties": 1, "$anchor": {}},
    {"$ref": "#/properties/a/type", "properties": {"a": {"type": "string"}}},
    {"$ref": "#/%ZZ/~2", "$dynamicRef": "http://[::1"},
]


@pytest.mark.parametrize("schema", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_values_do_not_crash(schema: object) -> None:
    semantic = [{"id": 1, "if": schema, "then": schema, "else": schema}, "not a rule", None, {"if": []}]
    for fields in (
        {"input_schema": schema, "output_schema": schema, "semantic_rules": semantic, "examples": [schema, {}, 1]},
        {"input_schema": schema, "examples": "not a list", "semantic_rules": {"not": "a list"}},
    ):
        tc4(descriptor(**fields))


def test_wrong_types_are_left_to_tc002() -> None:
    found = tc4(descriptor(input_schema="object", output_schema=[1], semantic_rules="x", examples=[1, "a"]))
    assert found == []


def test_missing_input_schema_is_not_a_finding() -> None:
    assert tc4(HEAD) == []


def test_boolean_root_is_not_an_object() -> None:
    assert rules_of(tc4(HEAD + "input_schema: true\n")) == {"TC402"}


def test_ref_cycles_do_not_hang() -> None:
    text = HEAD + """\
input_schema:
  $ref: "#"
  type: object
  properties:
    child: {$ref: "#", description: A nested request.}
    node: {$ref: "#/$defs/node", description: A tree node.}
  additionalProperties: false
  $defs:
    node:
      type: object
      properties:
        next: {$ref: "#/$defs/node", description: The next node.}
      required: [next]
      additionalProperties: false
examples:
  - {child: {child: {}}}
"""
    assert tc4(text) == []


def test_unresolvable_refs_pointer_and_anchor() -> None:
    text = HEAD + """\
input_schema:
  type: object
  properties:
    a: {$ref: "#/$defs/missing", description: A.}
    b: {$ref: "#place", description: B.}
    c: {$ref: "#known", description: C.}
    d: {$ref: "#/properties/a/description", description: D.}
    e: {$ref: "#/$defs/with~1slash", description: E.}
  additionalProperties: false
  $defs:
    known: {$anchor: known, type: string}
    with/slash: {type: string}
"""
    found = tc4(text, "TC408")
    assert [(line, msg.split(":")[0]) for _, line, msg in found] == [
        (7, "$ref '#/$defs/missing' does not resolve"),
        (8, "$ref '#place' does not resolve"),
        (10, "$ref '#/properties/a/description' does not resolve"),
    ]


def test_refs_into_embedded_resources_are_local() -> None:
    text = HEAD + """\
input_schema:
  $id: https://example.com/tools/weather.json
  type: object
  properties:
    where: {$ref: "place.json", description: Where.}
    when: {$ref: "https://example.com/tools/weather.json#/$defs/when", description: When.}
  additionalProperties: false
  $defs:
    place: {$id: place.json, type: string}
    when: {type: string}
"""
    assert tc4(text, "TC407") == []
    assert tc4(text, "TC408") == []


def test_remote_ref_is_reported_and_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a socket was opened")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    text = HEAD + """\
input_schema:
  type: object
  properties:
    city: {$ref: "https://example.com/city.json", description: City.}
    zone: {$dynamicRef: "file:///etc/passwd", description: Zone.}
  additionalProperties: false
output_schema:
  type: object
  properties:
    temp: {$ref: "defs.json#/temp"}
semantic_rules:
  - id: r
    message: m
    if: {$ref: "http://127.0.0.1:9/x"}
    then: {required: [city]}
examples:
  - {city: Lisbon}
"""
    found = tc4(text)
    remote = [(line, msg) for rule, line, msg in found if rule == "TC407"]
    assert [line for line, _ in remote] == [7, 8, 13, 17]
    assert not rules_of(found) & {"TC406", "TC408"}


def test_ecma_patterns_are_accepted() -> None:
    text = HEAD + r"""input_schema:
  type: object
  properties:
    code: {type: string, pattern: '^(?<country>[A-Z]{2})-\d+$', description: Code.}
    word: {type: string, pattern: '^\p{L}+$', description: A word.}
  patternProperties:
    '^x-(?<ext>\w+)$': {type: string}
  additionalProperties: false
"""
    assert tc4(text) == []


def test_bad_pattern_property_key_is_reported_at_the_key() -> None:
    text = HEAD + "input_schema:\n  type: object\n  patternProperties:\n    '^x-(': {type: string}\n" \
        "  additionalProperties: false\n"
    assert [(rule, line) for rule, line, _ in tc4(text)] == [("TC410", 7)]


def test_example_errors_each_reported_with_instance_path() -> None:
    text = HEAD + """\
input_schema:
  type: object
  properties:
    city: {type: string, description: City.}
    days: {type: integer, description: Days.}
  required: [city]
  additionalProperties: false
examples:
  - {city: 5, days: two, extra: true}
"""
    found = tc4(text, "TC406")
    assert {line for _, line, _ in found} == {12}
    text_of = " | ".join(msg for _, _, msg in found)
    assert "/city" in text_of and "/days" in text_of and "extra" in text_of


def test_examples_skipped_when_schema_invalid() -> None:
    text = HEAD + "input_schema:\n  type: object\n  properties:\n    city: {type: text}\nexamples:\n  - {city: 5}\n"
    assert "TC406" not in rules_of(tc4(text))
    assert "TC401" in rules_of(tc4(text))


def test_metaschema_errors_are_not_a_cascade() -> None:
    text = HEAD + "input_schema:\n  type: object\n  properties:\n    city: {type: text, minLength: -1, " \
        "description: City.}\n  additionalProperties: false\n"
    found = tc4(text, "TC401")
    assert len(found) == 2 and all(line == 7 for _, line, _ in found)


def test_required_resolved_through_combinators_refs_and_patterns() -> None:
    text = HEAD + """\
input_schema:
  type: object
  properties:
    city: {type: string, description: City.}
    zip: {type: string, description: Postcode.}
    address: {$ref: "#/$defs/address", description: Address.}
  patternProperties:
    '^x-': {type: string}
  anyOf:
    - required: [city]
    - required: [zip]
  allOf:
    - properties:
        address: {required: [street]}
  required: [x-trace]
  additionalProperties: false
  $defs:
    address:
      type: object
      properties:
        street: {type: string, description: Street.}
      required: [street, number]
      additionalProperties: false
semantic_rules:
  - id: zip-or-city
    message: Give a city or a postcode.
    if: {required: [zip]}
    then: {required: [citty]}
"""
    found = tc4(text, "TC405")
    assert [(line, msg.split(" is")[0]) for _, line, msg in found] == [
        (25, "required property 'number'"),
        (31, "required property 'citty'"),
    ]
    assert "did you mean 'city'" in found[1][2]


def test_open_objects_inside_closed_combinations_are_not_reported() -> None:
    text = HEAD + """\
input_schema:
  type: object
  properties:
    kind: {type: string, enum: [city, point], description: How the place is given.}
  oneOf:
    - {type: object, properties: {kind: {const: city}, city: {type: string, description: City.}}, additionalProperties: false}
    - {type: object, properties: {kind: {const: point}, lat: {type: number, description: Latitude.}}, additionalProperties: false}
  if: {properties: {kind: {const: city}}}
  then: {required: [city]}
"""
    assert tc4(text, "TC403") == []
    assert tc4(text, "TC404") == []
    assert tc4(text, "TC411") == []


def test_unevaluated_properties_closes_allof_composition() -> None:
    text = HEAD + """\
input_schema:
  type: object
  allOf:
    - properties: {city: {type: string, description: City.}}
    - properties: {days: {type: integer, description: Days.}}
  unevaluatedProperties: false
"""
    assert tc4(text) == []


def test_dialects() -> None:
    for dialect, expected in (
        ("https://json-schema.org/draft/2020-12/schema", []),
        ("https://json-schema.org/draft/2020-12/schema#", []),
        ("http://json-schema.org/draft-07/schema#", []),  # an earlier draft, but no keyword it reads otherwise
        ("http://json-schema.org/draft-04/schema#", []),
        ("http://json-schema.org/draft/2020-12/schema", []),  # 2020-12 under http: validators accept it
        ("https://example.com/my-dialect", ["TC412"]),  # no validator knows it
    ):
        text = HEAD + f"input_schema:\n  $schema: '{dialect}'\n  type: object\n  additionalProperties: false\n"
        assert [rule for rule, _, _ in tc4(text)] == expected, dialect


def test_semantic_rule_duplicates_and_missing_parts() -> None:
    text = HEAD + """\
input_schema: {type: object, properties: {city: {type: string, description: City.}}, additionalProperties: false}
semantic_rules:
  - id: one
    message: First.
    if: {required: [city]}
    then: {required: [city]}
  - id: one
    message: Second.
    then: {required: [city]}
"""
    found = tc4(text, "TC413")
    assert [(line, msg) for _, line, msg in found] == [
        (10, "semantic rule 2 has no `if`: it never applies"),
        (10, "semantic rule id 'one' is also used at line 6"),
    ]


def test_ref_only_property_documented_by_its_target() -> None:
    text = HEAD + """\
input_schema:
  type: object
  properties:
    home: {$ref: "#/$defs/place"}
    work: {$ref: "#/$defs/bare"}
  additionalProperties: false
  $defs:
    place: {type: string, description: A city name.}
    bare: {type: string}
"""
    assert [(rule, line) for rule, line, _ in tc4(text)] == [("TC404", 8)]
