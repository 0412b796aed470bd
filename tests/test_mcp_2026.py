"""MCP 2026-07-28 (issue 19, Deliver 1): the revision of a tool list, the rules it changes (TC409,
TC503, TC520, TC521), `convert --to mcp --mcp-revision`, the specification's own examples, and
results that leave a call pending (resultType input_required / task) in transcripts and traces."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conftest import REPO, run_cli
from toolcontract.cli import options
from toolcontract.core.descriptor import MCP_REVISIONS
from toolcontract.core.schema.bundled import load_schema
from toolcontract.io.document import load_text
from toolcontract.io.reader import read_tools

REFERENCE = REPO.parent / "shared" / "reference"
EXAMPLES = REFERENCE / "mcp-2026-07-28-examples"
TOOL_EXAMPLES = sorted(p for p in EXAMPLES.glob("*.json") if p.name.startswith(("Tool__", "ListTools")))
RESULT_EXAMPLES = sorted(EXAMPLES.glob("CallToolResult__*.json"))
# what the specification's short examples deserve: short descriptions (TC203), open root objects (TC403),
# undescribed properties (TC404), no annotations (TC301, TC418), the same name in two examples (TC104)
DESERVED = {"TC104", "TC203", "TC301", "TC403", "TC404", "TC418"}


def findings(stdout: str) -> list[tuple[str, str, str]]:
    """(file name, rule id, message) of each `path:line:col: severity RULE message` line of -q output."""
    found = []
    for line in stdout.splitlines():
        head, _, rest = line.partition(": ")
        parts = rest.split(" ", 2)
        found.append((Path(head.rsplit(":", 2)[0]).name + ":" + ":".join(head.rsplit(":", 2)[1:]), parts[1],
                      parts[2] if len(parts) > 2 else ""))
    return found


def lint(*args) -> tuple[int, list[tuple[str, str, str]], str]:
    result = run_cli("lint", "-q", "--no-cache", "--no-config", *args)
    return result.returncode, findings(result.stdout), result.stderr


def test_the_declared_revisions_are_the_descriptor_models():
    assert options.MCP_REVISIONS == MCP_REVISIONS
    assert set(MCP_REVISIONS) == {"2025-11-25", "2026-07-28"}


def test_the_shipped_schemas_are_the_specifications():
    for revision in MCP_REVISIONS:
        shipped = load_schema(f"mcp-{revision}.schema.json")
        assert shipped == json.loads((REFERENCE / f"mcp-schema-{revision}.json").read_text("utf-8"))


@pytest.mark.parametrize("path", TOOL_EXAMPLES, ids=lambda p: p.stem)
def test_every_tool_example_of_the_specification_reads_without_an_undeserved_finding(path):
    code, found, stderr = lint("--mcp-revision", "2026-07-28", "--target", "mcp", str(path))
    assert stderr == "" and code == 0, stderr
    assert found and {rule for _, rule, _ in found} <= DESERVED, found
    document = load_text(path.read_text("utf-8"), str(path))
    tools = read_tools(document, mcp_revision="2026-07-28").tools
    assert len(tools) == 1 and tools[0].mcp_revision == "2026-07-28"


@pytest.mark.parametrize("path", [p for p in TOOL_EXAMPLES if p.name.startswith("ListTools")], ids=lambda p: p.stem)
def test_a_list_of_the_revision_says_so_itself(path):
    tools = read_tools(load_text(path.read_text("utf-8"), str(path))).tools
    assert [tool.mcp_revision for tool in tools] == ["2026-07-28"]


def test_an_array_output_schema_is_an_error_before_2026_07_28_only(tmp_path):
    tool = json.loads((EXAMPLES / "Tool__tool-with-array-output-schema.json").read_text("utf-8"))
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"tools": [tool]}, indent=1), encoding="utf-8")
    new = tmp_path / "new.json"
    new.write_text(json.dumps({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [tool]},
                              indent=1), encoding="utf-8")
    code, found, _ = lint("--select", "TC409", str(old), str(new))
    assert code == 1 and found == [("old.json:12:13", "TC409", '[list_users] the root of output_schema is type '
                                   '"array", not object: MCP structured results are objects (return the value in a '
                                   'field)')]
    # the option wins over what the document says, both ways
    assert lint("--select", "TC409", "--mcp-revision", "2026-07-28", str(old))[1] == []
    assert [f[0] for f in lint("--select", "TC409", "--mcp-revision", "2025-11-25", str(new))[1]] == ["new.json:15:13"]
    # a schema that is no JSON Schema is still reported under the new revision
    tool["outputSchema"] = {"type": "array", "items": {"type": "float"}}
    new.write_text(json.dumps({"protocolVersion": "2026-07-28", "tools": [tool]}, indent=1), encoding="utf-8")
    (where, rule, message), = lint("--select", "TC409", str(new))[1]
    assert rule == "TC409" and "not valid JSON Schema" in message


def test_root_combinators_are_only_reported_for_the_surfaces_that_refuse_them():
    path = str(EXAMPLES / "Tool__tool-with-composition-input-schema.json")
    assert lint("--mcp-revision", "2026-07-28", "--select", "TC503", "--target", "mcp", path)[1] == []
    (where, rule, message), = lint("--mcp-revision", "2026-07-28", "--select", "TC503", "--target", "openai,mcp",
                                   path)[1]
    assert (where, rule) == ("Tool__tool-with-composition-input-schema.json:7:5", "TC503")
    assert "refused by openai:" in message


def test_execution_is_reported_on_a_2026_list_and_kept_on_older_ones(tmp_path):
    tools = [{"name": "export_report", "description": "Export the monthly report.", "inputSchema": {"type": "object"},
              "execution": {"taskSupport": "required"}}]
    new = tmp_path / "new.json"
    new.write_text(json.dumps({"resultType": "complete", "ttlMs": 1, "cacheScope": "private", "tools": tools},
                              indent=1), encoding="utf-8")
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"tools": tools}, indent=1), encoding="utf-8")
    code, found, _ = lint("--select", "TC521", str(new), str(old))
    assert code == 0 and len(found) == 1
    where, rule, message = found[0]
    assert (where, rule) == ("new.json:12:4", "TC521")
    assert message.startswith("[export_report] `execution` (taskSupport) was removed in MCP 2026-07-28")
    assert len(lint("--select", "TC521", "--mcp-revision", "2026-07-28", str(old))[1]) == 1


def test_header_names_http_clients_must_refuse(tmp_path):
    properties = {
        "tenant": {"type": "string", "x-mcp-header": "Tenant"},
        "region": {"type": "string", "x-mcp-header": "TENANT"},
        "limit": {"type": "integer", "x-mcp-header": "Limit"},
        "bad name": {"type": "string", "x-mcp-header": "Bad Name"},
        "ratio": {"type": "number", "x-mcp-header": "Ratio"},
        "filter": {"type": "object", "x-mcp-header": "Filter",
                   "properties": {"deep": {"type": "string", "x-mcp-header": "Deep"}}},
        "tags": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}},
    }
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [
        {"name": "search", "inputSchema": {"type": "object", "properties": properties}}]}, indent=1), encoding="utf-8")
    code, found, _ = lint("--select", "TC520", str(path))
    assert code == 1
    got = {(where.split(":", 1)[1], message.split(" MCP HTTP")[0].rstrip(":;")) for where, rule, message in found if rule == "TC520"}
    assert got == {
        ("17:23", "[search] x-mcp-header 'TENANT' repeats 'Tenant' (header names ignore case)"),
        ("25:23", "[search] x-mcp-header \"Bad Name\" is not an RFC 9110 token (letters, digits and "
                  "!#$%&'*+-.^_`|~, no spaces)"),
        ("29:23", "[search] x-mcp-header 'Ratio' is on a property of type number: only string, integer or "
                  "boolean values go in a header"),
        ("33:23", "[search] x-mcp-header 'Filter' is on a property of type object: only string, integer or "
                  "boolean values go in a header"),
        ("45:24", "[search] x-mcp-header 'Tag' is not statically reachable (only a property reached through "
                  "`properties` from the root may carry one, not one inside items, a combinator or $defs)"),
    }, found


def _validate(document: dict, revision: str) -> None:
    schema = load_schema(f"mcp-{revision}.schema.json")
    jsonschema.Draft202012Validator({"$ref": "#/$defs/ListToolsResult", "$defs": schema["$defs"]}).validate(document)


def test_convert_writes_the_revision_asked_for_and_its_schema_accepts_it(tmp_path):
    source = tmp_path / "report.yaml"
    source.write_text(
        "toolcontract: 1\nname: list_users\ndescription: List the users of the workspace, newest first.\n"
        "effect: read\ninput_schema:\n  type: object\n  properties: {}\n  additionalProperties: false\n"
        "output_schema:\n  type: array\n  items: {type: string}\n", encoding="utf-8")
    new = run_cli("convert", str(source), "--to", "mcp", "--mcp-revision", "2026-07-28")
    assert new.returncode == 0 and new.stderr == "", new.stderr
    document = json.loads(new.stdout)
    _validate(document, "2026-07-28")
    assert document["resultType"] == "complete" and document["tools"][0]["outputSchema"]["type"] == "array"
    with pytest.raises(jsonschema.ValidationError):
        _validate({"tools": document["tools"]}, "2026-07-28")  # the revision's required members matter
    old = run_cli("convert", str(source), "--to", "mcp")
    document = json.loads(old.stdout)
    _validate(document, "2025-11-25")
    assert "resultType" not in document and "outputSchema" not in document["tools"][0]
    assert "allows only a root `type: object` output schema" in run_cli("convert", str(source), "--to", "mcp",
                                                                          "-v").stderr
    # an MCP list of 2026-07-28 converts to MCP in its own revision, and reads back without a change
    listed = tmp_path / "listed.json"
    listed.write_text(new.stdout, encoding="utf-8")
    again = run_cli("convert", str(listed), "--to", "mcp")
    assert again.returncode == 0 and json.loads(again.stdout) == json.loads(new.stdout)
    assert lint("--select", "TC409,TC521,TC520,TC002", str(listed))[1] == []
    bad = run_cli("convert", str(source), "--to", "mcp", "--mcp-revision", "2027-01-01")
    assert bad.returncode == 2 and "2027-01-01" in bad.stderr and "Traceback" not in bad.stderr


def test_a_bad_revision_is_refused_by_lint(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"tools": []}', encoding="utf-8")
    result = run_cli("lint", "--mcp-revision", "2026", str(path))
    assert result.returncode == 2 and "--mcp-revision" in result.stderr and "Traceback" not in result.stderr


# ------------------------------------------------------------------ results that leave a call pending


def _chat(tmp_path: Path, results: list[str]) -> Path:
    messages = [{"role": "user", "content": "Export the report."},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "export_report", "arguments": "{}"}}]}]
    messages += [{"role": "tool", "tool_call_id": "call_1", "content": text} for text in results]
    messages.append({"role": "assistant", "content": "The export is running."})
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"model": "gpt-5", "messages": messages, "tools": [
        {"type": "function", "function": {"name": "export_report", "description": "Export the report.",
                                          "parameters": {"type": "object", "properties": {}}}}]}, indent=1),
        encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["task", "input_required"])
def test_a_result_that_is_not_finished_leaves_the_call_pending(tmp_path, kind):
    pending = json.dumps({"resultType": kind, "task": {"taskId": "t-1", "status": "working"}})
    result = run_cli("assess", str(_chat(tmp_path, [pending])), "--format", "json")
    document = json.loads(result.stdout)
    (case,) = document["cases"]
    assert case["outcome"] == "allowed" and f"resultType '{kind}': the call has not finished" in case["reasons"][0]
    assert any("pending" in scope for scope in case["unverified_scope"])
    (conversation,) = document["conversations"]
    assert conversation["unanswered"] == 0 and conversation["results"] == 1
    assert not any(f["rule"] == "TC801" for f in conversation["findings"]), conversation
    # the final result answers it: then the case is what that result alone makes it
    done = json.dumps({"resultType": "complete", "content": [{"type": "text", "text": "done"}]})
    alone = json.loads(run_cli("assess", str(_chat(tmp_path, [done])), "--format", "json").stdout)
    document = json.loads(run_cli("assess", str(_chat(tmp_path, [pending, done])), "--format", "json").stdout)
    assert [c["outcome"] for c in document["cases"]] == [c["outcome"] for c in alone["cases"]] != ["allowed"]
    assert document["cases"][0]["reasons"] == alone["cases"][0]["reasons"]
    assert not any(f["rule"] in ("TC801", "TC802") for f in document["conversations"][0]["findings"])


def test_an_unanswered_call_is_still_tc801(tmp_path):
    path = _chat(tmp_path, [])
    data = json.loads(path.read_text("utf-8"))
    data["messages"].append({"role": "user", "content": "And?"})
    path.write_text(json.dumps(data), encoding="utf-8")
    document = json.loads(run_cli("assess", str(path), "--format", "json").stdout)
    (conversation,) = document["conversations"]
    assert conversation["unanswered"] == 1 and [f["rule"] for f in conversation["findings"]] == ["TC801"]


def _example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text("utf-8"))


def _answered(tmp_path: Path, pairs: list[tuple[str, str]]) -> dict:
    """assess --format json of an OpenAI Chat transcript offering the example tools (MCP Tool objects), calling
    each tool named in `pairs` once, answered by the JSON text of the CallToolResult example paired with it."""
    tools = [_example("Tool__tool-with-array-output-schema.json"),
             _example("Tool__with-output-schema-for-structured-content.json")]
    messages: list[dict] = [{"role": "user", "content": "Who is there, and how is the weather?"}]
    for index, (tool, result) in enumerate(pairs):
        arguments = "{}" if tool == "list_users" else '{"location": "Paris"}'
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{index}", "type": "function", "function": {"name": tool, "arguments": arguments}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{index}", "content": json.dumps(_example(result))})
    messages.append({"role": "assistant", "content": "Done."})
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"model": "gpt-5", "tools": tools, "messages": messages}, indent=1), encoding="utf-8")
    result = run_cli("assess", str(path), "--format", "json")
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)


def test_every_call_result_example_is_read_as_its_tool_promises(tmp_path):
    pairs = [("list_users", "CallToolResult__result-with-array-structured-content.json"),
             ("get_weather_data", "CallToolResult__result-with-structured-content.json"),
             ("get_weather_data", "CallToolResult__result-with-unstructured-text.json"),
             ("get_weather_data", "CallToolResult__invalid-tool-input-error.json")]
    assert sorted({name for _, name in pairs}) == [p.name for p in RESULT_EXAMPLES]
    document = _answered(tmp_path, pairs)
    (conversation,) = document["conversations"]
    assert conversation["findings"] == [] and conversation["unanswered"] == 0
    # an array result of an array schema, an object of an object schema; no structured part to check in a
    # text-only result or an error result (isError: true)
    assert [case["outcome"] for case in document["cases"]] == ["needs_evidence"] * 4
    assert not any(case["reasons"][0] == "the return does not match output_schema" for case in document["cases"])
    # an array where the tool promises an object is still a mismatch (TC813): the check is real
    document = _answered(tmp_path, [("get_weather_data", "CallToolResult__result-with-array-structured-content.json")])
    assert [f["rule"] for f in document["conversations"][0]["findings"]] == ["TC813"]


def test_the_lint_cache_keeps_the_revisions_apart(tmp_path):
    tool = _example("Tool__tool-with-array-output-schema.json")
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [tool]}, indent=1), encoding="utf-8")

    def rules(*args) -> list[str]:
        result = run_cli("lint", "-q", "--no-config", "--select", "TC409", *args, "tools.json", cwd=tmp_path)
        return [line.split()[2] for line in result.stdout.splitlines()]

    assert rules() == ["TC409"]
    assert rules("--mcp-revision", "2026-07-28") == []
    assert rules() == ["TC409"] and (tmp_path / ".toolcontract_cache").is_dir()
