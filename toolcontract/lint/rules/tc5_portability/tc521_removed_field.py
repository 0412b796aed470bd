"""TC521 removed-field: An MCP tool served under 2026-07-28 still carries a field that revision removed (`execution.taskSupport`)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.descriptor import mcp_at_least
from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext

_LIST = ("resultType: complete\nttlMs: 60000\ncacheScope: public\ntools:\n  - name: export_report\n"
         "    description: Export the monthly report as a PDF file.\n    inputSchema: {type: object}\n")

# field of an MCP Tool -> (the revision that removed it, what to do instead)
_REMOVED = {
    "execution": ("2026-07-28", "tasks moved to an extension (SEP-2663): declare task support there, and drop "
                  "`execution` from the tool"),
}


RULE = Rule(
    id="TC521",
    name="removed-field",
    severity=Severity.WARNING,
    summary="An MCP tool served under 2026-07-28 still carries a field that revision removed "
            "(`execution.taskSupport`).",
    rationale=(
        "MCP 2026-07-28 removed the tool's `execution` object (`taskSupport`: forbidden, optional, required): "
        "tasks became an extension (SEP-2663). A client of that revision ignores the field, so a tool that "
        "needs task-augmented execution (`taskSupport: required`) is called as a plain request and a "
        "long-running call times out. A tool list says its revision by `resultType`, `ttlMs` or `cacheScope` "
        "(or `protocolVersion`), or `--mcp-revision` names it; lists of 2025-11-25 keep `execution`."
    ),
    examples=(
        Bad(_LIST + "    execution: {taskSupport: optional}\n",
            line=8, column=5, message="(taskSupport) was removed in MCP 2026-07-28"),
        Good(_LIST),
        Good(_LIST.replace("resultType: complete\nttlMs: 60000\ncacheScope: public\n", "") +
             "    execution: {taskSupport: optional}\n", note="a 2025-11-25 list: `execution` is still there"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    raw = tool.raw
    if not isinstance(raw, dict):
        return
    for field, (revision, instead) in _REMOVED.items():
        if field in raw and mcp_at_least(tool, revision):
            what = f"`{field}`" + (" (taskSupport)" if isinstance(raw[field], dict) and "taskSupport" in raw[field]
                                   else "")
            yield Hit((field,), f"{what} was removed in MCP {revision}, the revision this list is served under: "
                      f"its clients ignore it; {instead}", anchor="key")
