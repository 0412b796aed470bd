"""TC801 call-unanswered: A tool call is never answered by a result with its id."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import call_hit, name_of, result_word
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC801",
    name="call-unanswered",
    severity=Severity.ERROR,
    summary="A tool call is never answered by a result with its id.",
    rationale=(
        "Every tool_use (Anthropic) or tool_calls entry / function_call (OpenAI) must be answered by a result "
        "carrying its id; a request that leaves one open is refused with a 400 ('tool_use ids were found without "
        "tool_result blocks immediately after', 'No tool output found for function call'). Parallel calls are "
        "where it happens most: several calls, one result. A call without an id can never be answered."
    ),
    examples=(
        Bad(lines(USER, assistant(use("toolu_01"), use("toolu_02", "Lyon")), user(res("toolu_01"))),
            line=3, column=126, message="is never answered: no tool_result block",
            note="two parallel calls, one result"),
        Good(lines(USER, assistant(use("toolu_01"), use("toolu_02", "Lyon")),
                   user(res("toolu_01"), res("toolu_02", "9 C")))),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis = ctx.conversation, ctx.analysis
    last = conversation.last_index
    for call in analysis.unanswered:
        if call.id is None:
            yield call_hit(call, f"the call of {name_of(call)} has no id, so no result can answer it")
        elif call.message >= last:
            yield call_hit(call, f"call {call.id!r} ({name_of(call)}) is never answered: the conversation ends "
                                 f"after it, with no {result_word(conversation)} for it")
        else:
            yield call_hit(call, f"call {call.id!r} ({name_of(call)}) is never answered: no "
                                 f"{result_word(conversation)} with its id follows")
