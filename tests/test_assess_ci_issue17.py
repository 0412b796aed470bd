"""Issue 17, assess in CI: --select/--ignore for the conversation rules, --format sarif|github, -o (format from
the extension), --exit-zero, --config ([tool.toolcontract.assess] / `assess:`), the short summary of failing
cases at the end of text and rich; and the rich table at 80 and 120 columns. All through the real command."""

from __future__ import annotations

import os
from pathlib import Path

import json
import re
import xml.etree.ElementTree as ET

import jsonschema
import pytest
import referencing

from conftest import REPO, assert_one_line_error, run_cli

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
INVOICES = REPO / "fixtures" / "descriptors" / "good" / "invoice_read.yaml"
TRANSCRIPTS = REPO / "fixtures" / "transcripts" / "bad"
UNANSWERED = TRANSCRIPTS / "TC801-call-unanswered.json"
ROUNDS = TRANSCRIPTS / "TC809-rounds-exceeded.json"
FINDING = re.compile(r": (error|warning|info) (TC8\d\d) ")

CALLS = f"""\
toolcontract: 1
tools: [{INVOICES}]
cases:
  - id: read-ok
    candidate: {{id: c1, name: invoice_get, arguments: {{invoice_id: INV-004211}}}}
    expect: {{outcome: allowed}}
  - id: bad-shape
    candidate: {{id: c2, name: invoice_get, arguments: {{invoice_id: "4211"}}}}
    expect: {{outcome: allowed}}
  - id: unknown-tool
    candidate: {{id: c3, name: invoice_delete, arguments: {{}}}}
"""
SUMMARY = [
    "short summary: 1 unmet expectation, 2 failing outcomes",
    "  calls.yaml:7: bad-shape: want outcome=allowed, got outcome=rejected; rejected (failing)",
    "  calls.yaml:10: unknown-tool: rejected (failing)",
]


@pytest.fixture
def calls(tmp_path):
    (tmp_path / "calls.yaml").write_text(CALLS, encoding="utf-8")
    return tmp_path


def _rules(stdout: str) -> set[str]:
    return {match[2] for match in map(FINDING.search, stdout.splitlines()) if match}


def _valid_sarif(text: str) -> dict:
    document = json.loads(text)
    errors = list(jsonschema.Draft7Validator(SCHEMA, registry=referencing.Registry()).iter_errors(document))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:3]]
    run = document["runs"][0]
    for result in run["results"]:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    return document


# ------------------------------------------------------------ short summary


def test_text_ends_with_a_short_summary_of_the_failing_cases(calls):
    done = run_cli("assess", "calls.yaml", "--format", "text", "--fail-on", "rejected", cwd=calls)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    start = lines.index(SUMMARY[0])
    assert lines[start:start + 3] == SUMMARY
    assert lines[start + 3] == "3 cases: allowed 1, rejected 2; 1 unmet expectation"
    # without --fail-on only the unmet expectation fails the run, and is the only one listed
    plain = run_cli("assess", "calls.yaml", "--format", "text", cwd=calls).stdout.splitlines()
    start = plain.index("short summary: 1 unmet expectation")
    assert plain[start + 1:start + 3] == ["  calls.yaml:7: bad-shape: want outcome=allowed, got outcome=rejected",
                                          "3 cases: allowed 1, rejected 2; 1 unmet expectation"]


def test_no_short_summary_when_nothing_fails():
    done = run_cli("assess", REPO / "fixtures" / "invocations" / "gates_semantic_target.yaml", "--format", "text")
    assert done.returncode == 0 and "short summary" not in done.stdout


def test_exit_zero(calls):
    done = run_cli("assess", "calls.yaml", "--format", "text", "--fail-on", "rejected", "--exit-zero", cwd=calls)
    assert done.returncode == 0 and SUMMARY[0] in done.stdout


# ------------------------------------------------------------ select / ignore


def test_select_and_ignore_choose_the_conversation_rules():
    everything = run_cli("assess", TRANSCRIPTS, "--format", "text")
    assert {"TC801", "TC802", "TC809"} <= _rules(everything.stdout)
    only = run_cli("assess", TRANSCRIPTS, "--format", "text", "--select", "TC801,TC809")
    assert _rules(only.stdout) == {"TC801", "TC809"}
    prefix = run_cli("assess", TRANSCRIPTS, "--format", "text", "--select", "TC80", "--ignore", "TC801")
    assert _rules(prefix.stdout) == _rules(everything.stdout) & {f"TC80{i}" for i in range(2, 10)}
    ignored = run_cli("assess", UNANSWERED, "--format", "text", "--ignore", "TC801")
    assert ignored.returncode == 0 and _rules(ignored.stdout) == set()  # the finding that failed the run is off
    assert run_cli("assess", UNANSWERED, "--format", "text").returncode == 1


@pytest.mark.parametrize("flag", ["--select", "--ignore"])
def test_a_code_of_no_conversation_rule_is_exit_2(flag):
    done = run_cli("assess", UNANSWERED, flag, "TC4", "--format", "text")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"toolcontract: assess {flag}: 'TC4' matches no conversation rule (TC801 to TC814; "
                           "`toolcontract rules` lists them)\n")


# ------------------------------------------------------------ sarif / github


def test_sarif_holds_conversation_findings_and_failing_cases(calls):
    done = run_cli("assess", "calls.yaml", UNANSWERED, "--format", "sarif", "--fail-on", "rejected", cwd=calls)
    assert done.returncode == 1, done.stderr
    run = _valid_sarif(done.stdout)["runs"][0]
    found = [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["locations"][0]["physicalLocation"]["region"]["startLine"], r["message"]["text"]) for r in run["results"]]
    relative_transcript = Path(os.path.relpath(UNANSWERED, calls)).as_posix()  # SARIF: relative to %SRCROOT%
    assert found == [
        ("TC801", relative_transcript, 59, "call 'toolu_02' ('get_weather') is never answered: no tool_result block "
                                           "with its id follows"),
        ("assess/expectation-unmet", "calls.yaml", 7, "case bad-shape: want outcome=allowed, got outcome=rejected"),
        ("assess/failing-outcome", "calls.yaml", 7, "case bad-shape: rejected at the shape gate (failing); effect "
                                                    "none, next step fix_request"),
        ("assess/failing-outcome", "calls.yaml", 10, "case unknown-tool: rejected at the registry gate (failing); "
                                                     "effect none, next step fix_request"),
    ]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rule_ids[-2:] == ["assess/expectation-unmet", "assess/failing-outcome"]
    assert all(rule_id.startswith("TC8") for rule_id in rule_ids[:-2])
    assert run["properties"]["summary"]["by_outcome"]["rejected"] == 2


def test_github_annotations(calls):
    done = run_cli("assess", "calls.yaml", "--format", "github", "--fail-on", "rejected", cwd=calls)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "::error file=calls.yaml,line=7,col=1,title=unmet expectation [bad-shape]::case bad-shape: want "
        "outcome=allowed, got outcome=rejected",
        "::error file=calls.yaml,line=7,col=1,title=failing outcome [bad-shape]::case bad-shape: rejected at the "
        "shape gate (failing); effect none, next step fix_request",
        "::error file=calls.yaml,line=10,col=1,title=failing outcome [unknown-tool]::case unknown-tool: rejected at "
        "the registry gate (failing); effect none, next step fix_request",
    ]
    transcript = run_cli("assess", UNANSWERED, "--format", "github")
    assert transcript.stdout == (f"::error file={UNANSWERED},line=59,col=9,title=TC801 call-unanswered [get_weather]::"
                                 "call 'toolu_02' ('get_weather') is never answered: no tool_result block with its id "
                                 "follows (conv1, message 1)\n")


# ------------------------------------------------------------ -o


def test_output_file_format_comes_from_its_extension(calls):
    done = run_cli("assess", "calls.yaml", "-o", "report.sarif", cwd=calls)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == "calls.yaml:4: allowed read-ok tool=invoice_get gate=- effect=none next=none"
    assert SUMMARY[0].split(",")[0] in done.stdout  # the terminal: text, with its short summary
    _valid_sarif((calls / "report.sarif").read_text(encoding="utf-8"))
    run_cli("assess", "calls.yaml", "-o", "report.xml", cwd=calls)
    assert ET.parse(calls / "report.xml").getroot().tag in ("testsuites", "testsuite")
    as_json = run_cli("assess", "calls.yaml", "-o", "report.json", "--format", "json", cwd=calls)
    assert json.loads((calls / "report.json").read_text())["summary"]["cases"] == 3
    assert as_json.stdout.startswith("calls.yaml:4: allowed read-ok ")  # the terminal's format only
    run_cli("assess", "calls.yaml", "-o", "report.txt", "--format", "github", cwd=calls)
    assert (calls / "report.txt").read_text().startswith("::error file=calls.yaml,line=7,")


def test_output_is_not_written_when_the_run_fails(calls):
    (calls / "broken.yaml").write_text("toolcontract: 1\ncases: [\n", encoding="utf-8")
    (calls / "report.sarif").write_text("old", encoding="utf-8")
    done = run_cli("assess", "calls.yaml", "broken.yaml", "-o", "report.sarif", cwd=calls)
    assert done.returncode == 2 and done.stderr.startswith("broken.yaml:")
    assert (calls / "report.sarif").read_text() == "old"  # nothing written over
    folder = run_cli("assess", "calls.yaml", "-o", ".", cwd=calls)
    assert folder.returncode == 2 and folder.stdout == "" and folder.stderr == ".:1:1: is a folder; name a file to write\n"


# ------------------------------------------------------------ config


def test_pyproject_assess_table_sets_select_fail_on_and_max_rounds(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolcontract]\nselect = ["TC4"]\n\n[tool.toolcontract.assess]\nselect = ["TC801", "TC809"]\n'
        'fail-on = ["warning"]\nmax-rounds = 30\n', encoding="utf-8")
    done = run_cli("assess", TRANSCRIPTS, "--format", "text", cwd=tmp_path)
    assert _rules(done.stdout) == {"TC801"}  # TC809's conversation has 21 rounds: under 30
    low = run_cli("assess", ROUNDS, "--format", "text", "--max-rounds", "5", cwd=tmp_path)  # the option wins
    assert _rules(low.stdout) == {"TC809"} and low.returncode == 1  # a warning, failing by the config's fail-on
    assert run_cli("assess", ROUNDS, "--max-rounds", "5", "--fail-on", "error", "--format", "text",
                   cwd=tmp_path).returncode == 0
    assert _rules(run_cli("assess", TRANSCRIPTS, "--format", "text", "--no-config", cwd=tmp_path).stdout) > {"TC801"}


def test_yaml_assess_section_and_its_context_relative_to_the_config(tmp_path):
    (tmp_path / "ctx").mkdir()
    (tmp_path / "ctx" / "context.yaml").write_text("now: '2026-11-29T10:00:00Z'\n", encoding="utf-8")
    (tmp_path / "cfg.yaml").write_text("assess:\n  context: ctx/context.yaml\n  ignore: [TC801]\n", encoding="utf-8")
    (tmp_path / "run").mkdir()
    done = run_cli("assess", UNANSWERED, "--config", tmp_path / "cfg.yaml", "--format", "text", cwd=tmp_path / "run")
    assert done.returncode == 0, done.stderr
    assert _rules(done.stdout) == set() and "assessed from evidence only" not in done.stdout


@pytest.mark.parametrize("name, text, message", [
    ("pyproject.toml", '[tool.toolcontract.assess]\nselect = ["TC801"]\nfailon = ["blocked"]\n',
     "3:1: unknown key 'failon' in assess (known: context, fail-on, ignore, max-rounds, select)"),
    (".toolcontract.yaml", "assess:\n  select: [TC801]\n  bogus: 1\n",
     "3:3: unknown key 'bogus' in assess (known: context, fail-on, ignore, max-rounds, select)"),
    (".toolcontract.yaml", "assess:\n  max-rounds: 0\n", "2:3: assess/max-rounds: 0 is less than the minimum of 1"),
    (".toolcontract.yaml", "assess:\n  fail-on: [blockd]\n", "2:13: assess/fail-on/0: 'blockd' is not one of"),
])
def test_bad_assess_config_is_exit_2_at_its_key(tmp_path, name, text, message):
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = run_cli("assess", UNANSWERED, "--format", "text", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert_one_line_error(done.stderr)
    assert done.stderr.startswith(f"{tmp_path / name}:{message}")


def test_lint_reads_a_config_with_an_assess_table(tmp_path):
    (tmp_path / ".toolcontract.yaml").write_text("select: [TC4]\nassess:\n  select: [TC801]\n", encoding="utf-8")
    done = run_cli("lint", REPO / "fixtures" / "demo" / "shipment_track.yaml", "--format", "text", cwd=tmp_path)
    assert done.returncode == 0 and " warning TC403 " in done.stdout


# ------------------------------------------------------------ rich at 80 and 120 columns


def test_rich_at_120_columns_is_a_table_that_never_wraps(calls):
    done = run_cli("assess", "calls.yaml", "--format", "rich", "--fail-on", "rejected", cwd=calls,
                   env={"COLUMNS": "120", "NO_COLOR": "1"})
    lines = done.stdout.splitlines()
    assert lines[1:8] == [
        "  case          tool            trail    outcome             effect  next step",
        "  read-ok       invoice_get     ✓✓✓✓–––  allowed             none    none",
        "    unverified: execution (the call has not run); admission policy: target, environment, approval (no context "
        "given)",
        "  bad-shape     invoice_get     ✓✓✗·–––  rejected @shape     none    fix_request",
        "    unverified: admission policy: target, environment, approval (no context given); gates not reached: semantic",
        "    EXPECTED outcome=allowed; GOT outcome=rejected",
        "  unknown-tool  invoice_delete  ✓✗··–––  rejected @registry  none    fix_request",
    ]
    assert all(len(line) <= 120 for line in lines)
    start = lines.index(SUMMARY[0])
    assert lines[start:start + 3] == SUMMARY


def test_rich_switches_to_the_text_layout_below_100_columns_and_when_the_table_would_not_fit(calls):
    narrow = run_cli("assess", "calls.yaml", "--format", "rich", cwd=calls, env={"COLUMNS": "80", "NO_COLOR": "1"})
    lines = narrow.stdout.splitlines()
    assert "case" not in lines[1]  # no table header: every field is on the case's line
    assert lines[1] == "calls.yaml:4: allowed read-ok tool=invoice_get gate=- effect=none next=none"
    wide_ids = calls / "long.yaml"
    wide_ids.write_text(CALLS.replace("id: read-ok", "id: " + "a-very-long-case-identifier-" * 3 + "x"), encoding="utf-8")
    fallback = run_cli("assess", "long.yaml", "--format", "rich", cwd=calls, env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert fallback.stdout.splitlines()[1].startswith("long.yaml:4: allowed a-very-long-case-identifier-")


def test_rich_verbose_shows_reasons_and_the_model_view_not_the_evidence(calls):
    done = run_cli("assess", "calls.yaml", "--format", "rich", "-v", cwd=calls, env={"COLUMNS": "120", "NO_COLOR": "1"})
    lines = done.stdout.splitlines()
    at = lines.index("  bad-shape     invoice_get     ✓✓✗·–––  rejected @shape     none    fix_request")
    assert lines[at + 3] == '    reason: /invoice_id: "4211" does not match "^INV-[0-9]{6}$"'
    assert lines[at + 4].startswith('    model view: {"error": "rejected: /invoice_id:')
    assert lines[at + 5] == "    omitted from the model: candidate, tool"
    assert len(lines) < 30 and '"candidate"' not in done.stdout  # the evidence stays in --format json


def test_config_schema_fail_on_names_every_outcome_and_severity():
    from toolcontract.core.model import Outcome, Severity
    from toolcontract.core.schema.bundled import load_schema

    table = load_schema("config.schema.json")["properties"]["assess"]["properties"]
    assert set(table["fail-on"]["items"]["enum"]) == {o.value for o in Outcome} | {s.label for s in Severity}
