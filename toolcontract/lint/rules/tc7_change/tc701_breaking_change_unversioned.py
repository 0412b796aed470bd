"""TC701 breaking-change-unversioned: A breaking change to a tool's contract without a major version bump."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.diff import Bump, Level, ToolDiff
from toolcontract.lint.context import DiffContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc7_change.examples import LANG, WEATHER_V1, weather
from toolcontract.lint.rules.tc7_change.versions import needs_bump
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC701",
    name="breaking-change-unversioned",
    severity=Severity.ERROR,
    summary="A breaking change to a tool's contract without a major version bump.",
    rationale=(
        "Callers, prompts, approvals and recorded fixtures were written against the old contract. A property "
        "removed or renamed, a value no longer accepted, a newly required argument, a more consequential "
        "effect or a relaxed approval breaks them — and the version is the only signal they get. SemVer says "
        "such a change needs a new major version (in 0.y.z, a new y). Check it in CI with "
        "`toolcontract diff --git-base origin/main`."
    ),
    examples=(
        Bad(weather(units="[metric]"),
            line=9, column=27, message='enum value "imperial" removed', before=WEATHER_V1,
            note="enum value 'imperial' removed, still 1.2.0"),
        Bad(weather(extra=LANG).replace("required: [city]", "required: [city, lang]"),
            line=10, column=5, message="required property 'lang' added", before=WEATHER_V1,
            note="a newly required property"),
        Good(weather(version="2.0.0", units="[metric]"), before=WEATHER_V1, note="the same change, as 2.0.0"),
    ),
    scope="diff",
)


def check(ctx: DiffContext) -> Iterator[Hit]:
    diff = ctx.diff
    if not needs_bump(diff) or diff.bump.allows_breaking:
        return
    for change in diff.changes:
        if change.level is Level.BREAKING:
            yield Hit(change.path, f"{change.message}; {_breaking_reason(diff)}", change.anchor, subject=change.side)


def _breaking_reason(diff: ToolDiff) -> str:
    move = diff.version_move()
    if diff.bump is Bump.NONE:
        return f"{move}: a breaking change needs a major version bump"
    if diff.bump is Bump.OTHER:
        return f"{move} is not a SemVer increase: a breaking change needs a major version bump"
    return f"{move} is a {diff.bump.value} bump: a breaking change needs a major one"
