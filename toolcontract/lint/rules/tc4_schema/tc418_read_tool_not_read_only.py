"""TC418 read-tool-not-read-only: an MCP tool named or described as a read (get, list, search, ...)
lacks `readOnlyHint: true`."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Edit, Fix, Good, Hit, Rule
from toolcontract.lint.rules.tc3_effects.verbs import reads_as_read
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC418",
    name="read-tool-not-read-only",
    severity=Severity.WARNING,
    summary="An MCP tool named or described as a read (get, list, search, ...) lacks `readOnlyHint: true`.",
    rationale=(
        "MCP clients decide from `annotations` whether to ask the user before a call. Without "
        "`readOnlyHint: true` (absent, or written false) a client reads the tool as one that may change "
        "its environment, and as destructive unless `destructiveHint: false` says otherwise: it asks before "
        "every call of a harmless lookup, and users learn to click through the confirmation that matters. "
        "A tool whose name starts with a read verb (get, list, search, read, fetch, find, query, describe, "
        "show, retrieve; in any form: `gets`, `listing`), or whose description's first sentence does, "
        "almost always changes nothing. Not reported: a tool whose name or first sentence joins a write "
        "verb to the read (`search_and_replace`, \"Get or create a label\"), and one whose contract overlay "
        "gives a consequential effect (it says the tool writes; then the hint is right)."
    ),
    examples=(
        Bad("tools:\n  - name: get_weather\n    description: Report the current weather in a city.\n"
            "    inputSchema: {type: object}\n", line=2, column=5, message="there are no annotations",
            note="no annotations"),
        Bad("tools:\n  - name: weather_report\n    description: Fetches the current weather in a city.\n"
            "    inputSchema: {type: object}\n    annotations:\n      title: Weather\n", line=5, column=5,
            message="the annotations have no readOnlyHint",
            note="the description's first verb; annotations without readOnlyHint"),
        Bad("tools:\n  - name: list_issues\n    inputSchema: {type: object}\n    annotations:\n"
            "      readOnlyHint: false\n      openWorldHint: true\n", line=5, column=21,
            message="but readOnlyHint is false", note="readOnlyHint written false"),
        Good("tools:\n  - name: get_weather\n    inputSchema: {type: object}\n    annotations: {readOnlyHint: true}\n"),
        Good("tools:\n  - name: search_and_replace\n    inputSchema: {type: object}\n"
             "    annotations: {readOnlyHint: false, destructiveHint: false}\n", note="a write verb joins the read"),
        Good("tools:\n  - name: label_ensure\n    description: Get or create a label in a repository.\n"
             "    inputSchema: {type: object}\n"),
        Good("toolcontract: 1\nname: get_weather\neffect: read\n", note="a native descriptor: no MCP hints"),
    ),
    fixable="unsafe",
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if tool.format != "mcp":
        return
    notes = tool.get("annotations")
    if notes is not None and not isinstance(notes, dict):
        return  # TC002 reports annotations that are no mapping
    read_only = notes.get("readOnlyHint") if notes is not None else None
    if read_only is not None and read_only is not False:
        return  # true, or a value of the wrong type (TC002 reports it)
    effect = tool.effect
    if effect is not None and tool.effect_origin is None and (effect.consequential or read_only is False):
        return  # the overlay says it writes; or says it reads, and TC302 reports the false hint
    found = reads_as_read(tool)
    if found is None:
        return
    verb, where = found
    advice = "MCP clients then treat it as a write and may ask before every call; set `readOnlyHint: true`"
    # unsafe: the tool's own name or description says read, but only its author knows that it writes nothing
    if isinstance(notes, dict):
        fix = Fix((Edit("set", ("annotations",), "readOnlyHint", True),), False, "set `readOnlyHint: true`")
    else:
        fix = Fix((Edit("set", (), "annotations", {"readOnlyHint": True}),), False, "set `readOnlyHint: true`")
    if read_only is False:
        yield Hit(("annotations", "readOnlyHint"), f"the {where} says {verb!r}, a read, but readOnlyHint is false: "
                  f"{advice}", fix=fix)
    elif isinstance(notes, dict):
        yield Hit(("annotations",), f"the {where} says {verb!r}, a read, but the annotations have no "
                  f"readOnlyHint: {advice}", anchor="key", fix=fix)
    else:
        yield Hit((), f"the {where} says {verb!r}, a read, but there are no annotations: {advice}",
                  anchor="value", fix=fix)
