"""TC304 observation-missing: a consequential tool has no `observation` (how its effect is read back)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC304",
    name="observation-missing",
    severity=Severity.WARNING,
    summary="A consequential tool has no `observation` (how its effect is read back).",
    rationale=(
        "A write tool's return value is the tool's own claim. Only an independent read-back shows the "
        "effect happened, on the right target; without one, a success stays `needs_evidence` and a timeout "
        "stays `effect_unknown`. Say how the effect is observed."
    ),
    examples=(
        Bad("toolcontract: 1\nname: invoice_mark_paid\neffect: irreversible_write\n", line=1, column=1,
            message="there is no `observation`"),
        Good("toolcontract: 1\nname: invoice_mark_paid\neffect: irreversible_write\n"
             "observation: Read the invoice back and check its status is paid.\n"),
    ),
    contract=True,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    effect = tool.effect
    if effect is not None and effect.consequential and not tool.text("observation"):
        where = ("observation",) if "observation" in tool.data else ()
        yield Hit(where, f"the effect is {tool.effect_label} but there is no `observation`: say how the effect is read back",
                  anchor="value")
