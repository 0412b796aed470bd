"""TC714 tool-updated-since-lock: A tool changed since the lockfile, with a new version."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import LockContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc7_change.examples import LOCKED
from toolcontract.lint.rules.tc7_change.versions import version_of
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC714",
    name="tool-updated-since-lock",
    severity=Severity.INFO,
    summary="A tool changed since the lockfile, with a new version.",
    rationale=(
        "A versioned change is the honest kind, but the lockfile still records the old contract, so a later "
        "silent change could hide behind this one. Re-run `toolcontract lock` to record the new version."
    ),
    examples=(
        Bad(LOCKED.replace("Read-only.", "Read-only, cached 10 minutes.").replace("1.2.0", "1.3.0"),
            line=3, column=10, message="changed since the lockfile with a new version", before=LOCKED),
        Good(LOCKED, before=LOCKED),
    ),
    scope="lock",
)


def check(ctx: LockContext) -> Iterator[Hit]:
    drift = ctx.drift
    if drift.kind != "updated" or drift.tool is None:
        return
    where = ("version",) if "version" in drift.tool.data else ("name",)
    now = drift.tool.get("version")
    yield Hit(where, f"tool {drift.name!r} changed since the lockfile with a new version: "
                      f"{version_of(drift)} → {now if now is not None else 'absent'}; re-run `toolcontract lock` "
                      "to record it", subject="tool")
