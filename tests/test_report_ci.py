"""CI formats: SARIF 2.1.0 (validated against the official schema shipped in tests/data),
GitHub workflow commands (with hostile messages), JUnit XML (well-formed)."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import referencing
from typer.testing import CliRunner

from toolcontract.cli import app
from toolcontract.lint.engine import all_rules, lint_files, lint_text
from toolcontract.core.model import Finding, Severity
from toolcontract.report import lint_reporter
from toolcontract.report.github import annotation, escape_data, escape_property

ROOT = Path(__file__).resolve().parents[1]
SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
HOSTILE = "50% done\r\n::error file=x::injected, a:b\x1b[31m\u202e"


def _render(fmt: str, result) -> str:
    stream = io.StringIO()
    lint_reporter(fmt)(result, stream)
    return stream.getvalue()


def _bad_result():
    files = [(str(p.relative_to(ROOT)), p.read_bytes()) for p in sorted((ROOT / "fixtures" / "descriptors" / "bad").iterdir())]
    return lint_files(files)


def _sarif_validator():
    # draft-07 schema; an empty registry means no $ref is ever fetched
    return jsonschema.Draft7Validator(SARIF_SCHEMA, registry=referencing.Registry())


def test_sarif_is_valid_against_the_official_schema_and_lists_every_rule():
    result = _bad_result()
    document = json.loads(_render("sarif", result))
    errors = sorted(_sarif_validator().iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    run = document["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(all_rules())
    rule = run["tool"]["driver"]["rules"][0]
    assert rule["shortDescription"]["text"] and rule["help"]["text"].startswith(all_rules()[rule["id"]].rationale)
    assert len(run["results"]) == len(result.findings)
    first = run["results"][0]
    region = first["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (result.findings[0].line, result.findings[0].column)
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == first["ruleId"]


def test_sarif_with_hostile_paths_and_messages_stays_valid():
    finding = Finding("dir with space/ü%.yaml", 3, 4, "TC101", "name-format", Severity.ERROR, HOSTILE, "/name", "x")

    class Result:
        findings = [finding]
        files = tools = 1

    document = json.loads(_render("sarif", Result))
    assert not list(_sarif_validator().iter_errors(document))
    uri = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert " " not in uri and uri.startswith("dir%20with%20space/")
    assert "\x1b" not in json.dumps(document, ensure_ascii=False).replace("\\u001b", "")


def test_github_escapes_data_and_properties():
    assert escape_data("a%b\rc\nd") == "a%25b%0Dc%0Ad"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    line = annotation("error", "we,ird:path.yaml", 3, 4, "TC101 name-format", HOSTILE)
    assert line.count("\n") == 1 and line.endswith("\n")
    assert line.startswith("::error file=we%2Cird%3Apath.yaml,line=3,col=4,title=TC101 name-format::")
    message = line.split("::", 2)[2]
    assert "\r" not in message and "::error" not in message.replace("%0A::error", "")
    assert "50%25 done%0D%0A" in message


def test_github_format_one_command_per_finding():
    result = lint_text("toolcontract: 1\nname: Bad.Name\neffect: read\n", "x.yaml")
    out = _render("github", result)
    lines = out.splitlines()
    assert len(lines) == len(result.findings)
    assert all(re.match(r"^::(error|warning|notice) file=x\.yaml,line=\d+,col=\d+,title=TC\d{3} [a-z-]+ \[Bad\.Name\]::", l)
               for l in lines)


def test_junit_lint_is_well_formed_with_one_testcase_per_file():
    result = _bad_result()
    root = ET.fromstring(_render("junit", result))
    cases = root.findall(".//testcase")
    assert len(cases) == len({f.path for f in result.findings} | set(result.documents))
    assert int(root.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)


def test_junit_survives_control_characters():
    result = lint_text("toolcontract: 1\nname: \"a\\x01\\x1b[31mb\"\neffect: read\n", "x.yaml")
    ET.fromstring(_render("junit", result))  # parses: no raw control characters in XML


def test_cli_lint_formats_and_assess_junit():
    runner = CliRunner()
    for fmt in ("sarif", "github", "junit"):
        done = runner.invoke(app, ["lint", "fixtures/descriptors/bad/TC101-name-format.yaml", "--format", fmt])
        assert done.exit_code == 1, done.output
    done = runner.invoke(app, ["assess", "fixtures/invocations", "--format", "junit"])
    assert done.exit_code == 0, done.output
    root = ET.fromstring(done.output)
    assert int(root.get("tests")) >= 90 and root.get("failures") == "0"


def test_assess_junit_reports_each_unmet_expectation(tmp_path):
    fixture = tmp_path / "f.yaml"
    fixture.write_text("toolcontract: 1\ncases:\n  - id: a\n    candidate: {id: c1, name: nope, arguments: {}}\n"
                       "    context: {}\n    expect: {outcome: allowed}\n"
                       "  - id: b\n    candidate: {id: c2, name: nope, arguments: {}}\n"
                       "    context: {}\n    expect: {outcome: rejected, gate: registry}\n")
    done = CliRunner().invoke(app, ["assess", str(fixture), "--format", "junit"])
    assert done.exit_code == 1
    root = ET.fromstring(done.output)
    failures = root.findall(".//failure")
    assert len(failures) == 1 and "want outcome=allowed" in failures[0].get("message")
