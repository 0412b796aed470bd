"""Issue 13, point 7: never silent about what was not read.

1. TC000, and TC002 on a file from which no tool could be read, are reported whatever the
   selection, config ignores, per-file ignores and inline suppressions say.
2. A run that reads no tool and finds nothing exits 2 with one line naming what it was given;
   a broken file named outright is reported as usual (exit 1).
3. Walked JSON/YAML files that are no tool list are skipped and counted; named, they are TC002.
   A walked file that does not parse is TC000 unless it is a well-known non-descriptor.
4. Walking respects .gitignore (nested, negated), .git/info/exclude; named files are linted anyway.
5. The counts agree in every format; `--jobs 2` gives what one process gives.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from conftest import GOOD_DIR, REPO, TEXT_SUMMARY, assert_one_line_error, has_module, run_cli
from toolcontract.lint.engine import Selection, lint_files

PYTHON = sys.executable
GOOD = (GOOD_DIR / "unit_convert_length.yaml").read_text()  # one native descriptor, no findings
GOOD_JSON = json.dumps(yaml.safe_load(GOOD))  # the same descriptor in JSON
GOOD_MCP = json.dumps({"tools": [{
    "name": "weather_current",
    "description": ("Report the current weather at one named place: temperature, wind and conditions. "
                    "Use it when the user asks what the weather is like right now. It does not forecast future days."),
    "inputSchema": {"type": "object", "properties": {"place": {"type": "string", "description": "Place name."}},
                    "required": ["place"], "additionalProperties": False},
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}]})
BROKEN_YAML = "toolcontract: 1\nname: [weather\n"  # TC000
NOT_TOOLS = {  # what a repository holds besides its tool lists
    "package.json": '{"name": "site", "version": "1.0.0", "scripts": {"test": "jest"}}\n',
    "tsconfig.json": '{\n  // comments: JSONC, not JSON\n  "compilerOptions": {"strict": true}\n}\n',
    "docker-compose.yml": 'version: "3.8"\nservices:\n  web:\n    image: nginx\n',
    "workflows/ci.yml": "name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
    "data/cities.json": '[{"city": "Paris", "population": 2100000}, {"city": "Lyon", "population": 520000}]\n',
}
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="the git program is missing")


def lint(*args, cwd=None, stdin=None, env=None):
    """`toolcontract lint ARGS` as the console script runs it (the fast path for a plain `lint`), in this process;
    tests/test_cli_fast_path.py proves that path gives what Typer gives."""
    done = run_cli("lint", *args, cwd=cwd, stdin=stdin, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def as_json(done) -> dict:
    return json.loads(done.stdout)


def paths_of(done, root: Path | None = None) -> set[str]:
    found = {f["path"] for f in as_json(done)["findings"]}
    return {os.path.relpath(p, root) for p in found} if root is not None else found


def rules_of(done) -> set[str]:
    return {f["rule"] for f in as_json(done)["findings"]}


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def git_init(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)
    return path


# ------------------------------------------------- 1. what was not read is always reported


@pytest.mark.parametrize("option", [("--select", "TC6"), ("--ignore", "TC000"), ("--ignore", "TC0"),
                                    ("--select", "TC4", "--ignore", "TC"), ("--ignore", "ALL")])
def test_a_file_that_does_not_parse_is_reported_whatever_the_selection(tmp_path, option):
    write(tmp_path, {"tools/broken.yaml": BROKEN_YAML, "tools/good.yaml": GOOD})
    for target in (tmp_path / "tools", tmp_path / "tools" / "broken.yaml"):  # walked and named
        done = lint(target, *option, "--format", "json")
        assert done.returncode == 1, done.stderr
        findings = as_json(done)["findings"]
        assert [(Path(f["path"]).name, f["rule"], f["line"]) for f in findings] == [("broken.yaml", "TC000", 3)]


def test_select_tc6_still_reports_tc000_in_text(tmp_path):
    write(tmp_path, {"broken.yaml": BROKEN_YAML})
    done = lint(tmp_path / "broken.yaml", "--select", "TC6", "--format", "text")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'broken.yaml'}:3:1: error TC000 ")
    assert lines[-1] == "1 file, 0 tools: 1 error, 0 warnings, 0 info"


def test_not_a_tool_list_named_outright_is_reported_whatever_the_selection(tmp_path):
    write(tmp_path, {"cities.json": NOT_TOOLS["data/cities.json"], "empty.yaml": "",
                     "native.yaml": "toolcontract: 1\ntools: 5\n", "entries.yaml": "toolcontract: 1\ntools: [1, 2]\n"})
    for name in ("cities.json", "empty.yaml", "native.yaml", "entries.yaml"):
        done = lint(tmp_path / name, "--select", "TC6", "--format", "json")
        assert done.returncode == 1, (name, done.stdout, done.stderr)
        assert rules_of(done) == {"TC002"}, name
        assert as_json(done)["summary"]["tools"] == 0


def test_structure_findings_on_a_file_that_gave_tools_still_follow_the_selection(tmp_path):
    bad = REPO / "fixtures" / "descriptors" / "bad" / "TC002-descriptor-structure.yaml"
    assert rules_of(lint(bad, "--format", "json")) == {"TC002"}
    done = lint(bad, "--select", "TC6", "--format", "json")
    assert done.returncode == 0 and as_json(done)["findings"] == [] and as_json(done)["summary"]["tools"] == 1


def test_config_ignore_and_per_file_ignores_do_not_hide_what_was_not_read(tmp_path):
    write(tmp_path, {
        ".toolcontract.yaml": 'ignore: ["TC0"]\nper-file-ignores:\n  "tools/**": ["TC"]\n',
        "tools/broken.yaml": BROKEN_YAML, "tools/cities.json": NOT_TOOLS["data/cities.json"],
        "tools/good.yaml": GOOD, "tools/dup.yaml": GOOD + "name: unit_convert_length\n",  # TC001: ignored as configured
    })
    done = lint("tools/broken.yaml", "tools/cities.json", "tools/good.yaml", "tools/dup.yaml", "--format", "json",
                cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert {(Path(f["path"]).name, f["rule"]) for f in as_json(done)["findings"]} == {
        ("broken.yaml", "TC000"), ("cities.json", "TC002")}


def test_inline_suppressions_cannot_hide_what_was_not_read(tmp_path):
    write(tmp_path, {
        "broken.yaml": "# toolcontract: ignore-file\n" + BROKEN_YAML,
        "notes.yaml": "# toolcontract: ignore-file\n# toolcontract: ignore[TC002]\ntitle: meeting notes\nitems: [a, b]\n",
        "good.yaml": GOOD + "x-team: billing  # toolcontract: ignore[TC101]\n",  # unused: TC009 as before
    })
    done = lint(*(tmp_path / n for n in ("broken.yaml", "notes.yaml", "good.yaml")), "--format", "json")
    assert done.returncode == 1
    assert {(Path(f["path"]).name, f["rule"]) for f in as_json(done)["findings"]} == {
        ("broken.yaml", "TC000"), ("notes.yaml", "TC002"), ("good.yaml", "TC009")}  # no TC009 in notes.yaml
    # a mapping without `toolcontract:` is still read as a descriptor, named: its rules ran, so its
    # suppressions work and an unused one is reported, while the missing key cannot be suppressed
    loose = write(tmp_path, {"loose.yaml": GOOD.replace("toolcontract: 1\n", "# toolcontract: ignore-file[TC0]\n")
                             + "x-team: units  # toolcontract: ignore[TC101]\n"}) / "loose.yaml"
    done = lint(loose, "--format", "json")
    # the ignore-file comment suppressed nothing (TC002 is not its to hide): it is reported as unused
    assert [(f["rule"], f["line"]) for f in as_json(done)["findings"]] == [("TC009", 2), ("TC002", 3), ("TC009", 46)]


# --------------------------------------------------------- 2. nothing found is exit 2


def test_an_empty_folder_exits_2_with_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    done = lint(tmp_path / "empty")
    assert done.returncode == 2 and done.stdout == ""
    assert_one_line_error(done.stderr)
    assert done.stderr.strip() == f"toolcontract: no tool descriptors found in {tmp_path / 'empty'}"


def test_a_folder_of_configuration_files_exits_2_and_says_what_it_skipped(tmp_path):
    write(tmp_path / "ci", NOT_TOOLS)
    for fmt in ("text", "json", "rich", "sarif", "github", "junit"):
        done = lint(tmp_path / "ci", "--format", fmt)
        assert done.returncode == 2 and done.stdout == "", fmt
        assert_one_line_error(done.stderr)
        assert done.stderr.strip() == (f"toolcontract: no tool descriptors found in {tmp_path / 'ci'}; "
                                       "5 files skipped: not tool lists")


def test_several_paths_are_named_and_many_are_shortened(tmp_path):
    names = [f"d{index}" for index in range(5)]
    for name in names:
        (tmp_path / name).mkdir()
    done = lint(*names[:2], cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip() == "toolcontract: no tool descriptors found in d0, d1"
    done = lint(*names, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip() == "toolcontract: no tool descriptors found in d0, d1, d2 and 2 more"


def test_an_empty_tool_list_reads_no_tool_and_exits_2(tmp_path):
    write(tmp_path, {"tools.json": '{"tools": []}\n'})
    done = lint(tmp_path / "tools.json")
    assert done.returncode == 2 and done.stderr.strip() == f"toolcontract: no tool descriptors found in {tmp_path / 'tools.json'}"
    done = lint("-", stdin='{"tools": []}\n')
    assert done.returncode == 2 and done.stderr.strip() == "toolcontract: no tool descriptors found in stdin"


def test_a_broken_file_named_outright_is_reported_not_exit_2(tmp_path):
    write(tmp_path, {"tools.json": '{"tools": [\n'})
    done = lint(tmp_path / "tools.json", "--format", "text")
    assert done.returncode == 1, done.stderr
    assert " error TC000 " in done.stdout and done.stderr == ""
    assert TEXT_SUMMARY.match(done.stdout.splitlines()[-1])


def test_a_folder_holding_only_a_broken_descriptor_is_reported(tmp_path):
    write(tmp_path / "tools", {"weather.yaml": BROKEN_YAML, "package.json": NOT_TOOLS["package.json"]})
    done = lint(tmp_path / "tools", "--format", "json")
    assert done.returncode == 1
    assert rules_of(done) == {"TC000"}
    assert as_json(done)["summary"] == {"files": 1, "tools": 0, "error": 1, "warning": 0, "info": 0, "skipped": 1}


def test_a_typo_in_a_folder_name_is_exit_2(tmp_path):
    done = lint(tmp_path / "tool")
    assert done.returncode == 2 and done.stderr.strip() == f"{tmp_path / 'tool'}:1:1: no such file or directory"


def test_the_corpus_wrapper_files_are_no_tool_lists():
    corpus = REPO.parent / "shared" / "corpus" / "mcp"
    if not corpus.is_dir():
        pytest.skip("the shared corpus is not here")
    done = lint(corpus)
    assert done.returncode == 2 and done.stdout == ""
    assert_one_line_error(done.stderr)
    assert done.stderr.startswith(f"toolcontract: no tool descriptors found in {corpus}; ")
    assert done.stderr.strip().endswith("files skipped: not tool lists")


@pytest.mark.skipif(not has_module("mcp"), reason="the `mcp` SDK is not installed")
def test_an_mcp_server_that_lists_no_tool_exits_2(tmp_path):
    import shlex

    from typer.testing import CliRunner

    from toolcontract.cli import app

    server = shlex.join([PYTHON, str(REPO / "tests" / "mcp_servers" / "raw_server.py"), "empty"])
    result = CliRunner().invoke(app, ["lint", "--mcp-stdio", server, "--format", "json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert_one_line_error(result.stderr)
    assert result.stderr.strip() == f"toolcontract: no tool descriptors found in the server mcp-stdio:{server}"
    # with a descriptor beside it, the run reads a tool: linted as usual
    good = write(tmp_path, {"good.yaml": GOOD}) / "good.yaml"
    result = CliRunner().invoke(app, ["lint", str(good), "--mcp-stdio", server, "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["summary"]["tools"] == 1


# ------------------------------------------------ 3. walked files that are no tool list


def test_walked_configuration_and_data_files_are_skipped_and_counted(tmp_path):
    write(tmp_path, {**NOT_TOOLS, "tools/weather.json": GOOD_MCP, "tools/invoice.yaml": GOOD})
    done = lint(tmp_path, "--format", "text")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["5 files skipped: not tool lists",
                                        "2 files, 2 tools: 0 errors, 0 warnings, 0 info"]
    assert TEXT_SUMMARY.match(done.stdout.splitlines()[-1])  # the summary line stays last, as parsed
    summary = as_json(lint(tmp_path, "--format", "json"))["summary"]
    assert summary == {"files": 2, "tools": 2, "error": 0, "warning": 0, "info": 0, "skipped": 5}


def test_one_skipped_file_is_singular(tmp_path):
    write(tmp_path, {"package.json": NOT_TOOLS["package.json"], "invoice.yaml": GOOD})
    assert lint(tmp_path, "--format", "text").stdout.splitlines()[0] == "1 file skipped: not a tool list"


def test_named_outright_a_configuration_file_is_tc002(tmp_path):
    write(tmp_path, NOT_TOOLS)
    for name in ("package.json", "docker-compose.yml", "workflows/ci.yml", "data/cities.json"):
        done = lint(tmp_path / name, "--format", "json")
        assert done.returncode == 1 and "TC002" in rules_of(done), name
        assert as_json(done)["summary"]["skipped"] == 0


def test_a_walked_file_that_does_not_parse_is_tc000_unless_a_known_non_descriptor(tmp_path):
    write(tmp_path, {
        "tsconfig.json": NOT_TOOLS["tsconfig.json"], "tsconfig.build.json": "{/* x */}\n",
        "jsconfig.json": "{,}\n", "chart/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
        "chart/templates/deployment.yaml": "{{- if .Values.enabled }}\nkind: Deployment\n{{- end }}\n",
        "chart/templates/sub/svc.yaml": "{{ include \"x\" . }}: [\n",
        "templates/tool.yaml": BROKEN_YAML,  # a templates folder that is no Helm chart's: a broken descriptor
        "tools/weather.yaml": BROKEN_YAML, "tools/tools.json": '{"tools": [\n', "tools/good.yaml": GOOD,
    })
    done = lint(tmp_path, "--format", "json")
    assert done.returncode == 1
    assert {(os.path.relpath(f["path"], tmp_path), f["rule"]) for f in as_json(done)["findings"]} == {
        ("templates/tool.yaml", "TC000"), ("tools/weather.yaml", "TC000"), ("tools/tools.json", "TC000")}
    # Chart.yaml parses and is no tool list; the three JSONC files and two templates do not parse
    assert as_json(done)["summary"]["skipped"] == 6
    named = lint(tmp_path / "tsconfig.json", "--format", "json")
    assert named.returncode == 1 and rules_of(named) == {"TC000"}  # named: reported


def test_lone_overlay_and_provider_lists_are_tool_lists_when_walked(tmp_path):
    write(tmp_path, {"orphan.contract.yaml": "toolcontract: 1\ntools:\n  weather_current: {effect: read}\n",
                     "request.json": json.dumps({"model": "gpt-4o", "tools": [{"type": "function", "function": {
                         "name": "get_weather", "description": "Current weather of one city.",
                         "parameters": {"type": "object", "properties": {}}}}]}),
                     "invoice.yaml": GOOD})
    done = lint(tmp_path, "--format", "json")
    assert "orphan.contract.yaml" in {Path(p).name for p in paths_of(done)}  # TC002: its provider is missing
    assert as_json(done)["summary"]["skipped"] == 0 and as_json(done)["summary"]["tools"] == 2


def test_a_walked_provider_with_an_overlay_is_linted_as_named(tmp_path):
    write(tmp_path, {"package.json": NOT_TOOLS["package.json"],
                     "package.contract.yaml": "toolcontract: 1\noverlay: package.json\ntools: {}\n"})
    done = lint(tmp_path, "--format", "json")
    assert done.returncode == 1 and "TC002" in rules_of(done)  # the overlay says it is a tool list


# --------------------------------------------------------------------- 4. .gitignore


@needs_git
def test_gitignore_nested_negated_and_info_exclude(tmp_path):
    repo = git_init(tmp_path / "repo")
    files = ["a.yaml", "build/b.yaml", "sub/c.yaml", "sub/skip.yaml", "sub/deep/d.yaml", "logs/x.yaml",
             "logs/keep.yaml", "excluded.yaml", "other/e.json", "dir/inner.yaml", "node_modules/m.yaml",
             ".hidden/h.yaml", ".git/hooks/g.yaml"]
    write(repo, {name: GOOD_JSON if name.endswith(".json") else GOOD for name in files})
    write(repo, {
        ".gitignore": "build/\nlogs/*\n!logs/keep.yaml\n*.json\ndir/\n!dir/inner.yaml\n",
        "sub/.gitignore": "skip.yaml\ndeep/\n",
        "other/.gitignore": "!e.json\n",  # a deeper file re-includes what the root one ignores
    })
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("/excluded.yaml\n")
    done = lint(".", "--format", "json", cwd=repo)
    # every file holds the same tool name: TC104 names each file that was read
    assert {os.path.normpath(p) for p in paths_of(done)} == {"a.yaml", "sub/c.yaml", "logs/keep.yaml", "other/e.json"}
    assert rules_of(done) == {"TC104"}
    assert as_json(done)["summary"]["files"] == 4


@needs_git
def test_ignored_files_named_outright_are_linted(tmp_path):
    repo = git_init(tmp_path / "repo")
    write(repo, {"build/b.yaml": GOOD + "x-bad: [\n", ".gitignore": "build/\n", "a.yaml": GOOD})
    assert lint("build/b.yaml", "--format", "json", cwd=repo).returncode == 1  # TC000, named
    assert as_json(lint(".", "--format", "json", cwd=repo))["summary"]["files"] == 1  # walked: left out
    # a folder named outright is walked even when ignored itself
    done = lint("build", "--format", "json", cwd=repo)
    assert rules_of(done) == {"TC000"} and as_json(done)["summary"]["files"] == 1


@needs_git
def test_walking_a_subfolder_applies_the_repositorys_gitignore_files_above_it(tmp_path):
    repo = git_init(tmp_path / "repo")
    write(repo, {".gitignore": "generated/\n", "pkg/.gitignore": "*.draft.yaml\n", "pkg/tools/a.yaml": GOOD,
                 "pkg/tools/generated/g.yaml": GOOD, "pkg/tools/b.draft.yaml": GOOD})
    for cwd, target in ((repo, "pkg/tools"), (repo / "pkg" / "tools", "."), (repo / "pkg", "tools")):
        summary = as_json(lint(target, "--format", "json", cwd=cwd))["summary"]
        assert (summary["files"], summary["tools"]) == (1, 1), (cwd, target)


def test_outside_a_repository_the_gitignore_files_under_the_folder_count(tmp_path):
    folder = tmp_path / "plain"
    write(folder, {".gitignore": "drafts/\n", "drafts/x.yaml": GOOD, "tools/.gitignore": "old.yaml\n",
                   "tools/old.yaml": GOOD, "tools/new.yaml": GOOD})
    assert not any((p / ".git").exists() for p in [folder, *folder.parents])
    done = lint(folder, "--format", "json")
    assert as_json(done)["summary"]["files"] == 1 and done.returncode == 0


@needs_git
def test_a_worktree_reads_info_exclude_of_the_main_repository(tmp_path):
    main = git_init(tmp_path / "main")
    subprocess.run(["git", "-C", str(main), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                    "--allow-empty", "-m", "x"], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(main), "worktree", "add", "-q", str(tmp_path / "wt")], check=True,
                   capture_output=True)
    (main / ".git" / "info").mkdir(exist_ok=True)
    (main / ".git" / "info" / "exclude").write_text("local/\n")
    wt = write(tmp_path / "wt", {"local/x.yaml": GOOD, "tools/a.yaml": GOOD})
    assert (wt / ".git").is_file()
    assert as_json(lint(".", "--format", "json", cwd=wt))["summary"]["files"] == 1


@needs_git
def test_walking_never_runs_what_a_hostile_git_config_names(tmp_path):
    repo = git_init(tmp_path / "repo")
    marker = tmp_path / "ran"
    with open(repo / ".git" / "config", "a") as config:
        config.write(f"[core]\n\tfsmonitor = touch {marker}\n\thooksPath = /nonexistent\n")
    write(repo, {".gitignore": "x/\n", "x/a.yaml": GOOD, "a.yaml": GOOD})
    done = lint(".", "--format", "json", cwd=repo)
    assert as_json(done)["summary"]["files"] == 1
    assert not marker.exists()


def test_unreadable_or_odd_ignore_files_do_not_stop_the_walk(tmp_path):
    # pathspec refuses a lone backslash and a lone "!": git passes over them, so do we
    write(tmp_path, {".gitignore": "\\\n!\n[\nignored.yaml\n", "ignored.yaml": GOOD, "kept.yaml": GOOD})
    done = lint(tmp_path, "--format", "json")
    assert done.returncode == 0 and as_json(done)["summary"]["files"] == 1


@needs_git
def test_diff_git_base_leaves_out_on_both_sides_what_gitignore_ignores(tmp_path):
    repo = git_init(tmp_path / "repo")
    write(repo, {"tools/a.yaml": GOOD, "build/old.yaml": GOOD.replace("unit_convert_length", "unit_convert_mass")})
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "-A"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True, capture_output=True)
    (repo / ".gitignore").write_text("build/\n")  # tracked, now ignored: left out at both sides
    done = run_cli("diff", "--git-base", "HEAD", "--format", "json", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["findings"] == []


# ------------------------------------------------------------ 5. counts in every format


def test_counts_agree_in_every_format(tmp_path):
    write(tmp_path, {**NOT_TOOLS, "tools/weather.json": GOOD_MCP, "tools/broken.yaml": BROKEN_YAML})
    text = lint(tmp_path, "--format", "text")
    assert text.stdout.splitlines()[-2:] == ["5 files skipped: not tool lists",
                                             "2 files, 1 tool: 1 error, 0 warnings, 0 info"]
    summary = as_json(lint(tmp_path, "--format", "json"))["summary"]
    assert summary == {"files": 2, "tools": 1, "error": 1, "warning": 0, "info": 0, "skipped": 5}
    sarif = json.loads(lint(tmp_path, "--format", "sarif").stdout)
    assert sarif["runs"][0]["properties"]["summary"] == summary
    junit = ET.fromstring(lint(tmp_path, "--format", "junit").stdout)
    suite = junit.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("7", "1", "5")
    assert sorted(Path(c.get("name")).name for c in suite if c.find("skipped") is not None) == [
        "ci.yml", "cities.json", "docker-compose.yml", "package.json", "tsconfig.json"]
    rich = lint(tmp_path, "--format", "rich")
    assert "5 files skipped: not tool lists" in rich.stdout and "2 files, 1 tool: " in rich.stdout
    github = lint(tmp_path, "--format", "github")
    assert github.stdout.count("::error ") == 1 and "title=TC000" in github.stdout
    assert all(done.returncode == 1 for done in (text, rich, github))


def test_the_library_reports_skipped_paths_and_unread_findings():
    files = [("a/package.json", NOT_TOOLS["package.json"].encode()), ("a/tools.yaml", GOOD.encode()),
             ("a/broken.yaml", BROKEN_YAML.encode()), ("named.json", NOT_TOOLS["package.json"].encode())]
    result = lint_files(files, Selection(select=("TC6",)), walked={"a/package.json", "a/tools.yaml", "a/broken.yaml"})
    assert result.skipped == ["a/package.json"]
    assert (result.files, result.tools) == (3, 2)  # named.json: read as a native descriptor (name, version)
    # named, a mapping without `toolcontract:` is read as a native descriptor (to say what it lacks),
    # and that it lacks the key is said whatever the selection
    assert [(f.path, f.rule) for f in result.findings] == [("a/broken.yaml", "TC000"), ("named.json", "TC002"),
                                                           ("named.json", "TC002")]
    assert {f.message for f in result.findings if f.path == "named.json"} == {
        "missing required field 'toolcontract'", "unknown field 'scripts' (did you mean 'description'?)"}


def test_jobs_2_gives_what_one_process_gives(tmp_path):
    files = {}
    for index in range(60):
        kind = index % 6
        if kind == 0:
            files[f"tools/t{index:02}.yaml"] = GOOD.replace("unit_convert_length", f"unit_convert_{index}")
        elif kind == 1:
            files[f"tools/t{index:02}.json"] = GOOD_MCP.replace("weather_current", f"weather_{index}")
        elif kind == 2:
            files[f"tools/broken{index:02}.yaml"] = BROKEN_YAML
        elif kind == 3:
            files[f"pkg{index:02}/package.json"] = NOT_TOOLS["package.json"]
        elif kind == 4:
            files[f"pkg{index:02}/tsconfig.json"] = NOT_TOOLS["tsconfig.json"]
        else:
            files[f"tools/n{index:02}.yaml"] = "toolcontract: 1\ntools: 5\n"
    write(tmp_path, files)
    for option in ((), ("--select", "TC6"), ("--ignore", "TC0")):
        serial = lint(tmp_path, "--jobs", "1", "--format", "json", *option)
        parallel = lint(tmp_path, "--jobs", "2", "--format", "json", *option)
        assert serial.returncode == parallel.returncode == 1
        assert parallel.stdout == serial.stdout
        summary = as_json(serial)["summary"]
        assert (summary["files"], summary["tools"], summary["skipped"]) == (40, 20, 20)
        assert {"TC000", "TC002"} <= rules_of(serial)
    # the library, with the fork made for certain
    from toolcontract.io.inputs import read_inputs

    walked: set = set()
    inputs = list(read_inputs([str(tmp_path)], 5 << 20, walked=walked))
    assert len(inputs) == len(walked) == 60
    one = lint_files(inputs, Selection(select=("TC6",)), walked=walked, jobs=1)
    two = lint_files(inputs, Selection(select=("TC6",)), walked=walked, jobs=2)
    assert (two.findings, two.files, two.tools, two.skipped) == (one.findings, one.files, one.tools, one.skipped)
