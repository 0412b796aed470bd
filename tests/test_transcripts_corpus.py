"""Real transcripts (corpus `transcripts/`, SOURCES.md): tau-bench and LiveMCPBench agent runs in
OpenAI Chat format, pydantic-ai's recorded Anthropic and OpenAI-compatible requests.

Read in place ($TOOLCONTRACT_CORPUS, else ../shared/corpus next to the repo), never copied.
Every call must become a case, and the findings must be the ones checked by hand:

- tau-bench trial 0: the recorded runs reuse OpenAI call ids for different calls (17 times; e.g.
  trajectory 0 gives `call_HGn16...` to `search_direct_flight` at message 8 and to
  `search_onestop_flight` at message 12); trajectory 3 retries `update_reservation_flights`
  after "Error: ..." results four times with near-same arguments; trajectory 33 takes 23 rounds.
- LiveMCPBench: six runs take more than 20 tool rounds; run 45 retries `execute-tool`
  (text-editor `edit_text_file_contents`) after three `isError: true` validation errors.
- pydantic-ai: the providers accepted these requests (a 200; the 8 OpenAI-compatible 400s are
  about audio content blocks and Groq's own tool validation), and indeed none breaks a pairing
  invariant the APIs enforce (TC801, TC802, TC804-TC806); the Anthropic tool-search cassettes do call
  `search_tools`, which their requests never offer (TC808), and one Gemini-to-Anthropic replay
  reuses the id `0usajhl5` for two calls (TC803).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest

from conftest import corpus_dir
from toolcontract.assessment.conversation import check
from toolcontract.cli import app
from toolcontract.core.model import Outcome
from toolcontract.io import transcripts as T
from toolcontract.assessment.transcripts import TranscriptAssessor
from toolcontract.io.document import load_bytes

TRANSCRIPTS = corpus_dir() / "transcripts"
TAU = TRANSCRIPTS / "tau-bench.gpt-4o-airline.trial0.json"
TAU_TOOLS = TRANSCRIPTS / "tau-bench.tools.json"
LIVE = TRANSCRIPTS / "livemcpbench.claude-sonnet-4.json"
PYD_ANTHROPIC = TRANSCRIPTS / "pydantic-ai.anthropic_messages.json"
PYD_OPENAI = TRANSCRIPTS / "pydantic-ai.openai_chat_completions.json"
FILES = (TAU, LIVE, PYD_ANTHROPIC, PYD_OPENAI)

pytestmark = pytest.mark.skipif(
    not all(p.is_file() for p in (*FILES, TAU_TOOLS)),
    reason=f"transcripts corpus not found at {TRANSCRIPTS} (set TOOLCONTRACT_CORPUS to the shared corpus folder)",
)

READ_PREFIXES = ("get_", "search_", "list_", "calculate")


@cache
def raw(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def run(path, with_tools: bool = False):
    """(conversations, envelopes by conversation id, findings) of one corpus file."""
    document = load_bytes(path.read_bytes(), str(path))
    assessor = TranscriptAssessor(tau_descriptors() if with_tools else (), T.context_from_mapping(
        {"environment": {"id": "corpus", "allows": ["pure", "read"]}}))
    conversations, envelopes, findings = [], {}, []
    for conversation in T.read_document(document):
        found, report = assessor.assess(conversation)
        conversations.append(conversation)
        envelopes[conversation.id] = found
        findings.extend(report.findings)
    return conversations, envelopes, findings


def tau_descriptors() -> list[dict]:
    """tau-bench's airline tools (OpenAI Chat format) as descriptors, with the effect classes their names say."""
    descriptors = []
    for entry in raw(TAU_TOOLS)["tools"]["airline"]:
        _, descriptor = T.tool_descriptor(entry)
        name = descriptor["name"]
        effect = "read" if name.startswith(READ_PREFIXES) else "pure" if name == "think" else "irreversible_write"
        descriptors.append({**descriptor, "effect": effect})
    return descriptors


def requests(path) -> list[dict]:
    return [i["request"] for c in raw(path)["cassettes"] for i in c["interactions"] if isinstance(i["request"], dict)]


def request_of(path, pointer: str) -> dict:
    """The request a pointer into a cassette file points into (/cassettes/C/interactions/I/request/...)."""
    cassette, interaction = (int(x) for x in pointer.split("/")[2:5:2])
    return raw(path)["cassettes"][cassette]["interactions"][interaction]["request"]


def status_of(path, pointer: str) -> int:
    cassette, interaction = (int(x) for x in pointer.split("/")[2:5:2])
    return raw(path)["cassettes"][cassette]["interactions"][interaction]["status"]


def chat_calls(messages) -> int:
    return sum(len(m.get("tool_calls") or ()) for m in messages)


def anthropic_calls(messages) -> int:
    return sum(1 for m in messages if isinstance(m.get("content"), list)
               for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_use")


def by_rule(findings) -> Counter:
    return Counter(f.rule for f in findings)


# ----------------------------------------------------------- every call a case


@pytest.mark.parametrize(("path", "conversations", "calls"), [
    (TAU, lambda: len(raw(TAU)["trajectories"]), lambda: sum(chat_calls(t["traj"]) for t in raw(TAU)["trajectories"])),
    (LIVE, lambda: len(raw(LIVE)["transcripts"]),
     lambda: sum(chat_calls(t["messages"]) for t in raw(LIVE)["transcripts"])),
    (PYD_ANTHROPIC, lambda: len(requests(PYD_ANTHROPIC)),
     lambda: sum(anthropic_calls(r["messages"]) for r in requests(PYD_ANTHROPIC))),
    (PYD_OPENAI, lambda: len(requests(PYD_OPENAI)),
     lambda: sum(chat_calls(r["messages"]) for r in requests(PYD_OPENAI))),
], ids=lambda v: getattr(v, "name", ""))
def test_every_conversation_is_found_and_every_call_is_a_case(path, conversations, calls):
    found, envelopes, _ = run(path)
    assert len(found) == conversations() > 0
    cases = [e for group in envelopes.values() for e in group]
    assert len(cases) == calls() > 0
    assert len({e.case_id for e in cases}) == len(cases)
    for envelope in cases:
        assert envelope.outcome in Outcome and envelope.unverified_scope
        assert envelope.source["line"] >= 1 and envelope.source["column"] >= 1


def test_formats_are_detected():
    assert {c.format for c in run(TAU)[0]} == {"openai-chat"}
    assert {c.format for c in run(LIVE)[0]} == {"openai-chat"}
    anthropic = Counter(c.format for c in run(PYD_ANTHROPIC)[0])
    assert anthropic["anthropic"] >= len(requests(PYD_ANTHROPIC)) - 1  # one request is a lone user message
    assert all(c.format == "anthropic" for c in run(PYD_ANTHROPIC)[0] if any(True for _ in c.calls))
    assert {c.format for c in run(PYD_OPENAI)[0]} == {"openai-chat"}


def test_tools_come_from_the_transcript():
    assert all(c.offered_names == {"route", "execute-tool"} for c in run(LIVE)[0])  # the wrapper's tools_offered
    assert all(c.offered_names is None for c in run(TAU)[0])  # tau-bench keeps its tools in another file
    for path in (PYD_ANTHROPIC, PYD_OPENAI):  # a request's own `tools`, when it has one
        for conversation in run(path)[0]:
            assert (conversation.offered_names is None) == ("tools" not in request_of(path, conversation.pointer))


# ------------------------------------------------------------------ tau-bench


def test_tau_bench_call_ids_reused_for_different_calls():
    findings = [f for f in run(TAU)[2] if f.rule == "TC803"]
    expected = 0
    for trajectory in raw(TAU)["trajectories"]:
        ids = [c["id"] for m in trajectory["traj"] for c in m.get("tool_calls") or ()]
        expected += len(ids) - len(set(ids))
    assert len(findings) == expected == 17
    first = findings[0]
    assert first.pointer == "/trajectories/0/traj/12/tool_calls/0" and first.message_index == 12
    assert first.call_id == "call_HGn16KZh9oNCruxsMJ4gYXan" and "search_direct_flight" in first.message
    assert first.tool == "search_onestop_flight" and first.line == 1 and first.column > 1


def test_tau_bench_loop_and_rounds():
    findings = run(TAU)[2]
    assert by_rule(findings) == {"TC803": 17, "TC809": 1, "TC810": 1, "TC812": 1}
    # the first, cheapest sign: the same flight change resent unchanged after "flight HAT030 not available"
    (unchanged,) = [f for f in findings if f.rule == "TC812"]
    assert unchanged.pointer == "/trajectories/13/traj/28/tool_calls/0" and unchanged.tool == "update_reservation_flights"
    assert unchanged.call_id == "call_dhYivf6VRUVJfU9DItC2EQ95" and "call_z1nwOn0cffR3IvZ3L5iSYmAW" in unchanged.message
    (loop,) = [f for f in findings if f.rule == "TC810"]
    assert loop.pointer == "/trajectories/3/traj/52/tool_calls/0" and loop.tool == "update_reservation_flights"
    assert "messages 40, 44, 50, 52" in loop.message
    (rounds,) = [f for f in findings if f.rule == "TC809"]
    assert rounds.pointer.startswith("/trajectories/33/") and rounds.message.startswith("23 tool rounds")


def test_tau_bench_with_its_tools_every_call_passes_the_registry_and_shape_gates():
    _, envelopes, _ = run(TAU, with_tools=True)
    cases = [e for group in envelopes.values() for e in group]
    gates = Counter(e.gate.value if e.gate else None for e in cases)
    assert set(gates) <= {None, "environment"}  # gpt-4o called only offered tools, with valid arguments
    reads = [e for e in cases if e.tool.startswith(READ_PREFIXES) or e.tool == "think"]
    assert reads and all(e.outcome is Outcome.SUCCEEDED for e in reads)  # read tools: the return suffices
    writes = [e for e in cases if e not in reads]
    # writes ran in an environment that (in this context) only allows pure and read: executed without admission
    assert writes and all(e.outcome is Outcome.BLOCKED and e.gate.value == "environment" for e in writes)


# ---------------------------------------------------------------- LiveMCPBench


def test_livemcpbench_rounds_and_retry_loop():
    findings = run(LIVE)[2]
    over = {index for index, t in enumerate(raw(LIVE)["transcripts"])
            if sum(1 for m in t["messages"] if m.get("tool_calls")) > 20}
    assert {int(f.pointer.split("/")[2]) for f in findings if f.rule == "TC809"} == over and len(over) == 6
    (loop,) = [f for f in findings if f.rule == "TC810"]
    assert loop.pointer == "/transcripts/45/messages/58/tool_calls/0" and loop.tool == "execute-tool"
    assert set(by_rule(findings)) == {"TC809", "TC810"}


# ------------------------------------------------------------------ pydantic-ai


PAIRING = {"TC801", "TC802", "TC804", "TC805", "TC806"}


@pytest.mark.parametrize("path", [PYD_ANTHROPIC, PYD_OPENAI], ids=lambda p: p.name)
def test_requests_the_provider_accepted_keep_the_pairing_invariants(path):
    accepted = [c for c in run(path)[0] if status_of(path, c.pointer) == 200]
    assert len(accepted) >= len(run(path)[0]) - 8  # 8 OpenAI-compatible requests got a 400, for audio blocks or Groq
    assert not [f for c in accepted for f in check(c) if f.rule in PAIRING]
    assert not [f for f in run(path)[2] if f.rule in PAIRING]  # nor do the others: their 400s have other causes


def test_pydantic_anthropic_tool_search_and_reused_ids():
    findings = run(PYD_ANTHROPIC)[2]
    assert set(by_rule(findings)) == {"TC803", "TC808"}
    assert {f.tool for f in findings if f.rule == "TC808"} == {"search_tools"}
    duplicates = [f for f in findings if f.rule == "TC803"]
    assert len(duplicates) == 2 and {f.call_id for f in duplicates} == {"0usajhl5"}
    assert all(f.pointer.startswith("/cassettes/15/") for f in duplicates)
    for finding in findings:  # pydantic-ai's search_tools is never in the request's tool list
        if finding.rule == "TC808":
            tools = request_of(PYD_ANTHROPIC, finding.pointer)["tools"]
            assert "search_tools" not in {t.get("name") for t in tools}


def test_pydantic_openai_is_clean():
    assert run(PYD_OPENAI)[2] == []


# ------------------------------------------------------------------------- CLI


def test_cli_on_a_corpus_file(runner):
    result = runner.invoke(app, ["assess", str(LIVE), "--format", "json"])
    assert result.exit_code == 0, result.stderr  # warnings only
    document = json.loads(result.stdout)
    assert document["summary"]["cases"] == len(document["cases"]) == sum(
        chat_calls(t["messages"]) for t in raw(LIVE)["transcripts"])
    assert document["summary"]["conversation_findings"] == {"error": 0, "warning": 7, "info": 0}
    result = runner.invoke(app, ["assess", str(TAU), "--format", "text"])
    assert result.exit_code == 1 and "TC803" in result.stdout  # reused call ids are errors


def test_cli_jsonl_of_real_requests(runner, tmp_path):
    """The pydantic-ai requests, one per line: the JSONL path gives what the JSON path gives."""
    path = tmp_path / "requests.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        for request in requests(PYD_ANTHROPIC) + requests(PYD_OPENAI):
            stream.write(json.dumps(request) + "\n")
    result = runner.invoke(app, ["assess", str(path), "--format", "json"])
    document = json.loads(result.stdout)
    conversations = document["conversations"]
    assert len(conversations) == len(requests(PYD_ANTHROPIC)) + len(requests(PYD_OPENAI))
    assert [c["source"]["line"] for c in conversations] == list(range(1, len(conversations) + 1))
    assert len(document["cases"]) == sum(len(g) for p in (PYD_ANTHROPIC, PYD_OPENAI) for g in run(p)[1].values())
    expected = by_rule(run(PYD_ANTHROPIC)[2]) + by_rule(run(PYD_OPENAI)[2])
    assert Counter(f["rule"] for c in conversations for f in c["findings"]) == expected
    assert result.exit_code == 1  # TC803 and TC808 are errors
