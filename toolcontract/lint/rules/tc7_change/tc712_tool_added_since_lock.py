"""TC712 tool-added-since-lock: A tool that the lockfile does not list."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import LockContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc7_change.examples import LOCKED_TWO
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC712",
    name="tool-added-since-lock",
    severity=Severity.WARNING,
    summary="A tool that the lockfile does not list.",
    rationale=(
        "A tool that appears unannounced — a server that grows a new tool between sessions — has been "
        "reviewed by nobody. Review it and re-run `toolcontract lock` to record it."
    ),
    examples=(
        Bad(LOCKED_TWO, line=6, column=11, message="is not in the lockfile",
            before="toolcontract: 1\ntools:\n  - name: weather_current\n    version: 1.2.0\n    effect: read\n",
            note="weather_forecast is new"),
        Good(LOCKED_TWO, before=LOCKED_TWO),
    ),
    scope="lock",
)


def check(ctx: LockContext) -> Iterator[Hit]:
    drift = ctx.drift
    if drift.kind == "added" and drift.tool is not None:
        yield Hit(("name",), f"tool {drift.name!r} is not in the lockfile: review it, then re-run "
                          "`toolcontract lock`", subject="tool")
