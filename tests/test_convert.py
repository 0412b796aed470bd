"""`toolcontract convert` and `toolcontract.convert`: every writer, round trips, the official
MCP schema, no silent drops, and the command line end to end."""

from __future__ import annotations

import copy
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, UNSAFE_OUTPUT, assert_one_line_error, examples, good_fixtures, has_module
from toolcontract.cli import app
from toolcontract.convert import (
    LABELS,
    TARGETS,
    Conversion,
    convert,
    mcp_annotations,
    openai_strict_compatible,
    render,
)
from toolcontract.core.descriptor import CONTRACT_FIELDS, ToolView, model_description
from toolcontract.io.document import Document, load_bytes, load_text
from toolcontract.io.reader import FORMATS, read_tools

PROVIDERS = tuple(t for t in TARGETS if t != "native")
REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference"
MCP_SCHEMA = REFERENCE / "mcp-schema-2025-11-25.json"

INPUT = {
    "type": "object",
    "properties": {
        "document_id": {"type": "string", "description": "Document identifier."},
        "field": {"type": "string", "enum": ["status", "title"], "description": "Field to change."},
        "value": {"type": "string", "description": "New value."},
        "expected_version": {"type": "string", "description": "Version observed before the change."},
    },
    "required": ["document_id", "field", "value", "expected_version"],
    "additionalProperties": False,
}
OUTPUT = {
    "type": "object",
    "properties": {"version": {"type": "string", "description": "The document version after the change."}},
    "required": ["version"],
    "additionalProperties": False,
}

# every field of the format, and an extension field; no `description`, so it is built
MAXIMAL = {
    "toolcontract": 1,
    "name": "document_update_metadata",
    "title": "Update document metadata",
    "version": "1.2.0",
    "purpose": "Change one metadata field of a located document.",
    "when_to_use": "The task names the document and the field to change.",
    "non_goals": ["Does not change body text.", "Does not publish the document."],
    "effect": "reversible_write",
    "limitations": ["Cannot cross projects."],
    "input_schema": INPUT,
    "output_schema": OUTPUT,
    "target": {"id": "/document_id", "version": "/expected_version", "fields": "/field"},
    "semantic_rules": [{"id": "r1", "message": "m", "if": {"required": ["field"]}, "then": {"required": ["value"]}}],
    "approval": "required",
    "observation": "Read back the field and the document version.",
    "annotations": {"title": "Update metadata", "idempotentHint": True},
    "examples": [{"document_id": "chapter-11", "field": "status", "value": "reviewed", "expected_version": "7"}],
    "x-owner": "docs-team",
}
# the same with a written description: purpose, when_to_use and non_goals are then not carried
DESCRIBED = {**MAXIMAL, "description": "Change one metadata field (status or title) of a located document."}
assert set(CONTRACT_FIELDS) <= set(DESCRIBED)

# where each provider target puts a native field, as (native field, how to read it back from one written tool)
CARRIES = {
    "mcp": {
        "name": lambda t: t["name"], "title": lambda t: t["title"], "description": lambda t: t["description"],
        "input_schema": lambda t: t["inputSchema"], "output_schema": lambda t: t["outputSchema"],
        "annotations": lambda t: t["annotations"], "effect": lambda t: t["annotations"],
    },
    "openai-chat": {
        "name": lambda t: t["function"]["name"], "description": lambda t: t["function"]["description"],
        "input_schema": lambda t: t["function"]["parameters"],
    },
    "openai-responses": {
        "name": lambda t: t["name"], "description": lambda t: t["description"],
        "input_schema": lambda t: t["parameters"], "output_schema": lambda t: t["output_schema"],
    },
    "anthropic": {
        "name": lambda t: t["name"], "description": lambda t: t["description"],
        "input_schema": lambda t: t["input_schema"], "examples": lambda t: t["input_examples"],
    },
    "gemini": {
        "name": lambda t: t["name"], "description": lambda t: t["description"],
        "input_schema": lambda t: t["parametersJsonSchema"], "output_schema": lambda t: t["responseJsonSchema"],
    },
}
FOLDED = ("purpose", "when_to_use", "non_goals")  # carried by the built description


def tools_of(document, to: str) -> list[dict]:
    """The tool objects of a written document."""
    if to == "mcp":
        return document["tools"]
    if to == "gemini":
        return document["functionDeclarations"]
    if to == "native":
        return document["tools"] if "tools" in document else [document]
    return document


def good_tools() -> list[dict]:
    found = []
    for path in good_fixtures():
        found.extend(v.data for v in read_tools(load_bytes(path.read_bytes(), str(path))).tools)
    return found


def describe(data: dict) -> str:
    return model_description(ToolView(data, Document("x", "", data), ""))


def warned(conversion: Conversion) -> set[str]:
    return {w.field.split(".", 1)[0] for w in conversion.warnings}


# ------------------------------------------------------------------ writers


def test_mcp_writer():
    conversion = convert([MAXIMAL], "mcp")
    assert conversion.document == {"tools": [{
        "name": "document_update_metadata",
        "title": "Update document metadata",
        "description": describe(MAXIMAL),
        "inputSchema": INPUT,
        "outputSchema": OUTPUT,
        "annotations": {"title": "Update metadata", "readOnlyHint": False, "destructiveHint": False,
                        "idempotentHint": True, "openWorldHint": False},
    }]}


def test_openai_chat_writer():
    conversion = convert([MAXIMAL], "openai-chat")
    assert conversion.document == [{
        "type": "function",
        "function": {"name": "document_update_metadata", "description": describe(MAXIMAL), "parameters": INPUT,
                     "strict": True},
    }]


def test_openai_responses_writer():
    conversion = convert([MAXIMAL], "openai-responses")
    assert conversion.document == [{
        "type": "function", "name": "document_update_metadata", "description": describe(MAXIMAL),
        "parameters": INPUT, "strict": True, "output_schema": OUTPUT,
    }]


def test_anthropic_writer():
    conversion = convert([MAXIMAL], "anthropic")
    assert conversion.document == [{
        "name": "document_update_metadata", "description": describe(MAXIMAL), "input_schema": INPUT,
        "input_examples": MAXIMAL["examples"],
    }]


def test_gemini_writer_uses_json_schema_not_the_openapi_subset():
    conversion = convert([MAXIMAL], "gemini")
    assert conversion.document == {"functionDeclarations": [{
        "name": "document_update_metadata", "description": describe(MAXIMAL),
        "parametersJsonSchema": INPUT, "responseJsonSchema": OUTPUT,
    }]}
    assert "parameters" not in conversion.document["functionDeclarations"][0]


def test_native_writer_one_tool_is_one_descriptor():
    conversion = convert([MAXIMAL], "native")
    assert conversion.warnings == []
    assert conversion.document == MAXIMAL
    assert list(conversion.document)[:3] == ["toolcontract", "name", "title"]


def test_native_writer_several_tools_are_a_list_in_the_formats_field_order():
    shuffled = dict(reversed(list(MAXIMAL.items())))
    conversion = convert([shuffled, {"name": "b", "toolcontract": 1}], "native")
    assert conversion.warnings == []
    assert list(conversion.document) == ["toolcontract", "tools"]
    first, second = conversion.document["tools"]
    assert list(first) == [k for k in CONTRACT_FIELDS if k in MAXIMAL] + ["x-owner"]
    assert second == {"name": "b"}  # the format version is the document's, not each tool's


def test_no_tools():
    assert convert([], "mcp").document == {"tools": []}
    assert convert([], "openai-chat").document == []
    assert convert([], "gemini").document == {"functionDeclarations": []}
    assert convert([], "native").document == {"toolcontract": 1, "tools": []}


def test_unknown_target():
    with pytest.raises(ValueError, match="unknown target"):
        convert([MAXIMAL], "openai")


@pytest.mark.parametrize("to", TARGETS)
def test_convert_leaves_its_input_alone_and_shares_nothing_with_it(to):
    data = copy.deepcopy(DESCRIBED)
    conversion = convert([data], to)
    assert data == DESCRIBED
    for tool in tools_of(conversion.document, to):
        tool_text = json.dumps(tool)
        for value in tool.values():
            if isinstance(value, dict):
                value["mutated"] = True
    assert data == DESCRIBED and "mutated" not in tool_text


# -------------------------------------------------------------- description


@pytest.mark.parametrize("to", PROVIDERS)
def test_description_is_built_from_purpose_when_to_use_and_non_goals(to):
    conversion = convert([MAXIMAL], to)
    text = CARRIES[to]["description"](tools_of(conversion.document, to)[0])
    assert text == (
        "Change one metadata field of a located document. Use it when: The task names the document and the "
        "field to change. Do not use it for the following. Does not change body text. Does not publish the document."
    )
    assert not warned(conversion) & set(FOLDED)


@pytest.mark.parametrize("to", PROVIDERS)
def test_a_written_description_is_used_and_the_parts_are_warned_about(to):
    conversion = convert([DESCRIBED], to)
    assert CARRIES[to]["description"](tools_of(conversion.document, to)[0]) == DESCRIBED["description"]
    assert set(FOLDED) <= warned(conversion)
    message = next(w.message for w in conversion.warnings if w.field == "non_goals")
    assert "`description` is given" in message


def test_a_blank_description_is_replaced_and_said_so():
    conversion = convert([{**MAXIMAL, "description": "  "}], "mcp")
    assert conversion.document["tools"][0]["description"] == describe(MAXIMAL)
    assert [w.field for w in conversion.warnings if w.field == "description"] == ["description"]


def test_no_text_at_all_writes_no_description():
    conversion = convert([{"name": "ping", "effect": "pure", "input_schema": {"type": "object"}}], "mcp")
    assert "description" not in conversion.document["tools"][0]


# ------------------------------------------------------------ annotations


@pytest.mark.parametrize(
    ("effect", "expected"),
    [
        ("pure", {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}),
        ("read", {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}),
        ("reversible_write", {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False}),
        ("irreversible_write", {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False}),
        ("open_world", {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": True}),
    ],
)
def test_effect_class_becomes_annotations(effect, expected):
    assert mcp_annotations(effect, None) == (expected, [])
    conversion = convert([{"name": "t", "effect": effect, "input_schema": {"type": "object"}}], "mcp")
    assert conversion.document["tools"][0]["annotations"] == expected
    assert conversion.warnings == []


def test_written_annotations_win_where_the_effect_only_suggests():
    # a read tool that reaches the open web says so; a reversible write may be destructive and idempotent
    assert mcp_annotations("read", {"openWorldHint": True})[0]["openWorldHint"] is True
    notes, problems = mcp_annotations("reversible_write", {"destructiveHint": True, "idempotentHint": True})
    assert notes == {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": False}
    assert problems == []


@pytest.mark.parametrize(
    ("effect", "written", "key", "value"),
    [
        ("reversible_write", {"readOnlyHint": True}, "readOnlyHint", False),
        ("read", {"readOnlyHint": False}, "readOnlyHint", True),
        ("irreversible_write", {"destructiveHint": False}, "destructiveHint", True),
        ("open_world", {"openWorldHint": False}, "openWorldHint", True),
        ("pure", {"openWorldHint": True}, "openWorldHint", False),
    ],
)
def test_an_annotation_against_the_effect_class_is_replaced_with_a_warning(effect, written, key, value):
    conversion = convert([{"name": "t", "effect": effect, "annotations": written, "input_schema": {"type": "object"}}], "mcp")
    assert conversion.document["tools"][0]["annotations"][key] is value
    assert [(w.field, w.tool) for w in conversion.warnings] == [(f"annotations.{key}", "t")]
    assert effect in conversion.warnings[0].message


def test_without_an_effect_written_annotations_are_kept_as_they_are():
    written = {"readOnlyHint": True, "custom": 1}
    conversion = convert([{"name": "t", "annotations": written, "input_schema": {"type": "object"}}], "mcp")
    assert conversion.document["tools"][0]["annotations"] == written
    bare = convert([{"name": "t", "input_schema": {"type": "object"}}], "mcp")
    assert "annotations" not in bare.document["tools"][0]


def test_a_bad_effect_or_annotations_value_is_warned_about():
    conversion = convert([{"name": "t", "effect": "write", "annotations": "yes", "input_schema": {"type": "object"}}], "mcp")
    assert "annotations" not in conversion.document["tools"][0]
    assert {w.field for w in conversion.warnings} == {"effect", "annotations"}


# ------------------------------------------------------------------ strict


STRICT_OK = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City."},
        "when": {"type": ["string", "null"], "format": "date"},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 3},
        "where": {"anyOf": [{"$ref": "#/$defs/point"}, {"type": "null"}]},
    },
    "required": ["city", "when", "tags", "where"],
    "additionalProperties": False,
    "$defs": {"point": {"type": "object", "properties": {"lat": {"type": "number", "minimum": -90}},
                        "required": ["lat"], "additionalProperties": False}},
}


def _with(schema: dict, path: tuple, value) -> dict:
    schema = copy.deepcopy(schema)
    node = schema
    for key in path[:-1]:
        node = node[key]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return schema


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("required",), ["city", "when", "tags"]),  # an optional property
        (("additionalProperties",), None),  # an open object
        (("$defs", "point", "additionalProperties"), True),
        (("properties", "city", "minLength"), 1),  # not in the documented subset
        (("properties", "when", "format"), "uri"),
        (("properties", "city", "oneOf"), [{"type": "string"}]),
        (("properties", "where", "anyOf", 0, "$ref"), "https://example.com/point.json"),
        (("properties", "tags", "items"), [{"type": "string"}]),  # tuple form
        (("type",), "array"),
        (("anyOf",), [{"type": "object"}]),  # root combinator
    ],
)
def test_strict_compatibility_is_judged_conservatively(path, value):
    assert openai_strict_compatible(STRICT_OK)
    assert not openai_strict_compatible(_with(STRICT_OK, path, value))


def test_strict_nesting_limit():
    schema: dict = {"type": "string"}
    for _ in range(10):
        schema = {"type": "object", "properties": {"x": schema}, "required": ["x"], "additionalProperties": False}
    assert not openai_strict_compatible(schema)
    assert openai_strict_compatible(schema["properties"]["x"])


def test_strict_with_odd_values_is_false_not_an_error():
    assert not openai_strict_compatible({"type": "object", "properties": {}, "required": [{}], "additionalProperties": False})
    assert not openai_strict_compatible(None)
    assert openai_strict_compatible({"type": "object", "properties": {}, "required": [], "additionalProperties": False})


def test_strict_flag_per_openai_api():
    loose = {"name": "t", "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    strict = {"name": "t", "input_schema": STRICT_OK}
    assert "strict" not in convert([loose], "openai-chat").document[0]["function"]  # Chat defaults to false
    assert convert([strict], "openai-chat").document[0]["function"]["strict"] is True
    assert convert([loose], "openai-responses").document[0]["strict"] is False  # opt out of best-effort strict
    assert convert([strict], "openai-responses").document[0]["strict"] is True


# ------------------------------------------------------------------ examples


def test_examples_that_anthropic_would_refuse_are_left_out_with_a_warning():
    examples = [MAXIMAL["examples"][0], {"document_id": "x"}, "not an object"]
    conversion = convert([{**MAXIMAL, "examples": examples}], "anthropic")
    assert conversion.document[0]["input_examples"] == [examples[0]]
    assert sorted(w.field for w in conversion.warnings if w.field.startswith("examples")) == ["examples.1", "examples.2"]


def test_no_valid_example_writes_no_input_examples():
    conversion = convert([{**MAXIMAL, "examples": [{"document_id": 3}]}], "anthropic")
    assert "input_examples" not in conversion.document[0]
    assert "examples.0" in {w.field for w in conversion.warnings}


def test_examples_are_not_checked_against_a_schema_that_does_not_compile():
    conversion = convert([{"name": "t", "input_schema": {"type": "object", "pattern": "("}, "examples": [{}]}], "anthropic")
    assert "input_examples" not in conversion.document[0]
    assert "cannot be compiled" in next(w.message for w in conversion.warnings if w.field == "examples.0")


# ---------------------------------------------------------- required parts


@pytest.mark.parametrize("to", ["mcp", "anthropic", "openai-responses"])
def test_a_missing_input_schema_is_filled_in_where_required_and_said_so(to):
    conversion = convert([{"name": "t", "description": "d"}], to)
    tool = tools_of(conversion.document, to)[0]
    assert CARRIES[to]["input_schema"](tool) == {"type": "object"}
    assert [w.field for w in conversion.warnings] == ["input_schema"]


@pytest.mark.parametrize("to", ["openai-chat", "gemini"])
def test_a_missing_input_schema_is_left_out_where_optional(to):
    conversion = convert([{"name": "t", "description": "d"}], to)
    assert conversion.warnings == []
    tool = tools_of(conversion.document, to)[0]
    assert "parameters" not in tool.get("function", tool) and "parametersJsonSchema" not in tool


@pytest.mark.parametrize("to", PROVIDERS)
def test_a_name_the_surface_refuses_is_warned_about(to):
    name = "files/read:" + "x" * 130
    conversion = convert([{"name": name, "description": "d", "input_schema": {"type": "object"}}], to)
    assert CARRIES[to]["name"](tools_of(conversion.document, to)[0]) == name  # written unchanged
    assert [w.field for w in conversion.warnings] == ["name"]
    assert LABELS[to] in conversion.warnings[0].message


@pytest.mark.parametrize("to", PROVIDERS)
def test_no_name(to):
    conversion = convert([{"description": "d", "input_schema": {"type": "object"}}, {"name": 3}], to)
    fields = [(w.tool, w.field) for w in conversion.warnings]
    assert ("#1", "name") in fields and ("#2", "name") in fields


@pytest.mark.parametrize("to", ["openai-chat", "openai-responses", "anthropic"])
def test_root_combinators_are_warned_about_where_refused(to):
    schema = {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}
    conversion = convert([{"name": "t", "description": "d", "input_schema": schema}], to)
    assert CARRIES[to]["input_schema"](tools_of(conversion.document, to)[0]) == schema
    assert "`anyOf` at the root" in conversion.warnings[0].message


@pytest.mark.parametrize("to", PROVIDERS)
def test_a_root_that_is_not_an_object_is_warned_about(to):
    conversion = convert([{"name": "t", "description": "d", "input_schema": {"type": "string"}}], to)
    assert [w.field for w in conversion.warnings] == ["input_schema"]


def test_mcp_output_schema_must_have_an_object_root():
    conversion = convert([{"name": "t", "description": "d", "input_schema": {"type": "object"},
                           "output_schema": {"type": "array"}}], "mcp")
    assert "outputSchema" not in conversion.document["tools"][0]
    assert [w.field for w in conversion.warnings] == ["output_schema"]


# ------------------------------------------------------------- no silent drops


@pytest.mark.parametrize("base", [MAXIMAL, DESCRIBED], ids=["built-description", "written-description"])
@pytest.mark.parametrize("to", PROVIDERS)
def test_every_field_is_written_or_warned_about(to, base):
    conversion = convert([base], to)
    tool = tools_of(conversion.document, to)[0]
    fields = set(base) - {"toolcontract"}
    carried = set(CARRIES[to]) | (set(FOLDED) if "description" not in base else set())
    for field in carried & fields:
        CARRIES[to].get(field, CARRIES[to]["description"])(tool)  # present in the output
    assert warned(conversion) == fields - carried, "each field is either carried or warned about, never both"
    assert all(w.tool == base["name"] and w.message for w in conversion.warnings)


def test_unknown_fields_are_warned_about_too():
    conversion = convert([{"name": "t", "description": "d", "input_schema": {"type": "object"}, "efect": "read"}], "mcp")
    assert [(w.field, w.message) for w in conversion.warnings] == [("efect", "not a descriptor field; not written")]


def test_native_keeps_everything_even_unknown_fields():
    data = {**DESCRIBED, "efect": "read"}
    conversion = convert([data], "native")
    assert conversion.warnings == [] and conversion.document == data


# ------------------------------------------------------------- round trips


def read_back(document, path: str = "converted.json") -> tuple[str | None, list[dict]]:
    """Native-named data of a written document, through the readers (auto-detected)."""
    read = read_tools(load_text(json.dumps(document), path))
    return read.format, [view.data for view in read.tools]


def expected_back(data: dict, to: str) -> dict:
    """What a reader of format `to` gets back: the fields `to` carries."""
    if to == "native":
        return {k: v for k, v in data.items() if k != "toolcontract"}
    out = {"name": data["name"], "description": describe(data), "input_schema": data.get("input_schema", {"type": "object"})}
    if to == "openai-chat" and "input_schema" not in data:
        del out["input_schema"]
    if to == "gemini" and "input_schema" not in data:
        del out["input_schema"]
    if to == "mcp":
        if "title" in data:
            out["title"] = data["title"]
        annotations = mcp_annotations(data.get("effect"), data.get("annotations"))[0]
        if annotations:
            out["annotations"] = annotations
    if to in ("mcp", "openai-responses", "gemini") and "output_schema" in data:
        out["output_schema"] = data["output_schema"]
    if to == "anthropic" and "examples" in data:
        out["examples"] = data["examples"]
    return out


ROUND_TRIP_TOOLS = [MAXIMAL, DESCRIBED, *good_tools()]


@pytest.mark.parametrize("to", TARGETS)
def test_round_trip_native_to_x_to_native_keeps_what_x_can_express(to):
    if to not in FORMATS:
        pytest.skip(f"no {to} reader in toolcontract.io.reader.FORMATS yet")
    conversion = convert(ROUND_TRIP_TOOLS, to)
    fmt, back = read_back(conversion.document)
    assert fmt == to
    assert len(back) == len(ROUND_TRIP_TOOLS)
    for original, got in zip(ROUND_TRIP_TOOLS, back):
        expected = expected_back(original, to)
        kept = {k: got[k] for k in expected if k in got}
        assert kept == expected, original["name"]
        if to == "native":
            assert got == expected


@pytest.mark.parametrize("to", [t for t in PROVIDERS])
def test_round_trip_x_to_native_to_x_is_stable(to):
    if to not in FORMATS:
        pytest.skip(f"no {to} reader in toolcontract.io.reader.FORMATS yet")
    first = convert(ROUND_TRIP_TOOLS, to).document
    _, back = read_back(first)
    second = convert(back, to).document
    assert second == first


@pytest.mark.parametrize("to", TARGETS)
def test_written_documents_are_json(to):
    conversion = convert(ROUND_TRIP_TOOLS, to)
    assert json.loads(render(conversion.document)) == conversion.document


# ----------------------------------------------------- official MCP schema


@pytest.fixture(scope="module")
def mcp_tool_validator():
    if not MCP_SCHEMA.is_file():
        pytest.skip(f"the official MCP schema is not at {MCP_SCHEMA}")
    import jsonschema
    import referencing

    schema = json.loads(MCP_SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "Tool" in schema["$defs"] and "ListToolsResult" in schema["$defs"]
    root = {"$schema": schema["$schema"], "$defs": schema["$defs"]}
    # an empty registry: a `$ref` outside the file would fail instead of being fetched
    registry = referencing.Registry()
    tool = jsonschema.Draft202012Validator({**root, "$ref": "#/$defs/Tool"}, registry=registry)
    listing = jsonschema.Draft202012Validator({**root, "$ref": "#/$defs/ListToolsResult"}, registry=registry)
    return tool, listing


EDGE_TOOLS = [
    {"name": "bare"},  # no schema, no text, no effect
    {"name": "ping", "effect": "pure", "annotations": {"readOnlyHint": False}},
    {"name": "send_mail", "effect": "open_world", "purpose": "Send one email.",
     "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]},
     "output_schema": {"type": "string"}},
]


@pytest.mark.parametrize("tool", [MAXIMAL, DESCRIBED, *good_tools(), *EDGE_TOOLS], ids=lambda t: t["name"])
def test_mcp_output_validates_against_the_official_tool_definition(tool, mcp_tool_validator):
    tool_validator, listing_validator = mcp_tool_validator
    document = convert([tool], "mcp").document
    for written in document["tools"]:
        errors = [e.message for e in tool_validator.iter_errors(written)]
        assert errors == [], errors
    assert not list(listing_validator.iter_errors(document))


def test_the_schema_check_really_checks(mcp_tool_validator):
    tool_validator, _ = mcp_tool_validator
    written = convert([MAXIMAL], "mcp").document["tools"][0]
    assert not tool_validator.is_valid({k: v for k, v in written.items() if k != "inputSchema"})
    assert not tool_validator.is_valid({**written, "inputSchema": {"type": "array"}})
    assert not tool_validator.is_valid({**written, "annotations": {"readOnlyHint": "yes"}})


# ------------------------------------------------------------------- YAML


TRICKY = ["0o17", "0x1F", "1.2.0", "1e3", "yes", "no", "on", "null", "~", "", "true", ".nan", "-.inf", "+1",
          "multi\nline\n", "  leading", "trailing  ", "# not a comment", "key: value", "- item", "'quoted'",
          "tab\there", "caf\u00e9", "\u2028", "\x85", "\ufeff", "\x07bell", "=", "<<", "!tag", "&anchor", "*alias"]


def test_yaml_output_reads_back_as_the_same_data():
    data = {"toolcontract": 1, "name": "t", "x-strings": TRICKY, "x-keys": {s: s for s in TRICKY},
            "x-numbers": [0, -1, 1.5, 1e20, 12345678901234567890, True, False, None]}
    text = render(data, as_yaml=True)
    assert load_text(text, "t.yaml").data == data


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.long
@settings(max_examples=examples(200), deadline=None)
@given(st.dictionaries(st.text(min_size=1), json_values, max_size=5))
def test_yaml_output_round_trips_any_json_data(extra):
    data = {"toolcontract": 1, "name": "t", **{f"x-{k}": v for k, v in extra.items()}}
    assert load_text(render(data, as_yaml=True), "t.yaml").data == data


# -------------------------------------------------------------------- CLI


def run(runner, *args, input=None):
    result = runner.invoke(app, ["convert", *map(str, args)], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


WARNING_LINE = r"(?P<path>.+): warning: tool (?P<tool>.+): field (?P<field>\S+): (?P<message>.+)\Z"
WEATHER = REPO / "fixtures" / "descriptors" / "good" / "weather_current.json"
METADATA = REPO / "fixtures" / "descriptors" / "good" / "document_update_metadata.yaml"


def test_cli_default_is_mcp_on_stdout_with_warnings_on_stderr(runner):
    import re

    result = run(runner, METADATA, "-v")  # -v: one line per field (issue 17: one line per tool without it)
    assert result.exit_code == 0
    data = load_bytes(METADATA.read_bytes(), str(METADATA)).data
    expected = convert([data], "mcp")
    assert json.loads(result.stdout) == expected.document
    lines = result.stderr.splitlines()
    assert len(lines) == len(expected.warnings) > 0
    for line, warning in zip(lines, expected.warnings):
        match = re.match(WARNING_LINE, line)
        assert match, line
        assert (match["path"], match["tool"], match["field"], match["message"]) == \
            (str(METADATA), warning.tool, warning.field, warning.message)


@pytest.mark.parametrize("to", TARGETS)
def test_cli_every_target(runner, tmp_path, to):
    out = tmp_path / "out.json"
    result = run(runner, METADATA, "--to", to, "-o", out)
    assert result.exit_code == 0
    assert result.stdout == ""
    data = load_bytes(METADATA.read_bytes(), str(METADATA)).data
    assert json.loads(out.read_text(encoding="utf-8")) == convert([data], to).document
    assert out.read_text(encoding="utf-8").endswith("}\n") or out.read_text(encoding="utf-8").endswith("]\n")
    assert (to == "native") == (result.stderr == "")


def test_cli_native_yaml_when_out_says_so(runner, tmp_path):
    out = tmp_path / "weather.yaml"
    result = run(runner, WEATHER, "--to", "native", "-o", out)
    assert result.exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("toolcontract: 1\nname: weather_current\n")
    assert load_text(text, str(out)).data == json.loads(WEATHER.read_text(encoding="utf-8"))
    # and the result lints like the original
    lint = runner.invoke(app, ["lint", str(out), "--format", "json"])
    assert lint.exit_code == 0, lint.stdout


def test_cli_provider_targets_stay_json_whatever_the_name(runner, tmp_path):
    out = tmp_path / "tools.yaml"
    assert run(runner, WEATHER, "-o", out).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["tools"][0]["name"] == "weather_current"


def test_cli_stdin_and_dash_output(runner):
    result = run(runner, "-", "--to", "anthropic", "-o", "-", input=WEATHER.read_text(encoding="utf-8"))
    assert result.exit_code == 0
    assert json.loads(result.stdout)[0]["input_examples"] == [{"place": "Lyon"}, {"place": "Denver, CO", "units": "imperial"}]
    assert all(line.startswith("<stdin>: warning: tool weather_current: ") for line in result.stderr.splitlines())


def test_cli_replaces_out_whole_and_keeps_its_mode(runner, tmp_path):
    out = tmp_path / "out.json"
    out.write_text("old")
    out.chmod(0o640)
    assert run(runner, WEATHER, "-o", out).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["tools"][0]["name"] == "weather_current"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary file left behind


def test_cli_writes_through_a_symlink(runner, tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert run(runner, WEATHER, "-o", link).exit_code == 0
    assert link.is_symlink()
    assert json.loads(real.read_text(encoding="utf-8"))["tools"]


BAD_INPUTS = {
    "broken.yaml": ("toolcontract: 1\nname: [oops\n", r"broken\.yaml:3:1: YAML: "),
    "broken.json": ('{"tools": [}', r"broken\.json:1:12: JSON: "),
    "empty.yaml": ("", r"empty\.yaml:1:1: "),
    "scalar.yaml": ("just text\n", r"scalar\.yaml:1:1: "),
    "tools.yaml": ("toolcontract: 1\ntools: nope\n", r"tools\.yaml:2:\d+: "),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_cli_bad_input_is_exit_2_with_a_position_and_out_untouched(runner, tmp_path, name):
    import re

    text, pattern = BAD_INPUTS[name]
    source = tmp_path / name
    source.write_text(text)
    out = tmp_path / "out.json"
    out.write_text("keep me")
    result = run(runner, source, "-o", out)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert re.match(str(tmp_path).replace("\\", "\\\\") + "/" + pattern, result.stderr), result.stderr
    assert out.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "out.json"])
    assert result.stdout == ""


def test_cli_entries_that_are_not_descriptors_are_warned_about_with_their_position(runner, tmp_path):
    source = tmp_path / "t.json"
    source.write_text('{"toolcontract": 1, "tools": [\n  1,\n  {"name": "a", "description": "d", "input_schema": {"type": "object"}}\n]}\n')
    result = run(runner, source, "--to", "gemini")
    assert result.exit_code == 0
    assert [t["name"] for t in json.loads(result.stdout)["functionDeclarations"]] == ["a"]
    assert result.stderr == f"{source}:2:3: warning: entry 1 of the tool list is not a descriptor; not converted\n"


def test_cli_repeated_keys_are_warned_about(runner, tmp_path):
    source = tmp_path / "t.yaml"
    source.write_text("toolcontract: 1\nname: a\ndescription: d\ndescription: e\ninput_schema: {type: object}\n")
    result = run(runner, source)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["tools"][0]["description"] == "e"
    assert result.stderr.startswith(f"{source}:4:1: warning: key 'description' repeats the one at line 3")


@pytest.mark.parametrize(
    "args",
    [
        [],  # no input
        ["x.json", "--mcp-stdio", "server"],  # two inputs
        ["x.json", "--mcp-timeout", "3"],  # a timeout without a server
        ["x.json", "--to", "openai"],
        ["does/not/exist.json"],
        [str(REPO / "fixtures")],  # a folder
        [str(WEATHER), "--input-format", "nope"],
    ],
    ids=lambda a: " ".join(a) or "nothing",
)
def test_cli_usage_errors(runner, args):
    result = run(runner, *args)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stdout == ""


def test_cli_unwritable_out_is_exit_2_and_leaves_nothing(runner, tmp_path):
    result = run(runner, WEATHER, "-o", tmp_path / "missing" / "out.json")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"{tmp_path / 'missing' / 'out.json'}:1:1: cannot write")
    folder = run(runner, WEATHER, "-o", tmp_path)
    assert folder.exit_code == 2
    assert list(tmp_path.iterdir()) == []


def test_cli_a_value_json_cannot_hold_is_exit_2(runner, tmp_path):
    source = tmp_path / "t.yaml"
    source.write_text("toolcontract: 1\nname: a\ninput_schema: {type: object, properties: {n: {type: number, maximum: .inf}}}\n")
    out = tmp_path / "out.json"
    result = run(runner, source, "-o", out)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert not out.exists()
    assert run(runner, source, "--to", "native", "-o", tmp_path / "t2.yaml").exit_code == 0  # YAML can


def test_cli_warnings_never_carry_terminal_controls(runner, tmp_path):
    source = tmp_path / "t.json"
    hostile = "evil\x1b[31m\u202e\x07"
    source.write_text(json.dumps({"toolcontract": 1, "name": hostile, "x-\x1b]0;t\x07": 1, "input_schema": {"type": "object"}}))
    result = run(runner, source, "--to", "openai-chat")
    assert result.exit_code == 0
    assert result.stderr.count("\n") == 1  # one line for the tool: the name and the extension field
    assert not UNSAFE_OUTPUT.search(result.stderr)
    result = run(runner, source, "--to", "openai-chat", "-v")
    assert result.stderr.count("\n") == 2  # the name and the extension field
    assert not UNSAFE_OUTPUT.search(result.stderr)
    assert json.loads(result.stdout)[0]["function"]["name"] == hostile  # the output keeps the data as it is


def _process(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "toolcontract", "convert", *map(str, args)],
        capture_output=True, text=True, cwd=REPO, input=stdin, timeout=120,
        env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1"},
    )


def test_process_end_to_end(tmp_path):
    out = tmp_path / "tools.json"
    done = _process(METADATA, "--to", "openai-responses", "-o", out, "-v")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))[0]["name"] == "document_update_metadata"
    assert all(" warning: tool document_update_metadata: field " in line for line in done.stderr.splitlines())


def test_process_bad_input_is_one_line():
    done = _process("-", stdin="{not json")
    assert done.returncode == 2
    assert_one_line_error(done.stderr)
    assert done.stderr.startswith("<stdin>:1:2: JSON: ")


# ------------------------------------------------------------ live MCP


def _server(name: str) -> str | None:
    found = shutil.which(name) or shutil.which(name, path=os.path.dirname(sys.executable))
    return found


@pytest.mark.skipif(not has_module("mcp") or _server("mcp-server-time") is None, reason="needs the [mcp] extra and mcp-server-time")
def test_cli_saves_a_live_servers_tool_list(runner, tmp_path):
    out = tmp_path / "time.json"
    result = run(runner, "--mcp-stdio", _server("mcp-server-time"), "--mcp-timeout", "60", "-o", out)
    assert result.exit_code == 0, result.stderr
    names = [t["name"] for t in json.loads(out.read_text(encoding="utf-8"))["tools"]]
    assert "get_current_time" in names


@pytest.mark.skipif(not has_module("mcp"), reason="needs the [mcp] extra")
def test_cli_a_server_that_does_not_start_is_exit_2(runner, tmp_path):
    out = tmp_path / "out.json"
    result = run(runner, "--mcp-stdio", "/nonexistent/server --flag", "--mcp-timeout", "10", "-o", out)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith("mcp-stdio:")
    assert not out.exists()


def test_a_lone_surrogate_is_refused_with_its_position(runner, tmp_path):
    # no character at all: every JSON reader refuses it, as lint does (TC000), and nothing is written
    source = tmp_path / "t.json"
    source.write_text('{"toolcontract": 1, "name": "a", "description": "x\\ud800y", "input_schema": {"type": "object"}}')
    for extra in ((), ("--to", "native", "-o", tmp_path / "t.yaml"), ("-o", tmp_path / "out.json")):
        result = run(runner, source, *extra)
        assert result.exit_code == 2
        assert_one_line_error(result.stderr)
        assert f"{source}:1:51: " in result.stderr and "lone surrogate" in result.stderr
    assert not (tmp_path / "t.yaml").exists() and not (tmp_path / "out.json").exists()


# ------------------------------------------------------------ provider input


MCP_LIST = {
    "tools": [
        {
            "name": "get_weather",
            "title": "Weather",
            "description": "Current weather at one place.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "annotations": {"readOnlyHint": True, "openWorldHint": True},
            "icons": [{"src": "https://example.com/w.png"}],
            "execution": {"taskSupport": "forbidden"},
            "_meta": {"x": 1},
        }
    ]
}


def test_provider_members_without_a_native_field_are_warned_about(runner, tmp_path):
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(MCP_LIST, indent=2))
    result = run(runner, source, "--to", "native", "-v")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "toolcontract": 1, "name": "get_weather", "title": "Weather", "description": "Current weather at one place.",
        "effect": "read",  # derived from readOnlyHint
        "input_schema": MCP_LIST["tools"][0]["inputSchema"], "annotations": {"readOnlyHint": True, "openWorldHint": True},
    }
    fields = [line.split(": field ", 1)[1].split(":", 1)[0] for line in result.stderr.splitlines()]
    assert fields == ["icons", "execution", "_meta"]
    assert all(line.startswith(f"{source}: warning: tool get_weather: field ") for line in result.stderr.splitlines())


@pytest.mark.parametrize(
    ("document", "fields"),
    [
        ([{"type": "function", "function": {"name": "a", "parameters": {"type": "object"}, "strict": True}}], ["function.strict"]),
        ([{"type": "function", "name": "a", "parameters": {"type": "object"}, "strict": False, "defer_loading": True}],
         ["strict", "defer_loading"]),
        ([{"name": "a", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}}], ["cache_control"]),
        ({"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT"}, "behavior": "BLOCKING"}]}, ["behavior"]),
    ],
    ids=["openai-chat", "openai-responses", "anthropic", "gemini"],
)
def test_every_provider_reader_loss_is_a_warning(runner, tmp_path, document, fields):
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(document))
    result = run(runner, source, "--to", "native", "-v")
    assert result.exit_code == 0
    assert [line.split(": field ", 1)[1].split(":", 1)[0] for line in result.stderr.splitlines()] == fields


@pytest.mark.parametrize(
    "document",
    [
        {"tools": [{"googleSearch": {}}, {"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT"}}]}]},
        [{"type": "web_search"}, {"type": "function", "name": "a", "parameters": {"type": "object"}, "strict": False}],
    ],
    ids=["gemini", "openai-responses"],
)
def test_built_in_tools_are_warned_about_not_dropped(runner, tmp_path, document):
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(document))
    result = run(runner, source, "--to", "native")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["name"] == "a"
    lines = [line for line in result.stderr.splitlines() if "entry 1 of the tool list" in line]
    assert len(lines) == 1 and lines[0].startswith(f"{source}:1:")


def test_an_overlay_beside_the_provider_file_is_merged(runner, tmp_path):
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(MCP_LIST, indent=2))
    overlay = tmp_path / "tools.contract.yaml"
    overlay.write_text("toolcontract: 1\ntools:\n  get_weather:\n    version: 1.0.0\n    effect: read\n"
                       "    non_goals: [Does not forecast.]\n")
    for given in (source, overlay):  # the overlay named as IN converts its provider file
        result = run(runner, given, "--to", "native")
        assert result.exit_code == 0, result.stderr
        data = json.loads(result.stdout)
        assert (data["version"], data["effect"], data["non_goals"]) == ("1.0.0", "read", ["Does not forecast."])
    mcp = json.loads(run(runner, source).stdout)["tools"][0]
    assert mcp["annotations"] == {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                                  "openWorldHint": True}


def test_overlay_problems_are_warnings_at_their_place_in_the_overlay(runner, tmp_path):
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(MCP_LIST, indent=2))
    overlay = tmp_path / "tools.contract.yaml"
    overlay.write_text("toolcontract: 1\ntools:\n  get_weather:\n    effect: read\n  no_such_tool:\n    effect: read\n")
    result = run(runner, source, "--to", "native")
    assert result.exit_code == 0
    assert f"{overlay}:5:3: warning: overlay entry 'no_such_tool' names no tool" in result.stderr


def test_a_broken_overlay_is_exit_2(runner, tmp_path):
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(MCP_LIST))
    (tmp_path / "tools.contract.yaml").write_text("toolcontract: 1\ntools: [oops\n")
    result = run(runner, source, "--to", "native")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"{tmp_path / 'tools.contract.yaml'}:3:1: ")


def test_an_overlay_without_its_provider_is_exit_2(runner, tmp_path):
    overlay = tmp_path / "tools.contract.yaml"
    overlay.write_text("toolcontract: 1\ntools:\n  get_weather:\n    effect: read\n")
    result = run(runner, overlay)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"{overlay}:")


@pytest.mark.parametrize("text", ['[1, 2]', '{"foo": 1}', '"text"'])
def test_a_file_no_reader_recognizes_is_exit_2(runner, tmp_path, text):
    source = tmp_path / "x.json"
    source.write_text(text)
    result = run(runner, source)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"{source}:1:1: ")


def test_input_format_forces_the_reader(runner, tmp_path):
    source = tmp_path / "x.json"
    source.write_text(json.dumps([{"name": "a", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]))
    result = run(runner, source, "--input-format", "gemini", "--to", "openai-chat")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["function"]["parameters"]["properties"] == {"q": {"type": "string"}}


@pytest.mark.parametrize("to", PROVIDERS)
@pytest.mark.parametrize("source", PROVIDERS)
def test_provider_to_provider(runner, tmp_path, source, to):
    """Every provider format converts to every other, keeping name, description and schema."""
    first = tmp_path / f"a.{source}.json"
    first.write_text(render(convert([DESCRIBED], source).document))
    result = run(runner, first, "--to", to)
    assert result.exit_code == 0, result.stderr
    tool = tools_of(json.loads(result.stdout), to)[0]
    for field in ("name", "description", "input_schema"):
        assert CARRIES[to][field](tool) == DESCRIBED[field]


# ----------------------------------------------------------- fixtures


CONVERTED = REPO / "fixtures" / "converted"


@pytest.mark.parametrize("to", PROVIDERS)
def test_converted_fixtures_are_what_convert_writes(runner, to):
    """fixtures/converted/ holds `toolcontract convert <good fixture> --to X -o ...` for each X;
    regenerate them with that command when a writer changes on purpose."""
    expected = CONVERTED / f"{METADATA.stem}.{to}.json"
    result = run(runner, METADATA, "--to", to)
    assert result.exit_code == 0
    assert result.stdout == expected.read_text(encoding="utf-8")
    fmt, back = read_back(json.loads(expected.read_text(encoding="utf-8")), str(expected))
    assert fmt == to and back[0]["name"] == METADATA.stem


def test_the_converter_is_pure():
    """No files, no terminal, no environment: the CLI does all of that."""
    import ast

    writers = sorted((REPO / "toolcontract" / "convert").glob("*.py"))
    assert len(writers) >= 7  # one module per target, the tool being written, native, text
    for path in writers:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not imported & {"os", "sys", "io", "pathlib", "shutil", "subprocess", "tempfile", "typer", "rich"}, path
        calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert not calls & {"open", "print", "input"}, path
