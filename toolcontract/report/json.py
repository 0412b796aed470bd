"""`json`: {"version": 1, "findings": [...], "summary": {...}} — a contract other tools parse."""

from __future__ import annotations

import json
from typing import TextIO

from toolcontract.report.common import lint_summary


def render_lint(result, stream: TextIO) -> None:
    document = {
        "version": 1,
        "findings": [f.as_dict() for f in result.findings],
        "summary": lint_summary(result),
    }
    json.dump(document, stream, ensure_ascii=False, indent=2)
    stream.write("\n")
