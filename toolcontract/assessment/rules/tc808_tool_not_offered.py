"""TC808 tool-not-offered: A call names a tool the request does not offer."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import USER, assistant, res, use, user
from toolcontract.assessment.rules.hits import call_hit, name_of
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC808",
    name="tool-not-offered",
    severity=Severity.ERROR,
    summary="A call names a tool the request does not offer.",
    rationale=(
        "The model may only call what the request's `tools` list offers. A call to anything else is a "
        "hallucinated tool or a drifted tool list (seed runbook R1: two definitions out of sync); the registry "
        "gate refuses it, and the transcript shows the model was never told about it. Checked only when the "
        "transcript carries the request's tool list."
    ),
    examples=(
        Bad('{"tools": [{"name": "get_weather", "description": "Current weather.",\n'
            '            "input_schema": {"type": "object"}}],\n'
            ' "messages": [\n  ' + USER + ',\n'
            '  {"role": "assistant", "content": [\n'
            '    {"type": "tool_use", "id": "toolu_01", "name": "delete_all_orders", "input": {}}]}]}\n',
            line=6, column=5, message="is not among the 1 tool"),
        Good('{"tools": [{"name": "get_weather", "description": "Current weather.",\n'
             '            "input_schema": {"type": "object"}}],\n'
             ' "messages": [\n  ' + USER + ',\n  ' + assistant(use("toolu_01")) + ',\n  '
             + user(res("toolu_01")) + "]}\n"),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation = ctx.conversation
    offered = conversation.offered_names
    if offered is None:
        return
    for call in conversation.calls:
        if not isinstance(call.name, str) or call.name not in offered:
            count = len(offered)
            yield call_hit(call, f"{name_of(call)} is not among the {count} tool{'s' * (count != 1)} this request "
                                 "offers")
