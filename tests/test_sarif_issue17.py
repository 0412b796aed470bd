"""Issue 17, SARIF for code scanning: TC6xx as security alerts (tag and security-severity), paths relative to
%SRCROOT% (the working directory or --root), regions with their ends, live servers as logical locations.
Every document is checked against the official SARIF 2.1.0 schema (tests/data)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys

import jsonschema
import pytest
import referencing

from conftest import REPO, assert_one_line_error, has_module, run_cli
from toolcontract.lint.engine import all_rules
from toolcontract.report.sarif import SECURITY_SEVERITY, live_file, region_end

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
DEMO = REPO / "fixtures" / "demo"


def _sarif(*args, cwd=None) -> dict:
    done = run_cli("lint", *args, "--format", "sarif", "--no-cache", cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    document = json.loads(done.stdout)
    errors = list(jsonschema.Draft7Validator(SCHEMA, registry=referencing.Registry()).iter_errors(document))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:3]]
    run = document["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:  # GitHub's rule: ruleIndex names the rule of ruleId
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert len(result["partialFingerprints"]["toolcontractFindingHash/v1"]) == 32
    return document


def _physical(result) -> dict:
    return result["locations"][0]["physicalLocation"]


def test_security_rules_carry_the_security_tag_and_a_severity_in_their_band():
    run = _sarif(DEMO, cwd=REPO)["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    security = {rule_id for rule_id in all_rules() if rule_id.startswith("TC6")}
    assert set(SECURITY_SEVERITY) == security  # every TC6xx rule has its score, and only they
    for rule_id, rule in rules.items():
        tags = rule["properties"]["tags"]
        if rule_id in security:
            assert "security" in tags and float(rule["properties"]["security-severity"]) == float(SECURITY_SEVERITY[rule_id])
        else:
            assert "security" not in tags and "security-severity" not in rule["properties"]
    band = lambda rule_id: float(rules[rule_id]["properties"]["security-severity"])  # noqa: E731
    assert all(7.0 <= band(r) < 9.0 for r in ("TC601", "TC603", "TC604", "TC605", "TC608"))  # high
    assert band("TC606") >= 9.0  # critical: a leaked credential
    assert 4.0 <= band("TC607") < 7.0  # medium: ReDoS
    assert band("TC609") < 4.0  # low


def test_paths_are_relative_to_the_working_directory_with_srcroot(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(DEMO, work / "tools")
    run = _sarif("tools", cwd=work)["runs"][0]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": (work.as_uri() + "/")}}
    uris = {_physical(r)["artifactLocation"]["uri"] for r in run["results"]}
    assert uris == {"tools/calendar_list_events.yaml", "tools/customer_account_close.yaml", "tools/notes-server.json",
                    "tools/shipment_track.yaml"}
    assert all(_physical(r)["artifactLocation"]["uriBaseId"] == "%SRCROOT%" for r in run["results"])
    # absolute paths on the command line are made relative too: no file: URI in a result
    absolute = _sarif(work / "tools", cwd=work)["runs"][0]
    assert {_physical(r)["artifactLocation"]["uri"] for r in absolute["results"]} == uris
    assert "file:" not in json.dumps(absolute["results"])


def test_root_option_sets_srcroot_for_lint_and_diff(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(DEMO, work / "sub" / "tools")
    run = _sarif(work / "sub" / "tools" / "shipment_track.yaml", "--root", work, cwd=tmp_path)["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == work.as_uri() + "/"
    assert [_physical(r)["artifactLocation"]["uri"] for r in run["results"]] == ["sub/tools/shipment_track.yaml"]
    # a file outside the root: a relative path up, never an absolute one
    outside = _sarif(DEMO / "shipment_track.yaml", "--root", work, cwd=tmp_path)["runs"][0]
    uri = _physical(outside["results"][0])["artifactLocation"]["uri"]
    assert uri.startswith("../") and uri.endswith("fixtures/demo/shipment_track.yaml")
    old, new = REPO / "fixtures" / "diff" / "old", REPO / "fixtures" / "diff" / "new"
    diff = run_cli("diff", old, new, "--format", "sarif", "--root", REPO / "fixtures" / "diff")
    assert diff.returncode == 1, diff.stderr
    document = json.loads(diff.stdout)
    assert not list(jsonschema.Draft7Validator(SCHEMA, registry=referencing.Registry()).iter_errors(document))
    assert {_physical(r)["artifactLocation"]["uri"].split("/")[0] for r in document["runs"][0]["results"]} <= {"old", "new"}


@pytest.mark.parametrize("command", ["lint", "diff"])
def test_root_that_is_no_folder_is_exit_2_and_one_line(tmp_path, command):
    paths = [DEMO / "shipment_track.yaml"] * (2 if command == "diff" else 1)
    done = run_cli(command, *paths, "--format", "sarif", "--root", tmp_path / "missing")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"toolcontract: --root {tmp_path / 'missing'}: no such folder\n"
    (tmp_path / "file").write_text("x")
    done = run_cli(command, *paths, "--root", tmp_path / "file")
    assert done.returncode == 2 and done.stderr == f"toolcontract: --root {tmp_path / 'file'}: not a folder\n"
    assert_one_line_error(done.stderr)


def test_regions_end_where_the_flagged_token_ends():
    run = _sarif(DEMO, cwd=REPO)["runs"][0]
    regions = {(r["ruleId"], _physical(r)["artifactLocation"]["uri"].rsplit("/", 1)[-1]):
               tuple(_physical(r)["region"][k] for k in ("startLine", "startColumn", "endLine", "endColumn"))
               for r in run["results"]}
    assert regions[("TC401", "notes-server.json")] == (11, 29, 11, 34)  # the string "int", quotes and all
    assert regions[("TC202", "customer_account_close.yaml")] == (2, 1, 2, 13)  # the key `toolcontract`
    assert regions[("TC418", "notes-server.json")] == (30, 7, 30, 20)  # the key "annotations"
    assert regions[("TC402", "notes-server.json")] == (69, 22, 69, 23)  # an object: its opening brace
    assert regions[("TC403", "shipment_track.yaml")] == (10, 3, 10, 7)
    assert regions[("TC603", "calendar_list_events.yaml")] == (5, 14, 10, 42)  # a `>-` block: to its last line


class _Doc:
    def __init__(self, path: str, text: str) -> None:
        self.path, self.text, self.lines = path, text, text.split("\n")

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


@pytest.mark.parametrize("path, text, column, end", [
    ("a.json", '{"d": "say \\"hi\\" now", "n": 12}', 7, 23),  # a JSON string with escaped quotes
    ("a.json", '{"d": "say \\"hi\\" now", "n": 12}', 9, 22),  # from inside the string: to before its quote
    ("a.json", '{"d": "x", "n": 12}', 17, 19),  # a number, up to the closing brace
    ("a.yaml", "description: don't stop # note", 14, 24),  # a plain scalar with an apostrophe, before its comment
    ("a.yaml", "description: 'it''s here' # c", 14, 26),  # single-quoted, '' inside
    ("a.yaml", "enum: [ab, cd]", 12, 14),  # a flow sequence's item ends at its bracket
    ("a.yaml", "name: x  # a comment", 12, 12),  # in a comment: the start alone
    ("a.yaml", 'purpose: "starts here', 10, 22),  # a string that goes on: to the end of its first line
])
def test_region_end_of_tokens(path, text, column, end):
    assert region_end(_Doc(path, text), 1, column) == (1, end)


def test_region_end_of_a_block_scalar_is_its_last_line():
    text = "tools:\n  - description: >-\n      one\n\n      two words  \n    name: x\n"
    assert region_end(_Doc("a.yaml", text), 2, 18) == (5, 16)
    assert region_end(_Doc("a.yaml", "d: |\n  a\n  bc\n"), 1, 4) == (3, 5)  # to the end of the file


def test_region_end_without_text_is_the_start():
    assert region_end(None, 3, 4) == (3, 4)
    assert region_end(_Doc("a.yaml", "x: 1"), 5, 1) == (5, 1)


def test_cached_run_writes_the_same_sarif(tmp_path):
    shutil.copytree(DEMO, tmp_path / "tools")
    first = run_cli("lint", "tools", "--format", "sarif", cwd=tmp_path)
    second = run_cli("lint", "tools", "--format", "sarif", cwd=tmp_path)  # from .toolcontract_cache
    assert (tmp_path / ".toolcontract_cache").is_dir()
    assert first.stdout == second.stdout and '"endColumn"' in first.stdout


@pytest.mark.skipif(not has_module("mcp"), reason="the `mcp` SDK is not installed (pip install -e '.[mcp]')")
def test_live_server_findings_are_logical_locations_naming_server_and_tool(tmp_path):
    server = shlex.join([sys.executable, str(REPO / "tests" / "mcp_servers" / "raw_server.py"), "pages"])
    run = _sarif("--mcp-stdio", server, cwd=tmp_path)["runs"][0]
    assert run["results"]
    label = " ".join(server.split())
    file = live_file(label)
    # the command made a file name (cut to a length when the command is long), with a hash of the whole of it
    assert re.fullmatch(r"mcp-stdio/python[\w.-]*-[0-9a-f]{8}\.json", file) and "raw_server" in file, file
    for result in run["results"]:
        (location,) = result["locations"]
        # code scanning refuses results without a file: the one `convert --mcp-stdio -o` writes
        assert location["physicalLocation"]["artifactLocation"] == {"uri": file, "uriBaseId": "%SRCROOT%"}
        server_location, *rest = location["logicalLocations"]
        assert server_location == {"name": " ".join(server.split()), "fullyQualifiedName": f"mcp-stdio:{' '.join(server.split())}",
                                   "kind": "module"}
        if result["properties"]["tool"]:
            assert rest[0] == {"name": result["properties"]["tool"], "kind": "function",
                               "fullyQualifiedName": f"mcp-stdio:{' '.join(server.split())}/{result['properties']['tool']}"}
    assert "mcp-stdio:" not in json.dumps([r["locations"] for r in run["results"]]).replace('"fullyQualifiedName": "mcp-stdio:', "")
    # that file, written by convert, holds the findings at their lines and columns
    (tmp_path / "mcp-stdio").mkdir()
    convert = run_cli("convert", "--mcp-stdio", server, "-o", file, cwd=tmp_path)
    assert convert.returncode == 0, convert.stderr
    saved = _sarif(file, "--input-format", "mcp", cwd=tmp_path)["runs"][0]
    where = lambda results: sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],  # noqa: E731
                                    r["locations"][0]["physicalLocation"]["region"]["startLine"],
                                    r["locations"][0]["physicalLocation"]["region"]["startColumn"]) for r in results)
    assert where(saved["results"]) == where(run["results"])


def test_every_security_rule_names_its_owasp_mcp_category_in_sarif_rules_and_docs(tmp_path):
    """Issue 18: each TC6xx rule names its OWASP MCP Top 10 (2025) category: `rules`, SARIF tags and a
    `taxonomies` entry the rule relates to, docs/rules.md."""
    import json as _json

    from conftest import REPO, run_cli
    from toolcontract.core import owasp
    from toolcontract.lint.engine import all_rules

    security = {i: r for i, r in all_rules().items() if i.startswith("TC6")}
    assert all(r.owasp and set(r.owasp) <= set(owasp.CATEGORIES) for r in security.values())
    assert not any(r.owasp for i, r in all_rules().items() if not i.startswith("TC6"))
    done = run_cli("lint", str(REPO / "fixtures" / "demo"), "--format", "sarif", "--exit-zero")
    run = _json.loads(done.stdout)["runs"][0]
    (taxonomy,) = run["taxonomies"]
    assert taxonomy["name"] == owasp.NAME and [t["id"] for t in taxonomy["taxa"]] == list(owasp.CATEGORIES)
    for rule in run["tool"]["driver"]["rules"]:
        if rule["id"] in security:
            assert f"owasp-mcp-top-10/{security[rule['id']].owasp[0]}" in rule["properties"]["tags"]
            assert [r["target"]["id"] for r in rule["relationships"]] == list(security[rule["id"]].owasp)
            assert all(r["target"]["toolComponent"]["name"] == owasp.NAME for r in rule["relationships"])
    shown = run_cli("rules", "TC603")
    assert "OWASP MCP Top 10 (2025): MCP03 Tool Poisoning; MCP06" in shown.stdout
    assert "MCP03 Tool Poisoning" in (REPO / "docs" / "rules.md").read_text("utf-8")
