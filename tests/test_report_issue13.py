"""Issue 13 (points 8 and 9): human formats name each finding's tool, summarise repeats past 10
per rule and file, and end with a tally by rule; machine formats keep every finding. The bad
fixtures name their tools apart; fixtures/demo is the README's first input."""

from __future__ import annotations

import io
import json
import math
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import (BAD_DIR, REPO, TEXT_LINE, TEXT_MORE, TEXT_SUMMARY, TEXT_TALLY, TEXT_TOOL, bad_fixtures,
                      lint_paths, render)
from toolcontract.lint.engine import LintResult, lint_files
from toolcontract.core.model import Finding, Severity
from toolcontract.report.common import REPEAT_LIMIT, limit_repeats, rule_tally
from toolcontract.io.document import LoadError, load_bytes, load_text

DEMO = REPO / "fixtures" / "demo"
MARKUP = "[bold]x[/]"

NATIVE = "toolcontract: 1\nname: weather_current\nversion: 1.0.0\neffect: read\n"


def _finding(path="a.yaml", line=2, column=7, rule="TC403", severity=Severity.WARNING, message="something is off",
             tool: str | None = "get_me", name="additional-properties-open") -> Finding:
    return Finding(path, line, column, rule, name, severity, message, "", tool)


def _result(findings, documents=None, tools=1) -> LintResult:
    documents = {"a.yaml": NATIVE} if documents is None else documents
    return LintResult(sorted(findings), len(documents), tools, {p: load_text(t, p) for p, t in documents.items()})


def _mcp(*tools: dict) -> bytes:
    return json.dumps({"tools": list(tools)}, indent=2).encode()


def _tool(name: str, **schema) -> dict:
    return {"name": name, "description": f"Do {name} things for one named thing. Use it when asked about it. "
                                         "It changes nothing anywhere.",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Query."}},
                            "required": ["q"], "additionalProperties": False, **schema},
            "annotations": {"readOnlyHint": True, "openWorldHint": False}}


# ------------------------------------------------------------------ text: [tool]


def test_text_line_names_the_tool_after_the_rule():
    out = render(_result([_finding(message="the object at / does not set additionalProperties")]), "text")
    line = out.splitlines()[0]
    assert line == "a.yaml:2:7: warning TC403 [get_me] the object at / does not set additionalProperties"
    m = TEXT_LINE.match(line)
    assert (m["path"], m["line"], m["column"], m["severity"], m["rule"]) == ("a.yaml", "2", "7", "warning", "TC403")
    assert TEXT_TOOL.match(m["message"])["tool"] == "get_me"


def test_text_line_without_a_tool_has_no_brackets():
    line = render(_result([_finding(rule="TC000", severity=Severity.ERROR, message="YAML: bad", tool=None)]),
                  "text").splitlines()[0]
    assert line == "a.yaml:2:7: error TC000 YAML: bad"


def test_text_tool_names_are_made_printable_and_markup_stays_literal():
    out = render(_result([_finding(tool="evil\x1b[2J" + MARKUP)]), "text")
    assert "\x1b" not in out
    assert f"TC403 [evil\\x1b[2J{MARKUP}] something is off" in out


# ------------------------------------------------------------- repeats past 10


def _twenty_five(rule="TC601", path="big.yaml"):
    return [_finding(path, i + 1, 3, rule, Severity.ERROR, f"hidden characters {i}", f"tool_{i}", "hidden-characters")
            for i in range(25)]


def _big_documents(path="big.yaml"):
    return {path: "toolcontract: 1\n" + "".join(f"x-line-{i}: {i}\n" for i in range(2, 31))}


def test_limit_repeats_keeps_the_first_ten_of_each_rule_and_counts_the_rest():
    findings = sorted(_twenty_five() + [_finding("big.yaml", 30, 1, "TC403")])
    shown, hidden = limit_repeats(findings)
    assert REPEAT_LIMIT == 10
    assert [f.line for f in shown if f.rule == "TC601"] == list(range(1, 11))
    assert [f.rule for f in shown].count("TC403") == 1
    assert hidden == {"TC601": 15}


def test_text_shows_ten_then_one_line_counting_the_rest():
    result = _result(_twenty_five(), _big_documents(), tools=25)
    lines = render(result, "text").splitlines()
    findings = [line for line in lines if TEXT_LINE.match(line)]
    assert len(findings) == 10 and findings[-1].startswith("big.yaml:10:3: error TC601 [tool_9] ")
    more = [line for line in lines if TEXT_MORE.match(line)]
    assert more == ["big.yaml: ... and 15 more TC601 in this file"]
    assert not TEXT_LINE.match(more[0])  # a parser of findings never takes it for one
    assert lines.index(more[0]) == 10  # after the file's findings
    assert lines[-2] == "by rule: TC601 hidden-characters 25"  # every finding is counted, shown or not
    assert lines[-1] == "1 file, 25 tools: 25 errors, 0 warnings, 0 info"
    assert len(lines) == 13


def test_text_counts_repeats_per_file_and_rule():
    findings = _twenty_five() + _twenty_five("TC403", "big.yaml") + _twenty_five("TC601", "other.yaml")
    result = _result(findings, {**_big_documents(), **_big_documents("other.yaml")}, tools=50)
    lines = render(result, "text").splitlines()
    assert [line for line in lines if TEXT_MORE.match(line)] == [
        "big.yaml: ... and 15 more TC403 in this file",
        "big.yaml: ... and 15 more TC601 in this file",
        "other.yaml: ... and 15 more TC601 in this file",
    ]
    assert sum(1 for line in lines if TEXT_LINE.match(line)) == 30
    assert lines[-2] == "by rule: TC601 hidden-characters 50, TC403 hidden-characters 25"
    assert lines[-1] == "2 files, 50 tools: 75 errors, 0 warnings, 0 info"


def test_ten_of_a_rule_are_all_shown_with_no_count_line():
    result = _result(_twenty_five()[:10], _big_documents(), tools=10)
    lines = render(result, "text").splitlines()
    assert sum(1 for line in lines if TEXT_LINE.match(line)) == 10
    assert not any(TEXT_MORE.match(line) for line in lines)


def test_rich_shows_ten_then_one_line_counting_the_rest():
    result = _result(_twenty_five(), _big_documents(), tools=25)
    out = render(result, "rich")
    assert sum(1 for line in out.splitlines() if " TC601 " in line and "hidden characters" in line) == 10
    assert "hidden characters 9" in out and "hidden characters 10" not in out
    assert "  \u2026 and 15 more TC601 in this file" in out.splitlines()
    assert out.splitlines()[0].startswith("big.yaml") and "25 errors" in out.splitlines()[0]  # header counts all
    assert "by rule: TC601 hidden-characters 25" in out
    assert out.rstrip("\n").splitlines()[-1] == "1 file, 25 tools: 25 errors, 0 warnings, 0 info"


@pytest.mark.parametrize("fmt", ["json", "sarif", "github", "junit"])
def test_machine_formats_keep_every_finding(fmt):
    result = _result(_twenty_five(), _big_documents(), tools=25)
    out = render(result, fmt)
    if fmt == "json":
        data = json.loads(out)
        assert len(data["findings"]) == 25 and data["summary"]["error"] == 25
        assert [f["tool"] for f in data["findings"]] == [f"tool_{i}" for i in range(25)]
    elif fmt == "sarif":
        assert len(json.loads(out)["runs"][0]["results"]) == 25
    elif fmt == "github":
        assert len(out.splitlines()) == 25
    else:
        failure = ET.fromstring(out).find(".//failure")
        assert len(failure.text.splitlines()) == 25
    assert "more TC601" not in out


# ---------------------------------------------------------------------- github


def test_github_title_names_the_tool():
    out = render(_result([_finding(message="open object")]), "github")
    assert out == "::warning file=a.yaml,line=2,col=7,title=TC403 additional-properties-open [get_me]::open object\n"


def test_github_title_without_a_tool():
    out = render(_result([_finding(rule="TC000", severity=Severity.ERROR, message="bad", tool=None,
                                   name="parse-error")]), "github")
    assert out == "::error file=a.yaml,line=2,col=7,title=TC000 parse-error::bad\n"


def test_github_escapes_the_tool_name_in_the_title():
    out = render(_result([_finding(tool="a:b,c%d\r\n::error x", message="m")]), "github")
    assert out.count("\n") == 1
    assert "title=TC403 additional-properties-open [a%3Ab%2Cc%25d%0D%0A%3A%3Aerror x]::m\n" in out
    assert out.count("::") == 2  # the command's own two


# ------------------------------------------------------------------ rich: tools


MCP_THREE = _mcp(
    {**_tool("alpha_read"), "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}},
                                            "required": ["q"], "additionalProperties": False}},
    _tool("beta_read"),
    {**_tool("gamma_read"), "inputSchema": {"type": "object", "properties": {
        "q": {"type": "string", "description": "Query."}, "n": {"type": "int", "description": "Count."}},
        "required": ["q"]}},
)


def test_rich_groups_a_provider_file_by_tool():
    result = lint_files([("srv.json", MCP_THREE)])
    assert {(f.rule, f.tool) for f in result.findings} == {
        ("TC404", "alpha_read"), ("TC401", "gamma_read"), ("TC403", "gamma_read")}
    lines = render(result, "rich").splitlines()
    header = lines[0]
    assert header.startswith("srv.json  ") and "1 error, 2 warnings" in header and "alpha_read" not in header
    alpha = lines.index("  alpha_read  1 warning")
    gamma = lines.index("  gamma_read  1 error, 1 warning")
    assert not any("beta_read" in line for line in lines)  # a tool without findings has no sub-header
    assert alpha < next(i for i, line in enumerate(lines) if "TC404" in line) < gamma
    rows = [i for i, line in enumerate(lines) if re.match(r"    \d+:\d+ +(error|warning) +TC\d{3}  ", line)]
    assert len(rows) == 3 and all(i > gamma for i in rows[1:])  # rows sit under their tool, indented
    # the source line and caret are still shown under each row
    assert lines[rows[0] + 1].lstrip().split(" | ")[0].isdigit() and lines[rows[0] + 2].rstrip().endswith("^")


def test_rich_names_the_tool_of_a_native_file_in_its_header():
    out = render(lint_files([("w.yaml", NATIVE.encode())]), "rich")
    header = out.splitlines()[0]
    assert header.startswith("w.yaml  weather_current  ")
    assert not any(line.startswith("  weather_current") for line in out.splitlines())  # no sub-header


def test_rich_groups_a_native_file_of_several_tools():
    text = ("toolcontract: 1\ntools:\n  - name: weather_current\n    effect: read\n"
            "  - name: invoice_delete\n    effect: read\n")
    lines = render(lint_files([("two.yaml", text.encode())]), "rich").splitlines()
    assert lines[0].startswith("two.yaml  ") and "weather_current" not in lines[0]
    weather = next(i for i, line in enumerate(lines) if line.startswith("  weather_current  "))
    invoice = next(i for i, line in enumerate(lines) if line.startswith("  invoice_delete  "))
    assert weather < invoice and "TC303" in "".join(lines[invoice:])  # invoice_delete's own finding is in its group
    assert "TC303" not in "".join(lines[weather:invoice])


def test_rich_names_the_one_tool_of_two_duplicates_in_the_header():
    lines = render(lint_paths(BAD_DIR / "TC104-name-duplicate.yaml"), "rich").splitlines()
    assert lines[0] == f"{BAD_DIR / 'TC104-name-duplicate.yaml'}  weather_report  2 errors"


def test_rich_file_findings_without_a_tool_come_before_the_tool_groups():
    findings = [_finding("a.yaml", 1, 1, "TC009", tool=None, message="unused suppression", name="unused-suppression"),
                _finding("a.yaml", 2, 7, tool="one"), _finding("a.yaml", 3, 1, tool="two")]
    lines = render(_result(findings), "rich").splitlines()
    assert lines.index("  one  1 warning") > next(i for i, line in enumerate(lines) if "TC009" in line)
    assert lines.index("  two  1 warning") > lines.index("  one  1 warning")


def test_rich_prints_markup_in_tool_names_literally():
    findings = [_finding("a.yaml", 2, 7, tool=MARKUP), _finding("a.yaml", 3, 1, tool="[red]y[/red]")]
    out = render(_result(findings), "rich")
    assert f"  {MARKUP}  1 warning" in out.splitlines()
    assert "  [red]y[/red]  1 warning" in out.splitlines()
    out = render(_result([_finding(tool=MARKUP)]), "rich")
    assert out.splitlines()[0] == f"a.yaml  {MARKUP}  1 warning"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_rich_on_a_terminal_styles_the_tool_but_applies_no_markup_from_it(monkeypatch):
    from toolcontract.report.rich import render_lint

    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLORTERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    stream = _Terminal()
    render_lint(_result([_finding(tool=MARKUP + "\x1b[31m")]), stream)
    out = stream.getvalue()
    assert "\x1b[1;36m" in out  # the tool is styled (bold cyan) ...
    assert f"{MARKUP}\\x1b[31m" in out  # ... its markup printed as written, its escape shown
    assert "\x1b[31m" not in out  # and not sent raw (a warning has no red of its own)


def test_rich_source_lines_are_windowed_to_the_console_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    text = '{"tools": [' + ", ".join(f'{{"k{i}": "{"v" * 20}"}}' for i in range(20)) + "]}\n"
    result = _result([_finding("w.json", 1, 300, tool="t")], {"w.json": text})
    lines = render(result, "rich").splitlines()
    source = next(line for line in lines if " | " in line and "k" in line)
    assert len(source) <= 100 and source.rstrip().endswith("...")
    caret = lines[lines.index(source) + 1]
    assert len(caret) <= 100 and caret.endswith("^")


# ------------------------------------------------------------------- tally


def test_rule_tally_is_sorted_by_count_then_rule_and_keeps_the_highest_severity():
    findings = [_finding(rule="TC404", name="property-undocumented"),
                _finding(rule="TC203", name="description-thin"),
                _finding(rule="TC203", name="description-thin", severity=Severity.ERROR),
                _finding(rule="TC101", name="name-format", severity=Severity.ERROR)]
    assert rule_tally(findings) == [("TC203", "description-thin", 2, Severity.ERROR),
                                    ("TC101", "name-format", 1, Severity.ERROR),
                                    ("TC404", "property-undocumented", 1, Severity.WARNING)]


def test_no_tally_when_clean():
    result = _result([])
    assert render(result, "text") == "1 file, 1 tool: 0 errors, 0 warnings, 0 info\n"
    assert "by rule" not in render(result, "rich")


def test_rich_tally_wraps_between_entries(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    findings = [_finding(line=i + 1, rule=f"TC4{i:02}", name="additional-properties-open") for i in range(6)]
    lines = render(_result(findings), "rich").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("by rule: "))
    block = lines[start:-1]
    assert len(block) > 1 and all(len(line) <= 60 for line in block)
    assert all(line.startswith(" " * 9 + "TC4") for line in block[1:])
    assert " ".join(line.strip() for line in block).count("additional-properties-open 1") == 6


# ------------------------------------------------------------------ bad fixtures


def _descriptor_fixtures():
    """The bad descriptors and provider lists (A2A cards are agents, not tools: their names are their own)."""
    return [p for p in bad_fixtures() if "cards" not in p.parts]


def test_bad_fixtures_name_their_tools_apart():
    names: dict[str, list[str]] = {}
    for path in _descriptor_fixtures():
        try:
            data = load_bytes(path.read_bytes(), str(path)).data
        except LoadError:  # TC000's file does not parse; its name line is checked below
            data = {"name": re.search(r"(?m)^name: (\S+)$", path.read_text("utf-8"))[1]}
        for tool in data.get("tools", [data]):
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                names.setdefault(tool["name"], []).append(path.name)
    repeated = {name: files for name, files in names.items() if len(files) > 1}
    assert repeated == {"weather_report": ["TC104-name-duplicate.yaml"] * 2}


def test_bad_fixtures_together_show_each_files_own_rule_first():
    result = lint_paths(*_descriptor_fixtures())
    assert {f.path for f in result.findings if f.rule == "TC104"} == {str(BAD_DIR / "TC104-name-duplicate.yaml")}
    first: dict[str, str] = {}
    for finding in result.findings:
        first.setdefault(finding.path, finding.rule)
    for path, rule in first.items():
        own = path.rsplit("/", 1)[-1].split("-", 1)[0]
        assert rule == own or (own, rule) == ("TC501", "TC101"), (path, rule)


# ------------------------------------------------------------------------ demo


DEMO_FINDINGS = {
    ("calendar_list_events.yaml", "TC603", "calendar_list_events", "error"),
    ("customer_account_close.yaml", "TC202", "customer_account_close", "error"),
    ("notes-server.json", "TC401", "search_notes", "error"),
    ("notes-server.json", "TC402", "delete_note", "error"),
    ("notes-server.json", "TC418", "get_note", "warning"),
    ("shipment_track.yaml", "TC403", "shipment_track", "warning"),
}


def _demo(runner, *args):
    from toolcontract.cli import app

    return runner.invoke(app, ["lint", str(DEMO), *args])


def test_demo_findings_are_the_intended_ones(runner):
    done = _demo(runner, "--format", "json")
    assert done.exit_code == 1
    data = json.loads(done.stdout)
    assert {(f["path"].rsplit("/", 1)[-1], f["rule"], f["tool"], f["severity"]) for f in data["findings"]} == \
        DEMO_FINDINGS
    assert data["summary"] == {"files": 5, "tools": 8, "error": 4, "warning": 2, "info": 0, "skipped": 0}


def test_demo_text_ends_with_the_tally_and_the_summary(runner):
    lines = _demo(runner, "--format", "text").stdout.splitlines()
    assert all(TEXT_LINE.match(line) and TEXT_TOOL.match(TEXT_LINE.match(line)["message"]) for line in lines[:-2])
    assert len(lines) == len(DEMO_FINDINGS) + 2
    assert lines[-2] == ("by rule: TC202 non-goals-missing 1, TC401 schema-invalid 1, TC402 schema-root-not-object 1, "
                         "TC403 additional-properties-open 1, "
                         "TC418 read-tool-not-read-only 1, TC603 instruction-injection 1")
    assert TEXT_TALLY.match(lines[-2]) and TEXT_SUMMARY.match(lines[-1])
    assert lines[-1] == "5 files, 8 tools: 4 errors, 2 warnings, 0 info"


def test_demo_rich_fits_one_screen_at_100_columns(runner, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    out = _demo(runner, "--format", "rich").stdout
    lines = out.rstrip("\n").splitlines()
    rows = sum(max(1, math.ceil(len(line) / 100)) for line in lines)  # as a 100-column terminal wraps them
    assert rows <= 42, out  # a 45-row terminal
    assert lines[-1] == "5 files, 8 tools: 4 errors, 2 warnings, 0 info"
    assert lines[-2].strip().endswith("TC603 instruction-injection 1") and any(
        line.startswith("by rule: TC202 non-goals-missing 1") for line in lines)
    # the MCP list is grouped by tool; the native files name theirs in the header
    assert "  search_notes  1 error" in lines and "  get_note  1 warning" in lines
    assert any(line.startswith(f"{DEMO / 'shipment_track.yaml'}  shipment_track  1 warning") for line in lines)
    # source lines are not wrapped (the caret stays under its character)
    assert all(len(line) <= 100 for line in lines if " | " in line)


def test_demo_with_the_mcp_target_also_finds_the_read_tool_without_read_only_hint(runner):
    data = json.loads(_demo(runner, "--format", "json", "--target", "mcp").stdout)
    extra = {(f["rule"], f["tool"]) for f in data["findings"]} - {(rule, tool) for _, rule, tool, _ in DEMO_FINDINGS}
    assert extra == {("TC513", "get_note")}  # the overlay says read: the MCP target asks for the hint too
