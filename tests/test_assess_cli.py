"""`toolcontract assess` through Typer's runner: exit codes, the JSON contract,
expectations, --fail-on, malformed fixtures and JSONL logs (issue 3, DESIGN §4, §5)."""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO, assert_one_line_error
from toolcontract.cli import app
from toolcontract.core.model import Outcome

INVOCATIONS = REPO / "fixtures" / "invocations"
LOG = REPO / "fixtures" / "logs" / "agent_run.jsonl"
GOOD = REPO / "fixtures" / "descriptors" / "good"
ERROR_LINE = re.compile(r"(?P<path>.+):(?P<line>[1-9]\d*):(?P<column>[1-9]\d*): (?P<message>.+)\Z")

CASE_KEYS = {"id", "correlation_id", "tool", "outcome", "gate", "effect", "trail", "reasons", "unverified_scope",
             "next_step", "model_view", "evidence", "expect", "source"}


def invoke(runner, *args):
    result = runner.invoke(app, ["assess", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    return result


def as_json(result) -> dict:
    return json.loads(result.stdout)


def write_fixture(tmp_path, cases: str, name="fx.yaml", tools=None) -> str:
    tools = tools or [str(GOOD / "invoice_read.yaml"), str(GOOD / "invoice_mark_paid.yaml")]
    path = tmp_path / name
    path.write_text("toolcontract: 1\ntools: " + json.dumps(tools) + "\ncases:\n" + cases, encoding="utf-8")
    return str(path)


READ_OK = """\
  - id: read-ok
    candidate: {id: c1, name: invoice_get, arguments: {invoice_id: INV-000001}}
    context: {environment: {allows: [read]}}
    expect: {outcome: allowed}
"""
TIMEOUT = """\
  - id: write-timeout
    candidate: {id: c2, name: invoice_mark_paid,
                arguments: {invoice_id: INV-000001, expected_version: "1", payment_ref: P, paid_on: "2026-11-28"}}
    context:
      environment: {allows: [irreversible_write]}
      approval: {tool: invoice_mark_paid, target: INV-000001, version: "1"}
      target: {id: INV-000001, version: "1"}
    record: {call_id: c2, status: timeout}
"""


# ------------------------------------------------------------ the fixtures pass


def test_the_invocation_fixtures_are_a_passing_regression_test(runner, monkeypatch):
    monkeypatch.chdir(REPO)
    result = invoke(runner, "fixtures/invocations", "--format", "text")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "EXPECT-FAILED" not in result.stdout
    assert re.search(r"^\d+ cases: .*; 0 unmet expectations$", result.stdout, re.M)


def test_json_contract(runner, monkeypatch):
    monkeypatch.chdir(REPO)
    result = invoke(runner, "fixtures/invocations", "--format", "json")
    assert result.exit_code == 0, result.stderr
    document = as_json(result)
    assert set(document) == {"version", "cases", "tools", "summary"} and document["version"] == 1
    assert list(document) == ["version", "cases", "tools", "summary"]  # tools after cases
    assert sum(t["calls"] for t in document["tools"]) == len(document["cases"])
    assert set(document["summary"]) == {"cases", "by_outcome", "expect_failed", "evidence_only"}  # one case has no context
    cases = document["cases"]
    assert document["summary"]["cases"] == len(cases) > 0
    assert document["summary"]["expect_failed"] == 0
    assert sum(document["summary"]["by_outcome"].values()) == len(cases)
    for case in cases:
        assert set(case) == CASE_KEYS, case["id"]
        assert case["outcome"] in {o.value for o in Outcome}
        assert case["gate"] in (None, "parse", "registry", "shape", "semantic", "target", "environment", "approval")
        assert case["effect"] in ("none", "confirmed", "unverified", "unknown", "contradicted")
        assert case["next_step"] in ("fix_request", "request_approval", "observe_target", "read_back",
                                     "stop_or_escalate", "hand_to_acceptance", "none")
        assert {"content", "is_error", "omitted"} <= set(case["model_view"])
        assert case["model_view"]["content"] and isinstance(case["model_view"]["is_error"], bool)
        assert case["model_view"]["correlation_id"] == case["evidence"]["correlation_id"] == case["correlation_id"]
        assert case["unverified_scope"] and "task acceptance" in case["unverified_scope"]
        assert [step["gate"] for step in case["trail"]] == [
            "parse", "registry", "shape", "semantic", "target", "environment", "approval"]
        assert all(step["result"] in ("passed", "refused", "not_reached", "not_judged") for step in case["trail"])
        assert [s["result"] for s in case["trail"]].count("refused") == (0 if case["gate"] is None else 1)
        assert case["expect"]["met"] is True and "outcome" in case["expect"]["want"]
        assert set(case["source"]) == {"path", "line"}
        assert case["source"]["path"].startswith("fixtures/invocations/") and case["source"]["line"] >= 1


def test_the_fixtures_cover_every_outcome_and_every_gate(runner, monkeypatch):
    monkeypatch.chdir(REPO)
    cases = as_json(invoke(runner, "fixtures/invocations", "--format", "json"))["cases"]
    assert {c["outcome"] for c in cases} == {o.value for o in Outcome}
    assert {c["gate"] for c in cases if c["gate"]} == {
        "parse", "registry", "shape", "semantic", "target", "environment", "approval"}
    ids = {c["id"] for c in cases}
    for required in (
        # the seed's assessToolInvocation table
        "unknown-tool", "bad-shape", "read-only-with-prerequisites", "write-without-approval",
        "request-result-correlation-conflict", "timeout-without-read-back", "success-not-yet-verified",
        # the metadata-change case's four paths
        "metadata-missing-expected-version", "metadata-write-without-approval",
        "metadata-success-then-conflicting-read-back", "metadata-timeout-effect-unknown",
        # the two-gate example's three calls
        "search-orders-good", "delete-all-orders-hallucinated", "refund-order-amount-string",
    ):
        assert required in ids
    by_id = {c["id"]: c for c in cases}
    refund = by_id["refund-order-amount-string"]
    assert [i["pointer"] for i in refund["evidence"]["issues"]] == ["/amount"]
    assert (by_id["delete-all-orders-hallucinated"]["gate"], by_id["search-orders-good"]["outcome"]) == (
        "registry", "allowed")


# ---------------------------------------------------------------- expectations


def test_unmet_expectation_exits_1_with_want_and_got(runner, tmp_path):
    path = write_fixture(tmp_path, READ_OK.replace("expect: {outcome: allowed}",
                                                   "expect: {outcome: rejected, gate: registry}"))
    text = invoke(runner, path, "--format", "text")
    assert text.exit_code == 1
    assert "EXPECT-FAILED want outcome=rejected gate=registry got outcome=allowed gate=" in text.stdout
    document = as_json(invoke(runner, path, "--format", "json"))
    expect = document["cases"][0]["expect"]
    assert expect == {"met": False, "want": {"outcome": "rejected", "gate": "registry"},
                      "got": {"outcome": "allowed", "gate": None}}
    assert document["summary"]["expect_failed"] == 1


def test_met_expectations_and_no_expectation_exit_0(runner, tmp_path):
    path = write_fixture(tmp_path, READ_OK + READ_OK.replace("read-ok", "read-ok-2").replace(
        "    expect: {outcome: allowed}\n", ""))
    result = invoke(runner, path, "--format", "json")
    assert result.exit_code == 0
    assert [c["expect"] for c in as_json(result)["cases"]] == [{"met": True, "want": {"outcome": "allowed"}}, None]


# --------------------------------------------------------------------- fail-on


def test_fail_on_effect_unknown(runner, tmp_path):
    path = write_fixture(tmp_path, READ_OK + TIMEOUT)
    assert invoke(runner, path, "--format", "json").exit_code == 0
    result = invoke(runner, path, "--format", "json", "--fail-on", "effect_unknown")
    assert result.exit_code == 1
    assert as_json(result)["summary"]["by_outcome"] == {"allowed": 1, "effect_unknown": 1}
    assert invoke(runner, path, "--fail-on", "blocked,failed").exit_code == 0
    assert invoke(runner, path, "--fail-on", "blocked", "--fail-on", "effect_unknown").exit_code == 1


def test_fail_on_over_the_regression_fixtures(runner, monkeypatch):
    monkeypatch.chdir(REPO)
    assert invoke(runner, "fixtures/invocations", "--fail-on", "effect_unknown").exit_code == 1


def test_unknown_fail_on_outcome_exits_2(runner, tmp_path):
    path = write_fixture(tmp_path, READ_OK)
    result = invoke(runner, path, "--fail-on", "explosion")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert "explosion" in result.stderr


# ------------------------------------------------------------ malformed fixtures


def test_malformed_case_in_the_middle_keeps_the_cases_before_it(runner, tmp_path):
    broken = """\
  - id: broken
    candidate: {id: c3, name: invoice_get, arguments: {invoice_id: INV-000001}}
    record: {status: exploded}
"""
    path = write_fixture(tmp_path, READ_OK + TIMEOUT + broken + READ_OK.replace("read-ok", "after"))
    result = invoke(runner, path, "--format", "json")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    match = ERROR_LINE.match(result.stderr.strip())
    assert match, result.stderr
    assert match["path"] == path
    lines = open(path, encoding="utf-8").read().splitlines()
    assert "exploded" in lines[int(match["line"]) - 1]
    document = as_json(result)  # still one valid JSON document
    assert [c["id"] for c in document["cases"]] == ["read-ok", "write-timeout"]
    assert document["summary"]["cases"] == 2


def test_malformed_fixture_in_text_format_also_keeps_earlier_cases(runner, tmp_path):
    path = write_fixture(tmp_path, READ_OK + "  - id: no-candidate\n")
    result = invoke(runner, path, "--format", "text")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert "read-ok" in result.stdout
    assert ERROR_LINE.match(result.stderr.strip())


@pytest.mark.parametrize("content", [
    "toolcontract: 1\ncases: [\n",  # does not parse
    "toolcontract: 2\ncases: []\n",  # wrong version
    "- just a list\n",
    "toolcontract: 1\ntools: [does/not/exist.yaml]\ncases: []\n",
])
def test_unreadable_fixture_exits_2_with_one_line(runner, tmp_path, content):
    path = tmp_path / "bad.yaml"
    path.write_text(content, encoding="utf-8")
    result = invoke(runner, path, "--format", "json")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert ERROR_LINE.match(result.stderr.strip())
    assert result.stderr.startswith(str(path))
    json.loads(result.stdout)


def test_missing_path_exits_2(runner, tmp_path):
    missing = tmp_path / "nope.yaml"
    result = invoke(runner, missing)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.strip() == f"{missing}:1:1: no such file or directory"


# ------------------------------------------------------------------------ JSONL


def test_jsonl_log_with_tools(runner):
    result = invoke(runner, LOG, "--tools", GOOD, "--format", "json")
    assert result.exit_code == 0, result.stderr
    document = as_json(result)
    cases = document["cases"]
    assert len(cases) >= 3 and document["summary"]["expect_failed"] == 0
    assert [c["source"]["line"] for c in cases] == list(range(1, len(cases) + 1))
    assert all(c["source"]["path"] == str(LOG) for c in cases)


def test_jsonl_without_tools_rejects_at_the_registry(runner):
    document = as_json(invoke(runner, LOG, "--format", "json"))
    assert {c["gate"] for c in document["cases"]} == {"registry"}


def test_malformed_jsonl_line_exits_2_with_its_line_number(runner, tmp_path):
    good = LOG.read_text(encoding="utf-8").splitlines()[:2]
    for bad in ('{"id": "x", "candidate": {"name": "weather_current", "arguments": {}', '{"id": "x"}'):
        path = tmp_path / "log.jsonl"
        path.write_text("\n".join([*good, "", bad, good[0]]) + "\n", encoding="utf-8")
        result = invoke(runner, path, "--tools", GOOD, "--format", "json")
        assert result.exit_code == 2
        assert_one_line_error(result.stderr)
        match = ERROR_LINE.match(result.stderr.strip())
        assert match and match["path"] == str(path) and match["line"] == "4", result.stderr
        assert len(as_json(result)["cases"]) == 2


def test_tools_option_accepts_files_and_folders(runner, tmp_path):
    line = LOG.read_text(encoding="utf-8").splitlines()[0]  # a weather_current case
    path = tmp_path / "one.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    for tools in (GOOD, GOOD / "weather_current.json"):
        result = invoke(runner, path, "--tools", tools, "--format", "json")
        assert result.exit_code == 0 and as_json(result)["cases"][0]["gate"] is None


def test_missing_tools_path_exits_2(runner):
    result = invoke(runner, LOG, "--tools", REPO / "no" / "such" / "tools")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)


def test_assess_tools_from_a_provider_file_take_effects_from_its_overlay(tmp_path):
    # mcp.json has no effect classes; mcp.contract.yaml beside it says note_search is a read tool
    fixture = tmp_path / "f.yaml"
    fixture.write_text(
        "toolcontract: 1\ncases:\n  - id: read\n    candidate: {id: c1, name: note_search, arguments: {query: x}}\n"
        "    context: {environment: {allows: [read]}}\n    expect: {outcome: allowed}\n"
    )
    from typer.testing import CliRunner

    from toolcontract.cli import app

    done = CliRunner().invoke(app, ["assess", str(fixture), "--tools", "fixtures/providers/good/mcp.json", "--format", "text"])
    assert done.exit_code == 0, done.output
