"""TC713 tool-removed-since-lock: A tool that the lockfile lists is no longer there."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import LockContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc7_change.examples import LOCKED_TWO
from toolcontract.lint.rules.tc7_change.versions import version_of
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC713",
    name="tool-removed-since-lock",
    severity=Severity.WARNING,
    summary="A tool that the lockfile lists is no longer there.",
    rationale=(
        "A tool that disappears breaks the callers that name it; when a server drops a tool between "
        "sessions, the client should notice before a model calls it. Reported at the tool's entry in the "
        "lockfile (only for tools whose source this run read or looked in). Re-run `toolcontract lock` "
        "when the removal is meant."
    ),
    examples=(
        Bad("toolcontract: 1\ntools:\n  - name: weather_current\n    version: 1.2.0\n    effect: read\n",
            line=9, column=5, message="is in the lockfile but no longer there", before=LOCKED_TWO,
            note="line 9 of toolcontract.lock: the entry of weather_forecast"),
        Good(LOCKED_TWO, before=LOCKED_TWO),
    ),
    scope="lock",
)


def check(ctx: LockContext) -> Iterator[Hit]:
    drift = ctx.drift
    if drift.kind == "removed" and drift.entry is not None:
        yield Hit(("tools", drift.name), f"tool {drift.name!r} (version {version_of(drift)}, from "
                          f"{drift.entry.source}) is in the lockfile but no longer there: re-run `toolcontract "
                          "lock` if the removal is meant", anchor="key", subject="lock")
