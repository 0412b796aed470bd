"""`text`: one finding per line, `path:line:col: severity RULE message`, then a summary line."""

from __future__ import annotations

from typing import TextIO

from toolcontract.report.common import lint_summary, printable


def render_lint(result, stream: TextIO) -> None:
    for f in result.findings:
        stream.write(f"{printable(f.path)}:{f.line}:{f.column}: {f.severity.label} {f.rule} {printable(f.message)}\n")
    s = lint_summary(result)
    stream.write(
        f"{s['files']} file{'s' * (s['files'] != 1)}, {s['tools']} tool{'s' * (s['tools'] != 1)}: "
        f"{s['error']} error{'s' * (s['error'] != 1)}, {s['warning']} warning{'s' * (s['warning'] != 1)}, "
        f"{s['info']} info\n"
    )
