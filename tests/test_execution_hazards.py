"""Conversation rules on what the calls did (issue 15): TC811 a retry after an unknown effect, TC812 an error
retried unchanged, TC813 a structured result that breaks its output schema (and the case is `failed`)."""

from __future__ import annotations

import json

import pytest

from conftest import REPO, run_cli
from toolcontract.assessment.conversation import Options
from toolcontract.core.model import Outcome
from toolcontract.io import transcripts as T
from toolcontract.io.document import load_text
from toolcontract.assessment.transcripts import TranscriptAssessor
from toolcontract.io.transcripts import context_from_mapping

REFUND = {"name": "refund_payment", "description": "Refund a payment.",
          "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string"}, "amount": {"type": "number"}}},
          "annotations": {"destructiveHint": True, "openWorldHint": False}}
GET = {"name": "get_payment", "description": "Read a payment.",
       "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string"}}},
       "annotations": {"readOnlyHint": True}}
WEATHER = {"name": "get_weather", "description": "Weather now.", "inputSchema": {"type": "object"},
           "annotations": {"readOnlyHint": True}}


def use(ident, name="refund_payment", **arguments):
    return {"type": "tool_use", "id": ident, "name": name, "input": arguments or {"payment_id": "pay_1"}}


def res(ident, content="ok", error=False):
    block = {"type": "tool_result", "tool_use_id": ident, "content": content}
    if error:
        block["is_error"] = True
    return block


def assistant(*blocks):
    return {"role": "assistant", "content": list(blocks)}


def user(*blocks):
    return {"role": "user", "content": list(blocks) if blocks else "go on"}


def run(messages, tools=(REFUND, GET, WEATHER), shared=(), context=None, select=None):
    """(findings, envelopes by call id) of one Anthropic conversation, assessed as `assess` does."""
    body = {"messages": [{"role": "user", "content": "refund it"}, *messages]}
    if tools is not None:  # None: a recording with no tool list at all
        body["tools"] = list(tools)
    text = json.dumps(body, indent=1)
    conversation = next(T.read_document(load_text(text, "t.json")))
    assessor = TranscriptAssessor(shared, context, Options(), select)
    envelopes, report = assessor.assess(conversation)
    return report.findings, {e.correlation_id: e for e in envelopes}


def rules(findings):
    return [(f.rule, f.call_id) for f in findings if f.rule in ("TC811", "TC812", "TC813")]


# ---------------------------------------------------------------- TC811


def test_a_lost_refund_sent_again_is_tc811_at_the_retry_naming_both_calls():
    findings, cases = run([assistant(use("r1")), user(), assistant(use("r2")), user(res("r2"))])
    assert cases["r1"].outcome is Outcome.EFFECT_UNKNOWN
    hits = [f for f in findings if f.rule == "TC811"]
    assert [(f.call_id, f.severity.label, f.message_index) for f in hits] == [("r2", "error", 3)]
    assert "'r1'" in hits[0].message and "'r2'" in hits[0].message and "applied twice" in hits[0].message
    assert (hits[0].line, hits[0].column) == (27, 5)  # the retry's own block (messages come first)


def test_a_read_of_the_target_in_between_makes_the_retry_a_decision_on_evidence():
    messages = [assistant(use("r1")), user(), assistant(use("g1", "get_payment", payment_id="pay_1")),
                user(res("g1", "no refund yet")), assistant(use("r2")), user(res("r2"))]
    assert rules(run(messages)[0]) == []


@pytest.mark.parametrize(("between", "why"), [
    (use("g1", "get_payment", payment_id="pay_2"), "a read of another payment"),
    (use("w1", "get_weather", payment_id="pay_1"), "a read tool whose arguments do not ... (weather names pay_1)"),
])
def test_only_a_read_that_names_the_target_counts(between, why):
    messages = [assistant(use("r1")), user(), assistant(between), user(res(between["id"])),
                assistant(use("r2")), user(res("r2"))]
    found = rules(run(messages)[0])
    if between["name"] == "get_weather":
        assert found == [], why  # get_weather is a read that shares the value pay_1: taken as a look at it
    else:
        assert found == [("TC811", "r2")], why


def test_other_arguments_a_parallel_call_or_a_read_tool_are_no_retry():
    other = [assistant(use("r1")), user(), assistant(use("r2", payment_id="pay_2")), user(res("r2"))]
    assert rules(run(other)[0]) == []
    parallel = [assistant(use("r1"), use("r2")), user(res("r2")), assistant(use("x", "get_weather", city="Oslo"))]
    assert "TC811" not in [r for r, _ in rules(run(parallel)[0])]
    read = [assistant(use("w1", "get_weather", city="Oslo")), user(),
            assistant(use("w2", "get_weather", city="Oslo")), user(res("w2"))]
    findings, cases = run(read)
    assert cases["w1"].outcome is Outcome.TIMED_OUT and rules(findings) == []  # a read lost: no effect to repeat


def test_a_tool_with_no_effect_class_is_consequential_and_a_target_id_decides_sameness():
    # no tool list: the tool is unknown, so the worst case; --tools gives a target: same id, other amount
    shared = [{"name": "refund_payment", "effect": "irreversible_write", "target": {"id": "/payment_id"},
               "input_schema": {"type": "object"}}]
    messages = [assistant(use("r1", payment_id="pay_1", amount=30)), user(),
                assistant(use("r2", payment_id="pay_1", amount=25)), user(res("r2"))]
    findings = run(messages, tools=None, shared=shared)[0]
    assert rules(findings) == [("TC811", "r2")]
    assert "on target 'pay_1'" in findings[-1].message
    other = [assistant(use("r1", payment_id="pay_1", amount=30)), user(),
             assistant(use("r2", payment_id="pay_2", amount=30)), user(res("r2"))]
    assert rules(run(other, tools=None, shared=shared)[0]) == []  # another target, though the amount is the same
    unknown_tool = [assistant(use("r1")), user(), assistant(use("r2")), user(res("r2"))]
    assert rules(run(unknown_tool, tools=None)[0]) == [("TC811", "r2")]
    # a tool the request did not offer was executed anyway: blocked, not an unknown effect, so no TC811
    assert rules(run(unknown_tool, tools=[GET])[0]) == []


def test_with_a_context_a_lost_call_is_no_effect_unknown_and_tc811_goes_by_the_outcome():
    context = context_from_mapping({"environment": {"allows": ["read", "irreversible_write"]}})
    findings, cases = run([assistant(use("r1")), user(), assistant(use("r2")), user(res("r2"))], context=context)
    assert cases["r1"].outcome is not Outcome.EFFECT_UNKNOWN
    assert rules(findings) == []


# ---------------------------------------------------------------- TC812


def test_an_error_retried_unchanged_in_the_next_round_is_tc812():
    messages = [assistant(use("w1", "get_weather", city="Pariss")), user(res("w1", "unknown city", error=True)),
                assistant(use("w2", "get_weather", city="Pariss")), user(res("w2", "unknown city", error=True)),
                assistant(use("w3", "get_weather", city="Paris")), user(res("w3"))]
    findings, _ = run(messages)
    hits = [f for f in findings if f.rule == "TC812"]
    assert [(f.call_id, f.severity.label) for f in hits] == [("w2", "warning")]
    assert "'w1'" in hits[0].message


@pytest.mark.parametrize("second", [{"city": "pariss"}, {"city": "Pariss", "units": "C"}])
def test_changed_arguments_are_no_tc812(second):
    messages = [assistant(use("w1", "get_weather", city="Pariss")), user(res("w1", "unknown city", error=True)),
                assistant(use("w2", "get_weather", **second)), user(res("w2"))]
    assert rules(run(messages)[0]) == []


def test_tc812_needs_the_next_round_and_an_error():
    later = [assistant(use("w1", "get_weather", city="X")), user(res("w1", "Error: down", error=True)),
             assistant(use("g", "get_payment", payment_id="p")), user(res("g")),
             assistant(use("w2", "get_weather", city="X")), user(res("w2"))]
    assert rules(run(later)[0]) == []  # two rounds later: the model did something else first
    fine = [assistant(use("w1", "get_weather", city="X")), user(res("w1", "5 C")),
            assistant(use("w2", "get_weather", city="X")), user(res("w2", "5 C"))]
    assert rules(run(fine)[0]) == []


# ---------------------------------------------------------------- TC813


COUNT = {"name": "count_orders", "description": "Count open orders.", "inputSchema": {"type": "object"},
         "outputSchema": {"type": "object", "properties": {"open": {"type": "integer"}}, "required": ["open"]},
         "annotations": {"readOnlyHint": True}}


def _count(content):
    return run([assistant(use("c1", "count_orders", customer="acme")), user(res("c1", content))], tools=[COUNT])


@pytest.mark.parametrize("content", [
    json.dumps({"open": "3"}),  # the JSON text of the result
    json.dumps({"content": [{"type": "text", "text": "3 open"}], "structuredContent": {"open": "3"}}),  # CallToolResult
    [{"type": "text", "text": json.dumps({"count": 3})}],  # one text block holding JSON
])
def test_a_structured_result_that_breaks_the_output_schema_is_tc813_and_failed(content):
    findings, cases = _count(content)
    assert cases["c1"].outcome is Outcome.FAILED
    assert cases["c1"].reasons[0] == "the return does not match output_schema"
    hits = [f for f in findings if f.rule == "TC813"]
    assert [(f.call_id, f.tool, f.message_index) for f in hits] == [("c1", "count_orders", 2)]
    assert "does not match the tool's output schema: /" in hits[0].message


@pytest.mark.parametrize("content", ["There are 3 open orders.", [{"type": "image", "data": "x"}], "{not json"])
def test_prose_is_not_checked_and_says_so(content):
    findings, cases = _count(content)
    assert cases["c1"].outcome is Outcome.SUCCEEDED and rules(findings) == []
    assert any("no structured content" in item for item in cases["c1"].unverified_scope)


def test_a_matching_structured_result_succeeds():
    findings, cases = _count(json.dumps({"content": [], "structuredContent": {"open": 3}}))
    assert cases["c1"].outcome is Outcome.SUCCEEDED and rules(findings) == []
    assert not any("shape" in item for item in cases["c1"].unverified_scope)


def test_a_fixture_result_is_the_return_value_and_a_call_tool_result_its_structured_content(tmp_path):
    tools = tmp_path / "tools.yaml"
    tools.write_text(json.dumps({"tools": [{"name": "count_orders", "effect": "read", "input_schema": {"type": "object"},
                                            "output_schema": COUNT["outputSchema"]}]}))
    log = tmp_path / "calls.jsonl"
    lines = [{"id": "plain", "candidate": {"name": "count_orders", "arguments": {}},
              "record": {"status": "returned", "result": {"open": "3"}}},
             {"id": "mcp", "candidate": {"name": "count_orders", "arguments": {}},
              "record": {"status": "returned", "result": {"content": [], "structuredContent": {"open": 3}}}}]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = run_cli("assess", log, "--tools", tools, "--format", "json", cwd=REPO)
    outcomes = {c["id"]: c["outcome"] for c in json.loads(done.stdout)["cases"]}
    assert outcomes == {"plain": "failed", "mcp": "succeeded"}


def test_the_cli_reports_tc811_to_tc813_fixtures_with_positions():
    bad = [REPO / "fixtures" / "traces" / "bad" / "TC811-retry-after-unknown-effect.json",
           REPO / "fixtures" / "transcripts" / "bad" / "TC812-error-result-retried-unchanged.json",
           REPO / "fixtures" / "transcripts" / "bad" / "TC813-result-output-schema.json"]
    done = run_cli("assess", *bad, "--format", "json", cwd=REPO)
    assert done.returncode == 1, done.stderr
    found = [(f["rule"], f["line"], f["column"]) for c in json.loads(done.stdout)["conversations"]
             for f in c["findings"]]
    assert found == [("TC811", 13, 3), ("TC812", 55, 9), ("TC813", 64, 9)]
