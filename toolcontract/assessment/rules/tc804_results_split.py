"""TC804 results-split: The results of one assistant turn are split across several messages (Anthropic)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ANTHROPIC, ConversationContext, ConversationHit
from toolcontract.assessment.rules.answers import answered
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import result_hit
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC804",
    name="results-split",
    severity=Severity.ERROR,
    summary="The results of one assistant turn are split across several messages (Anthropic).",
    rationale=(
        "Anthropic requires the results of all parallel tool_use blocks of a turn in one user message, each "
        "with its id. Sending one result per message is the most common cause of the next request's 400 "
        "(seed runbook R2): put every tool_result of the turn into the single message that follows it."
    ),
    examples=(
        Bad(lines(USER, assistant(use("toolu_01"), use("toolu_02", "Lyon")), user(res("toolu_01")),
                  user(res("toolu_02", "9 C"))), line=5, column=30, message="are split across messages 2, 3"),
        Good(lines(USER, assistant(use("toolu_01"), use("toolu_02", "Lyon")),
                   user(res("toolu_01"), res("toolu_02", "9 C")))),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis = ctx.conversation, ctx.analysis
    if conversation.format != ANTHROPIC:
        return
    for turn in analysis.rounds:
        results = answered(turn, analysis)
        holders = list(dict.fromkeys(r.message for r in results))
        if len(holders) > 1:
            second = next(r for r in results if r.message == holders[1])
            yield result_hit(second, f"the results of the {len(turn.calls)} calls at {turn.where} are split "
                                     f"across messages {', '.join(map(str, holders))}; they belong in one message")
