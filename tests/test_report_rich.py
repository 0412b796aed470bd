"""The rich reporter: grouping, carets, escaping of hostile input, summary line."""

from __future__ import annotations

import io

from toolcontract.lint.engine import LintResult, lint_files
from toolcontract.core.model import Finding, Severity
from toolcontract.report import lint_reporter
from toolcontract.report.rich import render_lint, source_excerpt
from toolcontract.io.document import Document, load_text

WEATHER = """\
toolcontract: 1
name: weather_current
version: 1.0.0
effect: read
"""


def _finding(path, line, column, rule="TC403", severity=Severity.WARNING, message="something is off"):
    return Finding(path, line, column, rule, "some-rule", severity, message, "", None)


def _result(findings, documents, files=None, tools=1) -> LintResult:
    docs = {path: load_text(text, path) for path, text in documents.items()}
    return LintResult(sorted(findings), files if files is not None else len(documents), tools, docs)


def _render(result) -> str:
    stream = io.StringIO()
    render_lint(result, stream)
    return stream.getvalue()


def _line_with(output: str, needle: str) -> int:
    lines = output.splitlines()
    return next(i for i, line in enumerate(lines) if needle in line)


def test_registered_as_the_rich_format():
    assert lint_reporter("rich") is render_lint


def test_findings_are_grouped_under_one_header_per_file():
    result = _result(
        [
            _finding("a.yaml", 2, 7, "TC102"),
            _finding("b.yaml", 4, 9, "TC301", Severity.ERROR),
            _finding("a.yaml", 4, 9, "TC303"),
            _finding("b.yaml", 1, 1, "TC202", Severity.INFO),
        ],
        {"a.yaml": WEATHER, "b.yaml": WEATHER},
    )
    out = _render(result)
    lines = out.splitlines()
    header_a = _line_with(out, "a.yaml")
    header_b = _line_with(out, "b.yaml")
    assert lines[header_a].startswith("a.yaml") and "2 warnings" in lines[header_a]
    assert lines[header_b].startswith("b.yaml")
    assert "1 error" in lines[header_b] and "1 info" in lines[header_b] and "warning" not in lines[header_b]
    # each file's findings follow its header, in line order
    assert header_a < _line_with(out, "TC102") < _line_with(out, "TC303") < header_b
    assert header_b < _line_with(out, "TC202") < _line_with(out, "TC301")
    assert sum(1 for line in lines if line.startswith(("a.yaml", "b.yaml"))) == 2


def test_finding_row_has_position_severity_rule_and_message():
    out = _render(_result([_finding("a.yaml", 2, 7, "TC102", message="name 'x' names no object")], {"a.yaml": WEATHER}))
    row = out.splitlines()[_line_with(out, "TC102")].split()
    assert row == ["2:7", "warning", "TC102", "name", "'x'", "names", "no", "object"]


def test_source_line_and_caret_under_the_column():
    out = _render(_result([_finding("a.yaml", 4, 9)], {"a.yaml": WEATHER}))
    lines = out.splitlines()
    source = _line_with(out, "effect: read")
    caret_line = lines[source + 1]
    assert caret_line.strip().endswith("^")
    # the caret sits under the column's character, in the same gutter
    text_start = lines[source].index("effect: read")
    assert caret_line.index("^") == text_start + 8
    assert lines[source].split("|")[0].strip() == "4"


def test_caret_accounts_for_escapes_and_wide_characters():
    line = 'purpose: "\u202e字字" effect'
    shown, caret = source_excerpt(line, line.index("effect") + 1)
    assert "\u202e" not in shown and "\\u202e" in shown
    # "\u202e" shown as 6 cells; each CJK character takes 2
    assert caret == len('purpose: "') + 6 + 4 + len('" ')


def test_long_lines_are_windowed_around_the_column():
    line = "x" * 5000 + "HERE" + "y" * 5000
    shown, caret = source_excerpt(line, 5001)
    assert len(shown) < 200
    assert shown.startswith("...") and shown.endswith("...")
    assert shown[caret : caret + 4] == "HERE"


def test_parse_error_shows_no_source_and_reads_no_file(tmp_path):
    missing = str(tmp_path / "never-created.yaml")
    result = lint_files([(missing, b"name: [unclosed\n")])
    assert [f.rule for f in result.findings] == ["TC000"]
    assert missing not in result.documents
    out = _render(result)
    assert "TC000" in out
    assert "|" not in out and "^" not in out  # no source excerpt


def test_markup_in_input_prints_literally():
    text = 'toolcontract: 1\nname: "[bold red]x[/] [link=http://evil]y[/link]"\n'
    message = "name '[bold red]x[/]' :warning: [/]"
    out = _render(_result([_finding("[red]f[/red].yaml", 2, 7, message=message)], {"[red]f[/red].yaml": text}))
    assert "[red]f[/red].yaml" in out
    assert message in out
    assert '"[bold red]x[/] [link=http://evil]y[/link]"' in out


def test_terminal_controls_in_input_are_escaped():
    path = "evil\x1b[2J.yaml"
    message = "bad \x1b[31mred\x1b[0m \x9b2J \u2066hidden\u2069"
    # no loader accepts these characters raw; a document is built by hand to stand for one that did
    text = 'toolcontract: 1\nname: "x\x1b]8;;http://e\x07y\u202ez\u200b"\n'
    document = Document(path=path, text=text, data={}, _values={}, _keys={})
    result = LintResult([_finding(path, 2, 7, message=message)], 1, 1, {path: document})
    out = _render(result)
    for char in ("\x1b", "\x07", "\x9b", "\u202e", "\u200b", "\u2066", "\u2069"):
        assert char not in out
    assert "evil\\x1b[2J.yaml" in out
    assert "bad \\x1b[31mred\\x1b[0m \\x9b2J \\u2066hidden\\u2069" in out
    assert 'name: "x\\x1b]8;;http://e\\x07y\\u202ez\\u200b"' in out


def test_no_colour_codes_when_the_stream_is_not_a_terminal():
    out = _render(_result([_finding("a.yaml", 4, 9, severity=Severity.ERROR)], {"a.yaml": WEATHER}))
    assert "\x1b" not in out


def test_summary_line_counts_files_tools_and_severities():
    result = _result(
        [_finding("a.yaml", 2, 7, severity=Severity.ERROR), _finding("a.yaml", 3, 1), _finding("a.yaml", 4, 1)],
        {"a.yaml": WEATHER, "b.yaml": WEATHER},
        tools=3,
    )
    last = _render(result).rstrip("\n").splitlines()[-1]
    assert last == "2 files, 3 tools: 1 error, 2 warnings, 0 info"


def test_summary_when_clean():
    out = _render(_result([], {"a.yaml": WEATHER}))
    assert out.strip() == "All clean: 1 file, 1 tool, no findings."


def test_lint_end_to_end_through_the_engine():
    result = lint_files([("w.yaml", b"toolcontract: 1\nname: weather_current\neffect: rea\n")])
    out = _render(result)
    assert out.startswith("w.yaml")
    assert "effect: rea" in out
    assert out.rstrip().splitlines()[-1].startswith("1 file, 1 tool: ")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_severity_is_coloured_on_a_terminal_and_input_markup_is_not(monkeypatch):
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLORTERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    message = "[bold red]boom[/] [link=http://evil]y[/link]"
    result = _result(
        [_finding("a.yaml", 4, 9, severity=Severity.ERROR, message=message), _finding("a.yaml", 2, 7)],
        {"a.yaml": WEATHER},
    )
    stream = _Terminal()
    render_lint(result, stream)
    out = stream.getvalue()
    assert "\x1b[1;31merror" in out  # red
    assert "\x1b[33mwarning" in out  # yellow
    assert message in out  # literal, not styled
    assert "\x1b]8;" not in out  # no hyperlink was made from the input


# ---------------------------------------------------------------- assess (rich)


def _assess_rich(args, verbose=False):
    from typer.testing import CliRunner

    from toolcontract.cli import app

    # a wide console, whatever runs the tests: the table layout is what these check (below 100 columns: text)
    return CliRunner().invoke(app, ["assess", *args, "--format", "rich", *(["-v"] if verbose else [])],
                              env={"COLUMNS": "160"})


def test_assess_rich_has_a_table_per_file_a_trail_and_a_summary():
    result = _assess_rich(["fixtures/invocations/seed_two_gates.yaml"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "fixtures/invocations/seed_two_gates.yaml" in out
    assert "delete_all_orders" in out and "rejected @registry" in out
    assert "✓✗·····" in out  # parse passed, registry refused, the rest not reached
    assert "every expectation met" in out.splitlines()[-1]


def test_assess_rich_verbose_shows_model_view_and_evidence():
    result = _assess_rich(["fixtures/invocations/seed_two_gates.yaml"], verbose=True)
    assert "model view:" in result.output and "reason:" in result.output
    assert '"candidate"' not in result.output  # the full evidence is --format json's, not 40 lines a case here


def test_assess_rich_shows_unmet_expectations_and_escapes_input(tmp_path):
    fixture = tmp_path / "f.yaml"
    fixture.write_text(
        "toolcontract: 1\ncases:\n  - id: \"x[bold]\\x1b[31mred\"\n"
        "    candidate: {id: c1, name: \"nope[/]\", arguments: {}}\n    context: {}\n    expect: {outcome: allowed}\n"
    )
    result = _assess_rich([str(fixture)])
    assert result.exit_code == 1
    assert "\x1b[31m" not in result.output and "\\x1b[31m" in result.output
    assert "x[bold]" in result.output and "nope[/]" in result.output
    assert "EXPECTED outcome=allowed" in result.output and "GOT outcome=rejected" in result.output
