"""TC704 tool-removed: A tool that the old version offered is gone (a rename is a removal plus an addition)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.diff import Area, Level
from toolcontract.lint.context import DiffContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc7_change.examples import TWO_TOOLS
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC704",
    name="tool-removed",
    severity=Severity.ERROR,
    summary="A tool that the old version offered is gone (a rename is a removal plus an addition).",
    rationale=(
        "A removed tool breaks every caller, prompt and fixture that names it, and no version number of the "
        "tool can say so. Reported at the tool in the old version. When the removal is meant, say so for that "
        "run (`--ignore TC704`) and announce it to callers."
    ),
    examples=(
        Bad("toolcontract: 1\ntools:\n  - name: weather_current\n    version: 1.2.0\n    effect: read\n",
            line=6, column=11, message="callers that name it will fail", before=TWO_TOOLS,
            note="weather_forecast removed; the hit is in the old version"),
        Good(TWO_TOOLS.replace("1.2.0", "1.2.1"), before=TWO_TOOLS),
    ),
    scope="diff",
)


def check(ctx: DiffContext) -> Iterator[Hit]:
    diff = ctx.diff
    for change in diff.changes:
        if change.area is Area.TOOL and change.level is Level.BREAKING:
            yield Hit(change.path, f"tool {diff.name!r} removed ("
                                   + (f"was version {diff.old_version}" if diff.old_version else "it had no version")
                                   + "): callers that name it will fail", change.anchor, subject=change.side)
