"""The jobs as library calls (issue 16: `from toolcontract import lint_paths, assess_paths`): the same
findings and cases as the CLI gives, and bad input as InputError (a ValueError of one line)."""

from __future__ import annotations

import json

import pytest

from conftest import REPO, run_cli
from toolcontract import AssessResult, InputError, assess_paths, lint_paths


def _cli_json(*args) -> dict:
    done = run_cli(*args, "--format", "json", cwd=REPO)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_lint_paths_gives_the_cli_findings():
    result = lint_paths(["fixtures/demo"], no_config=True)
    document = _cli_json("lint", "fixtures/demo", "--no-config", "--no-cache")
    assert [(f.path, f.line, f.column, f.rule, f.severity.label, f.message) for f in result.findings] == [
        (f["path"], f["line"], f["column"], f["rule"], f["severity"], f["message"]) for f in document["findings"]]
    assert result.fail_on.label == "error" and result.tools == document["summary"]["tools"]


def test_lint_paths_options_one_string_is_one_value():
    result = lint_paths("fixtures/demo", select="TC4", targets="openai", no_config=True)
    assert result.findings and {f.rule[:3] for f in result.findings} == {"TC4"}


@pytest.mark.parametrize(("call", "fragment"), [
    (lambda: lint_paths(["no/such/folder"], no_config=True), "no/such/folder"),
    (lambda: lint_paths(["fixtures/demo"], select=["TC99x"], no_config=True), "TC99X"),
    (lambda: assess_paths(["fixtures/invocations"], tools=["fixtures/invocations"]), "no tool descriptors found"),
    (lambda: assess_paths(["fixtures/invocations"], fail_on=["exploded"]), "'exploded' is not an outcome"),
])
def test_bad_input_is_one_line_input_error(call, fragment):
    with pytest.raises(InputError) as raised:
        call()
    assert isinstance(raised.value, ValueError) and fragment in str(raised.value) and "\n" not in str(raised.value)


def test_assess_paths_gives_the_cli_cases_and_summary():
    result = assess_paths(["fixtures/invocations"])
    document = _cli_json("assess", "fixtures/invocations")
    assert isinstance(result, AssessResult) and not result.failed
    assert [(e.case_id, e.outcome.value) for e in result.cases] == [(c["id"], c["outcome"]) for c in document["cases"]]
    assert result.summary == document["summary"] and result.tools == document["tools"]


def test_assess_paths_on_recordings_keeps_each_conversation_and_fails_as_the_cli_would():
    bad = REPO / "fixtures" / "transcripts" / "bad"
    warned = assess_paths([str(bad / "TC812-error-result-retried-unchanged.json")])
    assert [f.rule for c in warned.conversations for f in c.findings] == ["TC812"] and not warned.failed
    assert assess_paths([str(bad / "TC812-error-result-retried-unchanged.json")], fail_on=["warning"]).failed
    broken = assess_paths([str(bad / "TC813-result-output-schema.json")])
    assert broken.failed and [e.outcome.value for e in broken.cases] == ["failed"]
