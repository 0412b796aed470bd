"""`rich` for assess: per file, a table of its cases that streams (rows are printed in chunks as they
come, never gathered whole), then each transcript's conversations, then a summary by outcome.

Rows are laid out here, not by rich's Table (which measures every cell of a table before it prints
one and costs milliseconds a row): column widths grow as a chunk needs them and never shrink within
a file, ids and tool names are never wrapped, and what remains unverified goes on an indented second
line. Below 100 columns the layout is the `text` format's, coloured. Every input-derived string goes
through `printable` and into `Text`, which never reads markup.
"""

from __future__ import annotations

import os
from typing import TextIO

from rich.console import Console
from rich.text import Text

from toolcontract.assessment.classify import TASK_ACCEPTANCE
from toolcontract.core.model import GATE_ORDER, Outcome, Severity
from toolcontract.report.common import (AssessReporter, evidence_notes, expectation_note, line_start, printable,
                                        short_summary)
from toolcontract.report.rich import SEVERITY_STYLE, SEVERITY_WIDTH, _severity_counts

OUTCOME_STYLE = {
    Outcome.SUCCEEDED: "green",
    Outcome.ALLOWED: "green",
    Outcome.NEEDS_EVIDENCE: "yellow",
    Outcome.REQUIRES_APPROVAL: "yellow",
    Outcome.TIMED_OUT: "dark_orange",
    Outcome.CANCELLED: "dark_orange",
    Outcome.REJECTED: "red",
    Outcome.FAILED: "red",
    Outcome.BLOCKED: "bold red",
    Outcome.EFFECT_UNKNOWN: "bold red",
}
TRAIL_MARK = {"passed": ("✓", "green"), "refused": ("✗", "bold red"), "not_reached": ("·", "dim"),
              "not_judged": ("–", "yellow")}
GATE_LEGEND = " ".join(gate.value for gate in GATE_ORDER)
CHUNK = 100  # rows laid out and printed together
NARROW = 100  # below this many columns, the text layout
HEADERS = ("case", "tool", "trail", "outcome", "effect", "next step")


def _trail(trail) -> Text:
    text = Text()
    for step in trail:
        mark, style = TRAIL_MARK.get(step["result"], ("?", ""))
        text.append(mark, style=style)
    return text


def _outcome(envelope) -> str:
    return envelope.outcome.value + (f" @{envelope.gate.value}" if envelope.gate is not None else "")


class AssessReport(AssessReporter):
    PER_FILE_TOOLS = True

    def __init__(self, stream: TextIO, verbose: bool = False) -> None:
        super().__init__(stream, verbose)
        self.console = Console(file=stream, highlight=False, soft_wrap=True, markup=False, emoji=False)
        if not self.console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
            self.console.width = max(self.console.width, 160)  # a file or a pipe, and no COLUMNS: no width to fit
        self.narrow = self.console.width < NARROW
        self.rows: list = []
        self.widths: list[int] = []
        self.path: str | None = None
        self.conversations: list = []

    def begin_file(self, path: str) -> None:
        super().begin_file(path)
        self.path = path
        self.rows = []
        self.widths = [len(h) for h in HEADERS]
        self.conversations = []
        self.file_narrow = self.narrow  # also when the file's first rows are wider than the console
        self.console.print(Text(line_start(printable(path)), style="bold"))

    def case(self, envelope) -> None:
        super().case(envelope)
        self.rows.append(envelope)
        if len(self.rows) >= CHUNK:
            self._flush_rows()

    def conversation(self, report) -> None:
        super().conversation(report)
        self._flush_rows()
        self.conversations.append(report)
        if len(self.conversations) >= CHUNK:
            self._flush_conversations()

    def end_file(self, path: str) -> None:
        self._flush_rows()
        self._flush_conversations()
        for stats in sorted(self.summary.file_tools.values(), key=lambda s: (-s.calls, s.tool)):
            self.console.print(Text("  " + stats.line(), style="dim"))
        self.console.print()

    # ---------------------------------------------------------------- cases

    def _flush_rows(self) -> None:
        rows, self.rows = self.rows, []
        if not rows:
            return
        if self.file_narrow:
            for envelope in rows:
                self._narrow_row(envelope)
            return
        cells = [(printable(e.case_id), printable(e.tool or "-"), e, _outcome(e)) for e in rows]
        first = self.widths == [len(h) for h in HEADERS] and not getattr(self, "_header_printed", None) == self.path
        widths = list(self.widths)
        for case_id, tool, envelope, outcome in cells:
            widths[0] = max(widths[0], len(case_id))
            widths[1] = max(widths[1], len(tool))
            widths[2] = max(widths[2], len(envelope.trail))
            widths[3] = max(widths[3], len(outcome))
            widths[4] = max(widths[4], len(envelope.effect.value))
        if first and 2 + sum(widths[:5]) + 2 * 5 + max(len(e.next_step.value) for e in rows) > self.console.width:
            # the table would not fit: the terminal would wrap its rows mid-word; the text layout for this file
            self.file_narrow = True
            for envelope in rows:
                self._narrow_row(envelope)
            return
        self.widths = widths
        if first:
            self._header_printed = self.path
            self.console.print(Text("  " + "  ".join(h.ljust(w) for h, w in zip(HEADERS, self.widths)).rstrip(),
                                    style="bold dim"))
        block = Text()
        for case_id, tool, envelope, outcome in cells:
            row = block
            row.append("  ")
            row.append(case_id.ljust(self.widths[0]))
            row.append("  ")
            row.append(tool.ljust(self.widths[1]))
            row.append("  ")
            trail = _trail(envelope.trail)
            row.append_text(trail)
            row.append(" " * (self.widths[2] - len(envelope.trail) + 2))
            row.append(envelope.outcome.value, style=OUTCOME_STYLE[envelope.outcome])
            if envelope.gate is not None:
                row.append(f" @{envelope.gate.value}", style="dim")
            row.append(" " * (self.widths[3] - len(outcome) + 2))
            row.append(envelope.effect.value.ljust(self.widths[4]))
            row.append("  ")
            row.append(envelope.next_step.value)
            row.append("\n")
            self._details(envelope, "    ", block)
        block.rstrip()
        self.console.print(block, no_wrap=True, overflow="ignore", crop=False)

    def _narrow_row(self, envelope) -> None:
        source = envelope.source or {}
        row = Text()
        row.append(f"{line_start(printable(source.get('path', '-')))}:{source.get('line', 0)}: ", style="dim")
        row.append(envelope.outcome.value, style=OUTCOME_STYLE[envelope.outcome])
        row.append(f" {printable(envelope.case_id)} tool={printable(envelope.tool or '-')} "
                   f"gate={envelope.gate.value if envelope.gate else '-'} effect={envelope.effect.value} "
                   f"next={envelope.next_step.value}")
        row.append("\n")
        self._details(envelope, "    ", row)
        row.rstrip()
        self.console.print(row)

    def _details(self, envelope, indent: str, into: Text) -> None:
        """The lines under a case's row: what remains unverified, an unmet expectation, and with
        --verbose its reasons and what the model is shown (the full evidence is in --format json)."""
        scope = [printable(item) for item in envelope.unverified_scope if item != TASK_ACCEPTANCE]
        if scope:
            into.append(f"{indent}unverified: " + "; ".join(scope) + "\n", style="dim")
        if not envelope.expect_met:
            want = ", ".join(f"{k}={v or '-'}" for k, v in envelope.expect["want"].items())
            got = ", ".join(f"{k}={v or '-'}" for k, v in envelope.expect["got"].items())
            into.append(f"{indent}EXPECTED {want}; GOT {got}\n", style="bold magenta")
        if self.verbose:
            for reason in envelope.reasons:
                into.append(f"{indent}reason: {printable(reason)}\n")
            into.append(f"{indent}model view: {printable(envelope.model_view['content'])}\n", style="cyan")
            if envelope.model_view.get("omitted"):
                into.append(f"{indent}omitted from the model: {', '.join(envelope.model_view['omitted'])}\n",
                            style="dim")

    # -------------------------------------------------------- conversations

    def _flush_conversations(self) -> None:
        reports, self.conversations = self.conversations, []
        for report in reports:
            line = Text("  conversation ", style="dim")
            line.append(printable(report.id), style="bold")
            calls = f"{report.calls} call{'s' * (report.calls != 1)}" + (
                f" ({report.unanswered} unanswered)" if report.unanswered else "")
            line.append(f" ({report.format}, line {report.line}): {report.messages} messages, {report.rounds} rounds, "
                        f"{calls}; ")
            for index, (outcome, count) in enumerate(sorted(report.by_outcome.items())):
                if index:
                    line.append(", ")
                line.append(f"{outcome} {count}", style=OUTCOME_STYLE[Outcome(outcome)])
            if not report.by_outcome:
                line.append("no calls", style="dim")
            counts = {s: 0 for s in sorted(Severity, reverse=True)}
            for finding in report.findings:
                counts[finding.severity] += 1
            line.append("; ")
            line.append_text(_severity_counts(counts, zeros=False) if report.findings else Text("clean", style="green"))
            self.console.print(line)
            for finding in report.findings:
                row = Text("    ")
                row.append(f"{finding.line}:{finding.column}", style="dim")
                row.append("  ")
                row.append(finding.severity.label.ljust(SEVERITY_WIDTH), style=SEVERITY_STYLE[finding.severity])
                row.append("  ")
                row.append(finding.rule, style="bold")
                row.append("  ")
                row.append(printable(finding.message))
                row.append(f"  (message {finding.message_index})", style="dim")
                self.console.print(row)

    def finish(self, error: str | None = None) -> None:
        for index, line in enumerate(short_summary(self)):
            self.console.print(Text(line_start(line), style="bold magenta" if index == 0 else "magenta"),
                               no_wrap=True, overflow="ignore", crop=False)
        s = self.summary
        self.console.print(Text(f"trail: {GATE_LEGEND}. Every case also leaves {TASK_ACCEPTANCE} unverified.",
                                style="dim"))
        text = Text(f"{s.cases} case{'s' * (s.cases != 1)}: ")
        for index, (outcome, count) in enumerate(sorted(s.by_outcome.items())):
            if index:
                text.append(", ")
            text.append(f"{outcome} {count}", style=OUTCOME_STYLE[Outcome(outcome)])
        if not s.by_outcome:
            text.append("none")
        text.append(expectation_note(s), style="bold magenta" if s.expect_failed else "")
        self.console.print(text)
        for note in evidence_notes(s):
            self.console.print(Text(note, style="yellow"))
        if s.conversations:
            line = Text(f"{s.conversations} conversation{'s' * (s.conversations != 1)}: ")
            line.append_text(_severity_counts({sev: s.conversation_findings[sev.label]
                                               for sev in sorted(Severity, reverse=True)}, zeros=True))
            self.console.print(line)
