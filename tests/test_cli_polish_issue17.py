"""Issue 17, deliver 2, 4 and 8 (part): `init`, lint's and diff's output controls (--statistics, -q,
--max-warnings, -o's format from its extension, GitHub annotations under GitHub Actions), rule names
wherever ids go, `rules TC8` and did-you-mean, --help without Typer's metavars, the rich rules table's
escaping, convert's one line per tool. Everything through the real command line, on real files."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from conftest import REPO, assert_one_line_error, has_module, run_cli

FINDING = re.compile(r"^[^:]+:\d+:\d+: (error|warning|info) TC\d{3} ")

# two descriptors: an open root object each (TC403, warning), the first without a purpose (TC201, error)
OPEN = """\
toolcontract: 1
name: weather_current
version: 1.0.0
{purpose}non_goals: [Does not forecast.]
effect: read
input_schema:
  type: object
  properties:
    place: {{type: string, description: A place.}}
"""


@pytest.fixture
def two_files(tmp_path):
    (tmp_path / "a.yaml").write_text(OPEN.format(purpose=""))
    (tmp_path / "b.yaml").write_text(OPEN.format(purpose="purpose: Report the weather at one place.\n")
                                     .replace("weather_current", "weather_now"))
    return tmp_path


SELECT = ("--select", "TC201,TC403", "--no-cache", "--no-config")


# ----------------------------------------------------------------- output controls


@pytest.mark.parametrize("fast", ["1", "0"], ids=["fast-parser", "typer"])
def test_statistics_count_per_rule_most_first(two_files, fast):
    done = run_cli("lint", "a.yaml", "b.yaml", *SELECT, "--statistics", cwd=two_files,
                   env={"TOOLCONTRACT_FAST_CLI": fast})
    assert done.stdout.splitlines() == ["  2  TC403  additional-properties-open", "  1  TC201  purpose-missing"]
    assert done.returncode == 1  # TC201 is an error: --statistics changes the output, not the exit code


def test_statistics_with_o_writes_the_report_and_prints_the_table(two_files):
    done = run_cli("lint", "a.yaml", "b.yaml", *SELECT, "--statistics", "-o", "report.sarif", cwd=two_files)
    assert done.stdout.splitlines()[0] == "  2  TC403  additional-properties-open"
    sarif = json.loads((two_files / "report.sarif").read_text())
    assert sarif["version"] == "2.1.0" and len(sarif["runs"][0]["results"]) == 3


def test_statistics_refuses_a_machine_format_on_the_terminal(two_files):
    done = run_cli("lint", "a.yaml", *SELECT, "--statistics", "--format", "json", cwd=two_files)
    assert done.returncode == 2 and done.stdout == ""
    assert_one_line_error(done.stderr)
    assert done.stderr.startswith("toolcontract: --statistics prints a table, not json")


@pytest.mark.parametrize("fast", ["1", "0"], ids=["fast-parser", "typer"])
def test_quiet_prints_the_findings_only(two_files, fast):
    done = run_cli("lint", "a.yaml", "b.yaml", *SELECT, "-q", cwd=two_files, env={"TOOLCONTRACT_FAST_CLI": fast})
    lines = done.stdout.splitlines()
    assert lines == [
        "a.yaml:1:1: error TC201 [weather_current] no `purpose`: say in one sentence what the tool is for",
        "a.yaml:7:3: warning TC403 [weather_current] the object at the root does not set `additionalProperties: "
        "false`: any extra property a model invents is accepted",
        "b.yaml:8:3: warning TC403 [weather_now] the object at the root does not set `additionalProperties: "
        "false`: any extra property a model invents is accepted",
    ]
    assert done.returncode == 1
    clean = run_cli("lint", "b.yaml", "--select", "TC201", "--no-config", "--quiet", cwd=two_files)
    assert (clean.returncode, clean.stdout, clean.stderr) == (0, "", "")  # no "All clean" either


def test_quiet_leaves_no_finding_out(tmp_path):
    # text shows 10 findings of one rule per file, then counts the rest; -q shows them all
    props = "".join(f"    p{i}: {{type: object, properties: {{x: {{type: string, description: X.}}}}, "
                    f"description: P.}}\n" for i in range(12))
    (tmp_path / "m.yaml").write_text(OPEN.format(purpose="purpose: P.\n").replace(
        "    place: {type: string, description: A place.}\n", props))
    done = run_cli("lint", "m.yaml", "--select", "TC403", "--no-config", "-q", cwd=tmp_path)
    assert len(done.stdout.splitlines()) == 13 and all(FINDING.match(line) for line in done.stdout.splitlines())


def test_max_warnings(two_files):
    args = ("lint", "b.yaml", "a.yaml", "--select", "TC403", "--no-config", "-q")
    assert run_cli(*args, "--max-warnings", "2", cwd=two_files).returncode == 0
    over = run_cli(*args, "--max-warnings", "1", cwd=two_files)
    assert over.returncode == 1
    assert over.stderr == "toolcontract: 2 warnings, more than --max-warnings 1\n"
    assert len(over.stdout.splitlines()) == 2
    assert run_cli(*args, "--max-warnings", "1", "--exit-zero", cwd=two_files).returncode == 0
    bad = run_cli(*args, "--max-warnings", "-1", cwd=two_files)
    assert bad.returncode == 2
    assert_one_line_error(bad.stderr)


@pytest.mark.parametrize(("name", "check"), [
    ("out.sarif", lambda text: json.loads(text)["version"] == "2.1.0"),
    ("out.SARIF", lambda text: json.loads(text)["version"] == "2.1.0"),
    ("out.xml", lambda text: text.startswith("<?xml") and "<testsuites" in text),
    ("out.json", lambda text: "findings" in json.loads(text)),
    ("out.txt", lambda text: "findings" in json.loads(text)),  # no format of its own: json, as before
])
def test_output_format_follows_the_extension(two_files, name, check):
    done = run_cli("lint", "a.yaml", *SELECT, "-o", name, cwd=two_files)
    assert done.returncode == 1
    assert check((two_files / name).read_text())
    assert FINDING.match(done.stdout.splitlines()[0])  # the terminal: the default format (text, not a tty)


def test_format_wins_over_the_extension(two_files):
    run_cli("lint", "a.yaml", *SELECT, "-o", "out.sarif", "--format", "text", cwd=two_files)
    assert FINDING.match((two_files / "out.sarif").read_text().splitlines()[0])


def test_github_annotations_by_default_under_github_actions(two_files):
    done = run_cli("lint", "a.yaml", *SELECT, "-o", "out.sarif", cwd=two_files, env={"GITHUB_ACTIONS": "true"})
    assert done.stdout.splitlines()[0].startswith("::error file=a.yaml,line=1,col=1,title=TC201 purpose-missing")
    assert all(line.startswith("::") for line in done.stdout.splitlines())
    assert json.loads((two_files / "out.sarif").read_text())["version"] == "2.1.0"
    chosen = run_cli("lint", "a.yaml", *SELECT, "--format", "text", cwd=two_files, env={"GITHUB_ACTIONS": "true"})
    assert FINDING.match(chosen.stdout.splitlines()[0])
    elsewhere = run_cli("lint", "a.yaml", *SELECT, cwd=two_files, env={"GITHUB_ACTIONS": "false"})
    assert FINDING.match(elsewhere.stdout.splitlines()[0])


def test_diff_takes_the_output_controls(tmp_path):
    old, new = REPO / "fixtures" / "diff" / "old", REPO / "fixtures" / "diff" / "new"
    done = run_cli("diff", old, new, "-o", "toolcontract.sarif", "--statistics", cwd=tmp_path)
    assert done.returncode == 1
    sarif = json.loads((tmp_path / "toolcontract.sarif").read_text())
    counts = {}
    for result in sarif["runs"][0]["results"]:
        counts[result["ruleId"]] = counts.get(result["ruleId"], 0) + 1
    expected = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    assert [line.split()[:2] for line in done.stdout.splitlines()] == [[str(n), rule] for rule, n in expected]
    quiet = run_cli("diff", old, new, "-q", cwd=tmp_path)
    assert quiet.stdout and all(FINDING.match(line) for line in quiet.stdout.splitlines())
    assert run_cli("diff", old, new, "--exit-zero", "-q", cwd=tmp_path).returncode == 0


# ----------------------------------------------------------------- rules by name, families, typos


def test_rule_names_select_and_ignore_as_ids_do(two_files):
    by_name = run_cli("lint", "a.yaml", "--no-config", "--select", "additional-properties-open,purpose-missing", "-q",
                      cwd=two_files)
    by_id = run_cli("lint", "a.yaml", "--no-config", "--select", "TC403,TC201", "-q", cwd=two_files)
    assert by_name.stdout == by_id.stdout and by_name.stdout.count("\n") == 2
    ignored = run_cli("lint", "a.yaml", "--no-config", "--select", "TC201,TC403", "--ignore", "purpose-missing", "-q",
                      cwd=two_files)
    assert [line.split()[2] for line in ignored.stdout.splitlines()] == ["TC403"]


def test_a_mistyped_rule_name_suggests_the_closest(two_files):
    done = run_cli("lint", "a.yaml", "--no-config", "--select", "additonal-properties-open", cwd=two_files)
    assert done.returncode == 2
    assert done.stderr == ("toolcontract: 'additonal-properties-open' matches no rule: did you mean "
                           "additional-properties-open (TC403)?\n")
    zero = run_cli("lint", "a.yaml", "--no-config", "--ignore", "TC4O3", cwd=two_files)
    assert "did you mean additional-properties-open (TC403)?" in zero.stderr and zero.returncode == 2


def test_config_takes_rule_names(two_files):
    (two_files / ".toolcontract.yaml").write_text("select: [TC2, additional-properties-open]\nignore: [non-goals-missing, TC203]\n"
                                                  "severity:\n  additional-properties-open: error\n")
    done = run_cli("lint", "a.yaml", "--no-cache", "-q", cwd=two_files)
    assert [line.split()[1:3] for line in done.stdout.splitlines()] == [["error", "TC201"], ["error", "TC403"]]


def test_config_names_an_unknown_rule_at_its_line(two_files):
    (two_files / ".toolcontract.yaml").write_text("select: [TC2]\nignore:\n  - TC102\n  - purpose-mising\n")
    done = run_cli("lint", "a.yaml", cwd=two_files)
    assert done.returncode == 2
    assert done.stderr.endswith(".toolcontract.yaml:4:5: ignore/1: no rule is named 'purpose-mising': did you mean "
                                "purpose-missing (TC201)?\n")


def test_rules_lists_a_family():
    from toolcontract.assessment.rules import RULES

    done = run_cli("rules", "TC8", "--format", "text")
    assert done.returncode == 0
    assert [line.split()[0] for line in done.stdout.splitlines()] == list(RULES)
    assert run_cli("rules", "tc40", "--format", "text").stdout.splitlines()[0].startswith("TC401  schema-invalid ")


def test_rules_suggests_the_closest_rule():
    done = run_cli("rules", "additonal-properties-open")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("toolcontract: no rule 'additonal-properties-open': did you mean additional-properties-open "
                           "(TC403)? (`toolcontract rules` lists them)\n")
    far = run_cli("rules", "TC999x")
    assert far.returncode == 2 and "did you mean" not in far.stderr


def test_the_rich_rules_table_shows_brackets():
    done = run_cli("rules", "--format", "rich", env={"COLUMNS": "400"})
    assert "`# toolcontract: ignore[...]` comment" in done.stdout  # TC009's summary
    assert "`^[A-Za-z_][A-Za-z0-9_]{0,63}$`" in done.stdout  # TC502's


# ----------------------------------------------------------------- --help


@pytest.mark.parametrize("command", ["lint", "assess", "diff", "lock", "convert", "rules", "init"])
def test_help_shows_names_and_choices_not_typer_types(command):
    done = run_cli(command, "--help", env={"COLUMNS": "100"})
    assert done.returncode == 0
    assert not re.search(r"<(bool|str|int|float|list\[\w+\]|int range|float range)>", done.stdout), done.stdout
    if command in ("lint", "diff"):
        assert re.search(r"^  --exit-zero +Exit 0", done.stdout, re.M)  # a flag: no value after it
        assert "--fail-on [error|warning|info]" in done.stdout
        assert "--format [rich|text|json|sarif|github|junit]" in done.stdout


def test_a_flag_takes_no_value(two_files):
    # `--exit-zero true`: a flag, then a path named "true" (the help no longer suggests it takes a value)
    done = run_cli("lint", "--exit-zero", "true", "a.yaml", "--no-config", cwd=two_files)
    assert done.returncode == 2
    assert done.stderr == "true:1:1: no such file or directory\n"


def test_input_formats_in_the_help_are_the_readers():
    from toolcontract.cli.options import INPUT_FORMATS
    from toolcontract.io.reader import FORMATS

    assert INPUT_FORMATS == FORMATS


# ----------------------------------------------------------------- convert


def test_convert_says_one_line_per_tool(tmp_path):
    source = REPO / "fixtures" / "descriptors" / "good" / "document_update_metadata.yaml"
    done = run_cli("convert", source, "--to", "gemini", "-o", "out.json", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == (f"{source}: warning: tool document_update_metadata: Gemini cannot hold 12 fields as given: "
                           "version, purpose, when_to_use, non_goals, effect, limitations, target, semantic_rules, "
                           "approval, observation, annotations, examples (-v says why, field by field)\n")
    assert run_cli("convert", source, "--to", "gemini", "-q", "-o", "q.json", cwd=tmp_path).stderr == ""
    verbose = run_cli("convert", source, "--to", "gemini", "-v", "-o", "v.json", cwd=tmp_path)
    assert len(verbose.stderr.splitlines()) == 12
    assert (tmp_path / "out.json").read_text() == (tmp_path / "q.json").read_text() == (tmp_path / "v.json").read_text()


# ----------------------------------------------------------------- init


def test_init_writes_a_yaml_config_that_lint_finds(tmp_path):
    from toolcontract.core.schema.bundled import load_schema
    from toolcontract.io.config import find_config, load_config

    done = run_cli("init", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, ".toolcontract.yaml: written (every key, each with a comment)\n")
    config = tmp_path / ".toolcontract.yaml"
    text = config.read_text()
    for key in load_schema("config.schema.json")["properties"]:  # every key, under a comment
        assert re.search(rf"^# .+\n(# )?{re.escape(key)}: ", text, re.M), key
    assert find_config(tmp_path) == str(config)
    loaded = load_config(config)
    assert (loaded.select, loaded.fail_on, loaded.contracts) == (("ALL",), "error", "optional")
    (tmp_path / "a.yaml").write_text(OPEN.format(purpose=""))
    linted = run_cli("lint", "-q", "--no-cache", cwd=tmp_path)  # no paths: the configuration's folder
    assert linted.returncode == 1 and "a.yaml:1:1: error TC201 " in linted.stdout
    again = run_cli("init", cwd=tmp_path)
    assert again.returncode == 2 and again.stderr == (".toolcontract.yaml:1:1: a configuration is already here; "
                                                      "init never overwrites a file\n")
    assert config.read_text() == text


@pytest.mark.parametrize("original", ['[project]\nname = "x"\n', '[project]\nname = "x"  # no newline at the end',
                                      '[tool.ruff]\nline-length = 100\n'])
def test_init_appends_to_pyproject_and_keeps_the_rest(tmp_path, original):
    import tomllib

    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_bytes(original.encode())
    done = run_cli("init", cwd=tmp_path)
    assert done.stdout == "pyproject.toml: [tool.toolcontract] appended (every key, each with a comment)\n"
    written = pyproject.read_bytes()
    assert written.startswith(original.encode())
    assert tomllib.loads(written.decode())["tool"]["toolcontract"]["select"] == ["ALL"]
    assert not (tmp_path / ".toolcontract.yaml").exists()
    from toolcontract.io.config import find_config

    assert find_config(tmp_path) == str(pyproject)
    again = run_cli("init", cwd=tmp_path)
    assert again.returncode == 2 and "[tool.toolcontract] is already here" in again.stderr
    assert pyproject.read_bytes() == written


def test_init_refuses_a_pyproject_it_cannot_extend(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('tool = {ruff = {line-length = 100}}\n')
    done = run_cli("init", cwd=tmp_path)
    assert done.returncode == 2
    assert_one_line_error(done.stderr)
    assert done.stderr.startswith("pyproject.toml:1:1: a [tool.toolcontract] table cannot be appended here")
    assert pyproject.read_text() == 'tool = {ruff = {line-length = 100}}\n'


MCP_TOOLS = {"tools": [
    {"name": "note_search", "description": "Search notes.", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": True}},
    {"name": "note_delete", "description": "Delete a note.", "inputSchema": {"type": "object"},
     "annotations": {"destructiveHint": True}},
    {"name": "note_send", "description": "Send a note.", "inputSchema": {"type": "object"}},
]}


def test_init_overlay_writes_a_skeleton_that_lint_pairs_and_holds_to_its_todos(tmp_path):
    (tmp_path / "tools.json").write_text(json.dumps(MCP_TOOLS, indent=2))
    done = run_cli("init", "--overlay", "tools.json", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "tools.contract.yaml: written: 3 tools of tools.json, TODO for "
                                                 "purpose and non-goals\n")
    text = (tmp_path / "tools.contract.yaml").read_text()
    assert '    effect: read  # from the MCP annotations (readOnlyHint)\n' in text
    assert '    effect: irreversible_write  # from the MCP annotations (destructiveHint)\n' in text
    assert text.count("# effect: TODO, one of pure, read,") == 1  # note_send: no annotations, nothing to derive
    lines = text.splitlines()
    linted = run_cli("lint", "tools.json", "--select", "TC201,TC202,TC301", "--no-config", "--no-cache", "-q",
                     cwd=tmp_path)
    found = [(line.split(":")[0], int(line.split(":")[1]), line.split()[2], line.split()[3]) for line in
             linted.stdout.splitlines()]
    todo_purposes = [n for n, line in enumerate(lines, 1) if line.startswith("    purpose: \"TODO")]
    todo_goals = [n for n, line in enumerate(lines, 1) if line.startswith("      - \"TODO")]
    assert sorted(n for path, n, rule, _ in found if rule == "TC201") == todo_purposes
    assert sorted(n for path, n, rule, _ in found if rule == "TC202") == todo_goals
    assert {path for path, *_ in found if path != "tools.json"} == {"tools.contract.yaml"}
    assert [tool for _, _, rule, tool in found if rule == "TC301"] == ["[note_send]"]  # the only effect to choose
    assert "purpose` is still a TODO placeholder" in linted.stdout
    again = run_cli("init", "--overlay", "tools.json", cwd=tmp_path)
    assert again.returncode == 2 and again.stderr == "tools.contract.yaml:1:1: already exists; init never overwrites a file\n"
    assert (tmp_path / "tools.contract.yaml").read_text() == text


def test_init_overlay_refuses_a_native_file_and_a_missing_one(tmp_path):
    (tmp_path / "a.yaml").write_text(OPEN.format(purpose=""))
    native = run_cli("init", "--overlay", "a.yaml", cwd=tmp_path)
    assert native.returncode == 2 and native.stderr.startswith("a.yaml:1:1: a native descriptor file: ")
    missing = run_cli("init", "--overlay", "nope.json", cwd=tmp_path)
    assert missing.returncode == 2
    assert_one_line_error(missing.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]


def _server(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))


@pytest.mark.skipif(not has_module("mcp") or _server("mcp-server-time") is None, reason="needs mcp-server-time")
def test_init_from_a_live_server_saves_its_list_and_the_skeleton(tmp_path):
    done = run_cli("init", "--mcp-stdio", _server("mcp-server-time"), "--mcp-timeout", "60", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    names = [tool["name"] for tool in json.loads((tmp_path / "tools.json").read_text())["tools"]]
    text = (tmp_path / "tools.contract.yaml").read_text()
    assert names and all(f'  "{name}":\n' in text for name in names)
    linted = run_cli("lint", "tools.json", "--select", "TC201", "--no-config", "--no-cache", "-q", cwd=tmp_path)
    assert linted.stdout.count("TC201") == len(names)
    again = run_cli("init", "--mcp-stdio", _server("mcp-server-time"), cwd=tmp_path)
    assert again.returncode == 2 and again.stderr == "tools.json:1:1: already exists; init never overwrites a file\n"
