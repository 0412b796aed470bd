"""TC303 name-effect-mismatch: the name's verb implies a write, but the effect is pure or read."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc3_effects.verbs import READ_VERBS, WRITE_VERBS, lower_words
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC303",
    name="name-effect-mismatch",
    severity=Severity.WARNING,
    summary="The name's verb implies a write, but the effect is pure or read.",
    rationale=(
        "A name like `user_delete` or `send_invoice` tells the model, the reviewer and every log that the "
        "tool changes something. If the effect class says pure or read, one of them is wrong, and the "
        "wrong one decides whether a call is approved. A name that starts with a read verb "
        "(`get_update_status`) is not flagged."
    ),
    examples=(
        Bad("toolcontract: 1\nname: user_delete\neffect: read\n", line=3, column=9,
            message="name 'user_delete' says 'delete'"),
        Good("toolcontract: 1\nname: user_delete\neffect: irreversible_write\n"),
        Good("toolcontract: 1\nname: get_update_status\neffect: read\n"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    effect, name = tool.effect, tool.name
    if effect is None or effect.consequential or not name:
        return
    words = lower_words(name)
    if not words or words[0] in READ_VERBS:
        return
    verbs = [w for w in words if w in WRITE_VERBS]
    if verbs:
        yield Hit(("effect",), f"name {name!r} says {verbs[0]!r}, but the effect is {tool.effect_label}")
