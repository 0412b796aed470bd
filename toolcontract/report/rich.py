"""`rich`: the terminal format — findings grouped by file (and by tool in a file of many
tools), each with its source line and a caret under the column; past 10 findings of one
rule in a file, one line counts the rest; then a tally by rule and a summary line.

Every input-derived string (paths, messages, source lines) goes through `printable`
and into `rich.text.Text` objects, which never interpret markup: a descriptor that
says "[bold red]x[/]" or "\\x1b[2J" prints literally. The reporter reads no files;
source lines come from the documents the engine already loaded. rich is imported
only here, because it is slow to import and the text and json formats do not need it.
"""

from __future__ import annotations

from typing import TextIO

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from toolcontract.core.model import Severity
from toolcontract.report.common import (by_file, limit_repeats, lint_summary, more_line, printable, rule_tally, line_start,
                                        skipped_note)

SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "blue"}
SEVERITY_WIDTH = max(len(s.label) for s in Severity)
# a source line longer than this is shown as a window around the column (minified JSON);
# narrower, down to MIN_SOURCE_CHARS, when the console is too narrow to show it unwrapped
MAX_SOURCE_CHARS = 120
MIN_SOURCE_CHARS = 40


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1 and word != 'info')}"


def _counts(findings) -> dict[Severity, int]:
    counts = {s: 0 for s in sorted(Severity, reverse=True)}
    for finding in findings:
        counts[finding.severity] += 1
    return counts


def _severity_counts(counts: dict[Severity, int], *, zeros: bool) -> Text:
    text = Text()
    parts = [(s, n) for s, n in counts.items() if n or zeros]
    for index, (severity, count) in enumerate(parts):
        if index:
            text.append(", ")
        text.append(_plural(count, severity.label), style=SEVERITY_STYLE[severity] if count else "")
    return text


def _display(segment: str) -> str:
    # tabs would jump to the terminal's tab stops and move the caret off its column
    return printable(segment).replace("\t", " ")


def source_excerpt(line_text: str, column: int, max_chars: int = MAX_SOURCE_CHARS) -> tuple[str, int]:
    """The source line as shown (made printable, windowed when longer than `max_chars`) and the
    caret's cell offset in it."""
    index = min(max(column - 1, 0), len(line_text))
    start = 0
    end = len(line_text)
    if end > max_chars:
        start = max(0, min(index - max_chars // 2, end - max_chars))
        end = start + max_chars
    head = "..." if start > 0 else ""
    tail = "..." if end < len(line_text) else ""
    prefix = head + _display(line_text[start:index])
    return prefix + _display(line_text[index:end]) + tail, cell_len(prefix)


TOOL_STYLE = "bold cyan"


def _tools(findings) -> list[str]:
    """The tools the findings name, in the order they first appear."""
    return list(dict.fromkeys(f.tool for f in findings if f.tool is not None))


def _provider_paths(result) -> set[str]:
    """Files whose tools were read from a provider format (MCP, OpenAI, ...): lists of many tools."""
    return {view.document.path for view in getattr(result, "tool_views", ()) if view.format != "native"}


class _FileBlock:
    """One file's findings as rows: position, severity, rule and message, then source and caret."""

    def __init__(self, console: Console, document, shown) -> None:
        self.console = console
        self.document = document
        self.position_width = max((len(f"{f.line}:{f.column}") for f in shown), default=0)
        self.gutter_width = max((len(str(f.line)) for f in shown), default=0)

    def row(self, finding, indent: str) -> None:
        row = Text(indent)
        row.append(f"{finding.line}:{finding.column}".ljust(self.position_width), style="dim")
        row.append("  ")
        row.append(finding.severity.label.ljust(SEVERITY_WIDTH), style=SEVERITY_STYLE[finding.severity])
        row.append("  ")
        row.append(finding.rule, style="bold")
        row.append("  ")
        row.append(printable(finding.message))
        self.console.print(row)
        if self.document is None:  # the file did not load (TC000): there is no source to show
            return
        line_text = self.document.line_text(finding.line)
        if not line_text.strip():
            return
        # the whole line if it fits unwrapped (a wrapped line leaves the caret under the wrong character),
        # else a window that fits with its "..." on both sides
        room = min(MAX_SOURCE_CHARS, self.console.width - len(indent) - 2 - self.gutter_width - len(" | "))
        window = room if len(line_text) <= room else max(MIN_SOURCE_CHARS, room - len("......"))
        shown, caret = source_excerpt(line_text, finding.column, window)
        source = Text(indent + "  ")
        source.append(str(finding.line).rjust(self.gutter_width), style="dim")
        source.append(" | ", style="dim")
        source.append(shown)
        self.console.print(source)
        pointer = Text(indent + "  " + " " * self.gutter_width)
        pointer.append(" | ", style="dim")
        pointer.append(" " * caret)
        pointer.append("^", style=SEVERITY_STYLE[finding.severity])
        self.console.print(pointer)


def _tally(tally, width: int) -> Text:
    """`by rule: TC403 additional-properties-open 3, TC201 purpose-missing 1, ...`, wrapped
    between entries (never inside one) to fit `width`; continuation lines are indented."""
    text = Text()
    text.append("by rule:", style="dim")
    column = len("by rule:")
    for index, (rule, name, count, severity) in enumerate(tally):
        entry = f"{rule} {name} {count}"
        comma = "," if index < len(tally) - 1 else ""
        if index and column + 1 + len(entry) + len(comma) > width:
            text.append("\n        ")
            column = 8
        text.append(" ")
        text.append(rule, style=SEVERITY_STYLE[severity])
        text.append(f" {name} {count}{comma}")
        column += 1 + len(entry) + len(comma)
    return text


def render_lint(result, stream: TextIO) -> None:
    """Per file a header (path and counts), its findings in line order, then a tally by rule and
    the summary. A provider file, or any file whose findings name several tools, has its findings
    grouped under one sub-header per tool (name and counts); a file of one tool names it in the
    header. Past REPEAT_LIMIT findings of one rule in a file, one line counts the rest."""
    console = Console(file=stream, highlight=False, soft_wrap=True, markup=False, emoji=False)
    providers = _provider_paths(result)

    for path, findings in by_file(result.findings).items():  # already sorted by path, line, column, rule
        shown, hidden = limit_repeats(findings)
        tools = _tools(findings)
        grouped = path in providers or len(tools) > 1
        header = Text()
        header.append(line_start(printable(path)), style="bold underline")
        if tools and not grouped:
            header.append("  ")
            header.append(printable(tools[0]), style=TOOL_STYLE)
        header.append("  ")
        header.append_text(_severity_counts(_counts(findings), zeros=False))
        console.print(header)
        block = _FileBlock(console, result.documents.get(path), shown)
        if not grouped:
            for finding in shown:
                block.row(finding, "  ")
        else:
            for finding in shown:  # findings about the file itself (no tool) come first
                if finding.tool is None:
                    block.row(finding, "  ")
            rows: dict[str, list] = {tool: [] for tool in tools}
            for finding in shown:
                if finding.tool is not None:
                    rows[finding.tool].append(finding)
            of_tool: dict[str, list] = {tool: [] for tool in tools}
            for finding in findings:
                if finding.tool is not None:
                    of_tool[finding.tool].append(finding)
            for tool in tools:
                if not rows[tool]:  # all of its findings are past the limit: counted below
                    continue
                sub = Text("  ")
                sub.append(printable(tool), style=TOOL_STYLE)
                sub.append("  ")
                sub.append_text(_severity_counts(_counts(of_tool[tool]), zeros=False))
                console.print(sub)
                for finding in rows[tool]:
                    block.row(finding, "    ")
        for rule, count in hidden.items():
            console.print(Text(f"  \u2026 {more_line(rule, count)}", style="dim"))
        console.print()

    summary = lint_summary(result)
    if summary["skipped"]:
        console.print(Text(skipped_note(summary["skipped"]), style="dim"))
    checked = f"{_plural(summary['files'], 'file')}, {_plural(summary['tools'], 'tool')}"
    if not result.findings:
        console.print(Text.assemble(("All clean", "bold green"), f": {checked}, no findings."))
        return
    console.print(_tally(rule_tally(result.findings), console.width))
    line = Text(f"{checked}: ")
    line.append_text(_severity_counts(_counts(result.findings), zeros=True))
    console.print(line)


# ---------------------------------------------------------------------- assess
