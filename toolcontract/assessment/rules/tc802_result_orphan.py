"""TC802 result-orphan: A tool result answers no open call: no earlier call has its id, or the call was already
answered."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import result_hit, result_word
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC802",
    name="result-orphan",
    severity=Severity.ERROR,
    summary="A tool result answers no open call: no earlier call has its id, or the call was already answered.",
    rationale=(
        "A result must answer a call made before it. One that names an unknown id, answers a call only made "
        "later, or answers a call a second time is refused ('No tool call found for function call output', "
        "'unexpected tool_use_id found in tool_result blocks'). It usually means history was trimmed through "
        "the middle of a call/result pair, or results were mixed up between conversations."
    ),
    examples=(
        Bad(lines(USER, assistant(use("toolu_01")), user(res("toolu_01"), res("toolu_99"))),
            line=4, column=107, message="answers no open call"),
        Good(lines(USER, assistant(use("toolu_01")), user(res("toolu_01")))),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis = ctx.conversation, ctx.analysis
    if conversation.continues:
        return  # the calls are in the previous response, which the transcript does not hold
    for result, why in analysis.orphans:
        yield result_hit(result, f"the {result_word(conversation)} answers no open call: {why}")
