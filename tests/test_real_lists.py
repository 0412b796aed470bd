"""Real tool lists, default settings: effect classes from MCP annotations, provider files judged by
what their format can hold, names by each surface's own rule, duplicates where they collide, and
one report per copied subschema (issue 13)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import corpus_dir, run_cli
from toolcontract.core.descriptor import HINT_DEFAULTS, HINTS, effect_from_annotations
from toolcontract.lint.engine import Selection, lint_files
from toolcontract.core.model import Effect


def lint_json(data, path="tools.json", **selection):
    return lint_files([(path, json.dumps(data, indent=2).encode())], Selection(**selection))


def mcp(*tools):
    return {"tools": list(tools)}


def tool(name="get_note", annotations=None, **extra):
    entry = {"name": name, "description": "Works on one note, by its id. Use it when the user names a note.",
             "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "Note id."}},
                             "additionalProperties": False}}
    if annotations is not None:
        entry["annotations"] = annotations
    entry.update(extra)
    return entry


def found(result, rule=None):
    return [(f.rule, f.severity.label, f.line, f.column, f.message) for f in result.findings
            if rule is None or f.rule == rule]


# ------------------------------------------------------------------ derivation

_HINT_VALUES = st.dictionaries(st.sampled_from(HINTS), st.booleans(), max_size=4)


@given(_HINT_VALUES)
def test_the_derivation_follows_the_table_with_mcps_defaults(hints):
    got = effect_from_annotations({"title": "x", **hints})
    if not hints:
        assert got is None
        return
    read_only = hints.get("readOnlyHint", HINT_DEFAULTS["readOnlyHint"])
    if read_only:
        want = Effect.READ
    elif hints.get("openWorldHint") is True:  # written, not the default
        want = Effect.OPEN_WORLD
    elif hints.get("destructiveHint") is False:
        want = Effect.REVERSIBLE_WRITE
    else:
        want = Effect.IRREVERSIBLE_WRITE
    assert got[0] is want


@pytest.mark.parametrize(("annotations", "effect", "at"), [
    ({"readOnlyHint": True}, "read", "readOnlyHint"),
    ({"readOnlyHint": False, "openWorldHint": True}, "open_world", "openWorldHint"),
    ({"readOnlyHint": False, "destructiveHint": False}, "reversible_write", "destructiveHint"),
    ({"idempotentHint": True}, "irreversible_write", "idempotentHint"),
])
def test_a_derived_effect_is_used_as_a_written_one_and_placed_at_its_hint(annotations, effect, at):
    data = mcp(tool("note_remove", annotations))
    result = lint_json(data, select=("TC303", "TC301"))
    assert not found(result, "TC301")
    tools = result.tool_views
    assert tools[0].data["effect"] == effect
    assert tools[0].locate(("effect",))[1] == f"/tools/0/annotations/{at}"
    if effect == "read":  # the name says remove, the hint says read: the finding names where `read` came from
        (hit,) = found(result, "TC303")
        assert "but the effect is read (from readOnlyHint)" in hit[4]


def test_an_overlay_effect_wins_over_the_hints():
    overlay = "toolcontract: 1\ntools:\n  get_note: {effect: irreversible_write}\n"
    result = lint_files([("tools.json", json.dumps(mcp(tool(annotations={"readOnlyHint": True}))).encode())],
                        overlays={"tools.json": ("tools.contract.yaml", overlay.encode())})
    assert result.tool_views[0].data["effect"] == "irreversible_write"
    assert "TC302" in {f.rule for f in result.findings}  # the overlay contradicts the served readOnlyHint


def test_a_hint_that_is_not_a_boolean_is_tc002_and_derives_nothing():
    result = lint_json(mcp(tool("note_archive", annotations={"readOnlyHint": "true"})))
    (problem,) = [f for f in result.findings if f.rule == "TC002"]
    assert problem.pointer == "/tools/0/annotations/readOnlyHint" and "must be true or false" in problem.message
    assert problem.tool == "note_archive"
    assert "effect" not in result.tool_views[0].data
    assert [f.severity.label for f in result.findings if f.rule == "TC301"] == ["warning"]


def test_convert_to_native_writes_the_derived_effect(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(mcp(tool(annotations={"readOnlyHint": True}))))
    native = run_cli("convert", path, "--to", "native")
    assert native.returncode == 0, native.stderr
    assert json.loads(native.stdout)["effect"] == "read"
    back = run_cli("convert", path, "--to", "mcp")
    assert back.returncode == 0, back.stderr
    assert json.loads(back.stdout)["tools"][0]["annotations"] == {"readOnlyHint": True}  # no hint invented


# ------------------------------------------------------- what a format can hold


@pytest.mark.parametrize(("fmt", "data", "severity"), [
    ("mcp", mcp(tool("note_archive")), "warning"),
    ("openai-chat", [{"type": "function", "function": {"name": "get_note", "parameters": {"type": "object"}}}],
     "info"),
    ("anthropic", [{"name": "get_note", "input_schema": {"type": "object"}}], "info"),
    ("gemini", {"functionDeclarations": [{"name": "get_note", "parameters": {"type": "OBJECT"}}]}, "info"),
])
def test_tc301_without_an_effect_from_any_source_follows_the_format(fmt, data, severity):
    result = lint_json(data, select=("TC301", "TC103", "TC202"))
    assert [(f.rule, f.severity.label) for f in result.findings] == [("TC301", severity)]
    assert "`tools.contract.yaml`" in result.findings[0].message
    if fmt == "mcp":
        assert "annotations.readOnlyHint" in result.findings[0].message
    required = lint_json(data, select=("TC301",), contracts_required=True)
    assert [f.severity.label for f in required.findings] == ["error"]


def test_a_provider_file_with_an_overlay_asks_the_tools_it_leaves_out_for_their_effect():
    overlay = "toolcontract: 1\ntools:\n  get_note: {effect: read, version: 1.0.0}\n"
    data = mcp(tool(), tool("note_delete"))
    result = lint_files([("tools.json", json.dumps(data).encode())], Selection(select=("TC301", "TC103")),
                        overlays={"tools.json": ("tools.contract.yaml", overlay.encode())})
    assert [(f.rule, f.severity.label, f.tool) for f in result.findings] == [("TC301", "error", "note_delete")]
    assert "no entry in `tools.contract.yaml`" in result.findings[0].message


def test_native_descriptors_keep_every_rule_and_severity():
    text = "toolcontract: 1\nname: note_get\nannotations: {readOnlyHint: true}\n"
    result = lint_files([("note.yaml", text.encode())], Selection(select=("TC301", "TC103", "TC202")))
    assert {(f.rule, f.severity.label) for f in result.findings} == {
        ("TC301", "error"), ("TC103", "warning"), ("TC202", "warning")}
    (effect,) = [f for f in result.findings if f.rule == "TC301"]
    assert "imply read" in effect.message


def test_contracts_required_from_a_config_file(tmp_path):
    (tmp_path / "tools.json").write_text(json.dumps(mcp(tool(annotations={"readOnlyHint": True}))))
    command = ["lint", "tools.json", "--format", "json", "--select", "TC103"]
    before = run_cli(*command, cwd=tmp_path)
    assert json.loads(before.stdout)["findings"] == []
    (tmp_path / ".toolcontract.yaml").write_text("contracts: required\n")
    after = run_cli(*command, cwd=tmp_path)
    assert [f["rule"] for f in json.loads(after.stdout)["findings"]] == ["TC103"]
    (tmp_path / ".toolcontract.yaml").write_text("contracts: always\n")
    bad = run_cli(*command, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "contracts" in bad.stderr


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(("name", "fmt", "want"), [
    ("getWeather", "mcp", None), ("get-weather", "openai-chat", None), ("repo.search", "mcp", "warning"),
    ("repo.search", "openai-chat", "error"), ("repo.search", "anthropic", "error"), ("repo.search", "gemini", "warning"),
    ("get weather", "mcp", "error"), ("2fa_check", "gemini", "error"), ("2fa_check", "mcp", "warning"),
    ("x" * 100, "mcp", "warning"), ("x" * 100, "anthropic", "error"), ("x" * 129, "mcp", "error"),
])
def test_tc101_judges_a_provider_name_by_its_own_surface(name, fmt, want):
    data = {
        "mcp": mcp({"name": name, "inputSchema": {"type": "object"}}),
        "openai-chat": [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}],
        "anthropic": [{"name": name, "input_schema": {"type": "object"}}],
        "gemini": {"functionDeclarations": [{"name": name, "parameters": {"type": "OBJECT"}}]},
    }[fmt]
    result = lint_json(data, select=("TC101",))
    assert [f.severity.label for f in result.findings] == ([want] if want else [])


# ------------------------------------------------------------------ duplicates


def test_tc104_is_an_error_within_one_list_and_information_across_lists():
    one = lint_json(mcp(tool("search"), tool("search"), tool("search")), select=("TC104",))
    assert [f.severity.label for f in one.findings] == ["error"] * 3
    assert "also defined at tools.json:" in one.findings[0].message and "and 1 more" in one.findings[0].message
    two = lint_files([("a.json", json.dumps(mcp(tool("search"))).encode()),
                      ("b.json", json.dumps(mcp(tool("search"))).encode()),
                      ("c.json", json.dumps(mcp(tool("search"))).encode())], Selection(select=("TC104",)))
    (note,) = two.findings
    assert (note.severity.label, note.path) == ("info", "b.json")
    assert "in another tool list at a.json:1 and 1 more" in note.message and "sees two 'search' tools" in note.message


def test_tc104_across_native_files_is_an_error():
    text = "toolcontract: 1\nname: note_get\neffect: read\n"
    result = lint_files([("a.yaml", text.encode()), ("b.yaml", text.encode())], Selection(select=("TC104",)))
    assert [(f.path, f.severity.label, f.line) for f in result.findings] == [("a.yaml", "error", 2),
                                                                           ("b.yaml", "error", 2)]


def test_tc104_messages_stay_small_with_thousands_of_duplicates():
    result = lint_json(mcp(*[tool("search") for _ in range(2000)]), select=("TC104",))
    assert len(result.findings) == 2000
    assert max(len(f.message) for f in result.findings) < 200
    assert "and 1998 more" in result.findings[0].message


# ------------------------------------------------------------------ copies


def test_a_subschema_copied_into_many_tools_is_reported_once():
    owner = {"type": "string"}  # no description: TC404
    tools = [{"name": f"repo_{verb}", "description": "x" * 90,
              "inputSchema": {"type": "object", "properties": {"owner": dict(owner)}}} for verb in
             ("get", "list", "search", "watch")]
    tools.append({"name": "repo_star", "description": "x" * 90,
                  "inputSchema": {"type": "object", "properties": {"owner": {"type": "integer"}}}})
    result = lint_json(mcp(*tools), select=("TC404",))
    messages = [(f.tool, f.message) for f in result.findings]
    assert messages == [
        ("repo_get", "property 'owner' has no description: say what it means, its format and units "
                     "(the same schema is in 3 other tools of this file; reported once)"),
        ("repo_star", "property 'owner' has no description: say what it means, its format and units"),
    ]
    root = lint_json(mcp(*tools), select=("TC403",))  # five roots without additionalProperties: false
    assert len(root.findings) == 2 and "in 3 other tools" in root.findings[0].message


# ------------------------------------------------------------------ real data


def _corpus_file(*parts):
    path = corpus_dir().joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"the shared corpus is not at {corpus_dir()} (set TOOLCONTRACT_CORPUS)")
    return path


def test_githubs_mcp_server_at_head_has_no_error():
    head = json.loads(_corpus_file("mcp", "github-mcp-server.tools.head.json").read_text("utf-8"))["tools"]
    result = lint_json(mcp(*[e["tool"] for e in head]))
    assert result.tools == 117
    errors = [f for f in result.findings if f.severity.label == "error"]
    assert not errors, errors[:3]


def test_the_schema_bugs_githubs_maintainers_fixed_are_errors_in_its_history():
    history = json.loads(_corpus_file("mcp", "github-mcp-server.tools.history.json").read_text("utf-8"))["tools"]
    files = [(f"h{i}.json", json.dumps(mcp(e["tool"])).encode()) for i, e in enumerate(history)]
    errors = [f for f in lint_files(files).findings if f.severity.label == "error"]
    texts = {(f.tool, f.rule, f.message.split(": ", 1)[-1]) for f in errors}
    assert any(t == "update_project_item" and '"int" is not a JSON Schema type' in m for t, _, m in texts)
    assert any(t == "update_project_item" and '"any" is not a JSON Schema type' in m for t, _, m in texts)
    assert any(t == "list_gists" and '"Number" is not a JSON Schema type' in m for t, _, m in texts)
    assert any(t == "get_me" and r == "TC002" and "found null" in m for t, r, m in texts)
    assert len(errors) <= 10  # nothing but those
