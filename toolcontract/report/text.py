"""`text`: one finding per line, then a tally by rule and a summary line.

    PATH:LINE:COL: SEVERITY RULE [TOOL] MESSAGE      a finding ([TOOL] only when it names a tool)
    PATH: ... and N more RULE in this file           findings of RULE past the first 10 in PATH
    by rule: RULE rule-name N, RULE rule-name N      every finding, by rule, most first
    N files skipped: not tool lists                  walked files that hold no tool list, if any
    F files, T tools: E errors, W warnings, I info   always the last line

Only finding lines have `:LINE:COL: ` after the path, so a regex for findings never takes
the other lines for one; `grep 'more TC601'` finds where findings were left out. Every
finding is counted in the last three kinds of line, shown or not (json keeps them all).
"""

from __future__ import annotations

from typing import TextIO

from toolcontract.report.common import (AssessReporter, by_file, limit_repeats, lint_summary, more_line, printable,
                                        rule_tally, line_start, short_summary, skipped_note, evidence_notes)


def finding_line(f) -> str:
    tool = "" if f.tool is None else f"[{printable(f.tool)}] "
    return f"{line_start(printable(f.path))}:{f.line}:{f.column}: {f.severity.label} {f.rule} {tool}{printable(f.message)}\n"


def render_findings(result, stream: TextIO) -> None:
    """`lint -q`: every finding, one line each as above, and nothing else (no tally, no summary, no
    line counting repeats: a quiet run leaves nothing out)."""
    stream.write("".join(map(finding_line, result.findings)))


def render_lint(result, stream: TextIO) -> None:
    for path, findings in by_file(result.findings).items():
        shown, hidden = limit_repeats(findings)
        stream.write("".join(map(finding_line, shown)))
        for rule, count in hidden.items():
            stream.write(f"{line_start(printable(path))}: ... {more_line(rule, count)}\n")
    if result.findings:
        stream.write("by rule: " + ", ".join(f"{rule} {name} {count}"
                                             for rule, name, count, _ in rule_tally(result.findings)) + "\n")
    s = lint_summary(result)
    if s["skipped"]:
        stream.write(skipped_note(s["skipped"]) + "\n")
    stream.write(
        f"{s['files']} file{'s' * (s['files'] != 1)}, {s['tools']} tool{'s' * (s['tools'] != 1)}: "
        f"{s['error']} error{'s' * (s['error'] != 1)}, {s['warning']} warning{'s' * (s['warning'] != 1)}, "
        f"{s['info']} info\n"
    )


class AssessReport(AssessReporter):
    """One line per case: `path:line: outcome case tool=… gate=… effect=… next=…`, want/got on a miss."""

    PER_FILE_TOOLS = True

    def case(self, envelope) -> None:
        super().case(envelope)
        source = envelope.source or {}
        where = f"{line_start(printable(source.get('path', '-')))}:{source.get('line', 0)}"
        line = (
            f"{where}: {envelope.outcome.value} {printable(envelope.case_id)} tool={printable(envelope.tool)} "
            f"gate={envelope.gate.value if envelope.gate else '-'} effect={envelope.effect.value} "
            f"next={envelope.next_step.value}"
        )
        if not envelope.expect_met:
            want = " ".join(f"{k}={v or '-'}" for k, v in envelope.expect["want"].items())
            got = " ".join(f"{k}={v or '-'}" for k, v in envelope.expect["got"].items())
            line += f" EXPECT-FAILED want {want} got {got}"
        self.stream.write(line + "\n")
        if self.verbose:
            for reason in envelope.reasons:
                self.stream.write(f"    reason: {printable(reason)}\n")
            for item in envelope.unverified_scope:
                self.stream.write(f"    unverified: {printable(item)}\n")

    def conversation(self, report) -> None:
        """Its findings as `path:line:col: severity RULE message (conversation, message)`, then one summary line."""
        super().conversation(report)
        for f in report.findings:
            self.stream.write(f"{line_start(printable(f.path))}:{f.line}:{f.column}: {f.severity.label} {f.rule} "
                              f"{printable(f.message)} ({printable(f.conversation)}, message {f.message_index})\n")
        self.stream.write(f"{line_start(printable(report.path))}:{report.line}: conversation {printable(report.id)} "
                          f"({report.format}): {conversation_counts(report)}\n")

    def finish(self, error: str | None = None) -> None:
        """The short summary of the cases that fail the run (if any), then the counts."""
        for line in short_summary(self):
            self.stream.write(line_start(line) + "\n")
        s = self.summary
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(s.by_outcome.items())) or "none"
        expectations = (f"{s.expect_failed} unmet expectation{'s' * (s.expect_failed != 1)}" if s.expected
                        else "no expectations")
        self.stream.write(f"{s.cases} case{'s' * (s.cases != 1)}: {outcomes}; {expectations}\n")
        if s.conversations:
            self.stream.write(f"{s.conversations} conversation{'s' * (s.conversations != 1)}: "
                              f"{severity_counts(s.conversation_findings)}\n")
        for note in evidence_notes(s):
            self.stream.write(note + "\n")

    def end_file(self, path: str) -> None:
        """The file's tools, one line each: `path: tool x: 12 calls (...); ...`."""
        for stats in sorted(self.summary.file_tools.values(), key=lambda s: (-s.calls, s.tool)):
            self.stream.write(f"{line_start(printable(path))}: {stats.line()}\n")


def severity_counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {label}{'s' * (n != 1 and label != 'info')}" for label, n in counts.items())


def conversation_counts(report) -> str:
    """`7 messages, 3 rounds, 4 calls (1 unanswered); succeeded 2, ...; 1 error, 0 warnings, 0 info`."""
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(report.by_outcome.items())) or "no calls"
    unanswered = f" ({report.unanswered} unanswered)" if report.unanswered else ""
    return (f"{report.messages} message{'s' * (report.messages != 1)}, {report.rounds} round"
            f"{'s' * (report.rounds != 1)}, {report.calls} call{'s' * (report.calls != 1)}{unanswered}; {outcomes}; "
            f"{severity_counts(report.by_severity)}")
