"""What the TC7xx rules read of versions: whether a change is between two versions of a tool
(`needs_bump`), and the version a lockfile entry records (`version_of`).

These rules do not run on a single file. A `diff` rule (TC701–TC704, `toolcontract diff`) is given a
`toolcontract.lint.diff.ToolDiff` (DiffContext) and names the side of each hit, "old" or "new"; a `lock`
rule (TC711–TC714, `toolcontract lint --locked`) is given a `toolcontract.lint.lock.Drift` (LockContext)
and names where each hit is: "tool" (the tool as read now) or "lock" (the lockfile). Each change
`diff` classifies is reported by exactly one of TC701, TC702, TC703 and TC704.
"""

from __future__ import annotations

from toolcontract.lint.diff import ToolDiff
from toolcontract.lint.lock import Drift


def needs_bump(diff: ToolDiff) -> bool:
    return diff.old is not None and diff.new is not None


def version_of(drift: Drift) -> str:
    return drift.entry.version if drift.entry and drift.entry.version is not None else "absent"
