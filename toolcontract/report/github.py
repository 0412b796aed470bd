"""`github`: GitHub Actions workflow commands, one annotation per finding:

    ::error file=PATH,line=L,col=C,title=RULE rule-name [TOOL]::MESSAGE

`[TOOL]` names the finding's tool, when it has one. Every finding is annotated: unlike
text and rich, repeats of a rule are not summarised.

For assess: one annotation per conversation finding, and one `::error` per case that fails the run
(an unmet expectation, a `--fail-on` outcome) at the case's line, titled with the case id.

Escaped as GitHub's runner expects: `%`, CR and LF in the message; those and `:`
and `,` in property values. Nothing from the input can end the command early or
start another one, and terminal controls are shown as escapes (`printable`).
"""

from __future__ import annotations

from typing import TextIO

from toolcontract.core.model import Severity
from toolcontract.report.common import AssessReporter, printable, want_got

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    # terminal controls from the input are made visible first: the Actions log interprets ANSI
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(kind: str, path: str, line: int, column: int, title: str, message: str) -> str:
    properties = ",".join(
        f"{key}={escape_property(str(value))}"
        for key, value in (("file", path), ("line", line), ("col", column), ("title", title))
    )
    return f"::{kind} {properties}::{escape_data(message)}\n"


def render_lint(result, stream: TextIO) -> None:
    for f in result.findings:
        title = f"{f.rule} {f.name}" if f.tool is None else f"{f.rule} {f.name} [{f.tool}]"
        stream.write(annotation(COMMAND[f.severity], f.path, f.line, f.column, title, f.message))


class AssessReport(AssessReporter):
    """`assess --format github`: annotations as they come; nothing else (the summary is the job's exit code)."""

    def case(self, envelope) -> None:
        super().case(envelope)
        if envelope.expect_met and envelope.outcome not in self.failing_outcomes:
            return
        source = envelope.source or {}
        path, line = str(source.get("path", "-")), max(int(source.get("line") or 1), 1)
        if not envelope.expect_met:
            self.stream.write(annotation("error", path, line, 1, f"unmet expectation [{envelope.case_id}]",
                                         f"case {envelope.case_id}: {want_got(envelope)}"))
        if envelope.outcome in self.failing_outcomes:
            gate = f" at the {envelope.gate.value} gate" if envelope.gate is not None else ""
            self.stream.write(annotation("error", path, line, 1, f"failing outcome [{envelope.case_id}]",
                                         f"case {envelope.case_id}: {envelope.outcome.value}{gate} (failing); "
                                         f"effect {envelope.effect.value}, next step {envelope.next_step.value}"))

    def conversation(self, report) -> None:
        super().conversation(report)
        for f in report.findings:
            title = f"{f.rule} {f.name}" if f.tool is None else f"{f.rule} {f.name} [{f.tool}]"
            self.stream.write(annotation(COMMAND[f.severity], f.path, f.line, f.column, title,
                                         f"{f.message} ({f.conversation}, message {f.message_index})"))
