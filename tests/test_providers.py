"""Provider formats: detection, reading into native names, positions in the provider's own terms.

Fixtures: fixtures/providers/{good,bad}/<format>.json (written for these tests). Real
data: ../shared/corpus (read in place; skipped when absent).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXPECTED_RULES, REPO, TEXT_LINE, TEXT_TALLY, corpus_dir, examples
from toolcontract.cli import app
from toolcontract.lint.engine import LintResult, Selection, lint_files
from toolcontract.io import providers
from toolcontract.io.document import load_text
from toolcontract.core.pointer import resolve_pointer
from toolcontract.io.providers import openapi_to_json_schema
from toolcontract.io.reader import FORMATS, read_tools

PROVIDERS = REPO / "fixtures" / "providers"
PROVIDER_FORMATS = ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini")
TRIED = "tried native, mcp, openai-chat, openai-responses, anthropic, gemini, a2a-card"  # a2a-card: issue 19


def lint_one(text: str, path: str = "tools.json", input_format: str | None = None, select=None) -> LintResult:
    selection = Selection(select=select) if select else Selection()
    return lint_files([(path, text.encode("utf-8"))], selection, input_format=input_format)


def read(text: str, path: str = "tools.json", input_format: str | None = None):
    return read_tools(load_text(text, path), input_format)


def position_of(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based line and column of the n-th occurrence of `needle` in `text`."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def test_formats_are_the_issues():
    assert FORMATS == ("native", "mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "a2a-card")  # issue 19: A2A Agent Cards


# ------------------------------------------------------------------ detection

MCP_TOOL = {"name": "note_get", "description": "Get a note.", "inputSchema": {"type": "object"}}
CHAT_TOOL = {"type": "function", "function": {"name": "note_get", "parameters": {"type": "object"}}}
RESPONSES_TOOL = {"type": "function", "name": "note_get", "parameters": {"type": "object"}, "strict": False}
ANTHROPIC_TOOL = {"name": "note_get", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}}
GEMINI_DECL = {"name": "note_get", "parameters": {"type": "OBJECT"}}

# (id, document, format, pointers of the tools read)
VARIANTS = [
    ("mcp tools/list result", {"tools": [MCP_TOOL, MCP_TOOL]}, "mcp", ["/tools/0", "/tools/1"]),
    ("mcp with nextCursor", {"tools": [MCP_TOOL], "nextCursor": "abc"}, "mcp", ["/tools/0"]),
    ("mcp empty page", {"tools": [], "nextCursor": "abc"}, "mcp", []),
    ("mcp json-rpc response", {"jsonrpc": "2.0", "id": 3, "result": {"tools": [MCP_TOOL]}}, "mcp", ["/result/tools/0"]),
    ("mcp bare list", [MCP_TOOL, MCP_TOOL], "mcp", ["/0", "/1"]),
    ("mcp bare list with extra keys", [{**MCP_TOOL, "_source_path": "a.snap", "icons": []}], "mcp", ["/0"]),
    ("mcp one tool object", MCP_TOOL, "mcp", [""]),
    ("openai-chat list", [CHAT_TOOL, CHAT_TOOL], "openai-chat", ["/0", "/1"]),
    ("openai-chat tools", {"tools": [CHAT_TOOL], "tool_choice": "auto"}, "openai-chat", ["/tools/0"]),
    ("openai-chat one tool", CHAT_TOOL, "openai-chat", [""]),
    ("openai-responses list", [RESPONSES_TOOL, {"type": "web_search"}], "openai-responses", ["/0"]),
    ("openai-responses tools", {"tools": [RESPONSES_TOOL]}, "openai-responses", ["/tools/0"]),
    ("anthropic list", [ANTHROPIC_TOOL, {"type": "web_search_20250305", "name": "web_search"}], "anthropic", ["/0"]),
    ("anthropic tools", {"tools": [ANTHROPIC_TOOL, {**ANTHROPIC_TOOL, "type": "custom"}]}, "anthropic",
     ["/tools/0", "/tools/1"]),
    ("gemini functionDeclarations", {"functionDeclarations": [GEMINI_DECL, GEMINI_DECL]}, "gemini",
     ["/functionDeclarations/0", "/functionDeclarations/1"]),
    ("gemini tools", {"tools": [{"googleSearch": {}}, {"functionDeclarations": [GEMINI_DECL, GEMINI_DECL]}]}, "gemini",
     ["/tools/1/functionDeclarations/0", "/tools/1/functionDeclarations/1"]),
    ("gemini bare declarations", [GEMINI_DECL, {"name": "no_args", "description": "Takes nothing."}], "gemini",
     ["/0", "/1"]),
    ("gemini bare tools", [{"functionDeclarations": [GEMINI_DECL]}], "gemini", ["/0/functionDeclarations/0"]),
    ("gemini snake_case", {"function_declarations": [{"name": "a", "parameters_json_schema": {"type": "object"}}]},
     "gemini", ["/function_declarations/0"]),
    ("gemini parametersJsonSchema", [{"name": "a", "parametersJsonSchema": {"type": "object"}}], "gemini", ["/0"]),
    ("native", {"toolcontract": 1, "name": "note_get", "effect": "read"}, "native", [""]),
    ("native tools", {"toolcontract": 1, "tools": [{"name": "a", "input_schema": {"type": "object"}}]}, "native",
     ["/tools/0"]),
    ("native without toolcontract", {"tools": [{"name": "a", "effect": "read"}]}, "native", ["/tools/0"]),
    ("native single without toolcontract", {"name": "a", "description": "x"}, "native", [""]),
]


@pytest.mark.parametrize("document, fmt, pointers", [v[1:] for v in VARIANTS], ids=[v[0] for v in VARIANTS])
def test_every_format_and_variant_is_detected(document, fmt, pointers):
    result = read(json.dumps(document, indent=2))
    assert result.format == fmt
    assert [t.pointer for t in result.tools] == pointers
    assert not result.problems
    for tool in result.tools:
        assert tool.format == fmt
        assert tool.name in ("note_get", "a", "no_args")


@pytest.mark.parametrize("document, fmt, pointers", [v[1:] for v in VARIANTS], ids=[v[0] for v in VARIANTS])
def test_forcing_the_detected_format_reads_the_same(document, fmt, pointers):
    result = read(json.dumps(document), input_format=fmt)
    assert result.format == fmt
    assert [t.pointer for t in result.tools] == pointers


def test_a_provider_list_in_yaml_is_detected_too():
    text = "tools:\n  - name: note_get\n    description: Get a note.\n    inputSchema:\n      type: object\n"
    result = read(text, "tools.yaml")
    assert result.format == "mcp"
    assert result.tools[0].locate(("input_schema", "type"))[1] == "/tools/0/inputSchema/type"


def test_a_mixed_list_goes_by_most_entries_and_reports_the_odd_one():
    text = json.dumps({"tools": [MCP_TOOL, CHAT_TOOL, MCP_TOOL]}, indent=2)
    result = read(text)
    assert result.format == "mcp"
    assert [t.pointer for t in result.tools] == ["/tools/0", "/tools/2"]
    assert [(p, m) for _, p, m in result.problems] == [
        ("/tools/1", "this entry looks like an OpenAI Chat tool, but the file reads as MCP: one file holds one format")
    ]


UNDETECTABLE = [
    ("empty yaml", "", "t.yaml", "found an empty file"),
    ("scalar", "42", "t.json", "found a number"),
    ("string", "just text", "t.yaml", "found a string"),
    ("empty list", "[]", "t.json", "found an empty list"),
    ("list of strings", '["a", "b"]', "t.json", "found a list whose entries are no tool objects"),
    ("list of unknown objects", '[{"id": 1}, {"id": 2}]', "t.json", "found a list whose entries are no tool objects"),
    ("unknown mapping", '{"servers": [], "count": 2}', "t.json", "found a mapping with keys 'servers', 'count'"),
    ("empty mapping", "{}", "t.json", "found an empty mapping"),
    ("json-rpc error", '{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no"}}', "t.json",
     "found a JSON-RPC error response"),
]


@pytest.mark.parametrize("text, path, found", [u[1:] for u in UNDETECTABLE], ids=[u[0] for u in UNDETECTABLE])
def test_an_undetectable_file_is_one_finding_naming_the_formats_tried(text, path, found):
    result = lint_one(text, path)
    assert result.tools == 0
    assert [(f.rule, f.line, f.column) for f in result.findings] == [("TC002", 1, 1)]
    message = result.findings[0].message
    assert message.startswith(f"not a tool list: {TRIED}; ")
    assert found in message


def test_native_files_never_reach_the_detector(monkeypatch):
    """Native detection is one dict lookup: the provider detector is not even called."""

    def boom(*args, **kwargs):
        raise AssertionError("detect() called for a native file")

    monkeypatch.setattr(providers, "detect", boom)
    good = sorted((REPO / "fixtures" / "descriptors" / "good").iterdir())
    result = lint_files([(str(p), p.read_bytes()) for p in good])
    assert result.tools >= len(good) and not result.findings


# -------------------------------------------------------- malformed entries

MALFORMED = [
    ("mcp tool without name", {"tools": [{"description": "x", "inputSchema": {"type": "object"}}]}, None,
     [("/tools/0", "MCP tool without `name`")]),
    ("mcp inputSchema not an object", {"tools": [{"name": "a", "inputSchema": "object"}]}, None,
     [("/tools/0/inputSchema", "`inputSchema` must be an object (a JSON Schema with `type: object`), found a string")]),
    ("mcp inputSchema null", {"tools": [{"name": "a", "inputSchema": None}]}, None,
     [("/tools/0/inputSchema", "`inputSchema` must be an object (a JSON Schema with `type: object`), found null")]),
    ("mcp without inputSchema", {"tools": [{"name": "a", "inputSchema": {}}, {"name": "b"}]}, None,
     [("/tools/1", "MCP tool without `inputSchema` (a JSON Schema with `type: object`)")]),
    ("mcp name not a string", {"tools": [{"name": 7, "inputSchema": {"type": "object"}}]}, None,
     [("/tools/0/name", "`name` must be a string, found a number")]),
    ("mcp entry not an object", {"tools": [MCP_TOOL, "note_get"]}, None,
     [("/tools/1", "expected an MCP tool object, found a string")]),
    ("mcp tools not a list", {"jsonrpc": "2.0", "result": {"tools": {"a": 1}}}, None,
     [("/result/tools", "`tools` must be a list of MCP tool objects, found a mapping")]),
    ("mcp annotations not an object", {"tools": [{**MCP_TOOL, "annotations": ["readOnly"]}]}, None,
     [("/tools/0/annotations", "`annotations` must be an object, found a list")]),
    ("chat function missing", [{"type": "function", "description": "x"}, CHAT_TOOL], None,
     [("/0", "OpenAI Chat tool without `function` (the object with name, description and parameters)")]),
    ("chat function not an object", [CHAT_TOOL, {"type": "function", "function": "a"}], None,
     [("/1/function", "`function` must be an object, found a string")]),
    ("chat strict not a boolean", [{"type": "function", "function": {"name": "a", "strict": "yes"}}], None,
     [("/0/function/strict", "`strict` must be true or false, found a string")]),
    ("responses parameters not an object", [{"type": "function", "name": "a", "parameters": []}], None,
     [("/0/parameters", "`parameters` must be an object (a JSON Schema with `type: object`), found a list")]),
    ("anthropic without input_schema", [ANTHROPIC_TOOL, {"name": "b", "input_examples": []}], None,
     [("/1", "Anthropic tool without `input_schema` (a JSON Schema with `type: object`)")]),
    ("anthropic example not an object", [{**ANTHROPIC_TOOL, "input_examples": [{}, 3]}], None,
     [("/0/input_examples/1", "each of `input_examples` must be an object of arguments, found a number")]),
    ("gemini both schemas", [{"name": "a", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {}}], None,
     [("/0/parametersJsonSchema", "`parameters` and `parametersJsonSchema` cannot be combined: give one")]),
    ("gemini declarations not a list", {"functionDeclarations": {"name": "a"}}, None,
     [("/functionDeclarations", "`functionDeclarations` must be a list of function declarations, found a mapping")]),
]


@pytest.mark.parametrize("document, forced, problems", [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_entries_are_structure_findings_at_the_entry(document, forced, problems):
    text = json.dumps(document, indent=2)
    result = lint_one(text, input_format=forced, select=("TC002",))
    assert [(f.pointer, f.message) for f in result.findings] == problems
    document_ = result.documents["tools.json"]
    for finding in result.findings:
        assert (finding.line, finding.column) == document_.locate(finding.pointer)
        assert finding.line > 1  # at the entry, not at the top of the file


FIXTURE_FILES = sorted(PROVIDERS.glob("*/*.json"))


@pytest.mark.parametrize("forced", FORMATS)
@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_forcing_any_format_on_any_file_gives_findings_not_a_crash(path, forced):
    result = lint_files([(str(path), path.read_bytes())], input_format=forced)
    detected = read_tools(load_text(path.read_text("utf-8"), str(path))).format
    for finding in result.findings:
        assert finding.line >= 1 and finding.column >= 1
        assert finding.rule in EXPECTED_RULES or finding.rule.startswith("TC")
    if forced != detected:
        assert any(f.rule == "TC002" for f in result.findings), [f.message for f in result.findings]


def test_forcing_anthropic_on_an_mcp_list_says_what_the_entries_look_like():
    text = json.dumps({"tools": [MCP_TOOL]}, indent=2)
    result = lint_one(text, input_format="anthropic", select=("TC002",))
    assert [(f.pointer, f.message) for f in result.findings] == [
        ("/tools/0", "this entry looks like an MCP tool, but the file reads as Anthropic: one file holds one format")
    ]


def test_forcing_gemini_on_a_native_file_says_what_it_is():
    result = lint_one("toolcontract: 1\nname: a\neffect: read\n", "a.yaml", input_format="gemini", select=("TC002",))
    assert [(f.pointer, f.line, f.message) for f in result.findings] == [
        ("", 1, "this entry looks like a native descriptor, but the file reads as Gemini: one file holds one format")
    ]


def test_forcing_a_format_on_a_file_of_no_tools_says_what_was_expected():
    result = lint_one('{"servers": []}', input_format="gemini", select=("TC002",))
    assert [(f.pointer, f.line) for f in result.findings] == [("", 1)]
    assert result.findings[0].message.startswith('not a Gemini tool list: expected {"functionDeclarations": [...]}')


# ---------------------------------------------------- native names, sources


def _views(name: str):
    path = PROVIDERS / "good" / name
    document = load_text(path.read_text("utf-8"), str(path))
    result = read_tools(document)
    return document, result


def _source_pointers(tool) -> dict[str, str]:
    return {field: pointer for field, (_, pointer) in tool.sources.items()}


def test_mcp_tool_in_native_names():
    document, result = _views("mcp.json")
    assert result.format == "mcp"
    search, append = result.tools
    assert search.pointer == "/tools/0" and search.raw is document.data["tools"][0]
    assert search.data["title"] == "Search notes"
    assert search.data["input_schema"] is document.data["tools"][0]["inputSchema"]
    assert search.data["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert _source_pointers(search) == {
        "name": "/tools/0/name", "title": "/tools/0/title", "description": "/tools/0/description",
        "input_schema": "/tools/0/inputSchema", "output_schema": "/tools/0/outputSchema",
        "annotations": "/tools/0/annotations", "effect": "/tools/0/annotations/readOnlyHint",
    }
    assert search.data["effect"] == "read" and search.effect_origin == "readOnlyHint"
    assert "output_schema" not in append.data
    assert append.locate(("input_schema", "properties", "note_id")) == (document, "/tools/1/inputSchema/properties/note_id")


def test_mcp_title_falls_back_to_annotations_title():
    result = read(json.dumps({"tools": [{**MCP_TOOL, "annotations": {"title": "Get a note", "readOnlyHint": True}}]}))
    tool = result.tools[0]
    assert tool.data["title"] == "Get a note"
    assert tool.sources["title"][1] == "/tools/0/annotations/title"


def test_mcp_nulls_count_as_absent():
    result = read(json.dumps([{**MCP_TOOL, "annotations": None, "outputSchema": None, "title": None}]))
    assert sorted(result.tools[0].data) == ["description", "input_schema", "name"]
    assert not result.problems


def test_openai_chat_tool_in_native_names():
    document, result = _views("openai-chat.json")
    tool = result.tools[1]
    assert (tool.format, tool.pointer, tool.name) == ("openai-chat", "/1", "hold_seat")
    assert _source_pointers(tool) == {
        "name": "/1/function/name", "description": "/1/function/description", "input_schema": "/1/function/parameters",
    }
    assert tool.raw["function"]["strict"] is True and "strict" not in tool.data


def test_openai_responses_tool_in_native_names():
    text = json.dumps([{**RESPONSES_TOOL, "description": "d", "output_schema": {"type": "object"}}])
    tool = read(text).tools[0]
    assert tool.data == {"name": "note_get", "description": "d", "input_schema": {"type": "object"},
                         "output_schema": {"type": "object"}}
    assert _source_pointers(tool)["output_schema"] == "/0/output_schema"
    assert _source_pointers(tool)["input_schema"] == "/0/parameters"


def test_anthropic_tool_in_native_names():
    document, result = _views("anthropic.json")
    tool = result.tools[0]
    assert tool.data["examples"] == [{"text": "refund not received"}, {"text": "login", "status": "open"}]
    assert _source_pointers(tool) == {
        "name": "/tools/0/name", "description": "/tools/0/description", "input_schema": "/tools/0/input_schema",
        "examples": "/tools/0/input_examples",
    }
    assert "cache_control" not in result.tools[1].data and "cache_control" in result.tools[1].raw


def test_gemini_tool_in_native_names():
    document, result = _views("gemini.json")
    tool = result.tools[1]
    assert (tool.pointer, tool.name) == ("/tools/0/functionDeclarations/1", "thermostat_set_target")
    assert tool.sources["input_schema"][1] == "/tools/0/functionDeclarations/1/parameters"
    schema = tool.data["input_schema"]
    assert schema["type"] == "object"
    assert schema["properties"]["until"]["type"] == ["string", "null"]
    assert "nullable" not in schema["properties"]["until"]
    assert tool.raw["parameters"]["properties"]["until"] == {
        "type": "STRING", "format": "date-time", "nullable": True,
        "description": "When to return to the schedule; null keeps the target.",
    }, "the file's own data is not changed"


def test_gemini_response_schemas_are_the_output_schema():
    text = json.dumps({"functionDeclarations": [
        {"name": "a", "response": {"type": "OBJECT", "properties": {"n": {"type": "INTEGER"}}}},
        {"name": "b", "responseJsonSchema": {"type": "object"}}]})
    first, second = read(text).tools
    assert first.data["output_schema"] == {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert first.sources["output_schema"][1] == "/functionDeclarations/0/response"
    assert second.data["output_schema"] == {"type": "object"}


# -------------------------------------------------------- Gemini conversion


def _pointers(value, base: str = "") -> list[str]:
    out = [base]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_pointers(item, f"{base}/{key}"))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.extend(_pointers(item, f"{base}/{index}"))
    return out


OPENAPI = {
    "type": "OBJECT",
    "description": "Arguments.",
    "properties": {
        "name": {"type": "STRING", "nullable": True, "description": "Name."},
        "tags": {"type": "ARRAY", "items": {"type": "STRING", "enum": ["a", "b"]}, "maxItems": 3},
        "where": {"anyOf": [{"type": "NUMBER"}, {"type": "NULL"}]},
        "nested": {"type": "OBJECT", "properties": {"n": {"type": "INTEGER", "nullable": False}},
                   "additionalProperties": {"type": "BOOLEAN"}},
        "odd": {"type": "TYPE_UNSPECIFIED"},
        "lower": {"type": "string"},
        "nullable_without_type": {"nullable": True, "anyOf": [{"type": "STRING"}]},
    },
    "required": ["name"],
    "propertyOrdering": ["name", "tags"],
    "$defs": {"d": {"type": "BOOLEAN", "example": True}},
}


def test_openapi_types_become_json_schema_types_in_place():
    converted = openapi_to_json_schema(OPENAPI)
    assert converted["type"] == "object"
    props = converted["properties"]
    assert props["name"] == {"type": ["string", "null"], "description": "Name."}
    assert props["tags"] == {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 3}
    assert props["where"] == {"anyOf": [{"type": "number"}, {"type": "null"}]}
    assert props["nested"]["properties"]["n"] == {"type": "integer", "nullable": False}
    assert props["nested"]["additionalProperties"] == {"type": "boolean"}
    assert props["odd"] == {"type": "TYPE_UNSPECIFIED"}, "not Gemini's: left for TC401"
    assert props["lower"] == {"type": "string"}
    assert props["nullable_without_type"] == {"nullable": True, "anyOf": [{"type": "string"}]}
    assert converted["$defs"]["d"] == {"type": "boolean", "example": True}
    assert converted["required"] == ["name"] and converted["propertyOrdering"] == ["name", "tags"]
    assert OPENAPI["properties"]["name"]["type"] == "STRING", "the input is not changed"


def test_openapi_conversion_keeps_every_pointer():
    """Every place in the converted schema is a place in the original (a type list's items
    are new, and fall back to their `type`), so findings map back unchanged."""
    converted = openapi_to_json_schema(OPENAPI)
    for pointer in _pointers(converted):
        if re.search(r"/type/\d+$", pointer):
            pointer = pointer.rsplit("/", 1)[0]
        found, _ = resolve_pointer(OPENAPI, pointer)
        assert found, pointer
    assert list(converted["properties"]) == list(OPENAPI["properties"])


def test_a_finding_under_a_gemini_schema_points_at_the_openapi_text():
    text = (PROVIDERS / "bad" / "gemini.json").read_text("utf-8")
    result = lint_one(text, "gemini.json", select=("TC401", "TC411", "TC405"))
    by_rule = {f.rule: f for f in result.findings}
    assert by_rule["TC401"].pointer == "/functionDeclarations/0/parameters/properties/room/type"
    assert (by_rule["TC401"].line, by_rule["TC401"].column) == position_of(text, '"TEXT"')
    assert by_rule["TC411"].pointer == "/functionDeclarations/0/parameters/properties/level"
    assert (by_rule["TC411"].line, by_rule["TC411"].column) == position_of(text, '{"description": "Brightness."}')
    assert by_rule["TC405"].pointer == "/functionDeclarations/1/parameters/required/1"
    assert (by_rule["TC405"].line, by_rule["TC405"].column) == position_of(text, '"room"]', 1)


def test_nullable_gemini_properties_accept_null_examples():
    """`nullable: true` means null is allowed: an example with null validates (TC406 quiet)."""
    text = json.dumps([{"name": "a", "parameters": {"type": "OBJECT", "properties": {
        "x": {"type": "STRING", "nullable": True, "description": "X."}}, "required": ["x"]}}])
    tool = read(text).tools[0]
    from toolcontract.core.schema.validation import compile_validator

    assert compile_validator(tool.data["input_schema"]).is_valid({"x": None})


# ---------------------------------------------------------------- positions

MCP_TEXT = """{
  "tools": [
    {
      "name": "weather_get",
      "description": "Get the weather.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "city": {"type": "string"},
          "days": {"type": "integer", "description": "Days ahead, 0 for today."}
        },
        "required": ["city", "country"]
      }
    }
  ]
}
"""


def test_tc4xx_findings_on_an_mcp_list_carry_provider_pointers_and_positions():
    result = lint_one(MCP_TEXT, select=("TC4",))
    found = {(f.rule, f.pointer): (f.line, f.column) for f in result.findings}
    # TC404: the property's schema; TC405: the offending entry of `required`; TC403: the schema object
    assert found[("TC404", "/tools/0/inputSchema/properties/city")] == position_of(MCP_TEXT, '{"type": "string"}')
    assert found[("TC405", "/tools/0/inputSchema/required/1")] == position_of(MCP_TEXT, '"country"')
    line, column = position_of(MCP_TEXT, '"inputSchema": {')
    assert found[("TC403", "/tools/0/inputSchema")] == (line, column + len('"inputSchema": '))
    assert all(f.tool == "weather_get" and f.path == "tools.json" for f in result.findings)


def test_missing_fields_are_reported_at_the_tool_object():
    # without an overlay, an MCP tool is not asked for a version (TC103), only for its effect class
    result = lint_one(MCP_TEXT.replace("Get the weather.", "Weather now."), select=("TC103", "TC301"))
    assert {(f.rule, f.pointer, f.line, f.column, f.severity.label) for f in result.findings} == {
        ("TC301", "/tools/0", 3, 5, "warning")
    }
    # a tool that reads as a read gets TC418's one fix (readOnlyHint: true) instead
    result = lint_one(MCP_TEXT, select=("TC301", "TC418"))
    assert [(f.rule, f.pointer) for f in result.findings] == [("TC418", "/tools/0")]


def test_description_findings_point_at_the_provider_field():
    text = json.dumps([{"type": "function", "function": {"name": "a", "description": "Short."}}], indent=2)
    result = lint_one(text, select=("TC203", "TC201"))
    assert [(f.rule, f.pointer) for f in result.findings] == [("TC203", "/0/function/description")]
    assert (result.findings[0].line, result.findings[0].column) == position_of(text, '"Short."')


# ------------------------------------------------------------ bad fixtures

BAD_EXPECTED = {
    # TC418: the unnamed tool's description starts "List the entries", and it has no readOnlyHint
    "mcp.json": {"TC002", "TC101", "TC201", "TC402", "TC403", "TC404", "TC405", "TC418"},
    "openai-chat.json": {"TC002", "TC101", "TC203", "TC402", "TC403", "TC404"},
    "openai-responses.json": {"TC002", "TC101", "TC203", "TC401", "TC411"},
    "anthropic.json": {"TC002", "TC101", "TC203", "TC406"},
    "gemini.json": {"TC002", "TC201", "TC401", "TC403", "TC405", "TC411"},
}
CONTRACT_RULES = {"TC301"}  # what every provider tool without an overlay or MCP hints lacks


def test_there_is_a_good_and_a_bad_fixture_per_format():
    for fmt in PROVIDER_FORMATS:
        for kind in ("good", "bad"):
            path = PROVIDERS / kind / f"{fmt}.json"
            assert path.is_file(), path
            assert read_tools(load_text(path.read_text("utf-8"), str(path))).format == fmt
    assert set(BAD_EXPECTED) == {f"{fmt}.json" for fmt in PROVIDER_FORMATS}


@pytest.mark.parametrize("name", sorted(BAD_EXPECTED))
def test_bad_fixtures_show_typical_problems(name):
    path = PROVIDERS / "bad" / name
    result = lint_files([(str(path), path.read_bytes())])
    assert {f.rule for f in result.findings} == BAD_EXPECTED[name] | CONTRACT_RULES
    text = path.read_text("utf-8")
    for finding in result.findings:
        assert finding.path == str(path)
        assert resolve_pointer(json.loads(text), finding.pointer)[0] or finding.pointer == "", finding
        assert 1 <= finding.line <= text.count("\n") + 1


# --------------------------------------------------------------------- CLI


def test_cli_lints_a_provider_file_with_provider_pointers(runner):
    path = PROVIDERS / "bad" / "mcp.json"
    result = runner.invoke(app, ["lint", str(path), "--format", "json"])
    assert result.exit_code == 1, result.output
    findings = json.loads(result.stdout)["findings"]
    pointers = {f["pointer"] for f in findings}
    assert "/result/tools/0/inputSchema/properties/path" in pointers
    assert "/result/tools/1/inputSchema" in pointers
    assert all(f["path"] == str(path) for f in findings)


def test_cli_text_output_for_every_bad_fixture(runner):
    result = runner.invoke(app, ["lint", str(PROVIDERS / "bad"), "--format", "text"])
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("5 files, 8 tools:")
    assert TEXT_TALLY.match(lines[-2]), lines[-2]
    for line in lines[:-2]:
        assert TEXT_LINE.match(line), line


@pytest.mark.parametrize("forced", FORMATS)
def test_cli_input_format_is_accepted_for_every_format(runner, forced):
    result = runner.invoke(app, ["lint", str(PROVIDERS / "good" / "mcp.json"), "--input-format", forced,
                                 "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    rules = {f["rule"] for f in json.loads(result.stdout)["findings"]}
    assert ("TC002" in rules) == (forced != "mcp")
    if forced == "a2a-card":  # issue 19: an MCP list read as a card is no card
        assert "not an A2A Agent Card" in result.stdout


def test_cli_rejects_an_unknown_input_format(runner):
    result = runner.invoke(app, ["lint", str(PROVIDERS / "good" / "mcp.json"), "--input-format", "openai"])
    assert result.exit_code == 2
    assert "expected any of native, mcp, openai-chat, openai-responses, anthropic, gemini" in result.stderr


# ------------------------------------------------------------------ corpus

CORPUS = corpus_dir()


def _corpus(relative: str):
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"{relative} is not in the corpus at {CORPUS} (set TOOLCONTRACT_CORPUS)")
    return json.loads(path.read_text("utf-8"))


def _livemcpbench() -> list[dict]:
    data = _corpus("mcp/livemcpbench.tools.json")
    tools = []
    for server in data["servers"]:
        for entry in (server.get("tools") or {}).values():
            tools.extend(entry.get("tools") or ())
    return tools


def _check_located(result: LintResult, path: str) -> None:
    document = result.documents[path]
    lines = document.text.count("\n") + 1
    for finding in result.findings:
        assert finding.path == path
        assert 1 <= finding.line <= lines and finding.column >= 1, finding
        if finding.pointer:
            assert resolve_pointer(document.data, finding.pointer)[0] or finding.rule == "TC002", finding


CORPUS_CASES = {
    # id: (document built in memory from the corpus file, expected format, tool count)
    "github-mcp-server tools/list": (lambda: {"tools": [e["tool"] for e in _corpus(
        "mcp/github-mcp-server.tools.head.json")["tools"]]}, "mcp"),
    "github-mcp-server bare list with _source_path": (lambda: [{**e["tool"], "_source_path": e["_source_path"]} for e in
                                                               _corpus("mcp/github-mcp-server.tools.head.json")["tools"]],
                                                      "mcp"),
    "livemcpbench servers flattened": (lambda: {"tools": _livemcpbench()}, "mcp"),
    "mcp-server-everything-wrong json-rpc": (lambda: {"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        e["tool"] for e in _corpus("poisoned/mcp-server-everything-wrong.tools_list.json")["tools"]]}}, "mcp"),
    "tau-bench openai chat": (lambda: [e["tool"] for domain in _corpus("transcripts/tau-bench.tools.json")["tools"].values()
                                       for e in domain], "openai-chat"),
}


@pytest.mark.parametrize("case", sorted(CORPUS_CASES))
def test_corpus_tool_lists_are_detected_and_every_finding_is_located(case):
    build, fmt = CORPUS_CASES[case]
    data = build()
    text = json.dumps(data, ensure_ascii=False, indent=2)
    path = f"corpus-{case.split()[0]}.json"
    read_result = read(text, path)
    assert read_result.format == fmt
    entries = data["tools"] if isinstance(data, dict) and "tools" in data else (
        data["result"]["tools"] if isinstance(data, dict) else data)
    assert len(read_result.tools) == len(entries) > 5
    result = lint_one(text, path)
    assert result.tools == len(entries)
    _check_located(result, path)
    rules = {f.rule for f in result.findings}
    assert not rules & {"TC103", "TC202", "TC304", "TC305"}  # contract fields: asked for only with an overlay
    assert "TC301" in rules or fmt == "mcp"  # MCP tools with hints have a derived effect


def test_corpus_files_lint_in_place_without_a_crash(runner):
    """The corpus files as they are (collections with wrapper keys): no crash, each finding located."""
    names = ["mcp/github-mcp-server.tools.head.json", "mcp/livemcpbench.tools.json",
             "poisoned/mcp-server-everything-wrong.tools_list.json", "transcripts/tau-bench.tools.json"]
    paths = [CORPUS / n for n in names]
    if not all(p.is_file() for p in paths):
        pytest.skip(f"corpus files missing at {CORPUS}")
    result = runner.invoke(app, ["lint", *map(str, paths), "--format", "json", "--exit-zero"])
    assert result.exit_code == 0, result.output
    for finding in json.loads(result.stdout)["findings"]:
        assert finding["line"] >= 1 and finding["column"] >= 1


def test_gemini_corpus_schemas_round_trip_through_the_openapi_reader():
    """The tau-bench schemas written as Gemini OpenAPI `parameters` (upper-case types) read back
    as the same JSON Schema, and lint exactly as the OpenAI originals do."""
    chat = [e["tool"] for domain in _corpus("transcripts/tau-bench.tools.json")["tools"].values() for e in domain]

    def upper(schema):
        if isinstance(schema, dict):
            return {k: (v.upper() if k == "type" and isinstance(v, str) else upper(v)) for k, v in schema.items()}
        if isinstance(schema, list):
            return [upper(v) for v in schema]
        return schema

    gemini = {"functionDeclarations": [{"name": t["function"]["name"], "description": t["function"]["description"],
                                        "parameters": upper(t["function"]["parameters"])} for t in chat]}
    tools = read(json.dumps(gemini)).tools
    assert [t.data["input_schema"] for t in tools] == [t["function"]["parameters"] for t in chat]
    chat_result = lint_one(json.dumps(chat, indent=2), "chat.json")
    gemini_result = lint_one(json.dumps(gemini, indent=2), "gemini.json")

    def same(result):  # TC104 names the other place: the file name and line differ; TC301 the format
        return sorted((f.rule, re.sub(r"\S+\.json:\d+", "<where>", f.message)) for f in result.findings
                      if f.rule != "TC301")

    assert same(chat_result) == same(gemini_result)
    for result in (chat_result, gemini_result):
        assert {f.severity.label for f in result.findings if f.rule == "TC301"} == {"info"}


# -------------------------------------------------------------- properties


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(
        ["", "a.b", "STRING", "OBJECT", "object", "function", "custom", "x\u202ey", "web_search"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "properties", "items", "nullable", "anyOf", "required", "name", "description",
                         "enum", "additionalProperties", "$ref", "a/b", "~"]), inner, max_size=4),
    max_leaves=12,
)
_TOOL_KEYS = st.sampled_from([
    "name", "title", "description", "inputSchema", "outputSchema", "annotations", "type", "function", "parameters",
    "strict", "input_schema", "input_examples", "cache_control", "parametersJsonSchema", "response",
    "responseJsonSchema", "functionDeclarations", "output_schema", "effect", "_meta",
])
_TOOL = st.dictionaries(_TOOL_KEYS, _VALUES, max_size=6)
_DOCUMENT = st.one_of(
    st.lists(_TOOL, max_size=4),
    st.fixed_dictionaries({"tools": st.lists(_TOOL, max_size=4) | _VALUES}),
    st.fixed_dictionaries({"jsonrpc": st.just("2.0"), "result": st.fixed_dictionaries({"tools": st.lists(_TOOL, max_size=3)})}),
    st.fixed_dictionaries({"functionDeclarations": st.lists(_TOOL, max_size=3) | _VALUES}),
    st.fixed_dictionaries({"tools": st.lists(st.fixed_dictionaries({"functionDeclarations": st.lists(_TOOL, max_size=3)}),
                                             max_size=2)}),
    _TOOL,
)


@pytest.mark.long
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCUMENT, st.sampled_from([None, *FORMATS]), st.sampled_from(["t.json", "t.yaml"]))
def test_any_provider_shaped_document_lints_without_a_crash(document, forced, path):
    import yaml

    text = json.dumps(document) if path.endswith(".json") else yaml.safe_dump(document)
    result = lint_one(text, path, input_format=forced)
    loaded = result.documents[path]
    for finding in result.findings:
        assert finding.line >= 1 and finding.column >= 1, finding
        assert finding.pointer == "" or finding.pointer.startswith("/"), finding
    for tool in result.tool_views:
        assert tool.format in FORMATS
        for field, (doc, pointer) in tool.sources.items():
            assert doc is loaded and resolve_pointer(loaded.data, pointer)[0], (field, pointer)
