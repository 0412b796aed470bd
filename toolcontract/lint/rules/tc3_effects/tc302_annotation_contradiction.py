"""TC302 annotation-contradiction: an MCP annotation written in the file contradicts the effect class."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc3_effects.examples import GOOD_WRITE
from toolcontract.core.model import Effect, Severity


RULE = Rule(
    id="TC302",
    name="annotation-contradiction",
    severity=Severity.ERROR,
    summary="An MCP annotation written in the file contradicts the effect class.",
    rationale=(
        "MCP clients decide what to confirm with the user from annotations (readOnlyHint, destructiveHint, "
        "openWorldHint). An annotation that says read-only on a tool that writes makes the client skip the "
        "confirmation the effect class asks for. Only annotations written in the file are checked; absent "
        "ones are not contradictions (see the MCP portability rules for their defaults)."
    ),
    examples=(
        Bad(GOOD_WRITE + "annotations:\n  readOnlyHint: true\n", line=15, column=17,
            message="readOnlyHint: true, but the effect reversible_write"),
        Bad("toolcontract: 1\nname: weather_current\neffect: read\nannotations: {readOnlyHint: false}\n", line=4,
            column=29, message="readOnlyHint: false, but the effect is read"),
        Good(GOOD_WRITE + "annotations: {readOnlyHint: false, destructiveHint: false}\n"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    effect, notes = tool.effect, tool.get("annotations")
    if effect is None or not isinstance(notes, dict):
        return
    consequential = effect.consequential
    read_only = notes.get("readOnlyHint")
    if read_only is True and consequential:
        yield Hit(("annotations", "readOnlyHint"), f"readOnlyHint: true, but the effect {effect.value} changes the world")
    if read_only is False and not consequential:
        yield Hit(("annotations", "readOnlyHint"), f"readOnlyHint: false, but the effect is {effect.value}")
    if effect is Effect.IRREVERSIBLE_WRITE and notes.get("destructiveHint") is False:
        yield Hit(("annotations", "destructiveHint"), "destructiveHint: false, but the effect is irreversible_write")
    if effect is Effect.OPEN_WORLD and notes.get("openWorldHint") is False:
        yield Hit(("annotations", "openWorldHint"), "openWorldHint: false, but the effect is open_world")
