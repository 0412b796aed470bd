"""TC703 contract-changed: A change to a tool's contract, classified as breaking or compatible and versioned as it
should be."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.diff import Area, Level, ToolDiff
from toolcontract.lint.context import DiffContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc7_change.examples import LANG, WEATHER_V1, weather
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC703",
    name="contract-changed",
    severity=Severity.INFO,
    summary="A change to a tool's contract, classified as breaking or compatible and versioned as it should be.",
    rationale=(
        "A reviewer of a descriptor change wants the list of what changed for callers, not a text diff: "
        "this is that list — every added tool, every breaking change that came with a major version, every "
        "compatible change that came with a minor one, and every change to the text the model reads. "
        "Changes that are not versioned as they should be are reported as TC701 or TC702 instead."
    ),
    examples=(
        Bad(weather(version="1.3.0", extra=LANG),
            line=10, column=5, message="compatible: input_schema: optional property 'lang' added", before=WEATHER_V1,
            note="compatible: an optional property added, with a minor bump"),
        Good(WEATHER_V1, before=WEATHER_V1, note="no change"),
    ),
    scope="diff",
)


def check(ctx: DiffContext) -> Iterator[Hit]:
    diff = ctx.diff
    for change in diff.changes:
        if _reported_elsewhere(diff, change.level, change.area):
            continue
        suffix = "" if change.area is Area.TOOL else f" ({diff.version_move()})"
        yield Hit(change.path, f"{change.level.value}: {change.message}{suffix}", change.anchor, subject=change.side)


def _reported_elsewhere(diff: ToolDiff, level: Level, area: Area) -> bool:
    if area is Area.TOOL:
        return level is Level.BREAKING  # a removed tool: TC704
    if level is Level.BREAKING:
        return not diff.bump.allows_breaking
    return area.contract and not diff.bump.allows_contract_change
