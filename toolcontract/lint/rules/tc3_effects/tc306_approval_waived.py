"""TC306 approval-waived: `approval: not_required` on an irreversible_write or open_world tool."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.model import Effect, Severity


RULE = Rule(
    id="TC306",
    name="approval-waived",
    severity=Severity.ERROR,
    summary="`approval: not_required` on an irreversible_write or open_world tool.",
    rationale=(
        "An irreversible write cannot be undone and an open-world action (sending mail, paying, posting) "
        "cannot be recalled. Those are exactly the calls a human approval is for; waiving it in the "
        "contract removes the last gate."
    ),
    examples=(
        Bad("toolcontract: 1\nname: invoice_pay\neffect: irreversible_write\napproval: not_required\n", line=4,
            column=11, message="approval is waived on an irreversible_write tool"),
        Good("toolcontract: 1\nname: invoice_pay\neffect: irreversible_write\napproval: required\n"),
        Good("toolcontract: 1\nname: draft_save\neffect: reversible_write\napproval: not_required\n"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if tool.effect in (Effect.IRREVERSIBLE_WRITE, Effect.OPEN_WORLD) and tool.get("approval") == "not_required":
        yield Hit(("approval",), f"approval is waived on an {tool.effect.value} tool")
