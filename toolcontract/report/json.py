"""`json`: {"version": 1, "findings": [...], "summary": {...}} — a contract other tools parse."""

from __future__ import annotations

import json
from typing import TextIO

from toolcontract import jsoncodec
from toolcontract.report.common import AssessReporter, lint_summary


def render_lint(result, stream: TextIO) -> None:
    document = {
        "version": 1,
        "findings": [f.as_dict() for f in result.findings],
        "summary": lint_summary(result),
    }
    stream.write(jsoncodec.dumps(document, indent=2) + "\n")


class AssessReport(AssessReporter):
    """Streams `{"version": 1, "cases": [...], "summary": {...}}`: one case in memory at a time.

    A run that reads transcripts adds `"conversations": [...]` (one summary with its findings
    per conversation) after `cases`; they are spooled (to disk past 1 MiB) until the cases end.
    """

    def __init__(self, stream, verbose: bool = False) -> None:
        super().__init__(stream, verbose)
        self.stream.write('{"version": 1, "cases": [')
        self._first = True
        self._conversations = None

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
        self.stream.write(("\n" if self._first else ",\n") + jsoncodec.dumps(envelope.as_dict()))
        self._first = False

    def finish(self, error: str | None = None) -> None:
        if self._conversations is not None:
            self.stream.write('\n], "conversations": [')
            self._conversations.seek(0)
            while chunk := self._conversations.read(1 << 16):
                self.stream.write(chunk)
            self._conversations.close()
        self.stream.write('\n], "summary": ' + json.dumps(self.summary.as_dict()) + "}\n")
