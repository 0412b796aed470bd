"""`json`: {"version": 1, "findings": [...], "summary": {...}} — a contract other tools parse."""

from __future__ import annotations

import json
from typing import TextIO

from toolcontract.core import jsoncodec
from toolcontract.report.common import AssessReporter, lint_summary


def render_lint(result, stream: TextIO) -> None:
    document = {
        "version": 1,
        "findings": [f.as_dict() for f in result.findings],
        "summary": lint_summary(result),
    }
    stream.write(jsoncodec.dumps(document, indent=2) + "\n")


class AssessReport(AssessReporter):
    """Streams `{"version": 1, "cases": [...], "summary": {...}}`: memory stays flat (cases are
    written in chunks of about `CHUNK` characters, never gathered whole).

    A run that reads transcripts adds `"conversations": [...]` (one summary with its findings
    per conversation) after `cases`; they are spooled (to disk past 1 MiB) until the cases end.
    """

    CHUNK = 1 << 18  # characters of case text gathered per write: one write per ~150 cases, not one each

    def __init__(self, stream, verbose: bool = False) -> None:
        super().__init__(stream, verbose)
        self.stream.write('{"version": 1, "cases": [')
        self._first = True
        self._conversations = None
        self._pending: list[str] = []  # case text not yet written (about CHUNK characters at most)
        self._pending_size = 0

    def _flush_cases(self) -> None:
        if self._pending:
            self.stream.write("".join(self._pending))
            self._pending.clear()
            self._pending_size = 0

    def conversation(self, report) -> None:
        super().conversation(report)
        if self._conversations is None:
            import tempfile

            self._conversations = tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8")
        else:
            self._conversations.write(",")
        self._conversations.write("\n" + jsoncodec.dumps(report.as_dict()))

    def case(self, envelope) -> None:
        super().case(envelope)
        text = jsoncodec.dumps(envelope.as_dict())
        self._pending.append("\n" if self._first else ",\n")
        self._pending.append(text)
        self._first = False
        self._pending_size += len(text)
        if self._pending_size >= self.CHUNK:
            self._flush_cases()

    def finish(self, error: str | None = None) -> None:
        self._flush_cases()
        if self._conversations is not None:
            self.stream.write('\n], "conversations": [')
            self._conversations.seek(0)
            while chunk := self._conversations.read(1 << 16):
                self.stream.write(chunk)
            self._conversations.close()
        tools = [stats.as_dict() for stats in sorted(self.summary.tools.values(), key=lambda s: (-s.calls, s.tool))]
        self.stream.write('\n], "tools": ' + json.dumps(tools, ensure_ascii=False) + ', "summary": '
                          + json.dumps(self.summary.as_dict()) + "}\n")
