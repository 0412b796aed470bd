"""Assessing recordings without a hand-written policy (issue 15): evidence-only admission, lost and pending
calls, what the report says per tool, and a run that is never silent about what it did not judge."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import REPO, corpus_dir

TOOLS = REPO / "fixtures" / "descriptors" / "good"


def assess(*args, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolcontract", "assess", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def cases_of(done) -> list[dict]:
    return json.loads(done.stdout)["cases"]


def _anthropic(messages, tools=None) -> str:
    body = {"messages": messages}
    if tools is not None:
        body["tools"] = tools
    return json.dumps(body, indent=1)


WEATHER = {"name": "get_weather", "description": "Weather now.",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                            "additionalProperties": False}}


def call(block_id, name="get_weather", arguments=None):
    return {"type": "tool_use", "id": block_id, "name": name, "input": {"city": "Oslo"} if arguments is None else arguments}


def result(block_id, text="4 C"):
    return {"type": "tool_result", "tool_use_id": block_id, "content": text}


def test_a_recording_without_context_judges_only_what_it_shows(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(_anthropic([
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": [call("a"), call("b", arguments={"town": "Oslo"}), call("c", "send_mail")]},
        {"role": "user", "content": [result("a"), result("b"), result("c")]},
        {"role": "assistant", "content": [call("d")]},
        {"role": "user", "content": "thanks"},
        {"role": "assistant", "content": [call("e")]},
    ], tools=[WEATHER]))
    done = assess(path, "--format", "json")
    by_id = {c["correlation_id"]: c for c in cases_of(done)}
    a = by_id["a"]  # no effect class: consequential, returned, nothing read it back
    assert (a["outcome"], a["effect"]) == ("needs_evidence", "unverified")
    assert [s["result"] for s in a["trail"]] == ["passed"] * 4 + ["not_judged"] * 3
    assert a["unverified_scope"][0] == "admission policy: target, environment, approval (no context given)"
    b = by_id["b"]
    assert (b["outcome"], b["gate"], b["effect"]) == ("blocked", "shape", "unknown")
    assert b["reasons"][0].startswith("executed although its arguments fail the schema: /:")
    c = by_id["c"]
    assert (c["outcome"], c["gate"]) == ("blocked", "registry")
    assert c["reasons"][0] == "executed although the request did not offer the tool 'send_mail'"
    d = by_id["d"]  # no result, and the conversation goes on: lost
    assert (d["outcome"], d["effect"], d["next_step"]) == ("effect_unknown", "unknown", "observe_target")
    assert "the call was lost" in d["reasons"][0]
    e = by_id["e"]  # the recording ends on it: pending
    assert (e["outcome"], e["effect"]) == ("allowed", "none")
    assert "execution (the recording ends before a result)" in e["unverified_scope"]
    summary = json.loads(done.stdout)["summary"]
    assert summary["evidence_only"] == 5 and summary["no_effect_class"] == 4


def test_a_lost_call_of_a_read_tool_timed_out_without_effect(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(_anthropic([{"role": "assistant", "content": [call("r", "weather_current", {"place": "Oslo"})]},
                                {"role": "user", "content": "and?"}]))
    done = assess(path, "--tools", TOOLS / "weather_current.json", "--format", "json")
    (case,) = cases_of(done)
    assert (case["outcome"], case["effect"], case["next_step"]) == ("timed_out", "none", "none")


def test_without_a_tool_list_and_without_tools_the_registry_is_not_judged(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"role": "assistant", "tool_calls": [
        {"id": "x", "type": "function", "function": {"name": "book", "arguments": "{\"a\": 1}"}}]},
        {"role": "tool", "tool_call_id": "x", "content": "ok"}]))
    (case,) = cases_of(assess(path, "--format", "json"))
    assert [s["result"] for s in case["trail"]] == ["passed"] + ["not_judged"] * 6
    assert "tools offered (the recording has no tool list)" in case["unverified_scope"]
    assert case["outcome"] == "needs_evidence"


def test_a_context_restores_the_fail_closed_judgement(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(_anthropic([{"role": "assistant", "content": [call("a")]},
                                {"role": "user", "content": [result("a")]}], tools=[WEATHER]))
    context = tmp_path / "context.yaml"
    context.write_text("now: 2026-11-29T10:00:00Z\n")
    (case,) = cases_of(assess(path, "--context", context, "--format", "json"))
    assert (case["outcome"], case["gate"]) == ("blocked", "environment")


def test_text_says_what_was_judged_from_evidence_and_per_tool(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(_anthropic([{"role": "assistant", "content": [call("a")]},
                                {"role": "user", "content": [result("a")]}], tools=[WEATHER]))
    lines = assess(path, "--format", "text").stdout.splitlines()
    assert f"{path}: tool get_weather: 1 call (needs_evidence 1); consequential with effect unverified 1, unknown 0" \
        in lines
    assert "1 case: needs_evidence 1; no expectations" in lines
    assert "1 call assessed from evidence only: no --context, so target, environment and approval were not judged" \
        in lines


def test_tools_that_yield_nothing_are_a_usage_error(tmp_path):
    (tmp_path / "empty").mkdir()
    done = assess(REPO / "fixtures" / "logs" / "agent_run.jsonl", "--tools", tmp_path / "empty")
    assert done.returncode == 2
    assert done.stderr.strip() == f"toolcontract: --tools {tmp_path / 'empty'}: no tool descriptors found"


def test_json_lists_each_tool_after_the_cases():
    done = assess(REPO / "fixtures" / "invocations", "--format", "json")
    document = json.loads(done.stdout)
    assert list(document) == ["version", "cases", "tools", "summary"]
    tools = {t["tool"]: t for t in document["tools"]}
    assert sum(t["calls"] for t in tools.values()) == len(document["cases"])
    some = next(iter(tools.values()))
    assert set(some) == {"tool", "calls", "by_outcome", "consequential_effect_unverified",
                         "consequential_effect_unknown", "refused_by_gate"}


def _big_log(path, n):
    line = json.dumps({"id": "c{i}", "candidate": {"id": "t{i}", "name": "weather_current",
                                                    "arguments": {"place": "Oslo"}}}) + "\n"
    with open(path, "w") as out:
        out.writelines(line.replace("{i}", str(i)) for i in range(n))


def test_ctrl_c_stops_within_a_second_with_what_was_assessed(tmp_path):
    log = tmp_path / "log.jsonl"
    _big_log(log, 100_000)  # ten seconds of work at 10,000 cases/s; the signal comes after the first chunk
    import threading

    process = subprocess.Popen([sys.executable, "-m", "toolcontract", "assess", str(log), "--tools",
                                str(TOOLS / "weather_current.json"), "--format", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    read: list[bytes] = []
    started = threading.Event()

    def reader_loop():  # a terminal reads as it comes
        read.append(process.stdout.read(1))
        started.set()
        read.append(process.stdout.read())

    reader = threading.Thread(target=reader_loop)
    reader.start()
    assert started.wait(timeout=60)  # the reporter wrote its first chunk: cases were assessed
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)
    assert time.perf_counter() - sent < 1.5
    reader.join()
    out, err = b"".join(read), process.stderr.read()
    assert process.returncode == 130, err[-2000:]
    document = json.loads(out)  # a complete document with what was assessed so far
    assert 0 < document["summary"]["cases"] < 100_000
    assert b"interrupted after" in err and b"Traceback" not in err


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminal")
def test_a_progress_line_on_a_terminals_stderr_for_long_inputs(tmp_path):
    log = tmp_path / "log.jsonl"
    _big_log(log, 6_000)
    parent, child = os.openpty()
    done = subprocess.run([sys.executable, "-m", "toolcontract", "assess", str(log), "--tools",
                           str(TOOLS / "weather_current.json"), "--format", "json"],
                          stdout=subprocess.PIPE, stderr=child, cwd=REPO, timeout=120)
    os.close(child)
    written = b""
    os.set_blocking(parent, False)
    try:
        while chunk := os.read(parent, 65536):
            written += chunk
    except (BlockingIOError, OSError):
        pass
    os.close(parent)
    assert done.returncode == 0
    assert b"assessed 5,000 cases" in written and b"assessed 6,000 cases" in written
    assert json.loads(done.stdout)["summary"]["cases"] == 6_000  # stdout stays clean
    piped = assess(log, "--tools", TOOLS / "weather_current.json", "--format", "json")
    assert "assessed" not in piped.stderr


# ------------------------------------------------------------------ real recordings


@pytest.mark.parametrize("name", ["livemcpbench.claude-sonnet-4.json", "pydantic-ai.anthropic_messages.json",
                                  "pydantic-ai.openai_chat_completions.json", "tau-bench.gpt-4o-airline.trial0.json"])
def test_real_recordings_are_never_blocked_by_a_policy_they_never_carried(name, tmp_path):
    path = corpus_dir() / "transcripts" / name
    if not path.is_file():
        pytest.skip(f"the shared corpus is not at {corpus_dir()}")
    runs = [()]
    if name.startswith("tau-bench"):  # its offered tools, as an OpenAI tool list (the corpus file wraps them)
        wrapped = json.loads((corpus_dir() / "transcripts" / "tau-bench.tools.json").read_text())["tools"]
        tools = tmp_path / "tau-tools.json"
        tools.write_text(json.dumps([entry["tool"] for domain in wrapped.values() for entry in domain]))
        runs.append(("--tools", tools))
    for extra in runs:
        cases = cases_of(assess(path, "--format", "json", *extra))
        assert cases
        policy = [c for c in cases if c["outcome"] == "blocked" and c["gate"] in ("target", "environment", "approval")]
        assert not policy, policy[:2]
        for case in cases:
            if case["outcome"] == "blocked":
                assert case["reasons"][0].startswith("executed although"), case["reasons"]
