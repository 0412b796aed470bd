"""TC305 target-version-missing: a write tool has no `target.version` (no optimistic-concurrency guard)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc3_effects.examples import GOOD_WRITE
from toolcontract.core.model import Effect, Severity


RULE = Rule(
    id="TC305",
    name="target-version-missing",
    severity=Severity.WARNING,
    summary="A write tool has no `target.version` (no optimistic-concurrency guard).",
    rationale=(
        "A write based on a stale read overwrites someone else's change. Passing the version observed "
        "before the write (and refusing on mismatch) is the guard; `target.version` names the argument "
        "that carries it, so the target gate can compare it with the observed target."
    ),
    examples=(
        Bad("toolcontract: 1\nname: document_update_metadata\neffect: reversible_write\n"
            "target: {id: /document_id}\n", line=4, column=1, message="tool without `target.version`"),
        Good(GOOD_WRITE),
    ),
    contract=True,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if tool.effect not in (Effect.REVERSIBLE_WRITE, Effect.IRREVERSIBLE_WRITE):
        return
    target = tool.get("target")
    if isinstance(target, dict) and isinstance(target.get("version"), str):
        return
    where = ("target",) if isinstance(target, dict) else ()
    yield Hit(where, f"{tool.effect_label} tool without `target.version`: name the argument that carries the "
              "version observed before the write", anchor="key" if where else "value")
