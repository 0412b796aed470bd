"""The command line, through Typer's runner and as a real process.

Exit codes (DESIGN §5): 0 clean, 1 findings at or above --fail-on, 2 the job
could not be done as asked, always with one line on stderr and never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import (
    BAD_DIR,
    EXPECTED_RULES,
    GOOD_DIR,
    REPO,
    TEXT_LINE,
    TEXT_MORE,
    TEXT_SUMMARY,
    TEXT_TALLY,
    TEXT_TOOL,
    UNSAFE_OUTPUT,
    assert_one_line_error,
    good_fixtures,
    good_tool_count,
    has_module,
)
from toolcontract.cli import app

WARNING_ONLY = BAD_DIR / "TC103-version-missing.yaml"  # one warning, nothing else
ERROR_FILE = BAD_DIR / "TC101-name-format.yaml"  # one error
MIXED = """\
toolcontract: 1
name: Run
effect: read
"""  # TC101 (error), TC102 (warning), TC103 (warning), TC201 (error), TC202 (warning)


def run(runner, *args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    # a crash inside the command shows up as an exception other than SystemExit
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def findings_of(result) -> list[dict]:
    return json.loads(result.stdout)["findings"]


def rules_of(result) -> set[str]:
    return {f["rule"] for f in findings_of(result)}


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "mixed.yaml"
    path.write_text(MIXED)
    return path


# ------------------------------------------------------------------ exit codes


def test_clean_folder_exits_0(runner):
    result = run(runner, "lint", GOOD_DIR, "--format", "text")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{len(good_fixtures())} files, {good_tool_count()} tools: 0 errors, 0 warnings, 0 info"]


def test_errors_exit_1(runner):
    assert run(runner, "lint", ERROR_FILE).exit_code == 1


def test_warnings_alone_exit_0_by_default(runner):
    result = run(runner, "lint", WARNING_ONLY, "--format", "text")
    assert result.exit_code == 0
    assert " warning TC103 " in result.stdout


@pytest.mark.parametrize(("fail_on", "code"), [("error", 0), ("warning", 1), ("info", 1)])
def test_fail_on_with_warnings(runner, fail_on, code):
    assert run(runner, "lint", WARNING_ONLY, "--fail-on", fail_on).exit_code == code


@pytest.mark.parametrize("fail_on", ["error", "warning", "info"])
def test_fail_on_clean_is_0(runner, fail_on):
    assert run(runner, "lint", GOOD_DIR, "--fail-on", fail_on).exit_code == 0


def test_exit_zero(runner):
    assert run(runner, "lint", ERROR_FILE, "--exit-zero").exit_code == 0


def test_whole_fixture_tree_fails(runner):
    result = run(runner, "lint", REPO / "fixtures" / "descriptors", "--format", "json")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)["summary"]
    assert summary["files"] == len(list(GOOD_DIR.iterdir())) + len(list(BAD_DIR.iterdir()))


# ------------------------------------------------------------ select / ignore


def test_select_a_prefix(runner, mixed):
    assert rules_of(run(runner, "lint", mixed, "--format", "json", "--select", "TC1")) == {"TC101", "TC102", "TC103"}


def test_select_ids_comma_separated_and_repeated(runner, mixed):
    result = run(runner, "lint", mixed, "--format", "json", "--select", "TC101,TC201", "--select", "tc202")
    assert rules_of(result) == {"TC101", "TC201", "TC202"}


def test_ignore_a_prefix(runner, mixed):
    assert rules_of(run(runner, "lint", mixed, "--format", "json", "--ignore", "TC1")) == {"TC201", "TC202"}


def test_longest_prefix_wins(runner, mixed):
    # select TC1, but ignore TC10 except TC101: the longest matching prefix decides (as flake8)
    result = run(runner, "lint", mixed, "--format", "json", "--select", "TC1,TC101", "--ignore", "TC10")
    assert rules_of(result) == {"TC101"}
    # ignore TC1 but select TC102 back
    result = run(runner, "lint", mixed, "--format", "json", "--ignore", "TC1", "--select", "TC102,TC2")
    assert rules_of(result) == {"TC102", "TC201", "TC202"}


def test_ignore_wins_a_tie(runner, mixed):
    assert rules_of(run(runner, "lint", mixed, "--format", "json", "--select", "TC101", "--ignore", "TC101")) == set()


def test_ignored_errors_do_not_fail(runner):
    assert run(runner, "lint", ERROR_FILE, "--ignore", "TC101").exit_code == 0


def test_ignore_tc000_does_not_hide_a_file_that_does_not_parse(runner, tmp_path):
    # as ruff reports syntax errors whatever is selected (issue 13): a file not read is never silent
    (tmp_path / "broken.yaml").write_text("name: [x\n")
    result = run(runner, "lint", tmp_path, "--format", "json", "--ignore", "TC000")
    assert result.exit_code == 1 and rules_of(result) == {"TC000"}


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_unknown_prefix_is_usage_error(runner, option):
    result = run(runner, "lint", GOOD_DIR, option, "XX9")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert "XX9" in result.stderr and result.stdout == ""


# ---------------------------------------------------------------- json format


def test_json_format_has_exactly_the_documented_shape(runner, mixed):
    result = run(runner, "lint", mixed, "--format", "json")
    document = json.loads(result.stdout)
    assert set(document) == {"version", "findings", "summary"}
    assert document["version"] == 1
    assert set(document["summary"]) == {"files", "tools", "error", "warning", "info", "skipped"}
    assert document["summary"] == {"files": 1, "tools": 1, "error": 2, "warning": 3, "info": 0, "skipped": 0}
    assert list(document["findings"][0]) == ["path", "line", "column", "rule", "name", "severity", "message", "tool", "pointer"]
    for finding in document["findings"]:
        assert set(finding) == {"path", "line", "column", "rule", "name", "severity", "message", "tool", "pointer"}
        assert finding["path"] == str(mixed)
        assert isinstance(finding["line"], int) and finding["line"] >= 1
        assert isinstance(finding["column"], int) and finding["column"] >= 1
        assert finding["rule"] in EXPECTED_RULES
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", finding["name"])
        assert finding["severity"] in ("error", "warning", "info")
        assert isinstance(finding["message"], str) and finding["message"]
        assert finding["tool"] == "Run"
        assert finding["pointer"] == "" or finding["pointer"].startswith("/")


def test_json_findings_are_sorted(runner):
    result = run(runner, "lint", BAD_DIR, "--format", "json")
    keys = [(f["path"], f["line"], f["column"], f["rule"]) for f in findings_of(result)]
    assert keys == sorted(keys)


def test_json_name_finding_points_at_the_name(runner, mixed):
    (finding,) = [f for f in findings_of(run(runner, "lint", mixed, "--format", "json")) if f["rule"] == "TC101"]
    assert (finding["line"], finding["column"], finding["pointer"]) == (2, 7, "/name")


def test_json_tool_is_null_for_file_findings(runner, tmp_path):
    (tmp_path / "broken.yaml").write_text("name: [x\n")
    (finding,) = findings_of(run(runner, "lint", tmp_path, "--format", "json"))
    assert finding["tool"] is None and finding["pointer"] == "" and finding["rule"] == "TC000"


# ---------------------------------------------------------------- text format


def test_text_format_lines(runner, mixed):
    result = run(runner, "lint", mixed, "--format", "text")
    lines = result.stdout.splitlines()
    assert TEXT_SUMMARY.match(lines[-1]), lines[-1]
    assert lines[-1] == "1 file, 1 tool: 2 errors, 3 warnings, 0 info"
    assert TEXT_TALLY.match(lines[-2]), lines[-2]
    parsed = [TEXT_LINE.match(line) for line in lines[:-2]]
    assert all(parsed), lines
    assert {m["rule"] for m in parsed} == {"TC101", "TC102", "TC103", "TC201", "TC202"}
    assert all(m["path"] == str(mixed) for m in parsed)
    assert all(TEXT_TOOL.match(m["message"])["tool"] == "Run" for m in parsed)  # each names its tool
    assert any(m["rule"] == "TC101" and (m["line"], m["column"], m["severity"]) == ("2", "7", "error") for m in parsed)


def test_text_is_the_default_when_not_a_terminal(runner, mixed):
    assert run(runner, "lint", mixed).stdout == run(runner, "lint", mixed, "--format", "text").stdout


def test_text_and_json_agree(runner):
    """Text shows json's findings in order, but at most 10 of one rule in one file: one line after
    the file's findings counts the rest (json keeps every finding)."""
    text = run(runner, "lint", BAD_DIR, "--format", "text").stdout.splitlines()[:-2]
    data = findings_of(run(runner, "lint", BAD_DIR, "--format", "json"))
    expected, seen, more = [], {}, {}
    for f in data:
        key = (f["path"], f["rule"])
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 10:
            more[key] = more.get(key, 0) + 1
            continue
        if expected and not expected[-1].startswith(f["path"] + ":"):  # a file ends: its counts of the rest
            expected += [f"{p}: ... and {n} more {r} in this file" for (p, r), n in sorted(more.items())]
            more = {}
        tool = "" if f["tool"] is None else f"[{f['tool']}] "
        expected.append(f"{f['path']}:{f['line']}:{f['column']}: {f['severity']} {f['rule']} {tool}{f['message']}")
    expected += [f"{p}: ... and {n} more {r} in this file" for (p, r), n in sorted(more.items())]
    assert text == expected
    assert any(TEXT_MORE.match(line) for line in text)  # TC609's fixture has 200 TC601 findings


# ------------------------------------------------------------- usage failures


def test_missing_path_is_exit_2_with_one_line(runner, tmp_path):
    missing = tmp_path / "nope.yaml"
    result = run(runner, "lint", GOOD_DIR, missing)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.strip() == f"{missing}:1:1: no such file or directory"
    assert result.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "--bogus", "x"],
        ["lint", "--fail-on", "bogus", "x"],
        ["lint", "--format", "xml", "x"],
        ["lint"],
        ["frobnicate"],
        ["rules", "TC999"],
        ["rules", "TC101", "extra"],
    ],
    ids=lambda a: " ".join(a) or "nothing",
)
def test_bad_usage_is_exit_2_with_one_line(runner, args):
    result = run(runner, *args)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stdout == ""
    assert "Usage:" not in result.stderr


def test_not_a_regular_file(runner):
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    result = run(runner, "lint", "/dev/null")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)


def test_unparseable_file_among_good_ones(runner, tmp_path):
    for path in good_fixtures():
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "broken.yaml").write_text("toolcontract: 1\nname: weather_current\neffect: [read\n")
    (tmp_path / "broken.json").write_text('{"toolcontract": 1,\n "name": }')
    result = run(runner, "lint", tmp_path, "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    by_file = {(os.path.basename(f["path"]), f["rule"], f["line"]) for f in document["findings"]}
    assert by_file == {("broken.yaml", "TC000", 4), ("broken.json", "TC000", 2)}
    assert document["summary"]["files"] == len(good_fixtures()) + 2
    assert document["summary"]["tools"] == good_tool_count()  # every good descriptor was still read


def test_stdin(runner):
    result = run(runner, "lint", "-", "--format", "text", input=MIXED)
    assert result.exit_code == 1
    assert result.stdout.startswith("<stdin>:")


def test_same_file_twice_is_linted_once(runner):
    result = run(runner, "lint", ERROR_FILE, ERROR_FILE, "--format", "json")
    assert json.loads(result.stdout)["summary"]["files"] == 1


def test_folders_skip_hidden_and_other_files(runner, tmp_path):
    shutil.copy(ERROR_FILE, tmp_path / "bad.yaml")
    (tmp_path / "notes.txt").write_text("name: [x\n")
    (tmp_path / ".hidden.yaml").write_text("name: [x\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.yaml").write_text("name: [x\n")
    result = run(runner, "lint", tmp_path, "--format", "json")
    assert json.loads(result.stdout)["summary"]["files"] == 1


def test_version(runner):
    result = run(runner, "--version")
    assert result.exit_code == 0 and result.stdout.startswith("toolcontract ")


# ---------------------------------------------------------------------- rules


def test_rules_lists_every_rule(runner):
    result = run(runner, "rules", "--format", "text")
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines() if line.strip()]
    assert set(EXPECTED_RULES) <= set(listed)


def test_rules_json(runner):
    result = run(runner, "rules", "--format", "json")
    entries = json.loads(result.stdout)
    assert {e["id"] for e in entries} >= set(EXPECTED_RULES)
    assert all({"id", "name", "severity", "summary", "rationale", "examples"} <= set(e) for e in entries)


def test_rules_shows_one_rule(runner):
    from toolcontract.lint.engine import all_rules

    rules = all_rules()
    if "TC403" not in rules:
        pytest.skip("TC403 is not registered yet (toolcontract/lint/rules/tc4_schema/)")
    rule = rules["TC403"]
    result = run(runner, "rules", "TC403", "--format", "text")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith(f"TC403 {rule.name} (warning)")
    assert rule.summary in out
    assert " ".join(rule.rationale.split()[:6]) in " ".join(out.split())
    assert "Bad (hits line" in out and "Good" in out
    bad, good = rule.bad_examples[0], rule.good_examples[0]
    assert bad.text.splitlines()[0] in out and good.text.splitlines()[-1] in out


@pytest.mark.parametrize("key", ["tc101", "name-format", "TC101"])
def test_rules_by_id_or_name(runner, key):
    result = run(runner, "rules", key, "--format", "text")
    assert result.exit_code == 0 and result.stdout.startswith("TC101 name-format (error)")


def test_rules_rich_does_not_eat_example_brackets(runner):
    # examples are YAML with [flow, lists]: rich must print them, not read them as markup
    result = run(runner, "rules", "TC202", "--format", "rich")
    assert "non_goals: []" in result.stdout


# ------------------------------------------------- hostile strings in output

HOSTILE = (
    'toolcontract: 1\n'
    'name: "evil\\e[31mred\\e]0;pwned\\a[bold]x[/bold]\\u202eevil\\u200b"\n'
    'effect: read\n'
    'limitations: "\\e[2J[red]cleared[/red]"\n'
)


@pytest.fixture
def hostile(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["text", "rich"])
def test_control_characters_and_markup_never_reach_the_terminal(runner, hostile, fmt):
    if fmt == "rich" and not has_module("toolcontract.report.rich"):
        pytest.skip("toolcontract/report/rich.py is not written yet")
    result = run(runner, "lint", hostile, "--format", fmt)
    assert result.exit_code == 1
    out = result.stdout
    assert "TC101" in out and "TC002" in out
    assert not UNSAFE_OUTPUT.search(out), [m.group() for m in UNSAFE_OUTPUT.finditer(out)]
    assert "\x1b" not in out
    # markup is printed literally, not interpreted
    assert "[bold]x[/bold]" in out
    if fmt == "rich":
        assert "[red]cleared[/red]" in out


def test_hostile_file_name(runner, tmp_path):
    path = tmp_path / "evil\x1b[31m[bold]\u202e.yaml"
    path.write_text("toolcontract: 1\nname: Bad-Name\neffect: read\n")
    for fmt in ("text", "rich") if has_module("toolcontract.report.rich") else ("text",):
        out = run(runner, "lint", tmp_path, "--format", fmt).stdout
        assert "TC101" in out
        assert not UNSAFE_OUTPUT.search(out), fmt
        assert "[bold]" in out


def test_json_output_escapes_control_characters(runner, hostile):
    out = run(runner, "lint", hostile, "--format", "json").stdout
    assert "\x1b" not in out and "\x07" not in out
    json.loads(out)


# ------------------------------------------------------- real processes


def _process(*args, stdin=None, cwd=REPO):
    return subprocess.run(
        [sys.executable, "-m", "toolcontract", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, input=stdin, timeout=60,
        env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1"},
    )


def test_process_clean_run():
    done = _process("lint", "fixtures/descriptors/good")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.splitlines() == [f"{len(good_fixtures())} files, {good_tool_count()} tools: 0 errors, 0 warnings, 0 info"]


def test_process_findings():
    done = _process("lint", "fixtures/descriptors/bad", "--format", "text")
    assert done.returncode == 1
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert all(TEXT_LINE.match(line) or TEXT_MORE.match(line) for line in lines[:-2])
    assert not any(TEXT_LINE.match(line) for line in lines if TEXT_MORE.match(line))
    assert TEXT_TALLY.match(lines[-2])
    assert TEXT_SUMMARY.match(lines[-1])


@pytest.mark.parametrize(
    "args",
    [["lint", "does/not/exist.yaml"], ["lint", "--bogus", "x"], ["lint", "--select", "NOPE", "."], ["rules", "TC999"]],
    ids=lambda a: " ".join(a),
)
def test_process_usage_errors_are_one_line(args):
    done = _process(*args)
    assert done.returncode == 2
    assert_one_line_error(done.stderr)
    assert done.stdout == ""


def test_process_missing_path_names_the_path():
    done = _process("lint", "fixtures/descriptors/good", "does/not/exist.yaml")
    assert done.returncode == 2
    assert done.stderr == "does/not/exist.yaml:1:1: no such file or directory\n"


def test_process_stdin_garbage():
    done = _process("lint", "-", "--format", "text", stdin="\x00\x01 ]][[ :::\n")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    assert " TC000 " in done.stdout


def test_process_no_arguments_prints_help():
    done = _process()
    assert done.returncode in (0, 2)
    assert "Traceback" not in done.stderr
    assert "lint" in done.stdout


def test_process_no_arguments_has_no_empty_error_line():
    done = _process()
    assert done.stderr.strip() != "toolcontract:"
