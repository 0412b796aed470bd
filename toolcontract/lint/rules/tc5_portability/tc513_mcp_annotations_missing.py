"""TC513 mcp-annotations-missing: A pure or read tool has no `readOnlyHint`, so MCP clients treat it as destructive."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Edit, Fix, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER
from toolcontract.lint.rules.tc5_portability.messages import names
from toolcontract.core.model import Effect, Severity


RULE = Rule(
    id="TC513",
    name="mcp-annotations-missing",
    severity=Severity.WARNING,
    summary="A pure or read tool has no `readOnlyHint`, so MCP clients treat it as destructive.",
    rationale=(
        "MCP annotations are hints with defaults: a tool that says nothing is assumed readOnlyHint false, "
        "destructiveHint true and openWorldHint true (MS, MT). A client that asks before destructive calls "
        "then asks before every call of a harmless read tool, and users learn to click through the "
        "confirmation. For a pure or read tool write `annotations: {readOnlyHint: true}` (and "
        "`openWorldHint: false` when it touches nothing outside its own data). Clients must still treat "
        "annotations from an untrusted server as untrusted; the effect class is what toolcontract acts on. "
        "A tool with no effect class (a provider list without a contract overlay) is not checked."
    ),
    examples=(
        Bad(WEATHER, line=1, column=1, message="no annotations, so mcp clients assume", note="no annotations at all"),
        Bad(WEATHER + "annotations: {title: Current weather}\n",
            line=10, column=1, message="annotations lack readOnlyHint"),
        Good(WEATHER + "annotations: {readOnlyHint: true, openWorldHint: true}\n"),
        Good(WEATHER.replace("effect: read", "effect: reversible_write"), note="a write tool: the default is safe"),
    ),
    surfaces=("mcp",),
    fixable="safe",
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    effect = tool.effect
    if effect not in (Effect.PURE, Effect.READ):
        return
    notes = tool.get("annotations")
    if isinstance(notes, dict) and "readOnlyHint" in notes:
        return  # a readOnlyHint: false is TC302's contradiction
    fix = "{readOnlyHint: true, openWorldHint: false}" if effect is Effect.PURE else "{readOnlyHint: true}"
    why = (f"{names(surfaces)} clients assume readOnlyHint false, destructiveHint true and openWorldHint "
           f"true for this {effect.value} tool: add `annotations: {fix}`")
    hints = {"readOnlyHint": True, "openWorldHint": False} if effect is Effect.PURE else {"readOnlyHint": True}
    title = f"write the annotations a {effect.value} effect implies"
    if isinstance(notes, dict):
        edits = tuple(Edit("set", ("annotations",), key, value) for key, value in hints.items() if key not in notes)
        yield Hit(("annotations",), f"annotations lack readOnlyHint, so {why}", anchor="key",
                  fix=Fix(edits, True, title))
    elif "annotations" in tool.data:
        fix = Fix((Edit("set", (), "annotations", hints),), True, title) if notes is None else None
        yield Hit(("annotations",), f"annotations are empty, so {why}", fix=fix)
    else:
        yield Hit((), f"no annotations, so {why}", anchor="value", fix=Fix((Edit("set", (), "annotations", hints),),
                                                                            True, title))
