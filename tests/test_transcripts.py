"""Transcripts (issue 6): readers for Anthropic Messages, OpenAI Chat and OpenAI Responses,
every call as an assess case, the TC8xx conversation rules with their positions, and the
assess reporters' per-conversation summaries."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXPECTED_RULES, REPO, UNSAFE_OUTPUT, assert_one_line_error, examples
from toolcontract.assessment import Registry
from toolcontract.assessment.conversation import (
    ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES, Options, analyse, canonical_arguments, check, conversation_rules,
    failed, near_same, Result,
)
from toolcontract.cli import app
from toolcontract.lint.engine import all_rules
from toolcontract.core.model import Candidate, Outcome, Severity
from toolcontract.io import transcripts as T
from toolcontract.assessment.transcripts import TranscriptAssessor
from toolcontract.io.document import load_bytes, load_text
from toolcontract.core.pointer import resolve_pointer
from toolcontract.io.fixtures import FixtureError

TRANSCRIPTS = REPO / "fixtures" / "transcripts"
GOOD = TRANSCRIPTS / "good"
BAD = TRANSCRIPTS / "bad"
SUPPORT = REPO / "fixtures" / "transcript-support"  # outside fixtures/transcripts: `assess fixtures/transcripts` reads only transcripts
TOOLS = SUPPORT / "tools.yaml"
CONTEXT = SUPPORT / "context.yaml"
FINDING_LINE = re.compile(r"(?P<path>.+):(?P<line>[1-9]\d*):(?P<column>[1-9]\d*): (?P<severity>error|warning|info) "
                          r"(?P<rule>TC8\d\d) (?P<message>.+) \((?P<conversation>conv\d+), message (?P<index>\d+)\)\Z")


def conversations(path: Path) -> list:
    if path.suffix == ".jsonl":
        with path.open("rb") as stream:
            return list(T.read_jsonl(stream, str(path)))
    return list(T.read_document(load_bytes(path.read_bytes(), str(path))))


def findings(path: Path, **options) -> list:
    """The conversation findings `assess` gives (its calls assessed too: TC811 and TC813 need their outcomes)."""
    assessor = TranscriptAssessor(options=Options(**options))
    return [f for c in conversations(path) for f in assessor.assess(c)[1].findings]


def invoke(runner, *args):
    result = runner.invoke(app, ["assess", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    return result


def bad_fixtures() -> list[Path]:
    return sorted(BAD.iterdir())


# ------------------------------------------------------------------- readers


@pytest.mark.parametrize(("name", "fmt", "messages", "calls", "results"), [
    ("anthropic_request.json", ANTHROPIC, 7, 4, 4),
    ("anthropic_messages.yaml", ANTHROPIC, 4, 1, 1),
    ("openai_chat_request.json", OPENAI_CHAT, 8, 3, 3),
    ("openai_responses_request.json", OPENAI_RESPONSES, 8, 3, 3),
])
def test_each_format_is_detected_and_read(name, fmt, messages, calls, results):
    (conversation,) = conversations(GOOD / name)
    assert conversation.format == fmt and conversation.id == "conv1"
    assert len(conversation.messages) == messages
    assert len(list(conversation.calls)) == calls and len(list(conversation.results)) == results
    assert not analyse(conversation).unanswered


def test_jsonl_holds_one_conversation_per_line_in_order():
    found = conversations(GOOD / "requests.jsonl")
    assert [(c.id, c.format) for c in found] == [("conv1", ANTHROPIC), ("conv2", OPENAI_CHAT), ("conv3", OPENAI_RESPONSES)]
    assert [c.locate(c.pointer)[0] for c in found] == [1, 2, 3]
    call = next(found[1].calls)
    line, column = found[1].locate(call.pointer)
    text = (GOOD / "requests.jsonl").read_text(encoding="utf-8").splitlines()[1]
    assert line == 2 and text[column - 1:].startswith('{"id": "call_01"')


def test_the_request_tool_lists_become_descriptors_and_offered_names():
    for name in ("anthropic_request.json", "openai_chat_request.json", "openai_responses_request.json"):
        (conversation,) = conversations(GOOD / name)
        assert conversation.offered_names == {"get_weather", "create_reminder"}
        assert [d["name"] for d in conversation.offered] == ["get_weather", "create_reminder"]
        assert all(set(d) == {"name", "description", "input_schema"} for d in conversation.offered)
    (bare,) = conversations(GOOD / "anthropic_messages.yaml")
    assert bare.offered is None and bare.offered_names is None  # no tool list: TC808 is not checked


@pytest.mark.parametrize(("entry", "name", "schema_key"), [
    ({"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}}, "a", "parameters"),
    ({"function": {"name": "a", "parameters": {"type": "object"}}}, "a", "parameters"),  # Mistral: no `type`
    ({"type": "function", "name": "a", "parameters": {"type": "object"}}, "a", "parameters"),  # Responses
    ({"name": "a", "input_schema": {"type": "object"}}, "a", "input_schema"),  # Anthropic
    ({"name": "a", "inputSchema": {"type": "object"}}, "a", "inputSchema"),  # MCP
    ({"_source_path": "x.py", "tool": {"type": "function", "function": {"name": "a", "parameters": {}}}}, "a", None),
])
def test_tool_descriptor_reads_every_provider_format(entry, name, schema_key):
    got_name, descriptor = T.tool_descriptor(entry)
    assert got_name == name and descriptor["name"] == name and "input_schema" in descriptor
    assert "effect" not in descriptor  # a provider tool says nothing about its effect: the worst case


def test_server_tools_are_offered_but_not_client_tools():
    offered, names = T.offered_tools([{"type": "web_search_20250305", "name": "web_search"},
                                      {"type": "function", "function": {"name": "f"}}, "junk", {"type": "mcp_toolset"}])
    assert names == {"web_search", "f"}
    assert offered == ({"name": "f", "input_schema": T.NO_ARGUMENTS},)  # OpenAI: no parameters, no arguments


def test_wrappers_are_searched_and_tools_inherited():
    data = {"runs": [{"meta": {"x": 1}, "traj": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"}]}],
        "tools_offered": [{"name": "f", "inputSchema": {"type": "object"}}]}
    document = load_text(json.dumps(data, indent=1), "w.json")
    (conversation,) = T.read_document(document)
    assert conversation.pointer == "/runs/0/traj" and conversation.offered_names == {"f"}


def test_a_response_body_is_not_a_conversation():
    response = {"id": "resp_1", "output": [{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}]}
    anthropic_response = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}
    for data in (response, anthropic_response, {"choices": [{"message": {"role": "assistant", "tool_calls": []}}]}):
        assert list(T.find_conversations(data, "r.json", lambda p: (1, 1))) == []


def test_transcript_document_leaves_fixtures_and_broken_files_to_the_fixture_reader():
    fixture = (REPO / "fixtures" / "invocations" / "seed_two_gates.yaml").read_bytes()
    assert T.transcript_document(fixture, "f.yaml") is None
    assert T.transcript_document(b'[{"role": "user", "content": ', "f.json") is None
    assert T.transcript_document(b'{"toolcontract": 1, "role": []}', "f.json") is None
    assert T.transcript_document((GOOD / "anthropic_request.json").read_bytes(), "a.json") is not None


def test_jsonl_is_told_apart_from_fixture_logs_and_rewound():
    with (REPO / "fixtures" / "logs" / "agent_run.jsonl").open("rb") as stream:
        assert not T.jsonl_holds_conversations(stream) and stream.tell() == 0
    with (GOOD / "requests.jsonl").open("rb") as stream:
        assert T.jsonl_holds_conversations(stream) and stream.tell() == 0


def test_jsonl_is_read_lazily_and_a_bad_line_is_positioned():
    good = (GOOD / "requests.jsonl").read_bytes().splitlines(keepends=True)
    stream = io.BytesIO(good[0] + b"\n" + b'{"messages": [oops]}\n' + good[1])
    reader = T.read_jsonl(stream, "log.jsonl")
    first = next(reader)  # the first conversation arrives before the bad line is read
    assert first.id == "conv1" and stream.tell() < len(stream.getvalue())
    with pytest.raises(FixtureError) as info:
        next(reader)
    assert (info.value.line, info.value.column) == (3, 15)
    with pytest.raises(FixtureError):
        list(T.read_jsonl(io.BytesIO(b"42\n"), "log.jsonl"))  # not a request or a message list


# --------------------------------------------------------------------- rules


def _rule_of(path: Path) -> str:
    return path.name.split("-", 1)[0]


def test_every_conversation_rule_has_a_bad_transcript_fixture():
    ids = {r.id for r in conversation_rules()}
    assert ids == {f"TC8{n:02d}" for n in range(1, 15)}  # TC811 and TC814: traces (fixtures/traces/bad)
    assert ids <= {_rule_of(p) for p in [*bad_fixtures(), *(REPO / "fixtures" / "traces" / "bad").iterdir()]}
    assert all(all_rules()[i].scope == "conversation" for i in ids)


@pytest.mark.parametrize("path", bad_fixtures(), ids=lambda p: p.name)
def test_bad_transcript_hits_only_the_rule_in_its_name(path):
    hits = findings(path)
    assert {f.rule for f in hits} == {_rule_of(path)}, [(f.rule, f.message) for f in hits]
    document = load_bytes(path.read_bytes(), str(path))
    for finding in hits:  # the position is the block's own: its `{` in the file, found again from its pointer
        found, block = resolve_pointer(document.data, finding.pointer)
        assert found and isinstance(block, dict)
        assert document.line_text(finding.line)[finding.column - 1] == "{"
        assert document.locate(finding.pointer) == (finding.line, finding.column)
        assert finding.pointer.startswith(("/messages/", "/input/")) and finding.conversation == "conv1"
        assert finding.message_index == int(finding.pointer.split("/")[2])


@pytest.mark.parametrize("path", sorted(GOOD.iterdir()), ids=lambda p: p.name)
def test_good_transcripts_are_clean(path):
    assert findings(path) == []


@pytest.mark.parametrize(("name", "expected"), [
    ("TC801-call-unanswered.json", [("TC801", 1, 1, "toolu_02")]),
    ("TC801-call-unanswered.openai-chat.json", [("TC801", 1, 1, "call_02")]),
    ("TC801-call-unanswered.openai-responses.json", [("TC801", 1, None, "call_01")]),
    ("TC802-result-orphan.json", [("TC802", 2, 1, "toolu_07")]),
    ("TC802-result-orphan.openai-responses.json", [("TC802", 1, None, "call_00")]),
    ("TC803-call-id-duplicate.openai-chat.json", [("TC803", 3, 0, "call_01")]),
    ("TC804-results-split.json", [("TC804", 3, 0, "toolu_02")]),
    ("TC805-results-not-next.json", [("TC805", 3, 0, "toolu_01")]),
    ("TC805-results-not-next.openai-chat.json", [("TC805", 4, None, "call_02")]),
    ("TC806-results-not-first.json", [("TC806", 2, 1, "toolu_01")]),
    ("TC807-error-result-empty.json", [("TC807", 2, 0, "toolu_01")]),
    ("TC808-tool-not-offered.openai-chat.json", [("TC808", 1, 0, "call_01")]),
    ("TC809-rounds-exceeded.json", [("TC809", 41, 0, "toolu_21")]),
    ("TC810-retry-loop.json", [("TC810", 7, 0, "toolu_04")]),
    ("TC810-retry-loop.openai-chat.json", [("TC810", 7, 0, "call_04")]),
])
def test_each_finding_names_its_message_block_and_call(name, expected):
    got = [(f.rule, f.message_index, f.block, f.call_id) for f in findings(BAD / name)]
    assert got == expected


def test_severities_and_tool_names_of_findings():
    (finding,) = findings(BAD / "TC804-results-split.json")
    assert finding.severity is Severity.ERROR and finding.tool == "get_weather"  # named from the call it answers
    (finding,) = findings(BAD / "TC810-retry-loop.json")
    assert finding.severity is Severity.WARNING


def test_max_rounds_is_an_option():
    assert findings(BAD / "TC809-rounds-exceeded.json", max_rounds=22) == []
    assert [f.rule for f in findings(GOOD / "anthropic_request.json", max_rounds=2)] == ["TC809"]


def _anthropic(*messages) -> list:
    return list(T.find_conversations(list(messages), "t.json", lambda p: (1, 1)))[0]


def test_consecutive_assistant_messages_are_one_turn():
    # the API combines consecutive messages of one role: the results belong after the last one
    conversation = _anthropic(
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "b", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "1"},
                                     {"type": "tool_result", "tool_use_id": "b", "content": "2"}]})
    assert check(conversation) == [] and len(analyse(conversation).rounds) == 1


def test_results_split_and_late_are_two_findings():
    conversation = _anthropic(
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}},
                                          {"type": "tool_use", "id": "b", "name": "f", "input": {}}]},
        {"role": "user", "content": "wait"},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "1"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b", "content": "2"}]})
    assert [(f.rule, f.message_index) for f in check(conversation)] == [("TC804", 4), ("TC805", 3)]


def test_a_result_answering_twice_is_an_orphan_and_a_call_without_id_is_unanswered():
    conversation = _anthropic(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}},
                                          {"type": "tool_use", "name": "g", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "1"},
                                     {"type": "tool_result", "tool_use_id": "a", "content": "1"}]})
    got = {(f.rule, f.message_index, f.block) for f in check(conversation)}
    assert got == {("TC801", 0, 1), ("TC802", 1, 1)}
    messages = {f.rule: f.message for f in check(conversation)}
    assert "already answered" in messages["TC802"] and "has no id" in messages["TC801"]


def test_a_responses_request_continuing_a_previous_response_has_no_orphans():
    body = {"previous_response_id": "resp_1", "input": [{"type": "function_call_output", "call_id": "c1", "output": "x"}]}
    (conversation,) = T.find_conversations(body, "r.json", lambda p: (1, 1))
    assert conversation.continues and check(conversation) == []
    del body["previous_response_id"]
    (conversation,) = T.find_conversations(body, "r.json", lambda p: (1, 1))
    assert [f.rule for f in check(conversation)] == ["TC802"]


def test_tool_additions_count_as_offered():
    body = {"tools": [{"name": "search", "input_schema": {"type": "object"}}], "messages": [
        {"role": "system", "content": [{"type": "tool_addition", "tool": {"name": "late", "type": "tool_reference"}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "late", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "1"}]}]}
    (conversation,) = T.find_conversations(body, "r.json", lambda p: (1, 1))
    assert conversation.offered_names == {"search", "late"} and check(conversation) == []


@pytest.mark.parametrize(("content", "is_error", "expected"), [
    ("Error: user not found", None, True),
    ("  traceback (most recent call last)", None, True),
    ('{"error": "bad id"}', None, True),
    ('{"error": null, "ok": true}', None, False),
    ({"errors": ["x"]}, None, True),
    ("meta=None content=[TextContent(text='...')] isError=True", None, True),
    ('{"content": [], "isError": true}', None, True),
    ("11 C, no error reported", None, False),
    ("Error", False, False),  # an explicit flag wins over the text
    ("", True, True),
])
def test_failed_reads_the_flag_else_the_text(content, is_error, expected):
    assert failed(Result("c", content, is_error, 0, None, "")) is expected


def test_near_same_arguments():
    same = canonical_arguments('{"city": "Pariss", "units": 1.0}')
    assert same == canonical_arguments({"units": 1, "city": "  pariss "})
    assert near_same(canonical_arguments({"q": "weather in paris france today"}),
                     canonical_arguments({"q": "weather in paris france today please"}))
    assert not near_same(canonical_arguments({"city": "Paris"}), canonical_arguments({"city": "Lyon"}))


def test_a_loop_broken_by_a_success_or_changed_arguments_is_no_finding():
    def chat(*pairs):
        messages = [{"role": "user", "content": "go"}]
        for n, (city, result) in enumerate(pairs):
            messages.append({"role": "assistant", "tool_calls": [
                {"id": f"c{n}", "function": {"name": "w", "arguments": json.dumps({"city": city})}}]})
            messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": result})
        return list(T.find_conversations(messages, "t.json", lambda p: (1, 1)))[0]

    def rules(conversation):
        return [(f.rule, f.call_id) for f in check(conversation)]

    assert rules(chat(*[("x", "Error: no")] * 4)) == [("TC810", "c3")]  # the loop, not also its first sign
    # two short runs: no loop; each run's first unchanged repeat is TC812's early sign
    assert rules(chat(("x", "Error: no"), ("x", "Error: no"), ("x", "ok"), ("x", "Error: no"), ("x", "Error: no"))) \
        == [("TC812", "c1"), ("TC812", "c4")]
    assert rules(chat(("Paris", "Error: no"), ("Lyon", "Error: no"), ("Nice", "Error: no"), ("Metz", "Error: no"))) == []
    assert rules(chat(("x", "Error: no"), ("x", "ok"))) == [("TC812", "c1")]
    assert rules(chat(("x", "ok"), ("x", "ok"))) == []  # a repeat of a success is not this rule's


# ---------------------------------------------------------------------- cases


def _descriptors() -> list[dict]:
    return [t for t in load_bytes(TOOLS.read_bytes(), str(TOOLS)).data["tools"]]


def test_every_call_becomes_a_case_with_its_record():
    (conversation,) = conversations(GOOD / "anthropic_request.json")
    assessor = TranscriptAssessor()
    analysis = analyse(conversation)
    cases = list(assessor.cases(conversation, analysis, assessor.registry_for(conversation)))
    assert [c.id for c in cases] == ["conv1/msg1/toolu_01", "conv1/msg1/toolu_02", "conv1/msg3/toolu_03",
                                     "conv1/msg5/toolu_04"]
    assert cases[0].candidate == Candidate("toolu_01", "get_weather", {"city": "Paris"})
    assert cases[0].record.status == "returned" and cases[0].record.result == "11 C, light rain"
    assert cases[0].record.call_id == "toolu_01" and cases[0].observation is None
    assert cases[2].record.status == "error" and cases[2].record.error["layer"] == "execution"
    assert "ISO 8601" in cases[2].record.error["message"]
    assert cases[0].source == {"path": str(GOOD / "anthropic_request.json"), "line": 57, "column": 9,
                               "conversation": "conv1", "message": 1, "pointer": "/messages/1/content/1"}
    (chat,) = conversations(GOOD / "openai_chat_request.json")
    first = next(assessor.cases(chat, analyse(chat), assessor.registry_for(chat)))
    assert first.candidate.arguments == '{"city": "Paris"}'  # OpenAI: the raw string, as the model wrote it


def test_no_result_no_record():
    (conversation,) = conversations(BAD / "TC801-call-unanswered.json")
    envelopes, report = TranscriptAssessor(_descriptors(), T.context_from_mapping(
        {"environment": {"allows": ["read"]}})).assess(conversation)
    assert [e.outcome for e in envelopes] == [Outcome.SUCCEEDED, Outcome.ALLOWED]  # admitted, never executed
    assert report.unanswered == 1 and report.calls == 2


def test_transcript_tools_are_the_worst_case_and_tools_option_wins():
    (conversation,) = conversations(GOOD / "openai_chat_request.json")
    context = T.context_from_mapping({"environment": {"allows": ["read", "reversible_write"]}})
    envelopes, _ = TranscriptAssessor([], context).assess(conversation)
    # no effect class in a provider tool list: consequential, and no environment can allow it
    assert {(e.outcome, e.gate.value) for e in envelopes} == {(Outcome.BLOCKED, "environment")}
    envelopes, _ = TranscriptAssessor(_descriptors(), context).assess(conversation)
    # --tools carries the effect classes: reads succeed; the write ran without the approval it needs
    assert [(e.outcome, e.gate and e.gate.value) for e in envelopes] == [
        (Outcome.SUCCEEDED, None), (Outcome.SUCCEEDED, None), (Outcome.BLOCKED, "approval")]


def test_with_tools_and_context_the_gates_and_classification_apply_unchanged():
    context = T.load_context(str(CONTEXT))
    expected = {
        "anthropic_request.json": ["succeeded", "succeeded", "failed", "needs_evidence"],
        "openai_chat_request.json": ["succeeded", "succeeded", "needs_evidence"],
        "openai_responses_request.json": ["succeeded", "succeeded", "needs_evidence"],
    }
    for name, outcomes in expected.items():
        (conversation,) = conversations(GOOD / name)
        envelopes, report = TranscriptAssessor(_descriptors(), context).assess(conversation)
        assert [e.outcome.value for e in envelopes] == outcomes, name
        assert all(e.correlation_id == e.case_id.rsplit("/", 1)[1] for e in envelopes)
        assert report.by_outcome == {o: outcomes.count(o) for o in outcomes}
    failed_one = TranscriptAssessor(_descriptors(), context).assess(conversations(GOOD / "anthropic_request.json")[0])[0][2]
    assert failed_one.effect.value == "unverified" and failed_one.next_step.value == "read_back"


def test_targets_in_the_context_are_chosen_by_the_calls_target_id():
    tool = {"name": "doc_write", "effect": "reversible_write", "target": {"id": "/doc", "version": "/v"},
            "input_schema": {"type": "object"}}
    registry = Registry.from_descriptors([tool])
    context = T.context_from_mapping({"environment": {"allows": ["reversible_write"]}},
                                     [{"id": "a", "version": "1"}, {"id": "b", "version": "2"}])
    assert context.for_call(Candidate("1", "doc_write", '{"doc": "b", "v": "2"}'), registry).target == {"id": "b", "version": "2"}
    assert context.for_call(Candidate("1", "doc_write", {"doc": "c"}), registry).target is None
    assert context.for_call(Candidate("1", "other", {"doc": "a"}), registry) is context.base


def test_load_context_accepts_a_context_key_and_positions_errors(tmp_path):
    path = tmp_path / "ctx.yaml"
    path.write_text("context:\n  environment: {allows: [read]}\ntargets:\n  - {id: a, version: 1}\n", encoding="utf-8")
    context = T.load_context(str(path))
    assert context.base.environment == {"allows": ["read"]} and context.targets == ({"id": "a", "version": 1},)
    for text, position in (("environment: {allows: [fly]}\n", (1, 24)), ("now: 1\nbogus: 2\n", (1, 6)), ("bogus: 2\n", (1, 1)),
                           ("targets: [{id: a, exists: maybe}]\n", (1, 27)), ("- 1\n", (1, 1)),
                           ("environment: [\n", None)):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(T.ContextError) as info:
            T.load_context(str(path))
        assert str(info.value).startswith(f"{path}:")
        if position:
            assert str(info.value).startswith(f"{path}:{position[0]}:{position[1]}:"), str(info.value)


# ------------------------------------------------------------------------ CLI


def test_cli_json_adds_conversations_and_keeps_the_case_contract(runner):
    result = invoke(runner, GOOD, "--tools", TOOLS, "--context", CONTEXT, "--format", "json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert list(document) == ["version", "cases", "conversations", "tools", "summary"]
    summary = document["summary"]
    assert summary["cases"] == len(document["cases"]) == 21
    assert summary["conversations"] == len(document["conversations"]) == 7
    assert summary["conversation_findings"] == {"error": 0, "warning": 0, "info": 0}
    assert summary["by_outcome"] == {"failed": 2, "needs_evidence": 6, "succeeded": 13}
    for case in document["cases"]:
        assert {"id", "correlation_id", "tool", "outcome", "gate", "effect", "trail", "reasons", "unverified_scope",
                "next_step", "model_view", "evidence", "expect", "source"} == set(case)
        assert {"path", "line", "column", "conversation", "message", "pointer"} == set(case["source"])
    conversation = document["conversations"][0]
    assert set(conversation) == {"id", "format", "source", "messages", "rounds", "calls", "results", "unanswered",
                                 "tools_offered", "by_outcome", "by_severity", "findings"}
    assert sum(c["calls"] for c in document["conversations"]) == 21


def test_cli_json_findings_and_exit_codes(runner):
    result = invoke(runner, BAD / "TC804-results-split.json", "--format", "json")
    assert result.exit_code == 1  # a conversation finding at error severity
    (conversation,) = json.loads(result.stdout)["conversations"]
    (finding,) = conversation["findings"]
    assert {k: finding[k] for k in ("rule", "line", "column", "pointer", "message_index", "block", "severity")} == {
        "rule": "TC804", "line": 82, "column": 9, "pointer": "/messages/3/content/0", "message_index": 3, "block": 0,
        "severity": "error"}
    warning_only = BAD / "TC810-retry-loop.json"
    assert invoke(runner, warning_only, "--format", "json").exit_code == 0
    assert invoke(runner, warning_only, "--format", "json", "--fail-on", "warning").exit_code == 1
    assert invoke(runner, warning_only, "--format", "json", "--fail-on", "failed").exit_code == 1  # outcomes still work
    assert invoke(runner, BAD / "TC809-rounds-exceeded.json", "--max-rounds", "30", "--format", "json").exit_code == 0
    assert invoke(runner, BAD / "TC809-rounds-exceeded.json", "--max-rounds", "30", "--fail-on", "info",
                  "--format", "json").exit_code == 0


def test_fixture_runs_keep_their_exact_json_shape(runner, monkeypatch):
    monkeypatch.chdir(REPO)
    document = json.loads(invoke(runner, "fixtures/invocations", "--format", "json").stdout)
    assert set(document) == {"version", "cases", "tools", "summary"}
    assert set(document["summary"]) <= {"cases", "by_outcome", "expect_failed", "evidence_only", "no_effect_class"}


def test_cli_text_lists_every_finding_with_its_position(runner):
    result = invoke(runner, BAD, "--format", "text")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    hits = [FINDING_LINE.match(line) for line in lines if FINDING_LINE.match(line)]
    assert {(Path(m["path"]).name.split("-")[0], m["rule"]) for m in hits} == {
        (p.name.split("-")[0], p.name.split("-")[0]) for p in bad_fixtures()}
    assert len(hits) == len(bad_fixtures())
    assert any(re.match(r".+:\d+: conversation conv1 \(anthropic\): 4 messages, 1 round, 2 calls; needs_evidence 2; "
                        r"1 error, 0 warnings, 0 info\Z", line) for line in lines)
    severities = [EXPECTED_RULES[_rule_of(p)] for p in bad_fixtures()]  # one finding in each
    errors = severities.count(Severity.ERROR)
    at = lines.index(f"{len(severities)} conversations: {errors} errors, {len(severities) - errors} warnings, 0 info")
    assert re.fullmatch(r"\d+ cases: .*; no expectations", lines[at - 1])
    assert lines[at + 1].endswith("assessed from evidence only: no --context, so target, environment and approval "
                                  "were not judged")


def test_cli_rich_and_junit(runner):
    result = invoke(runner, BAD / "TC801-call-unanswered.json", GOOD / "anthropic_messages.yaml", "--format", "rich")
    assert result.exit_code == 1
    assert "conversations" in result.stdout and "TC801" in result.stdout and "1 unanswered" in result.stdout
    assert "2 conversations: 1 error, 0 warnings, 0 info" in result.stdout
    result = invoke(runner, BAD / "TC801-call-unanswered.json", BAD / "TC810-retry-loop.json", "--format", "junit")
    root = ET.fromstring(result.stdout)
    cases = {c.get("name"): c for c in root.iter("testcase")}
    unanswered = cases["conv1 (conversation)"]
    assert root.get("failures") == "1" and root.get("tests") == str(len(list(root.iter("testcase"))))
    failures = [c for c in root.iter("testcase") if c.find("failure") is not None]
    assert len(failures) == 1 and failures[0].find("failure").get("type") == "TC801"
    assert unanswered is not None
    result = invoke(runner, BAD / "TC810-retry-loop.json", "--format", "junit", "--fail-on", "warning")
    assert ET.fromstring(result.stdout).get("failures") == "1" and result.exit_code == 1


def test_cli_jsonl_transcripts_stream_and_a_bad_line_exits_2_keeping_earlier_cases(runner, tmp_path):
    lines = (GOOD / "requests.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([lines[0], "", "{not json", lines[1]]) + "\n", encoding="utf-8")
    result = invoke(runner, path, "--format", "json")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"{path}:3:2: JSON:")
    document = json.loads(result.stdout)
    assert len(document["cases"]) == 4 and len(document["conversations"]) == 1


def test_cli_bad_context_exits_2_with_one_line(runner, tmp_path):
    path = tmp_path / "ctx.yaml"
    path.write_text("environment: {allows: [fly]}\n", encoding="utf-8")
    result = invoke(runner, GOOD / "anthropic_messages.yaml", "--context", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"{path}:1:24: ")
    result = invoke(runner, GOOD / "anthropic_messages.yaml", "--context", tmp_path / "missing.yaml")
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_hostile_strings_do_not_reach_the_terminal_raw(runner, tmp_path):
    evil = "get\x1b[2J\u202eweather[bold red]"
    path = tmp_path / "t.json"
    path.write_text(json.dumps([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t\x07", "name": evil, "input": {}}]}]),
        encoding="utf-8")
    for fmt in ("text", "rich", "junit"):
        result = invoke(runner, path, "--format", fmt)
        assert result.exit_code == 1 and not UNSAFE_OUTPUT.search(result.stdout), fmt


# ------------------------------------------------------------------ property

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["role", "content", "type", "id", "name", "input", "tool_use_id", "is_error",
                                         "tool_calls", "tool_call_id", "function", "arguments", "call_id", "output",
                                         "text", "x"]), inner, max_size=5), max_leaves=30)
ROLE = st.sampled_from(["user", "assistant", "tool", "system"])
BLOCK = st.fixed_dictionaries({"type": st.sampled_from(["tool_use", "tool_result", "text", "function_call",
                                                        "function_call_output"])},
                              optional={"id": st.sampled_from(["a", "b", 1]), "tool_use_id": st.sampled_from(["a", "b"]),
                                        "call_id": st.sampled_from(["a", "b"]), "name": JSON, "input": JSON,
                                        "content": JSON, "is_error": JSON, "arguments": JSON, "output": JSON})
MESSAGE = st.fixed_dictionaries({"role": ROLE}, optional={
    "content": st.none() | st.text(max_size=5) | st.lists(BLOCK | JSON, max_size=4),
    "tool_calls": st.lists(st.fixed_dictionaries({}, optional={"id": st.sampled_from(["a", "b"]),
                                                               "function": JSON}) | JSON, max_size=3),
    "tool_call_id": JSON})


@pytest.mark.long
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(MESSAGE | BLOCK, max_size=8), st.fixed_dictionaries({
    "messages": st.lists(MESSAGE, max_size=8), "tools": st.lists(JSON, max_size=3)}),
    st.fixed_dictionaries({"input": st.lists(BLOCK | MESSAGE, max_size=8)}), JSON))
def test_arbitrary_transcripts_never_crash(data):
    text = json.dumps(data, indent=1)
    document = load_text(text, "t.json")
    assessor = TranscriptAssessor([], T.context_from_mapping({"environment": {"allows": ["read"]}}))
    for conversation in T.read_document(document):
        envelopes, report = assessor.assess(conversation)
        assert len(envelopes) == report.calls == len(list(conversation.calls))
        assert all(e.unverified_scope for e in envelopes)
        for finding in report.findings:
            assert finding.line >= 1 and finding.column >= 1 and finding.rule.startswith("TC8")
            assert resolve_pointer(document.data, finding.pointer)[0]


def test_the_whole_transcripts_folder_is_assessed(runner, monkeypatch):
    monkeypatch.chdir(REPO)
    result = invoke(runner, "fixtures/transcripts", "--format", "json")
    assert result.exit_code == 1 and result.stderr == ""  # bad/ has error findings; nothing is unreadable
    document = json.loads(result.stdout)
    assert len(document["conversations"]) == len(bad_fixtures()) + 7
    assert {c["format"] for c in document["conversations"]} == {ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES}
