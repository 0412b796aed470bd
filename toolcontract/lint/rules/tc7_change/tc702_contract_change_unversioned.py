"""TC702 contract-change-unversioned: A compatible change to a tool's schema or effect without a minor or major
version bump."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.diff import Bump, Level
from toolcontract.lint.context import DiffContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc7_change.examples import LANG, WEATHER_V1, weather
from toolcontract.lint.rules.tc7_change.versions import needs_bump
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC702",
    name="contract-change-unversioned",
    severity=Severity.WARNING,
    summary="A compatible change to a tool's schema or effect without a minor or major version bump.",
    rationale=(
        "An optional property added, a value newly accepted or an effect made less consequential breaks no "
        "caller, but the contract is no longer the one its version names: a registry, a lockfile or a "
        "reviewer comparing versions would miss it. SemVer calls this a minor release. Changes to text "
        "alone (descriptions, examples) need no bump."
    ),
    examples=(
        Bad(weather(extra=LANG),
            line=10, column=5, message="needs at least a minor version bump", before=WEATHER_V1,
            note="an optional property added, still 1.2.0"),
        Good(weather(version="1.3.0", extra=LANG), before=WEATHER_V1),
        Good(WEATHER_V1.replace("City name.", "Name of the city."), before=WEATHER_V1,
             note="a description is not the schema's shape"),
    ),
    scope="diff",
)


def check(ctx: DiffContext) -> Iterator[Hit]:
    diff = ctx.diff
    if not needs_bump(diff) or diff.bump.allows_contract_change:
        return
    if diff.bump is Bump.NONE:
        reason = f"{diff.version_move()}: a change to the contract needs at least a minor version bump"
    else:
        reason = f"{diff.version_move()} is a patch bump: a change to the contract needs at least a minor one"
    for change in diff.changes:
        if change.level is Level.COMPATIBLE and change.area.contract:
            yield Hit(change.path, f"{change.message}; {reason}", change.anchor, subject=change.side)
