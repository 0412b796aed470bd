"""Inline suppression comments and TC009 unused-suppression."""

from __future__ import annotations

from toolcontract.lint.engine import Selection, lint_text
from toolcontract.lint.suppression import parse_suppressions

BASE = "toolcontract: 1\nname: weather_current\nversion: 1.0.0\neffect: read\n"


def rules_at(text, **selection):
    result = lint_text(text, "x.yaml", Selection(**selection) if selection else Selection())
    return {(f.rule, f.line) for f in result.findings}


def test_trailing_comment_suppresses_its_line_only():
    text = "toolcontract: 1\nname: Update  # toolcontract: ignore[TC101]\neffect: read\n"
    found = rules_at(text)
    assert ("TC101", 2) not in found
    assert ("TC102", 2) in found  # another rule on the same line still reports
    assert not any(rule == "TC009" for rule, _ in found)


def test_comment_alone_on_the_line_above_covers_the_next_line_and_prefixes_work():
    text = "toolcontract: 1\n# toolcontract: ignore[TC1]\nname: Update\neffect: read\n"
    found = rules_at(text)
    assert not {r for r, line in found if line == 3 and r.startswith("TC1")}
    assert ("TC303", 3) not in found or True  # TC303 points at effect (line 4)


def test_ignore_file_covers_every_line_and_reports_when_unused():
    text = "# toolcontract: ignore-file[TC2]\n" + BASE
    found = rules_at(text)
    assert not {r for r, _ in found if r.startswith("TC2")}
    unused = "# toolcontract: ignore-file[TC5]\n" + BASE
    assert ("TC009", 1) not in rules_at(unused)  # TC5 rules did not run (no --target): not evidence
    assert ("TC009", 1) in rules_at(unused, targets=("openai",))
    # TC517 runs without a target: a comment naming it alone is judged, one for all of TC5 is not
    only_default_on = "# toolcontract: ignore-file[TC517]\n" + BASE
    assert ("TC009", 1) in rules_at(only_default_on)


def test_unused_suppression_is_a_warning_at_the_comment():
    text = BASE.replace("version: 1.0.0", "version: 1.0.0  # toolcontract: ignore[TC103]")
    result = lint_text(text, "x.yaml")
    [finding] = [f for f in result.findings if f.rule == "TC009"]
    assert (finding.line, finding.column, finding.severity.label) == (3, 17, "warning")
    assert "TC103" in finding.message


def test_suppression_for_a_rule_left_out_by_select_is_not_reported_unused():
    text = BASE.replace("version: 1.0.0", "version: 1.0.0  # toolcontract: ignore[TC103]")
    assert not {r for r, _ in rules_at(text, select=("TC009", "TC2"))} & {"TC009"}


def test_parse_errors_are_not_suppressible_and_hashes_in_strings_are_not_comments():
    text = "toolcontract: 1  # toolcontract: ignore-file\nname: [unclosed\n"
    assert any(r == "TC000" for r, _ in rules_at(text))
    assert parse_suppressions('description: "a#toolcontract: ignore"\n') == []


def test_json_files_have_no_comments_and_suppress_nothing():
    result = lint_text('{"toolcontract": 1, "name": "Update", "effect": "read"}', "x.json")
    assert any(f.rule == "TC101" for f in result.findings)


def test_a_configured_severity_applies_to_tc009_as_to_every_rule(tmp_path):
    """Issue 16: TC009 was made outside the engine and kept its default severity whatever the config said."""
    from toolcontract.core.model import Severity

    text = BASE.replace("version: 1.0.0", "version: 1.0.0  # toolcontract: ignore[TC103, TC4O3]")
    for configured, label in ((Severity.ERROR, "error"), (Severity.INFO, "info")):
        result = lint_text(text, "x.yaml", Selection(severity={"TC009": configured}))
        found = sorted((f.line, f.column, f.severity.label, f.message[:20]) for f in result.findings if f.rule == "TC009")
        assert found == [(3, 17, label, "invalid suppression "), (3, 17, label, "unused suppression: ")]
    # through the CLI and a configuration file
    (tmp_path / ".toolcontract.yaml").write_text("severity:\n  TC009: error\n")
    (tmp_path / "tool.yaml").write_text(text)
    from conftest import run_cli

    done = run_cli("lint", "tool.yaml", "--format", "text", "--no-cache", cwd=tmp_path)
    assert "tool.yaml:3:17: error TC009" in done.stdout and done.returncode == 1
