"""`github`: GitHub Actions workflow commands, one annotation per finding:

    ::error file=PATH,line=L,col=C,title=RULE rule-name [TOOL]::MESSAGE

`[TOOL]` names the finding's tool, when it has one. Every finding is annotated: unlike
text and rich, repeats of a rule are not summarised.

Escaped as GitHub's runner expects: `%`, CR and LF in the message; those and `:`
and `,` in property values. Nothing from the input can end the command early or
start another one, and terminal controls are shown as escapes (`printable`).
"""

from __future__ import annotations

from typing import TextIO

from toolcontract.core.model import Severity
from toolcontract.report.common import printable

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
