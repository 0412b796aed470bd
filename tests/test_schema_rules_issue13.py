"""Issue 13 (schema family): TC412 reads dialects by the keywords a schema uses; TC414 defaults their own schema
rejects; TC415 required properties with a default; TC416 parameter types across one tool list; TC417
requirements stated only in a description. Positions, messages, what stays quiet, hostile values, real data."""

from __future__ import annotations

import json

import pytest

from conftest import corpus_dir
from toolcontract.lint.engine import Selection, lint_files, lint_text
from toolcontract.core.model import Severity

HEAD = "toolcontract: 1\nname: report_export\neffect: read\n"
NEW_RULES = ("TC412", "TC414", "TC415", "TC416", "TC417")


def found(text: str, rule: str, path: str = "descriptor.yaml") -> list[tuple[int, int, str]]:
    result = lint_text(text, path, Selection(select=(rule,)))
    return [(f.line, f.column, f.message) for f in result.findings if f.rule == rule]


def at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based line and column of the n-th occurrence of `needle`."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = text.index(needle, offset + 1)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def one(text: str, rule: str, needle: str, fragment: str, occurrence: int = 0) -> None:
    hits = found(text, rule)
    assert len(hits) == 1, hits
    line, column, message = hits[0]
    assert (line, column) == at(text, needle, occurrence), (hits, text)
    assert fragment in message, message
    assert "\n" not in message


def schema(body: str, dialect: str = "http://json-schema.org/draft-07/schema#") -> str:
    return HEAD + f"input_schema:\n  $schema: '{dialect}'\n  type: object\n" + body + "  additionalProperties: false\n"


# ------------------------------------------------------------------ TC412


def test_an_earlier_draft_alone_is_not_a_finding() -> None:
    body = "  properties:\n    city: {type: string, description: City.}\n  required: [city]\n"
    for dialect in ("http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema#",
                    "https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft-06/schema"):
        assert found(schema(body, dialect), "TC412") == [], dialect


def test_tuple_items_under_draft_07() -> None:
    text = schema("  properties:\n    at:\n      type: array\n      items: [{type: number}, {type: number}]\n")
    one(text, "TC412", "items: [", "draft-07 checks the n-th item against the n-th schema")
    assert "prefixItems" in found(text, "TC412")[0][2]


def test_dependencies_up_to_draft_07_but_not_in_2019_09() -> None:
    body = "  properties:\n    a: {type: string}\n    b: {type: string}\n  dependencies:\n    a: [b]\n"
    one(schema(body), "TC412", "dependencies:", "`dependencies` at the root: draft-07 requires")
    assert "dependentRequired" in found(schema(body), "TC412")[0][2]
    # 2019-09 has no `dependencies` either: it reads the schema as 2020-12 does
    assert found(schema(body, "https://json-schema.org/draft/2019-09/schema"), "TC412") == []


def test_recursive_ref_only_under_2019_09() -> None:
    body = "  $recursiveAnchor: true\n  properties:\n    child: {$recursiveRef: '#'}\n"
    hits = found(schema(body, "https://json-schema.org/draft/2019-09/schema"), "TC412")
    assert [m.split(" at ")[0] for _, _, m in hits] == ["`$recursiveAnchor`", "`$recursiveRef`"]
    assert all("$dynamicRef" in m for _, _, m in hits)
    assert found(schema(body), "TC412") == []  # draft-07 does not know it either


def test_boolean_exclusive_minimum_under_draft_04() -> None:
    text = schema("  properties:\n    n: {type: integer, minimum: 0, exclusiveMinimum: true}\n",
                  "http://json-schema.org/draft-04/schema#")
    one(text, "TC412", "true}", "makes `minimum` exclusive in draft-04")
    assert "write `exclusiveMinimum: 0` without `minimum`" in found(text, "TC412")[0][2]
    # under draft-07 a boolean is simply invalid (TC401's), not read otherwise
    assert found(text.replace("draft-04", "draft-07"), "TC412") == []


def test_draft_04_id_only_as_a_keyword_and_with_references() -> None:
    body = ("  id: 'http://example.com/report.json'\n  properties:\n    id: {type: string}\n"
            "    to: {$ref: '#/definitions/address'}\n  definitions:\n    address: {type: string}\n")
    text = schema(body, "http://json-schema.org/draft-04/schema#")
    one(text, "TC412", "'http://example.com/report.json'", "rename it `$id`")
    without_refs = schema("  id: 'http://example.com/report.json'\n  properties:\n    id: {type: string}\n",
                          "http://json-schema.org/draft-04/schema#")
    assert found(without_refs, "TC412") == []  # the property named `id` is not the keyword


def test_ref_siblings_that_assert_but_not_annotations() -> None:
    defs = "  definitions:\n    city: {type: string}\n"
    asserting = schema("  properties:\n    city: {$ref: '#/definitions/city', maxLength: 40, description: City.}\n"
                       + defs)
    one(asserting, "TC412", "'#/definitions/city'", "`$ref` at /properties/city has `maxLength` beside it")
    annotated = schema("  properties:\n    city: {$ref: '#/definitions/city', description: City., default: Porto, "
                       "title: City, examples: [Porto]}\n" + defs)
    assert found(annotated, "TC412") == []
    # 2019-09 applies the siblings of a $ref, as 2020-12 does
    assert found(asserting.replace("http://json-schema.org/draft-07/schema#",
                                   "https://json-schema.org/draft/2019-09/schema"), "TC412") == []


def test_a_nested_schema_keeps_its_own_dialect() -> None:
    body = ("  properties:\n    at:\n      $schema: 'http://json-schema.org/draft-07/schema#'\n      type: array\n"
            "      items: [{type: number}]\n")
    text = schema(body, "https://json-schema.org/draft/2020-12/schema")
    one(text, "TC412", "items: [", "draft-07 checks")


def test_unknown_dialect_is_reported_and_2020_12_spellings_are_not() -> None:
    body = "  properties:\n    city: {type: string}\n"
    one(schema(body, "https://example.com/dialect"), "TC412", "'https://example.com/dialect'",
        "not a JSON Schema dialect validators know")
    for dialect in ("http://json-schema.org/draft/2020-12/schema#", "https://json-schema.org/draft/2020-12/schema",
                    "http://json-schema.org/schema#"):
        assert found(schema(body, dialect), "TC412") == [], dialect


# ------------------------------------------------------------------ TC414


def props(body: str, extra: str = "") -> str:
    return HEAD + "input_schema:\n  type: object\n  properties:\n" + body + extra + "  additionalProperties: false\n"


def test_default_outside_enum() -> None:
    text = props("    unit: {type: string, enum: [seconds, milliseconds], default: N/A}\n")
    one(text, "TC414", "N/A}", "default 'N/A' fails its own schema")
    assert "make it one of the enum values" in found(text, "TC414")[0][2]


def test_default_of_the_wrong_type_null_and_bounds() -> None:
    text = props("    detailed: {type: boolean, default: 'false'}\n"
                 "    since: {type: string, default: null}\n"
                 "    limit: {type: integer, minimum: 1, maximum: 100, default: 500}\n"
                 "    code: {type: string, maxLength: 2, default: PRT}\n"
                 "    mode: {const: fast, default: slow}\n"
                 "    count: {type: integer, default: true}\n")
    hits = found(text, "TC414")
    assert [line for line, _, _ in hits] == [7, 8, 9, 10, 11, 12]
    assert (hits[0][0], hits[0][1]) == at(text, "'false'")
    assert "default null fails its own schema" in hits[1][2] and "allow null in `type`" in hits[1][2]
    assert "500" in hits[2][2] and "default true" in hits[5][2]


def test_valid_defaults_are_quiet() -> None:
    text = props("    detailed: {type: boolean, default: false}\n"
                 "    since: {type: [string, 'null'], default: null}\n"
                 "    limit: {type: integer, minimum: 1, default: 1.0}\n"
                 "    tags: {type: array, items: {type: string}, default: []}\n"
                 "    anything: {default: {a: 1}}\n"
                 "    either: {anyOf: [{type: string}, {type: 'null'}], default: null}\n")
    assert found(text, "TC414") == []


def test_default_beside_a_ref_into_defs() -> None:
    text = props("    unit: {$ref: '#/$defs/unit', default: hours}\n",
                 "  $defs:\n    unit: {type: string, enum: [seconds, minutes]}\n")
    one(text, "TC414", "hours}", "is not one of")
    assert found(text.replace("default: hours", "default: minutes"), "TC414") == []


def test_defaults_whose_schema_cannot_be_checked_alone_are_skipped() -> None:
    # a $ref to a place the standalone schema would not carry, a type TC401 reports, a default under `if`
    text = props("    a: {type: string, enum: [x, y]}\n    b: {$ref: '#/properties/a', default: z}\n"
                 "    c: {type: float, default: 'not a number'}\n",
                 "  if: {properties: {a: {const: x, default: 7}}}\n  then: {required: [a]}\n")
    assert found(text, "TC414") == []


def test_defaults_in_provider_lists_are_placed_in_the_file() -> None:
    text = json.dumps({"tools": [{"name": "get_logs", "description": "Get logs.", "inputSchema": {
        "type": "object", "properties": {"unit": {"type": "string", "enum": ["s", "ms"], "default": "N/A"}}}}]},
        indent=1)
    hits = [(f.line, f.column, f.pointer) for f in lint_text(text, "mcp.json", Selection(select=("TC414",))).findings]
    assert hits == [(*at(text, '"N/A"'), "/tools/0/inputSchema/properties/unit/default")]


# ------------------------------------------------------------------ TC415


def test_required_property_with_a_default() -> None:
    text = props("    detail_level: {type: string, enum: [summary, full], default: summary}\n",
                 "  required: [detail_level, detail_level]\n")
    one(text, "TC415", "summary}", "property 'detail_level' is required, so its default 'summary' never applies")


def test_conditional_or_other_object_requirements_leave_room_for_the_default() -> None:
    text = props("    mode: {type: string, default: fast}\n    fast: {type: boolean, default: false}\n",
                 "  then: {required: [mode]}\n  if: {required: [fast]}\n")
    assert found(text, "TC415") == []
    nested = props("    body:\n      type: object\n      properties:\n        n: {type: integer, default: 1}\n"
                   "      required: [n]\n      additionalProperties: false\n")
    one(nested, "TC415", "1}", "property 'n' is required, so its default 1")


# ------------------------------------------------------------------ TC416


def mcp_list(*tools: tuple[str, str]) -> str:
    lines = ["tools:"]
    for name, kind in tools:
        lines += [f"  - name: {name}", "    description: A tool of the list.", "    inputSchema:",
                  "      type: object", "      properties:", f"        owner: {{type: {kind}, description: Owner.}}"]
    return "\n".join(lines) + "\n"


def test_one_deviating_type_against_a_clear_majority() -> None:
    text = mcp_list(("a_get", "string"), ("b_get", "integer"), ("c_get", "string"), ("d_get", "string"),
                    ("e_get", "integer"), ("f_get", "string"), ("g_get", "string"), ("h_get", "string"))
    result = lint_text(text, "mcp.yaml", Selection(select=("TC416",)))
    hits = [(f.line, f.column, f.tool, f.severity, f.message) for f in result.findings]
    assert len(hits) == 1, hits  # one finding per name and deviating type, at the first tool that deviates
    line, column, tool, severity, message = hits[0]
    assert (line, column, tool, severity) == (*at(text, "integer"), "b_get", Severity.INFO)
    assert "parameter 'owner' is integer here but string in 6 other tools of this list (such as 'a_get')" in message


def test_no_majority_no_finding() -> None:
    assert found(mcp_list(("a_get", "string"), ("b_get", "string"), ("c_get", "integer")), "TC416") == []
    # 3 against 2: names that mean different things in different tools look like this
    assert found(mcp_list(("a_get", "number"), ("b_get", "number"), ("c_get", "number"), ("d_get", "string"),
                          ("e_get", "string")), "TC416") == []


def test_types_are_compared_by_meaning() -> None:
    same = mcp_list(("a_get", "string"), ("b_get", "string"), ("c_get", "string"), ("d_get", "'[string, \"null\"]'"))
    assert found(same.replace("'[string, \"null\"]'", "[string, 'null']"), "TC416") == []
    floats = mcp_list(("a_get", "number"), ("b_get", "number"), ("c_get", "number"), ("d_get", "float"))
    assert found(floats, "TC416") == []  # `float` is TC401's to report; it means number


def test_each_file_is_its_own_list() -> None:
    first = mcp_list(("a_get", "string"), ("b_get", "string"), ("c_get", "string"))
    second = mcp_list(("d_get", "integer"))
    result = lint_files([("one.yaml", first.encode()), ("two.yaml", second.encode())], Selection(select=("TC416",)))
    assert result.findings == []


def test_untyped_and_odd_properties_are_skipped() -> None:
    text = json.dumps({"tools": [
        {"name": f"t{i}", "inputSchema": {"type": "object", "properties": props}} for i, props in enumerate([
            {"owner": {"type": "string"}}, {"owner": {"type": "string"}}, {"owner": {"type": "string"}},
            {"owner": {"anyOf": [{"type": "integer"}]}}, {"owner": {"type": 5}}, {"owner": {"type": []}},
            {"owner": True}, {"owner": "integer"}])] + [{"name": "x", "inputSchema": {"properties": [1]}},
                                                         {"name": "y", "inputSchema": "object"}]})
    assert found(text, "TC416") == []


# ------------------------------------------------------------------ TC417


def described(description: str, extra: str = "") -> str:
    return props(f"    sha: {{type: string, description: {json.dumps(description)}}}\n"
                 "    path: {type: string, description: File path.}\n", "  required: [path]\n" + extra)


@pytest.mark.parametrize("description, phrase", [
    ("Blob SHA. Required if the file already exists.", "Required if the file already exists"),
    ("Blob SHA (required for update)", "required for update"),
    ("Blob SHA. This field is required.", "This field is required"),
    ("Blob SHA; required when updating, optional otherwise", "required when updating, optional otherwise"),
    ("Blob SHA. Must be provided with path.", "Must be provided with path"),
    ("Blob SHA. REQUIRED.", "REQUIRED"),
    ("The `sha` is required when updating a file.", "The `sha` is required when updating a file"),
    ("Blob SHA. Exactly one of path or sha is required.", "Exactly one of path or sha is required"),
    ("Blob SHA (required)", "required"),
])
def test_requirement_claims(description: str, phrase: str) -> None:
    text = described(description)
    one(text, "TC417", json.dumps(description), "but the schema leaves it optional")
    assert f"says {phrase!r} but" in found(text, "TC417")[0][2]


@pytest.mark.parametrize("description", [
    "Blob SHA. Not required.",
    "Blob SHA. It is not required for new files.",
    "Blob SHA, if required by the server.",
    "The permissions required for this call.",
    "Starting index; useful when more context is required.",
    "Required scopes: repo.",
    "Optional. Required.",
    "Blob SHA, which must be set to the current value.",
    "Blob SHA. Mandatory fields are listed in the guide",
])
def test_not_claims_about_the_property(description: str) -> None:
    assert found(described(description), "TC417") == []


@pytest.mark.parametrize("encoding", [
    "  if: {properties: {path: {const: README.md}}}\n  then: {required: [sha]}\n",
    "  dependentRequired: {path: [sha]}\n",
    "  anyOf: [{required: [sha]}, {required: [path]}]\n",
    "  allOf: [{oneOf: [{required: [sha]}, {not: {required: [sha]}}]}]\n",
])
def test_an_encoded_condition_silences_it(encoding: str) -> None:
    assert found(described("Blob SHA. Required if the file already exists.", encoding), "TC417") == []


def test_a_required_property_is_not_reported() -> None:
    text = described("Blob SHA. Required.").replace("required: [path]", "required: [path, sha]")
    assert found(text, "TC417") == []


# ------------------------------------------------------------------ every new rule


HOSTILE = [
    "a string", ["a", "list"], True, False, None, 7,
    {"type": "object", "properties": ["city"], "required": "city", "default": {"x": [1]}},
    {"type": "object", "properties": {"city": "string", "n": None, "x": []}, "required": [1, None, "city"]},
    {"type": 5, "default": 3, "properties": {"a": {"$ref": 5, "default": 1, "pattern": 7}}},
    {"$schema": "http://json-schema.org/draft-04/schema#", "id": 5, "items": [1, {"id": []}], "dependencies": [],
     "exclusiveMinimum": "yes", "$ref": "#", "type": "object", "properties": {"a": {"default": None, "$ref": "#"}}},
    {"$schema": ["x"], "properties": {"a": {"type": ["string", 3], "default": 1, "description": 5}}},
    {"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveRef": 5, "$recursiveAnchor": []},
    {"$schema": "http://json-schema.org/draft-03/schema#", "properties": {"a": {"required": True, "extends": {}}}},
    {"properties": {"a": {"type": "string", "pattern": "(", "default": "x"}}},
    {"properties": {"a": {"type": "string", "pattern": "^(a+)+$", "default": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}}},
    {"properties": {"a": {"description": "Required." * 2000, "type": "string"}}},
]


def nested(depth: int) -> dict:
    node: dict = {"type": "string", "default": 1, "description": "Required."}
    for _ in range(depth):
        node = {"type": "object", "properties": {"a": node}, "default": {}, "required": ["a"]}
    return node


@pytest.mark.parametrize("value", HOSTILE + [nested(150)], ids=range(len(HOSTILE) + 1))
def test_hostile_values_do_not_crash(value: object) -> None:
    for fields in ({"input_schema": value, "output_schema": value}, {"input_schema": {"type": "object",
                                                                                      "properties": {"a": value}}}):
        descriptor = json.dumps({"toolcontract": 1, "name": "report_export", "effect": "read", **fields})
        tools = json.dumps({"tools": [{"name": f"t{i}", "inputSchema": value} for i in range(4)]})
        for text, path in ((descriptor, "d.json"), (tools, "mcp.json")):
            lint_text(text, path, Selection(select=NEW_RULES))


# ------------------------------------------------------------------ real data

CORPUS = corpus_dir()
needs_corpus = pytest.mark.skipif(not (CORPUS / "bfcl" / "functions_unique.json").is_file(),
                                  reason=f"the shared corpus is not at {CORPUS} (set TOOLCONTRACT_CORPUS)")


@needs_corpus
def test_bfcl_defaults_outside_their_enum_and_required_defaults_are_found() -> None:
    functions = [entry["function"] for entry in json.loads((CORPUS / "bfcl" / "functions_unique.json").read_text())]
    text = json.dumps([{"type": "function", "function": f} for f in functions])
    result = lint_files([("bfcl.json", text.encode())], Selection(select=("TC414", "TC415")))
    by_rule: dict[str, set[str]] = {"TC414": set(), "TC415": set()}
    for finding in result.findings:
        by_rule[finding.rule].add(finding.pointer)
    outside_enum, required_defaults = set(), set()
    for i, function in enumerate(functions):
        parameters = function.get("parameters") or {}
        properties = parameters.get("properties") or {}
        for name, prop in properties.items():
            pointer = f"/{i}/function/parameters/properties/{name}/default"
            if isinstance(prop, dict) and isinstance(prop.get("enum"), list) and "default" in prop:
                if prop["default"] not in prop["enum"]:
                    outside_enum.add(pointer)
            if isinstance(prop, dict) and "default" in prop and name in (parameters.get("required") or []):
                required_defaults.add(pointer)
    assert len(outside_enum) == 48 and outside_enum <= by_rule["TC414"]
    assert len(required_defaults) == 26 and required_defaults == by_rule["TC415"]


@needs_corpus
def test_github_mcp_server_head_gets_no_error_from_the_new_rules() -> None:
    tools = [e["tool"] for e in json.loads((CORPUS / "mcp" / "github-mcp-server.tools.head.json").read_text())["tools"]]
    result = lint_text(json.dumps({"tools": tools}), "github.json", Selection(select=NEW_RULES))
    assert not [f for f in result.findings if f.severity >= Severity.ERROR]
    # its schemas name no dialect and hold no default their schema rejects
    assert not [f for f in result.findings if f.rule in ("TC412", "TC414", "TC415")]


@needs_corpus
def test_draft_07_schemas_of_livemcpbench_are_not_reported_for_naming_draft_07() -> None:
    servers = json.loads((CORPUS / "mcp" / "livemcpbench.tools.json").read_text())["servers"]
    files = [(f"{i}-{key}.json", json.dumps({"tools": sub["tools"]}).encode())
             for i, server in enumerate(servers) for key, sub in server["tools"].items()]
    drafts = sum(json.dumps(t.get("inputSchema")).count("draft-07") for s in servers for sub in s["tools"].values()
                 for t in sub["tools"])
    assert drafts > 100  # the data this test is about
    assert lint_files(files, Selection(select=("TC412",))).findings == []


def test_nested_defaults_over_a_large_enum_stay_within_a_budget() -> None:
    # each default is checked against its whole subschema: 30 nested ones over a 120,000-member enum would
    # validate the enum 30 times; past the budget a default is skipped, and small ones are still checked
    import time

    node: dict = {"type": "string", "enum": [f"v{i}" for i in range(120_000)], "default": "zz"}
    for _ in range(30):
        node = {"type": "object", "properties": {"a": node}, "default": {"a": "zz"}}
    node["properties"]["b"] = {"type": "integer", "default": "seven"}
    text = json.dumps({"toolcontract": 1, "name": "a", "input_schema": node})
    start = time.perf_counter()
    hits = found(text, "TC414", "d.json")
    assert time.perf_counter() - start < 10
    assert [message.split(" fails")[0] for _, _, message in hits] == ["default 'seven'"]
