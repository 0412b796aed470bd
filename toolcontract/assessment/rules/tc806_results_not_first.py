"""TC806 results-not-first: In a message, a tool_result block comes after other content (Anthropic)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ANTHROPIC, ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use
from toolcontract.assessment.rules.hits import result_hit
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC806",
    name="results-not-first",
    severity=Severity.ERROR,
    summary="In a message, a tool_result block comes after other content (Anthropic).",
    rationale=(
        "Anthropic requires tool_result blocks first in their user message; text may follow them, never "
        "precede them. Text before the results is read as a new user turn and the results as missing."
    ),
    examples=(
        Bad(lines(USER, assistant(use("toolu_01")),
                  '{"role": "user", "content": [{"type": "text", "text": "Here you go:"},\n  ' + res("toolu_01") + "]}"),
            line=5, column=3, message="comes after a text block"),
        Good(lines(USER, assistant(use("toolu_01")),
                   '{"role": "user", "content": [' + res("toolu_01") + ', {"type": "text", "text": "Thanks."}]}')),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation = ctx.conversation
    if conversation.format != ANTHROPIC:
        return
    for message in conversation.messages:
        if not message.results:
            continue
        seen_other = None
        for position, kind in enumerate(message.kinds):
            if kind != "result":
                seen_other = seen_other or (position, kind)
                continue
            if seen_other is not None:
                result = next((r for r in message.results if r.block == position), message.results[0])
                yield result_hit(result, f"tool_result block {position} of message {message.index} comes after a "
                                         f"{seen_other[1]} block (block {seen_other[0]}); tool_result blocks "
                                         "must come first")
                break
