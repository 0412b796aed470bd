"""TC202 non-goals-missing: the descriptor has no `non_goals` (an error for consequential effects)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.descriptor import is_placeholder
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc2_documentation.examples import FULL
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC202",
    name="non-goals-missing",
    severity=Severity.WARNING,
    summary="The descriptor has no `non_goals` (an error for consequential effects).",
    rationale=(
        "Models over-reach: a tool that changes a document's title gets used to rewrite its body. Non-goals "
        "draw the boundary the model and the reviewer both read. For tools whose effect is consequential "
        "(reversible_write, irreversible_write, open_world) the missing boundary is an error."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\n", line=1, column=1,
            message="no `non_goals`: list what the tool", note="warning"),
        Bad("toolcontract: 1\nname: invoice_mark_paid\neffect: irreversible_write\n", line=1, column=1,
            message="required for the consequential effect irreversible_write", note="error"),
        Bad("toolcontract: 1\nname: weather_current\neffect: read\nnon_goals: []\n", line=4, column=1,
            message="`non_goals` is empty"),
        Bad("toolcontract: 1\nname: weather_current\neffect: read\nnon_goals:\n  - 'TODO: what it does not do'\n",
            line=5, column=5, message="is still a TODO placeholder"),
        Good(FULL),
    ),
    contract=True,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    effect = tool.effect
    severity = Severity.ERROR if effect is not None and effect.consequential else None
    goals = tool.get("non_goals")
    if "non_goals" not in tool.data:
        extra = f" (required for the consequential effect {tool.effect_label})" if severity else ""
        yield Hit((), f"no `non_goals`: list what the tool does not do{extra}", anchor="value", severity=severity)
    elif isinstance(goals, list) and not [g for g in goals if isinstance(g, str) and g.strip()]:
        yield Hit(("non_goals",), "`non_goals` is empty: list what the tool does not do", severity=severity)
    elif isinstance(goals, list):
        for index, goal in enumerate(goals):
            if is_placeholder(goal):  # what `toolcontract init` writes in an overlay skeleton
                yield Hit(("non_goals", index), "this non-goal is still a TODO placeholder: list what the tool does "
                          "not do", severity=severity)
