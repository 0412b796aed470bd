"""TC5xx portability rules beyond their examples: surfaces, severities, edge cases, real MCP tools.

Every rule runs only for the surfaces `--target` names, and says which ones in its
message. The corpus tests read ../shared/corpus in place (or $TOOLCONTRACT_CORPUS) and
convert MCP tools to native descriptors in memory; nothing is copied into the repo.
"""

from __future__ import annotations

import functools
import json
import re

import pytest

from conftest import EXPECTED_RULES, corpus_dir, good_fixtures, lint_paths
from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import RunContext, ToolContext
from toolcontract.lint.engine import Selection, all_rules, lint_text
from toolcontract.core.rule import Bad, SURFACES
from toolcontract.lint.rules.tc5_portability.tc507_strict_value_unsupported import pattern_feature
from toolcontract.core.model import Severity

# TC5xx rules that run on every lint, for no surface: the context cost of a tool list is no provider's limit;
# TC520 and TC521 (issue 19) judge an MCP list by the revision it is served under, which the list itself says
DEFAULT_ON = {"TC517", "TC520", "TC521"}
RULES = {rule_id: rule for rule_id, rule in all_rules().items() if rule_id.startswith("TC5") and rule_id not in DEFAULT_ON}
HEAD = {"toolcontract": 1, "name": "weather_current", "effect": "read"}


def findings(data: dict, targets: tuple[str, ...], select: tuple[str, ...] = ("TC5",)):
    """Findings of a descriptor given as a dict (written as JSON, which is YAML too)."""
    text = json.dumps({**HEAD, **data})
    return lint_text(text, "d.json", Selection(select=select, targets=targets)).findings


def schema(properties: dict, required: list | None = None, **extra) -> dict:
    body = {"type": "object", "properties": properties, "additionalProperties": False, **extra}
    body["required"] = list(properties) if required is None else required
    return {"input_schema": body}


CITY = {"city": {"type": "string", "description": "City name."}}


# ------------------------------------------------------------------ surfaces


def test_every_portability_rule_names_its_surfaces():
    assert len(RULES) >= 10
    assert {i for i, r in all_rules().items() if i.startswith("TC5") and not r.surfaces} == DEFAULT_ON
    for rule in RULES.values():
        assert rule.surfaces, f"{rule.id} has no surfaces: it would run on every lint"
        assert set(rule.surfaces) <= set(SURFACES)
        assert any(s in rule.rationale for s in ("OpenAI", "Anthropic", "Gemini", "MCP")), rule.id
        assert "(" in rule.rationale and any(
            key in rule.rationale for key in ("OA-", "AN-", "GM-", "MT", "MS", "o1", "o3", "o7", "o9")
        ), f"{rule.id}: the rationale cites no source key of tool-surfaces.md"


def _named(message: str) -> set[str]:
    """The surfaces a message names, as whole words (openai-strict does not also name openai)."""
    return {s for s in SURFACES if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", message)}


def _bad_examples():
    for rule in RULES.values():
        for index, example in enumerate(rule.examples):
            if isinstance(example, Bad):
                yield pytest.param(rule, example, id=f"{rule.id}-{index}")


@pytest.mark.parametrize(("rule", "example"), list(_bad_examples()))
def test_bad_examples_are_silent_without_a_target(rule, example):
    result = lint_text(example.text, "d.yaml", Selection(select=(rule.id,)))
    assert not result.findings


@pytest.mark.parametrize(("rule", "example"), list(_bad_examples()))
def test_each_finding_names_the_surface_it_was_run_for(rule, example):
    fired = []
    for surface in SURFACES:
        result = lint_text(example.text, "d.yaml", Selection(select=(rule.id,), targets=(surface,)))
        if result.findings:
            assert surface in rule.surfaces
            fired.append(surface)
            for finding in result.findings:
                assert _named(finding.message) == {surface}, finding.message
    assert fired, f"{rule.id}'s bad example fires for no single surface"


def test_targets_outside_a_rules_surfaces_do_not_run_it():
    bad = schema({"city": {"type": "string", "minLength": 2, "description": "City."}})
    assert findings(bad, ("openai", "anthropic", "gemini", "mcp"), ("TC506",)) == []
    assert [f.rule for f in findings(bad, ("anthropic-strict",), ("TC506",))] == ["TC506"]


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(("name", "refusing"), [
    ("github.get_issue", {"openai", "openai-strict", "anthropic", "anthropic-strict"}),
    ("files:read", {"openai", "openai-strict", "anthropic", "anthropic-strict", "mcp"}),
    ("repo/list", set(SURFACES)),
    ("2fa_reset", {"gemini"}),
    ("a" * 65, {"openai", "openai-strict", "anthropic", "anthropic-strict"}),
    ("a" * 129, set(SURFACES)),
    ("get weather", set(SURFACES)),
    ("météo", set(SURFACES)),
    ("weather-current", set()),
    ("_private_tool", set()),
])
def test_name_rules_per_surface(name, refusing):
    for surface in SURFACES:
        hits = findings({"name": name}, (surface,), ("TC501",))
        assert bool(hits) == (surface in refusing), (surface, [f.message for f in hits])


def test_a_name_only_mcp_objects_to_is_a_warning_and_names_every_surface():
    [only_mcp] = findings({"name": "files:read"}, ("mcp", "gemini"), ("TC501",))
    assert only_mcp.severity is Severity.WARNING and "mcp" in only_mcp.message and "gemini" not in only_mcp.message
    [both] = findings({"name": "files:read"}, ("openai", "mcp"), ("TC501",))
    assert both.severity is Severity.ERROR
    assert "refused by openai" in both.message and "mcp" in both.message


def test_gemini_parameter_names_are_checked_at_the_top_level_only():
    nested = {"opts": {"type": "object", "properties": {"page-size": {"type": "integer"}},
                       "required": ["page-size"], "additionalProperties": False, "description": "Options."}}
    assert findings(schema(nested), ("gemini",), ("TC502",)) == []
    hits = findings(schema({"$filter": {"type": "string"}, "_ok": {"type": "string"}}), ("gemini",), ("TC502",))
    assert [f.pointer for f in hits] == ["/input_schema/properties/$filter"]


# ------------------------------------------------------------------ root and strict


def test_root_enum_and_not_are_openai_only():
    data = schema(CITY, **{"not": {"required": ["country"]}})
    assert findings(data, ("anthropic", "anthropic-strict"), ("TC503",)) == []
    assert len(findings(data, ("openai",), ("TC503",))) == 1


def test_strict_object_rules_cover_nested_defs_and_branches():
    data = schema({"where": {"anyOf": [
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        {"type": "null"},
    ], "description": "Place."}}, **{"$defs": {"unused": {"type": "object", "properties": {}}}})
    pointers = {f.pointer for f in findings(data, ("openai-strict",), ("TC504",))}
    assert pointers == {"/input_schema/properties/where/anyOf/0", "/input_schema/$defs/unused"}


def test_unevaluated_properties_false_does_not_satisfy_strict_mode():
    data = schema(CITY)
    data["input_schema"].pop("additionalProperties")
    data["input_schema"]["unevaluatedProperties"] = False
    assert findings(data, ("openai-strict",), ("TC504",))


def test_optional_as_nullable_required_is_what_openai_strict_wants():
    nullable = {"units": {"type": ["string", "null"], "enum": ["metric", "imperial", None], "description": "Units."}}
    assert findings(schema({**CITY, **nullable}), ("openai-strict",), ("TC505",)) == []
    hits = findings(schema({**CITY, **nullable}, required=["city"]), ("openai-strict",), ("TC505",))
    assert [f.pointer for f in hits] == ["/input_schema/properties/units"]


def test_strict_keywords_differ_per_surface_and_are_reported_once_at_the_outermost():
    data = schema({"n": {"type": "integer", "minimum": 1, "description": "N."},
                   "x": {"allOf": [{"type": "string", "maxLength": 3}], "description": "X."}})
    openai = {(f.pointer, f.severity) for f in findings(data, ("openai-strict",), ("TC506",))}
    assert openai == {("/input_schema/properties/x/allOf", Severity.ERROR)}
    anthropic = {f.pointer for f in findings(data, ("anthropic-strict",), ("TC506",))}
    assert anthropic == {"/input_schema/properties/n/minimum", "/input_schema/properties/x/allOf/0/maxLength"}
    loose = findings(schema(CITY, patternProperties={"^x-": {"type": "string"}}), ("anthropic-strict",), ("TC506",))
    assert [f.severity for f in loose] == [Severity.WARNING]


def test_ref_inside_allof_is_refused_by_anthropic_strict():
    data = schema({"a": {"allOf": [{"$ref": "#/$defs/a"}], "description": "A."}},
                  **{"$defs": {"a": {"type": "string"}}})
    hits = findings(data, ("anthropic-strict",), ("TC506",))
    assert [f.pointer for f in hits] == ["/input_schema/properties/a/allOf/0/$ref"]


@pytest.mark.parametrize(("pattern", "feature"), [
    (r"^[A-Z]{2}\d+$", None),
    (r"[\b]", None),  # a backspace in a class
    (r"^(?<code>[A-Z]{2})$", None),  # a named group, not a lookbehind
    (r"\\b", None),  # an escaped backslash, then b
    (r"\bword", "a word boundary (\\b)"),
    (r"(a)\1", "a backreference (\\1)"),
    (r"(?<x>a)\k<x>", "a named backreference (\\k<...>)"),
    (r"foo(?=bar)", "a lookaround"),
    (r"(?<!x)y", "a lookaround"),
    (r"[]\b]", None),
])
def test_pattern_features_anthropic_strict_cannot_compile(pattern, feature):
    assert pattern_feature(pattern) == feature


@pytest.mark.parametrize(("defs", "props", "hits"), [
    ({"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}, {"n": {"$ref": "#/$defs/node"}}, 1),
    ({"a": {"type": "object", "properties": {"b": {"$ref": "#/$defs/b"}}},
      "b": {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}}}, {"n": {"$ref": "#/$defs/a"}}, 2),
    ({"leaf": {"type": "string"}}, {"n": {"$ref": "#/$defs/leaf"}, "m": {"$ref": "#/$defs/leaf"}}, 0),
    ({}, {"self": {"$ref": "#"}}, 1),
])
def test_recursion_is_found_through_refs(defs, props, hits):
    data = schema(props, **({"$defs": defs} if defs else {}))
    assert len(findings(data, ("anthropic-strict",), ("TC508",))) == hits
    assert findings(data, ("openai-strict",), ("TC508",)) == []  # OpenAI's strict mode allows recursion


def test_openai_strict_size_limits():
    many = schema({"kind": {"type": "string", "enum": [f"k{i}" for i in range(1001)], "description": "Kind."}})
    [hit] = findings(many, ("openai-strict",), ("TC509",))
    assert "1001 enum values" in hit.message and hit.pointer == "/input_schema"
    long_values = [f"value-{i:04d}-" + "x" * 60 for i in range(251)]
    big = schema({"kind": {"type": "string", "enum": long_values, "description": "Kind."}})
    [hit] = findings(big, ("openai-strict",), ("TC509",))
    assert hit.pointer == "/input_schema/properties/kind/enum"
    assert findings(big, ("anthropic-strict",), ("TC509",)) == []


def test_anthropic_strict_union_limit():
    unions = {f"u{i}": {"type": ["string", "null"], "description": "U."} for i in range(17)}
    [hit] = findings(schema(unions), ("anthropic-strict",), ("TC509",))
    assert "17 union parameters" in hit.message
    assert findings(schema(dict(list(unions.items())[:16])), ("anthropic-strict",), ("TC509",)) == []


# ------------------------------------------------------------------ gemini


def _ctx(tool: ToolView, surfaces: tuple[str, ...]) -> ToolContext:
    return ToolContext(tool, RunContext(), surfaces)


def _view(data: dict, raw: dict | None = None) -> ToolView:
    return ToolView({**HEAD, **data}, None, "", format="gemini" if raw else "native", raw=raw)


def test_gemini_json_schema_form_is_checked_against_its_own_subset():
    data = schema({"n": {"type": ["integer", "null"], "enum": [1, 2, True], "const": 1, "description": "N."}})
    raw = {"name": "weather_current", "parametersJsonSchema": data["input_schema"]}
    rules = all_rules()
    assert list(rules["TC510"].check(_ctx(_view(data, raw), ("gemini",)))) == []
    [enum_hit] = rules["TC511"].check(_ctx(_view(data, raw), ("gemini",)))
    assert enum_hit.path[-1] == 2 and enum_hit.severity is Severity.WARNING
    keywords = list(rules["TC512"].check(_ctx(_view(data, raw), ("gemini",))))
    assert [h.path[-1] for h in keywords] == ["const"] and keywords[0].severity is Severity.WARNING
    # the same schema as `parameters` (what every other input converts to): errors
    assert len(list(rules["TC510"].check(_ctx(_view(data), ("gemini",))))) == 1
    assert next(iter(rules["TC511"].check(_ctx(_view(data), ("gemini",))))).severity is None


def test_gemini_defs_only_at_the_root_and_refs_only_into_them():
    data = schema({"a": {"$ref": "#/$defs/a"}, "b": {"$ref": "#/properties/a"}},
                  **{"$defs": {"a": {"type": "object", "properties": {}, "$defs": {"x": {"type": "string"}}}}})
    pointers = {f.pointer for f in findings(data, ("gemini",), ("TC512",))}
    assert pointers == {"/input_schema/properties/b/$ref", "/input_schema/$defs/a/$defs"}


def test_gemini_reports_the_outermost_unknown_keyword_only():
    data = schema(CITY, **{"not": {"properties": {"city": {"const": "x"}}}})
    assert [f.pointer for f in findings(data, ("gemini",), ("TC512",))] == ["/input_schema/not"]


# ------------------------------------------------------------------ mcp


@pytest.mark.parametrize(("effect", "annotations", "fires"), [
    ("read", None, True),
    ("pure", {"title": "Convert"}, True),
    ("read", {"readOnlyHint": True}, False),
    ("read", {"readOnlyHint": False}, False),  # a contradiction: TC302's
    ("reversible_write", None, False),
    ("open_world", None, False),
])
def test_mcp_annotations_for_pure_and_read_tools(effect, annotations, fires):
    data = {"effect": effect, **({"annotations": annotations} if annotations is not None else {})}
    hits = findings(data, ("mcp",), ("TC513",))
    assert bool(hits) == fires
    assert all(f.severity is Severity.WARNING and "mcp" in f.message for f in hits)


# ------------------------------------------------------------------ cost and fixtures


def test_without_a_target_the_portability_rules_never_run(monkeypatch):
    import importlib
    import pkgutil

    import toolcontract.lint.rules.tc5_portability as family

    def boom(*args, **kwargs):
        raise AssertionError("a portability rule ran without --target")

    # every module of the family that reads a tool's input schema (the rules and their shared helpers)
    for info in pkgutil.iter_modules(family.__path__):
        module = importlib.import_module(f"{family.__name__}.{info.name}")
        if hasattr(module, "input_schema"):
            monkeypatch.setattr(module, "input_schema", boom)
    text = json.dumps({**HEAD, **schema(CITY)})
    lint_text(text, "d.json", Selection())
    with pytest.raises(Exception, match="a portability rule ran without --target"):  # an InternalError
        lint_text(text, "d.json", Selection(targets=("gemini",)))


@pytest.mark.parametrize("path", good_fixtures(), ids=lambda p: p.name)
def test_good_fixtures_port_to_the_non_strict_surfaces(path):
    result = lint_paths(path, select=("TC5",), targets=("openai", "anthropic", "mcp"))
    assert not result.findings, [f"{f.line} {f.rule} {f.message}" for f in result.findings]


# ------------------------------------------------------------------ real MCP tools

CORPUS = corpus_dir()


def _read(relative: str):
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"{relative} is not in the corpus at {CORPUS} (set TOOLCONTRACT_CORPUS to a copy of shared/corpus)")
    return json.loads(path.read_text("utf-8"))


def _native(tool: dict, prefix: str = "") -> dict:
    descriptor = {"name": prefix + tool["name"] if isinstance(tool.get("name"), str) else tool.get("name"),
                  "description": tool.get("description"), "input_schema": tool.get("inputSchema")}
    if isinstance(tool.get("annotations"), dict):
        descriptor["annotations"] = tool["annotations"]
    return {key: value for key, value in descriptor.items() if value is not None}


@functools.cache
def _servers(source: str) -> tuple[tuple[str, tuple[dict, ...]], ...]:
    """(server name, its tools) for a corpus file."""
    if source == "github-mcp-server":
        return (("github", tuple(e["tool"] for e in _read("mcp/github-mcp-server.tools.head.json")["tools"])),)
    servers = []
    for server in _read("mcp/livemcpbench.tools.json")["servers"]:
        for name, entry in (server.get("tools") or {}).items():
            tools = tuple(t for t in entry.get("tools") or () if isinstance(t, dict))
            if tools:
                servers.append((name, tools))
    return tuple(servers)


def _lint(tools: list[dict], targets: tuple[str, ...], select: tuple[str, ...] = ("TC",)):
    text = json.dumps({"toolcontract": 1, "tools": tools}, ensure_ascii=False, indent=1)
    return lint_text(text, "corpus.json", Selection(select=select, targets=targets))


SOURCES = ("github-mcp-server", "livemcpbench")


def _targeted(finding) -> bool:
    """A finding of a rule that runs only for targets (TC5xx but the default-on ones)."""
    return finding.rule.startswith("TC5") and finding.rule not in DEFAULT_ON


@pytest.mark.parametrize("source", SOURCES)
def test_real_mcp_tools_lint_for_every_surface(source):
    tools = [_native(t) for _, group in _servers(source) for t in group]
    plain = _lint(tools, ())
    everything = _lint(tools, SURFACES)
    assert everything.tools == len(tools) > 50
    assert not any(_targeted(f) for f in plain.findings)
    portability = [f for f in everything.findings if _targeted(f)]
    assert portability, "real MCP schemas are not all strict-mode ready"
    lines = everything.documents["corpus.json"].text.count("\n") + 1
    for finding in portability:
        assert finding.rule in EXPECTED_RULES and 1 <= finding.line <= lines
        assert _named(finding.message), finding.message
    # the plain findings are unchanged by targets
    assert {f for f in everything.findings if not _targeted(f)} == set(plain.findings)


@pytest.mark.parametrize("source", SOURCES)
def test_each_target_finds_a_subset_of_all_targets(source):
    tools = [_native(t) for _, group in _servers(source) for t in group]
    everything = {(f.rule, f.pointer) for f in _lint(tools, SURFACES, ("TC5",)).findings}
    for surface in SURFACES:
        alone = _lint(tools, (surface,), ("TC5",)).findings
        assert {(f.rule, f.pointer) for f in alone} <= everything
        assert all(_named(f.message) == {surface} for f in alone if _targeted(f))


def test_real_server_prefixed_names_break_openai_and_anthropic_but_not_gemini_or_mcp():
    """Aggregating clients prefix tool names with the server name; a dot is the usual separator."""
    tools = [_native(t, prefix=f"{server.replace(' ', '_')}.") for server, group in _servers("livemcpbench")
             for t in group]
    names_ok = [t for t in tools if len(t["name"]) <= 64]
    by_surface = {s: {f.tool for f in _lint(names_ok, (s,), ("TC501",)).findings} for s in SURFACES}
    every = {t["name"] for t in names_ok}
    for surface in ("openai", "openai-strict", "anthropic", "anthropic-strict"):
        assert by_surface[surface] == every
    gemini_ok = {n for n in every if n[0].isalpha() or n[0] == "_"}
    assert not (by_surface["gemini"] & gemini_ok)
    assert not by_surface["mcp"]


def test_real_read_tools_without_annotations_get_tc513():
    tools = []
    for t in _servers("github-mcp-server")[0][1]:
        descriptor = _native(t)
        if (descriptor.get("annotations") or {}).get("readOnlyHint") is True:
            tools.append({**descriptor, "effect": "read"})
            bare = {k: v for k, v in descriptor.items() if k != "annotations"}
            tools.append({**bare, "name": descriptor["name"] + "_bare", "effect": "read"})
    assert tools
    flagged = {f.tool for f in _lint(tools, ("mcp",), ("TC513",)).findings}
    assert flagged == {t["name"] for t in tools if t["name"].endswith("_bare")}


def test_gemini_nullable_in_a_gemini_file_is_not_a_type_list():
    # the reader turns `nullable: true` into a type list; TC510 judges what the file wrote
    from toolcontract.lint.engine import Selection, lint_text

    text = ('{"functionDeclarations": [{"name": "get_weather", "description": "Weather now.", "parameters": '
            '{"type": "OBJECT", "properties": {"city": {"type": "STRING", "nullable": true}, '
            '"days": {"type": ["STRING", "NULL"]}}, "required": ["city"]}}]}')
    found = lint_text(text, "g.json", Selection(select=("TC510",), targets=("gemini",))).findings
    assert [f.pointer for f in found] == ["/functionDeclarations/0/parameters/properties/days/type"]
