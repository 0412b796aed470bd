"""OpenTelemetry GenAI traces (issue 15, point 4): OTLP/JSON read into conversations, every tool-call span an
assess case. Traces made by the real opentelemetry-sdk, encoded by the official OTLP encoder and written by
protobuf's json_format (fixtures/traces/make_example.py), then hand-written edge cases."""

from __future__ import annotations

import base64
import copy
import importlib.util
import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, assert_one_line_error, examples
from toolcontract.assessment.conversation import OTEL_GENAI, check
from toolcontract.assessment.registry import Registry
from toolcontract.cli import app
from toolcontract.core.model import Candidate, Context
from toolcontract.io import traces as TR
from toolcontract.io import transcripts as T
from toolcontract.assessment.transcripts import TranscriptAssessor
from toolcontract.assessment.conversation import analyse
from toolcontract.io.document import load_bytes, load_text
from toolcontract.io.fixtures import FixtureError

TRACES = REPO / "fixtures" / "traces"
TOOLS = REPO / "fixtures" / "transcript-support" / "tools.yaml"
CONTEXT = REPO / "fixtures" / "transcript-support" / "context.yaml"
ERROR_LINE = re.compile(r"(?P<path>.+):(?P<line>[1-9]\d*):(?P<column>[1-9]\d*): (?P<message>.+)\Z")


def _example_module():
    spec = importlib.util.spec_from_file_location("make_example", TRACES / "make_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = _example_module()


def invoke(runner, *args):
    result = runner.invoke(app, ["assess", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    return result


def assess_json(runner, *args) -> dict:
    result = invoke(runner, *args, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def by_correlation(document: dict) -> dict:
    return {c["correlation_id"]: c for c in document["cases"]}


def trail(case: dict) -> dict:
    return {step["gate"]: step["result"] for step in case["trail"]}


# ------------------------------------------------------------ hand-written spans

TRACE_ID = "5b8efff798038103d269b633813fc60c"


def value(v):
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": value(x)} for k, x in v.items()]}}
    if isinstance(v, list):
        return {"arrayValue": {"values": [value(x) for x in v]}}
    return {"stringValue": v}


def attributes(**attrs) -> list:
    return [{"key": k.replace("__", "."), "value": v if isinstance(v, dict) and len(v) == 1 and
             next(iter(v)).endswith("Value") else value(v)} for k, v in attrs.items()]


def span(n: int, *, start: int | None = None, status: dict | None = None, events=None, trace_id=TRACE_ID,
         parent: str | None = None, name: str | None = None, **attrs) -> dict:
    found = {"traceId": trace_id, "spanId": f"{n:016x}", "name": name or f"execute_tool {attrs.get('gen_ai__tool__name', 'x')}",
             "kind": 1, "startTimeUnixNano": str(1_700_000_000_000_000_000 + (start if start is not None else n) * 1000),
             "endTimeUnixNano": str(1_700_000_000_000_000_000 + (start if start is not None else n) * 1000 + 500),
             "attributes": attributes(**attrs)}
    if parent:
        found["parentSpanId"] = parent
    if status is not None:
        found["status"] = status
    if events is not None:
        found["events"] = events
    return found


def tool_span(n: int, tool: str = "get_weather", call_id: str | None = None, arguments='{"city": "Paris"}', **attrs):
    extra = {"gen_ai__operation__name": "execute_tool", "gen_ai__tool__name": tool}
    if call_id is not False:
        extra["gen_ai__tool__call__id"] = call_id or f"call_{n:02d}"
    if arguments is not None:
        extra["gen_ai__tool__call__arguments"] = arguments
    return span(n, **{**extra, **attrs})


def document(*spans) -> dict:
    return {"resourceSpans": [{"resource": {"attributes": attributes(service__name="agent")},
                               "scopeSpans": [{"scope": {"name": "agent"}, "spans": list(spans)}]}]}


def write(tmp_path, data, name="trace.json", indent=1) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=indent) + "\n", encoding="utf-8")
    return str(path)


def read(data) -> list:
    return list(T.read_document(load_text(json.dumps(data, indent=1), "t.json")))


# ------------------------------------------------- traces made by the real SDK


@pytest.fixture(scope="module")
def sdk_spans():
    return EXAMPLE.traced(EXAMPLE.EXAMPLE_STEPS)


def test_the_committed_example_is_what_the_sdk_script_writes():
    assert EXAMPLE.main.__module__ == "make_example"
    document = EXAMPLE.export(EXAMPLE.traced(EXAMPLE.EXAMPLE_STEPS))
    assert json.loads((TRACES / "agent_run.json").read_text()) == document
    assert json.loads((TRACES / "agent_run.jsonl").read_text()) == document


@pytest.mark.parametrize("otlp", [True, False], ids=["otlp-json", "protobuf-json"])
def test_an_sdk_trace_is_assessed_through_the_cli(runner, tmp_path, sdk_spans, otlp):
    """OTLP/JSON (hex ids, integer enums) and protobuf's own JSON mapping (base64 ids, enum names) read alike."""
    data = EXAMPLE.export(sdk_spans, otlp=otlp)
    spans = data["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert len(spans[0]["traceId"]) == (32 if otlp else 24)  # what each writer really wrote
    assert spans[0]["kind"] in ((1, 2, 3) if otlp else ("SPAN_KIND_INTERNAL", "SPAN_KIND_CLIENT"))
    path = write(tmp_path, data, indent=2)
    document = assess_json(runner, path)
    cases = document["cases"]
    # one case per call, in start-time order (the SDK exports a span when it ends: the MCP child first)
    assert [c["correlation_id"] for c in cases] == ["call_01", "call_02", "call_03", "call_04", "call_05"]
    got = {c["correlation_id"]: (c["outcome"], c["effect"]) for c in cases}
    # offered by the chat spans' gen_ai.tool.definitions: no effect class, so the worst case
    assert got == {"call_01": ("needs_evidence", "unverified"), "call_02": ("failed", "unverified"),
                   "call_03": ("needs_evidence", "unverified"), "call_04": ("effect_unknown", "unknown"),
                   "call_05": ("needs_evidence", "unverified")}
    first = cases[0]
    assert first["id"].startswith("trace1/span-") and first["tool"] == "get_weather"
    assert trail(first) == {"parse": "passed", "registry": "passed", "shape": "passed", "semantic": "passed",
                            "target": "not_judged", "environment": "not_judged", "approval": "not_judged"}
    assert first["evidence"]["candidate"]["arguments"] == '{"city": "Paris"}'
    assert first["evidence"]["record"]["result"] == {"temperature_c": 11, "conditions": "rain"}
    trace_id = data["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["traceId"]
    assert first["source"]["trace_id"] == (trace_id if otlp else base64.b64decode(trace_id).hex())
    assert first["source"]["span_id"] == first["id"].removeprefix("trace1/span-")
    # the position is the span's own `{` in the file, found again from its pointer
    loaded = load_bytes(open(path, "rb").read(), path)
    for case in cases:
        source = case["source"]
        assert loaded.locate(source["pointer"]) == (source["line"], source["column"])
        assert loaded.line_text(source["line"])[source["column"] - 1] == "{"
    (conversation,) = document["conversations"]
    assert conversation["format"] == OTEL_GENAI and conversation["tools_offered"] == 2
    assert conversation["rounds"] == 4 and conversation["calls"] == 5 and conversation["findings"] == []


def test_sdk_trace_errors_timeouts_mcp_and_missing_arguments(runner, tmp_path, sdk_spans):
    path = write(tmp_path, EXAMPLE.export(sdk_spans))
    cases = by_correlation(assess_json(runner, path, "--tools", TOOLS))
    assert cases["call_01"]["outcome"] == "succeeded"  # a read tool: the return suffices
    error = cases["call_02"]["evidence"]["record"]
    assert error["status"] == "error" and error["error"] == {
        "layer": "execution", "message": "`at` must be ISO 8601 with an offset (error.type ValueError)"}
    # the MCP client span nested in the execute_tool span is the same call: one case, with its result
    mcp = cases["call_03"]
    assert mcp["outcome"] == "needs_evidence" and mcp["evidence"]["record"]["result"] == {"reminder_id": "r-7"}
    assert mcp["source"]["mcp.session.id"] == "8267461134f24305af708e66b8eda71a"
    assert cases["call_04"]["outcome"] == "timed_out" and cases["call_04"]["evidence"]["record"]["status"] == "timeout"
    unknown = cases["call_05"]
    assert trail(unknown)["parse"] == "not_judged" and trail(unknown)["shape"] == "not_judged"
    assert trail(unknown)["semantic"] == "not_judged" and trail(unknown)["registry"] == "passed"
    assert unknown["evidence"]["candidate"]["arguments_known"] is False
    assert any("arguments (the recording does not carry them)" in s for s in unknown["unverified_scope"])
    assert unknown["outcome"] == "succeeded"


def test_no_tool_definitions_and_no_tools_leave_the_registry_not_judged(runner, tmp_path):
    spans = EXAMPLE.traced(EXAMPLE.EXAMPLE_STEPS[:1], definitions=None)
    path = write(tmp_path, EXAMPLE.export(spans))
    (case,) = assess_json(runner, path)["cases"]
    assert trail(case)["registry"] == "not_judged" and trail(case)["shape"] == "not_judged"
    assert "tools offered (the recording has no tool list)" in case["unverified_scope"]
    (case,) = assess_json(runner, path, "--tools", TOOLS)["cases"]
    assert trail(case)["registry"] == "passed" and case["outcome"] == "succeeded"


def test_collector_json_lines_are_streamed_whatever_the_file_name(runner, tmp_path, sdk_spans):
    line = json.dumps(EXAMPLE.export(sdk_spans), separators=(",", ":"))
    for name in ("traces.jsonl", "traces.json"):  # the Collector's file exporter writes JSON lines to any name
        path = tmp_path / name
        path.write_text("\n".join([line, "", line]) + "\n", encoding="utf-8")
        document = assess_json(runner, path)
        assert len(document["cases"]) == 10
        assert [c["source"]["line"] for c in document["cases"]] == [1] * 5 + [3] * 5
        assert all(c["source"]["column"] is None for c in document["cases"])  # JSON lines: the line alone
        assert [c["id"].split("/")[0] for c in document["cases"]] == ["trace1"] * 5 + ["trace2"] * 5


# ------------------------------------------------------------ hand-written cases


def test_hex_and_base64_ids_read_alike_and_int64_strings_order_by_value():
    late = tool_span(1, start=10)  # "…010000" vs "…9000": start times compare as integers
    early = tool_span(2, start=9)
    (conversation,) = read(document(late, early))
    assert [c.id for c in conversation.calls] == ["call_02", "call_01"]
    b64 = copy.deepcopy(early)
    b64["traceId"] = base64.b64encode(bytes.fromhex(TRACE_ID)).decode()
    b64["spanId"] = base64.b64encode(bytes.fromhex(early["spanId"])).decode()
    upper = copy.deepcopy(late)
    upper["traceId"] = TRACE_ID.upper()
    (conversation,) = read(document(upper, b64))  # one trace: the ids are the same bytes
    assert [c.origin["span_id"] for c in conversation.calls] == [f"{2:016x}", f"{1:016x}"]
    numbers = copy.deepcopy(early)
    numbers["startTimeUnixNano"] = int(numbers["startTimeUnixNano"])  # a number instead of the string
    numbers["attributes"][2]["value"] = {"intValue": "12"}  # gen_ai.tool.call.id as an integer
    (conversation,) = read(document(numbers))
    assert next(conversation.calls).id == "12"


def test_error_spans_timeouts_and_results(runner, tmp_path):
    spans = [
        tool_span(1, gen_ai__tool__call__result='{"temperature_c": 11}'),
        tool_span(2, status={"code": 2, "message": "city not found"}),
        tool_span(3, status={"code": "STATUS_CODE_ERROR"}, error__type="timeout"),
        tool_span(4, error__type="KeyError"),  # error.type alone: the operation failed
        tool_span(5, gen_ai__tool__call__result="plain text, not JSON"),
        tool_span(6, status={"code": 1}),  # OK, no result captured
    ]
    cases = by_correlation(assess_json(runner, write(tmp_path, document(*spans)), "--tools", TOOLS))
    assert cases["call_01"]["evidence"]["record"]["result"] == {"temperature_c": 11}
    assert cases["call_02"]["outcome"] == "failed"
    assert cases["call_02"]["evidence"]["record"]["error"] == {"layer": "execution", "message": "city not found"}
    assert cases["call_03"]["outcome"] == "timed_out" and cases["call_03"]["effect"] == "none"  # a read tool
    assert cases["call_04"]["evidence"]["record"]["error"]["message"] == "error.type KeyError"
    assert cases["call_05"]["evidence"]["record"]["result"] == "plain text, not JSON"
    unknown = cases["call_06"]
    assert unknown["evidence"]["record"]["result_known"] is False
    assert unknown["model_view"]["content"] == "(the recording does not carry the tool's return)"
    assert "the return's content (the recording does not carry it)" in unknown["unverified_scope"]


def test_a_consequential_timeout_is_effect_unknown_never_failed(runner, tmp_path):
    data = document(tool_span(1, "create_reminder", arguments='{"text": "a", "at": "2026-01-01T08:00:00Z"}',
                              status={"code": 2, "message": "deadline"}, error__type="timeout"))
    (case,) = assess_json(runner, write(tmp_path, data), "--tools", TOOLS)["cases"]
    assert (case["outcome"], case["effect"], case["next_step"]) == ("effect_unknown", "unknown", "observe_target")


def test_missing_arguments_with_a_context_are_refused_at_parse_fail_closed(runner, tmp_path):
    path = write(tmp_path, document(tool_span(1, arguments=None, gen_ai__tool__call__result="11 C")))
    (case,) = assess_json(runner, path, "--tools", TOOLS, "--context", CONTEXT)["cases"]
    assert case["outcome"] == "blocked" and case["gate"] == "parse"  # ran, though nothing shows what it ran with
    assert "the arguments are unknown" in " ".join(case["reasons"])
    from toolcontract.assessment.gates import admit, admit_from_evidence

    registry = Registry.from_descriptors([{"name": "f", "effect": "read", "input_schema": {"type": "object"}}])
    unknown = Candidate("c1", "f", None, arguments_known=False)
    assert admit(unknown, registry, Context(environment={"allows": ["read"]})).refusal.gate.value == "parse"
    assert admit_from_evidence(unknown, registry).admitted
    assert not admit_from_evidence(Candidate("c1", "f", None), registry).admitted  # null arguments are not unknown


def test_mcp_tool_error_and_json_rpc_errors(runner, tmp_path):
    def mcp(n, **attrs):
        return span(n, name="tools/call get_weather", mcp__method__name="tools/call", gen_ai__tool__name="get_weather",
                    gen_ai__tool__call__arguments='{"city": "Paris"}', jsonrpc__request__id=str(n), **attrs)

    spans = [mcp(1, error__type="tool_error", status={"code": 2, "message": "unknown city"},
                 gen_ai__tool__call__result='{"content": [{"type": "text", "text": "unknown city"}], "isError": true}'),
             mcp(2, error__type="-32602", status={"code": 2, "message": "Invalid params"}),
             mcp(3, error__type="tool_error"),
             span(4, name="tools/call get_weather", mcp__method__name="tools/call", mcp__tool__name="get_weather"),
             span(5, name="tools/list", mcp__method__name="tools/list")]  # not a call
    document_ = assess_json(runner, write(tmp_path, document(*spans)), "--tools", TOOLS)
    cases = document_["cases"]
    assert len(cases) == 4 and all(c["correlation_id"].startswith("case:trace1/span-") for c in cases)  # no call ids
    records = [c["evidence"]["record"] for c in cases]
    assert records[0]["error"]["layer"] == "execution" and records[0]["result"]["isError"] is True
    assert records[1]["error"] == {"layer": "protocol", "message": "Invalid params (error.type -32602)"}
    assert records[2]["error"]["message"] == "the tool returned isError (error.type tool_error)"
    assert cases[3]["tool"] == "get_weather" and cases[3]["evidence"]["candidate"]["arguments_known"] is False
    assert [c["outcome"] for c in cases] == ["failed", "failed", "failed", "succeeded"]
    assert cases[0]["source"]["jsonrpc.request.id"] == "1"


def test_tool_definitions_offered_and_not_offered(runner, tmp_path):
    chat = span(1, name="chat m", gen_ai__operation__name="chat",
                gen_ai__tool__definitions=json.dumps([{"name": "get_weather", "inputSchema": {
                    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
                    "annotations": {"readOnlyHint": True}}]))  # MCP format: the annotations give `read`
    data = document(chat, tool_span(2), tool_span(3, arguments='{"town": 1}'), tool_span(4, "delete_all"))
    document_ = assess_json(runner, write(tmp_path, data))
    outcomes = [(c["outcome"], c["gate"]) for c in document_["cases"]]
    assert outcomes == [("succeeded", None), ("blocked", "shape"), ("blocked", "registry")]
    (conversation,) = document_["conversations"]
    assert [f["rule"] for f in conversation["findings"]] == ["TC808"]  # a tool the trace did not offer


def test_old_style_events_give_calls_and_results(runner, tmp_path):
    def chat(n, events):
        return span(n, name="chat gpt-4", gen_ai__system="openai", events=events)

    def choice(*calls):
        body = {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [
            {"id": i, "type": "function", "function": {"name": "get_weather", **({"arguments": a} if a else {})}}
            for i, a in calls]}}
        return {"name": "gen_ai.choice", "timeUnixNano": "1",
                "attributes": attributes(gen_ai__system="openai", gen_ai__event__content=json.dumps(body))}

    def tool_message(call_id, content):  # the body as attributes, as some instrumentations record it
        return {"name": "gen_ai.tool.message", "attributes": attributes(gen_ai__system="openai", id=call_id,
                                                                         content=content)}

    spans = [chat(1, [choice(("call_a", '{"city": "Paris"}'), ("call_b", '{"city": "Lyon"}'))]),
             chat(2, [tool_message("call_a", "11 C"), choice(("call_c", None))]),
             chat(3, [tool_message("call_a", "11 C"), tool_message("call_c", "9 C"),  # history repeats
                      choice(("call_d", {"city": "Nice"}))])]
    document_ = assess_json(runner, write(tmp_path, document(*spans)), "--tools", TOOLS)
    cases = by_correlation(document_)
    assert list(cases) == ["call_a", "call_b", "call_c", "call_d"]
    assert cases["call_a"]["outcome"] == "succeeded" and cases["call_a"]["evidence"]["record"]["result"] == "11 C"
    assert cases["call_b"]["outcome"] == "timed_out"  # lost: no result, and the trace goes on (a read tool)
    assert cases["call_c"]["evidence"]["candidate"]["arguments_known"] is False
    assert cases["call_d"]["outcome"] == "allowed" and "execution (the recording ends before a result)" in \
        cases["call_d"]["unverified_scope"]  # pending: the trace ends on it
    (conversation,) = document_["conversations"]
    assert {f["rule"] for f in conversation["findings"]} == {"TC801"}  # call_b and call_d unanswered


def test_event_calls_covered_by_tool_spans_are_not_repeated():
    body = {"message": {"tool_calls": [{"id": "call_01", "function": {"name": "get_weather", "arguments": "{}"}}]}}
    chat = span(1, name="chat m", gen_ai__operation__name="chat",
                events=[{"name": "gen_ai.choice", "attributes": attributes(gen_ai__event__content=json.dumps(body))}])
    (conversation,) = read(document(chat, tool_span(2, call_id="call_01")))
    assert [c.key for c in conversation.calls] == [f"span-{2:016x}"]
    assert check(conversation) == []


def test_traces_are_conversations_and_rounds_follow_inference_spans():
    other = "0af7651916cd43dd8448eb211c80319c"
    chat = lambda n: span(n, name="chat m", gen_ai__operation__name="chat")  # noqa: E731
    spans = [chat(1), tool_span(2), tool_span(3), chat(4), tool_span(5), chat(6),
             tool_span(7, trace_id=other), tool_span(8, trace_id=other, start=7)]  # 8 overlaps 7: one round
    first, second = read(document(*spans))
    assert (first.id, second.id) == ("trace1", "trace2")
    assert [len(t.calls) for t in analyse(first).rounds] == [2, 1]
    assert [len(t.calls) for t in analyse(second).rounds] == [2]
    sequential = [tool_span(n, start=10 * n) for n in range(1, 4)]
    (conversation,) = read(document(*sequential))
    assert len(analyse(conversation).rounds) == 3


def test_duplicate_call_ids_and_retry_loops_are_found(runner, tmp_path):
    failing = [tool_span(n, call_id="call_x" if n < 3 else None, status={"code": 2, "message": "Error: unknown city"},
                         arguments='{"city": "Pariss"}') for n in range(1, 6)]
    document_ = assess_json(runner, write(tmp_path, document(*failing)), "--tools", TOOLS)
    assert len(document_["cases"]) == 5  # each span its own case, paired with its own result
    (conversation,) = document_["conversations"]
    assert sorted(f["rule"] for f in conversation["findings"]) == ["TC803", "TC810"]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("mutate", "where", "message"), [
    (lambda s: s.update(traceId="xyz"), "/traceId", "traceId must be 32 hex digits"),
    (lambda s: s.update(spanId=7), "/spanId", "spanId must be a string"),
    (lambda s: s.update(startTimeUnixNano="soon"), "/startTimeUnixNano", "startTimeUnixNano must be"),
    (lambda s: s.update(status={"code": 9}), "/status", "status code 9"),
    (lambda s: s["attributes"].__setitem__(1, {"key": "gen_ai.tool.name", "value": {"intValue": "7"}}),
     "/attributes/1", "gen_ai.tool.name must be a string, got a number"),
    (lambda s: s["attributes"].__setitem__(3, {"key": "gen_ai.tool.call.arguments", "value": {"boolValue": True}}),
     "/attributes/3", "gen_ai.tool.call.arguments must be a JSON string or a map"),
    (lambda s: s["attributes"].__setitem__(1, {"key": "gen_ai.tool.name", "value": {"stringValue": 3}}),
     "/attributes/1/value/stringValue", "stringValue cannot be a number"),
    (lambda s: s["attributes"].__setitem__(1, {"key": "gen_ai.tool.name", "value": {"shortValue": "x"}}),
     "/attributes/1/value", "'shortValue' is not an AnyValue kind"),
    (lambda s: s.update(attributes={"gen_ai.operation.name": "execute_tool"}), "/attributes", "must be a list"),
    (lambda s: s["attributes"].__setitem__(0, {"key": "gen_ai.operation.name", "value": {"stringValue": "run_tool"}}),
     "/attributes/0", "gen_ai.operation.name 'run_tool' is not a known GenAI operation"),
])
def test_a_malformed_span_is_skipped_with_a_positioned_finding(runner, tmp_path, mutate, where, message):
    bad = tool_span(2)
    mutate(bad)
    path = write(tmp_path, document(tool_span(1), bad, tool_span(3)), indent=2)
    result = invoke(runner, path, "--format", "json")
    assert result.exit_code == 0  # a warning: the run goes on
    document_ = json.loads(result.stdout)
    assert [c["correlation_id"] for c in document_["cases"]] == ["call_01", "call_03"]
    findings = [f for c in document_["conversations"] for f in c["findings"]]
    (finding,) = findings
    assert finding["rule"] == "TC814" and finding["severity"] == "warning" and message in finding["message"]
    assert finding["pointer"] == "/resourceSpans/0/scopeSpans/0/spans/1" + where
    loaded = load_bytes(open(path, "rb").read(), path)
    assert loaded.locate(finding["pointer"]) == (finding["line"], finding["column"])
    assert invoke(runner, path, "--format", "json", "--fail-on", "warning").exit_code == 1


def test_structure_errors_below_the_root_are_findings(tmp_path):
    data = document(tool_span(1))
    data["resourceSpans"].append({"scopeSpans": {"spans": []}})
    data["resourceSpans"].append(7)
    data["resourceSpans"][0]["scopeSpans"][0]["spans"].append("span")
    found = read(data)
    findings = [f for c in found for f in check(c)]
    assert sorted(f.pointer for f in findings) == ["/resourceSpans/0/scopeSpans/0/spans/1", "/resourceSpans/1/scopeSpans",
                                                   "/resourceSpans/2"]
    assert sum(1 for c in found for _ in c.calls) == 1


@pytest.mark.parametrize(("lines", "at", "message"), [
    (['{"resourceSpans": [oops]}'], (2, 20), "JSON:"),
    (['{"resourceSpans": 3}'], (2, 19), "`resourceSpans` must be a list"),
    (['[1, 2]'], (2, 1), "expected an OTLP/JSON traces document"),
    (['{"spans": []}'], (2, 1), "expected an OTLP/JSON traces document"),
])
def test_a_bad_line_exits_2_after_the_cases_before_it(runner, tmp_path, lines, at, message):
    good = json.dumps(document(tool_span(1)))
    path = tmp_path / "collector.jsonl"
    path.write_text("\n".join([good, *lines, good]) + "\n", encoding="utf-8")
    result = invoke(runner, path, "--format", "json")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    match = ERROR_LINE.match(result.stderr.strip())
    assert match and (int(match["line"]), int(match["column"])) == at and message in match["message"], result.stderr
    assert len(json.loads(result.stdout)["cases"]) == 1  # the case before the bad line is reported


def test_other_signals_in_a_collector_file_are_skipped(runner, tmp_path):
    path = tmp_path / "otel.jsonl"
    path.write_text("\n".join([json.dumps(document(tool_span(1))), '{"resourceLogs": []}',
                               '{"resourceMetrics": []}', json.dumps(document(tool_span(2)))]) + "\n")
    assert len(assess_json(runner, path)["cases"]) == 2


def test_a_pretty_document_whose_root_key_is_not_first_is_read(runner, tmp_path):
    data = {"note": "exported by hand", **document(tool_span(1))}
    assert len(assess_json(runner, write(tmp_path, data))["cases"]) == 1


def test_jsonl_is_read_one_line_at_a_time():
    lines = [json.dumps(document(tool_span(n, trace_id=f"{n:032x}"))) for n in range(1, 4)]
    stream = io.BytesIO(("\n".join([lines[0], "{bad", lines[1]]) + "\n").encode())
    reader = TR.read_jsonl(stream, "t.jsonl")
    first = next(reader)
    assert first.id == "trace1" and stream.tell() < len(stream.getvalue())
    with pytest.raises(FixtureError) as info:
        next(reader)
    assert (info.value.line, info.value.column) == (2, 2)


def test_detection_leaves_transcripts_and_fixtures_alone():
    assert TR.looks_like_traces(b'\xef\xbb\xbf  {\n "resourceSpans": [')
    assert not TR.looks_like_traces(b'{"messages": [{"role": "user"}], "resourceSpans": []}')
    assert not TR.looks_like_traces(b"toolcontract: 1\ncases: []\n")
    with open(REPO / "fixtures" / "logs" / "agent_run.jsonl", "rb") as stream:
        assert not TR.jsonl_holds_traces(stream) and stream.tell() == 0
    with open(TRACES / "agent_run.jsonl", "rb") as stream:
        assert TR.jsonl_holds_traces(stream) and stream.tell() == 0


def test_the_bad_trace_fixture_hits_only_tc814():
    path = TRACES / "bad" / "TC814-trace-span-invalid.json"
    findings = [f for c in T.read_document(load_bytes(path.read_bytes(), str(path))) for f in check(c)]
    assert [(f.rule, f.line, f.column) for f in findings] == [("TC814", 6, 6)]


_ANY = st.recursive(st.none() | st.booleans() | st.integers(-2, 2**64) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)


@pytest.mark.long
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["traceId", "spanId", "parentSpanId", "startTimeUnixNano", "status", "attributes", "events",
                        "name", "attr-value", "attr-entry"]), _ANY)
def test_any_value_in_any_place_is_read_or_reported_never_raised(place, junk):
    chat = span(9, name="chat m", gen_ai__system="openai", events=[{"name": "gen_ai.tool.message", "attributes": []}])
    target = tool_span(1)
    if place == "attr-value":
        target["attributes"][2]["value"] = junk
    elif place == "attr-entry":
        target["attributes"][1] = junk
    elif place == "events":
        chat["events"] = junk
    else:
        target[place] = junk
    for conversation in read(document(target, tool_span(2), chat)):
        check(conversation)
        envelopes, _ = TranscriptAssessor().assess(conversation)
        assert all(e.correlation_id for e in envelopes)


def test_an_mcp_result_that_is_not_finished_leaves_the_call_pending(runner, tmp_path):
    # MCP 2026-07-28 (issue 19): a CallToolResult with resultType task or input_required does not answer the call
    spans = [tool_span(1, gen_ai__tool__call__result='{"resultType": "task", "task": {"taskId": "t1"}}'),
             tool_span(2, gen_ai__tool__call__result='{"resultType": "input_required", "inputRequests": {}}'),
             tool_span(3, gen_ai__tool__call__result='{"resultType": "complete", "content": []}')]
    data = assess_json(runner, write(tmp_path, document(*spans)), "--tools", TOOLS)
    cases = by_correlation(data)
    for call_id, kind in (("call_01", "task"), ("call_02", "input_required")):
        assert cases[call_id]["outcome"] == "allowed"
        assert f"resultType '{kind}': the call has not finished" in cases[call_id]["reasons"][0]
    assert "has not finished" not in " ".join(cases["call_03"]["reasons"])
    assert cases["call_03"]["evidence"]["record"]["result"] == {"resultType": "complete", "content": []}
    (conversation,) = data["conversations"]
    assert conversation["unanswered"] == 0
    assert not any(f["rule"] == "TC801" for f in conversation["findings"])
