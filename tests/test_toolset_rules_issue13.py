"""Issue 13, point 6: Gemini schema shapes (TC514, TC515) and the size of a tool list (TC516, TC517).

TC516 and TC517 are list rules: they see the tools of one file (or live server) together
and place their one finding at the list. The lists here are generated: 129 OpenAI tools,
513 Gemini declarations, strict Anthropic lists over 20 tools or 24 optional parameters.
The corpus tests read ../shared/corpus in place (or $TOOLCONTRACT_CORPUS).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO, corpus_dir
from toolcontract.lint.engine import Selection, lint_files, lint_text
from toolcontract.lint.rules.tc5_portability.tc517_toolset_context_cost import (
    BYTES_PER_TOKEN,
    DEFAULT_MAX_TOOLSET_TOKENS,
    compact_json,
    estimate_tokens,
    model_view,
)
from toolcontract.core.model import Severity
from toolcontract.io.document import load_bytes
from toolcontract.io.reader import read_tools


def run(text: str, path: str = "tools.json", select=("TC514", "TC515", "TC516", "TC517"), targets=(), options=None):
    result = lint_text(text, path, Selection(select=select, targets=targets, options=options))
    return result.findings


def where(findings, rule: str) -> list[tuple[int, int]]:
    return [(f.line, f.column) for f in findings if f.rule == rule]


# ------------------------------------------------------------------ generated lists


def openai_tools(count: int) -> str:
    """An OpenAI Chat tool list, `{"tools": [...]}`, one tool a line: "tools" is at line 1, column 2."""
    tools = [json.dumps({"type": "function", "function": {
        "name": f"lookup_{i:03d}", "description": f"Look up record {i}.",
        "parameters": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
                       "additionalProperties": False}}}) for i in range(count)]
    return '{"tools": [\n' + ",\n".join(tools) + "\n]}\n"


def gemini_declarations(count: int) -> str:
    """A Gemini tool list: `{"tools": [{"functionDeclarations": [...]}]}`, declarations from line 3."""
    declarations = [json.dumps({"name": f"lookup_{i:03d}", "description": f"Look up record {i}.",
                                "parameters": {"type": "OBJECT", "properties": {"id": {"type": "STRING"}},
                                               "required": ["id"]}}) for i in range(count)]
    return '{"tools": [\n {"functionDeclarations": [\n' + ",\n".join(declarations) + "\n]}\n]}\n"


def anthropic_tools(count: int, optional: int = 0, strict=None, unions: int = 0) -> str:
    """An Anthropic tool list (a bare JSON list, from line 1): `count` tools, each with `optional`
    optional properties and `unions` required anyOf properties; `strict` written on each when given."""
    tools = []
    for i in range(count):
        props = {f"opt_{k}": {"type": "string"} for k in range(optional)}
        props.update({f"either_{k}": {"anyOf": [{"type": "string"}, {"type": "integer"}]} for k in range(unions)})
        tool = {"name": f"report_{i:02d}", "description": f"Report {i}.",
                "input_schema": {"type": "object", "properties": props, "required": [f"either_{k}" for k in range(unions)],
                                 "additionalProperties": False}}
        if strict is not None:
            tool["strict"] = strict(i) if callable(strict) else strict
        tools.append(json.dumps(tool))
    return "[\n" + ",\n".join(tools) + "\n]\n"


# ------------------------------------------------------------------ TC516


def test_129_openai_tools_are_over_the_limit_and_128_are_not():
    [finding] = [f for f in run(openai_tools(129), targets=("openai",)) if f.rule == "TC516"]
    assert (finding.line, finding.column) == (1, 2) and finding.severity is Severity.ERROR
    assert finding.pointer == "/tools" and finding.tool is None
    assert "this list has 129 tools; openai takes at most 128 in one request" in finding.message
    assert "split the list" in finding.message and "load tools on demand" in finding.message
    assert where(run(openai_tools(128), targets=("openai", "openai-strict")), "TC516") == []


def test_openai_and_openai_strict_share_one_finding():
    [finding] = [f for f in run(openai_tools(130), targets=("openai", "openai-strict")) if f.rule == "TC516"]
    assert "130 tools; openai, openai-strict take at most 128" in finding.message


def test_the_openai_count_does_not_speak_for_other_surfaces():
    text = openai_tools(129)
    assert where(run(text, targets=("anthropic", "mcp", "gemini")), "TC516") == []
    assert where(run(text), "TC516") == []  # no target: the rule does not run


def test_513_gemini_declarations_are_over_the_limit_and_512_are_not():
    [finding] = [f for f in run(gemini_declarations(513), targets=("gemini",)) if f.rule == "TC516"]
    assert (finding.line, finding.column) == (2, 3) and finding.pointer == "/tools/0/functionDeclarations"
    assert "513 function declarations; gemini takes at most 512" in finding.message
    assert where(run(gemini_declarations(512), targets=("gemini",)), "TC516") == []
    # an OpenAI target reads the same list: 513 is over 128 too
    assert any("openai takes at most 128" in f.message for f in run(gemini_declarations(513), targets=("openai",)))


def test_21_strict_anthropic_tools_are_over_the_limit_and_20_are_not():
    [finding] = [f for f in run(anthropic_tools(21), targets=("anthropic-strict",)) if f.rule == "TC516"]
    assert (finding.line, finding.column) == (1, 1) and finding.pointer == ""
    assert "21 strict tools (every tool of the list, as --target anthropic-strict assumes), over the 20" in finding.message
    assert "send `strict: true` only on the tools" in finding.message
    assert where(run(anthropic_tools(20), targets=("anthropic-strict",)), "TC516") == []
    assert where(run(anthropic_tools(21), targets=("anthropic", "openai")), "TC516") == []  # not strict mode


def test_written_strict_flags_decide_which_tools_count():
    only_three = anthropic_tools(25, strict=lambda i: i < 3)
    assert where(run(only_three, targets=("anthropic-strict",)), "TC516") == []
    all_flagged = anthropic_tools(21, strict=True)
    [finding] = [f for f in run(all_flagged, targets=("anthropic-strict",)) if f.rule == "TC516"]
    assert "21 tools with `strict: true`, over the 20 allowed" in finding.message


def test_25_optional_parameters_across_strict_tools_are_over_the_limit():
    [finding] = [f for f in run(anthropic_tools(5, optional=5), targets=("anthropic-strict",)) if f.rule == "TC516"]
    assert (finding.line, finding.column) == (1, 1)
    assert "25 optional parameters across the 5 strict schemas, over the 24 allowed" in finding.message
    assert where(run(anthropic_tools(4, optional=6), targets=("anthropic-strict",)), "TC516") == []  # 24


def test_21_tools_and_25_optional_parameters_make_one_finding():
    text = anthropic_tools(21) [:-3] + ",\n" + anthropic_tools(1, optional=25)[2:].replace("report_00", "report_99")
    [finding] = [f for f in run(text, targets=("anthropic-strict",)) if f.rule == "TC516"]
    assert "22 strict tools" in finding.message and "25 optional parameters across the 22 strict schemas" in finding.message


def test_union_parameters_are_summed_too():
    [finding] = [f for f in run(anthropic_tools(3, unions=6), targets=("anthropic-strict",)) if f.rule == "TC516"]
    assert "18 union parameters (anyOf or a type list) across the 3 strict schemas, over the 16" in finding.message


def test_optional_parameters_count_at_every_object_level():
    nested = {"name": "note_add", "description": "Add a note.", "input_schema": {
        "type": "object", "additionalProperties": False, "required": ["note"],
        "properties": {"note": {"type": "object", "additionalProperties": False, "required": [],
                                "properties": {f"n{k}": {"type": "string"} for k in range(13)}}}}}
    other = {**nested, "name": "note_edit"}
    findings = run(json.dumps([nested, other]), targets=("anthropic-strict",))
    assert any("26 optional parameters across the 2 strict schemas" in f.message for f in findings)


def test_one_strict_tool_over_a_budget_is_tc509s_not_tc516s():
    findings = run(anthropic_tools(1, optional=30), targets=("anthropic-strict",), select=("TC509", "TC516"))
    assert [f.rule for f in findings] == ["TC509"]


def test_a_native_list_places_the_finding_at_its_tools_key():
    text = "toolcontract: 1\ntools:\n" + "".join(
        f"  - {{name: lookup_{i:03d}, effect: read, description: Look up one record.}}\n" for i in range(129))
    [finding] = [f for f in run(text, "tools.yaml", targets=("openai",)) if f.rule == "TC516"]
    assert (finding.line, finding.column, finding.pointer) == (2, 1, "/tools")


# ------------------------------------------------------------------ TC517


def _wide_native(count: int) -> str:
    return "toolcontract: 1\ntools:\n" + "".join(
        f"  - {{name: record_{i:02d}, effect: read, description: '{'Reads one stored record. ' * (i + 1)}'}}\n"
        for i in range(count))


def test_the_estimate_is_the_model_view_bytes_over_the_measured_figure():
    tools = read_tools(load_bytes(_wide_native(3).encode(), "t.yaml")).tools
    view = model_view(tools[0])
    assert view == b'{"name":"record_00","description":"Reads one stored record."}'
    assert estimate_tokens(len(view)) == -(-len(view) * 10 // 43) and BYTES_PER_TOKEN == 4.3
    schema_tool = read_tools(load_bytes(b'{"name": "a", "inputSchema": {"type": "object"}}', "t.json")).tools[0]
    assert model_view(schema_tool) == b'{"name":"a","input_schema":{"type":"object"}}'


def test_the_threshold_comes_from_the_options_and_the_finding_names_the_five_largest():
    text = _wide_native(8)
    assert where(run(text), "TC517") == []  # far under the default 20,000
    [finding] = [f for f in run(text, "tools.yaml", options={"max-toolset-tokens": 50}) if f.rule == "TC517"]
    assert (finding.line, finding.column, finding.pointer, finding.tool) == (2, 1, "/tools", None)
    assert finding.severity is Severity.WARNING
    assert "the 8 tools of this list take about" in finding.message and "over max-toolset-tokens 50" in finding.message
    largest = finding.message.split("the largest: ")[1].split("; ")[0]
    assert [part.split(" ")[0] for part in largest.split(", ")] == [f"record_{i:02d}" for i in (7, 6, 5, 4, 3)]
    tools = read_tools(load_bytes(text.encode(), "t.yaml")).tools
    total = estimate_tokens(sum(len(model_view(t)) for t in tools))
    assert f"about {total:,} tokens" in finding.message
    assert f"record_07 (~{estimate_tokens(len(model_view(tools[7]))):,})" in finding.message


def test_a_threshold_of_the_wrong_type_falls_back_to_the_default():
    for bad in (0, -5, "10", True, 1.5, None):
        assert where(run(_wide_native(8), options={"max-toolset-tokens": bad}), "TC517") == []


def test_the_finding_stays_one_line_of_bounded_length_with_odd_names():
    tools = [{"name": "x" * 300, "inputSchema": {"type": "object"}}, {"inputSchema": {"type": "object"}},
             {"name": "ok", "description": "d" * 5000}]
    findings = run(json.dumps({"tools": tools}), options={"max-toolset-tokens": 10}, select=("TC517",))
    [finding] = [f for f in findings if f.rule == "TC517"]
    assert "x" * 57 + "..." in finding.message and "x" * 61 not in finding.message
    assert "tool #2" in finding.message and "\n" not in finding.message


def test_compact_json_never_raises():
    assert compact_json({1: "a", None: 2**80, "d": float("nan")})
    assert compact_json({"big": 10**400}) == b'{"big":1' + b"0" * 400 + b"}"  # beyond orjson: the standard library
    assert len(compact_json({"huge": 10**5000})) > 5000  # beyond str(): an approximate length
    nested: list = []
    node = nested
    for _ in range(5000):  # deeper than either encoder goes
        node.append([])
        node = node[0]
    assert compact_json(nested)


def test_default_threshold_and_the_bad_fixture():
    assert DEFAULT_MAX_TOOLSET_TOKENS == 20_000
    path = REPO / "fixtures" / "descriptors" / "bad" / "TC517-toolset-context-cost.yaml"
    result = lint_files([(str(path), path.read_bytes())], Selection(select=("TC517",)))
    [finding] = result.findings
    assert (finding.line, finding.column) == (5, 1) and "the 78 tools of this list take about 21," in finding.message


# ------------------------------------------------------------------ the config option through the CLI


def _cli(cwd, *args):
    return subprocess.run([sys.executable, "-m", "toolcontract", "lint", "--format", "json", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("name", "text"), [
    (".toolcontract.yaml", "max-toolset-tokens: 60\n"),
    ("pyproject.toml", "[tool.toolcontract]\nmax-toolset-tokens = 60\n"),
    (".toolcontract.yaml", "max_toolset_tokens: 60\n"),  # snake_case spelling
])
def test_max_toolset_tokens_from_a_config_file_reaches_the_rule(tmp_path, name, text):
    (tmp_path / "tools.yaml").write_text(_wide_native(8))
    (tmp_path / name).write_text(text)
    done = _cli(tmp_path, "tools.yaml", "--select", "TC5")
    [finding] = json.loads(done.stdout)["findings"]
    assert (finding["rule"], finding["line"], finding["column"]) == ("TC517", 2, 1)
    assert "over max-toolset-tokens 60;" in finding["message"]
    assert done.returncode == 0  # a warning: under the default --fail-on error
    # without the config file the default threshold holds
    done = _cli(tmp_path, "--no-config", "tools.yaml", "--select", "TC5")
    assert json.loads(done.stdout)["findings"] == [] and done.returncode == 0


@pytest.mark.parametrize("value", ["0", "'many'", "1.5"])
def test_a_bad_max_toolset_tokens_is_a_config_error_naming_the_key(tmp_path, value):
    (tmp_path / "tools.yaml").write_text(_wide_native(2))
    (tmp_path / ".toolcontract.yaml").write_text(f"select: [TC]\nmax-toolset-tokens: {value}\n")
    done = _cli(tmp_path, "tools.yaml")
    assert done.returncode == 2
    assert ".toolcontract.yaml:2:" in done.stderr and "max-toolset-tokens" in done.stderr


# ------------------------------------------------------------------ TC514 / TC515


def _schema_tool(properties: dict, fmt: str = "native") -> str:
    schema = {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}
    if fmt == "gemini-json":
        return json.dumps({"functionDeclarations": [{"name": "t", "description": "T.", "parametersJsonSchema": schema}]},
                          indent=1)
    return json.dumps({"toolcontract": 1, "name": "t", "effect": "read", "input_schema": schema}, indent=1)


def test_arrays_without_items_are_found_where_they_are_nested():
    props = {"tags": {"type": "array"},
             "pick": {"anyOf": [{"type": "array"}, {"type": "string"}]},
             "rows": {"type": "array", "items": {"type": "object", "properties": {"cells": {"type": "array"}},
                                                 "required": ["cells"]}},
             "fine": {"type": "array", "items": {"type": "string"}}}
    findings = [f for f in run(_schema_tool(props), targets=("gemini",)) if f.rule == "TC514"]
    assert [f.pointer for f in findings] == ["/input_schema/properties/tags", "/input_schema/properties/pick/anyOf/0",
                                              "/input_schema/properties/rows/items/properties/cells"]
    assert (findings[0].line, findings[0].column) == (8, 4)
    assert all("has no `items`, which gemini refuses" in f.message for f in findings)


def test_objects_without_properties_nested_but_not_at_the_root():
    props = {"options": {"type": "object"}, "empty": {"type": "object", "properties": {}},
             "map": {"type": "object", "additionalProperties": {"type": "string"}},
             "ref": {"type": "object", "$ref": "#/$defs/x"},
             "alts": {"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}}]},
             "ok": {"type": "object", "properties": {"a": {"type": "string"}}}}
    findings = [f for f in run(_schema_tool(props), targets=("gemini",)) if f.rule == "TC515"]
    got = {f.pointer.rsplit("/", 1)[1]: f for f in findings}
    assert set(got) == {"options", "empty", "map"}
    assert got["options"].severity is Severity.ERROR and "has no `properties`, which gemini refuses" in got["options"].message
    assert "has empty `properties`" in got["empty"].message
    assert got["map"].severity is Severity.WARNING and "may refuse it" in got["map"].message
    assert (got["options"].line, got["options"].column) == (8, 4)
    no_args = json.dumps({"toolcontract": 1, "name": "now", "effect": "read",
                          "input_schema": {"type": "object", "properties": {}}})
    assert where(run(no_args, targets=("gemini",)), "TC515") == []


def test_gemini_shapes_run_only_for_gemini_and_not_on_parameters_json_schema():
    props = {"options": {"type": "object"}, "tags": {"type": "array"}}
    assert where(run(_schema_tool(props), targets=("openai", "anthropic", "mcp")), "TC514") == []
    assert where(run(_schema_tool(props), targets=("openai", "anthropic", "mcp")), "TC515") == []
    assert not [f for f in run(_schema_tool(props, "gemini-json"), targets=("gemini",)) if f.rule in ("TC514", "TC515")]


def test_gemini_declarations_written_in_openapi_form():
    declaration = {"name": "t", "description": "T.", "parameters": {"type": "OBJECT", "properties": {
        "tags": {"type": "ARRAY", "nullable": True}, "opts": {"type": "OBJECT", "nullable": True}}}}
    findings = run(json.dumps({"functionDeclarations": [declaration]}, indent=1), targets=("gemini",))
    assert sorted((f.rule, f.pointer) for f in findings if f.rule in ("TC514", "TC515")) == [
        ("TC514", "/functionDeclarations/0/parameters/properties/tags"),
        ("TC515", "/functionDeclarations/0/parameters/properties/opts")]


def test_keywords_gemini_refuses_hide_what_lies_under_them():
    props = {"x": {"oneOf": [{"type": "array"}, {"type": "object"}]}}  # TC512 reports the oneOf
    findings = run(_schema_tool(props), targets=("gemini",), select=("TC512", "TC514", "TC515"))
    assert [f.rule for f in findings] == ["TC512"]


def test_hostile_schema_values_do_not_crash_the_new_rules():
    odd = {"toolcontract": 1, "name": "t", "effect": "read", "input_schema": {
        "type": "object", "required": [{"a": 1}, "x", None], "properties": {
            "x": {"type": ["array", "object"]}, "y": {"type": 5, "properties": []}, "z": True,
            "w": {"type": "object", "properties": None}}}}
    text = json.dumps({"toolcontract": 1, "tools": [odd, {**odd, "name": "u"}]})
    findings = run(text, targets=("openai", "openai-strict", "anthropic-strict", "gemini"),
                   select=("TC509", "TC514", "TC515", "TC516", "TC517"), options={"max-toolset-tokens": 1})
    assert {f.rule for f in findings} >= {"TC514", "TC515", "TC517"}


# ------------------------------------------------------------------ the corpus's real lists

CORPUS = corpus_dir()


def _corpus(relative: str):
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"{relative} is not in the corpus at {CORPUS} (set TOOLCONTRACT_CORPUS to a copy of shared/corpus)")
    return json.loads(path.read_text("utf-8"))


def _lint_list(name: str, data, targets=(), select=("TC516", "TC517")):
    return lint_files([(name, json.dumps(data).encode())], Selection(select=select, targets=targets)).findings


def test_githubs_mcp_server_costs_over_the_default_threshold():
    head = _corpus("mcp/github-mcp-server.tools.head.json")
    data = {"tools": [entry["tool"] for entry in head["tools"]]}
    [finding] = _lint_list("github.json", data, targets=("openai", "gemini"))
    assert finding.rule == "TC517" and len(data["tools"]) == 117  # under OpenAI's 128 and Gemini's 512
    estimate = int(finding.message.split("take about ")[1].split(" ")[0].replace(",", ""))
    assert 24_000 < estimate < 29_000  # 26,400 when measured; 25,087 by o200k_base (bench/token_cost.py)
    assert finding.message.split("the largest: ")[1].startswith("projects_write (~")
    strict = _lint_list("github.json", data, targets=("anthropic-strict",), select=("TC516",))
    assert [f.rule for f in strict] == ["TC516"] and "117 strict tools" in strict[0].message


def test_no_single_real_server_list_or_tau_bench_domain_is_over_the_default():
    servers = _corpus("mcp/livemcpbench.tools.json")["servers"]
    lists = [(name, {"tools": entry["tools"]}) for server in servers for name, entry in server["tools"].items()]
    tau = _corpus("transcripts/tau-bench.tools.json")["tools"]
    lists += [(domain, [e["tool"] for e in entries]) for domain, entries in tau.items()]
    assert len(lists) == 72
    for name, data in lists:
        assert _lint_list(f"{name}.json", data, targets=("openai", "gemini")) == [], name


def test_all_of_livemcpbench_merged_is_over_every_count_limit():
    servers = _corpus("mcp/livemcpbench.tools.json")["servers"]
    merged = {"tools": [t for server in servers for entry in server["tools"].values() for t in entry["tools"]]}
    findings = _lint_list("merged.json", merged, targets=("openai", "gemini"))
    messages = sorted(f.message for f in findings if f.rule == "TC516")
    assert len(merged["tools"]) == 527 and len(messages) == 2
    assert "527 function declarations; gemini takes at most 512" in messages[0]
    assert "527 tools; openai takes at most 128" in messages[1]


def test_an_examples_settings_are_shown_with_it(runner):
    from toolcontract.cli import app
    from toolcontract.report.sarif import rule_descriptors

    done = runner.invoke(app, ["rules", "TC517"])
    assert done.exit_code == 0 and "Bad (hits line 2), with max-toolset-tokens = 100" in done.output
    done = runner.invoke(app, ["rules", "TC517", "--format", "json"])
    assert json.loads(done.output)["examples"][0]["settings"] == {"max-toolset-tokens": 100}
    [tc517] = [d for d in rule_descriptors() if d["id"] == "TC517"]
    assert "with max-toolset-tokens = 100" in tc517["help"]["text"]
