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
    """Streams `{"version": 1, "cases": [...], "summary": {...}}`: one case in memory at a time."""

    def __init__(self, stream, verbose: bool = False) -> None:
        super().__init__(stream, verbose)
        self.stream.write('{"version": 1, "cases": [')
        self._first = True

    def case(self, envelope) -> None:
        super().case(envelope)
        self.stream.write(("\n" if self._first else ",\n") + jsoncodec.dumps(envelope.as_dict()))
        self._first = False

    def finish(self, error: str | None = None) -> None:
        self.stream.write('\n], "summary": ' + json.dumps(self.summary.as_dict()) + "}\n")
