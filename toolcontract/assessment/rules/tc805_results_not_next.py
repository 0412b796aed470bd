"""TC805 results-not-next: Tool results do not directly follow the turn that made the calls."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ANTHROPIC, OPENAI_CHAT, ConversationContext, ConversationHit
from toolcontract.assessment.rules.answers import answered
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import result_hit
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC805",
    name="results-not-next",
    severity=Severity.ERROR,
    summary="Tool results do not directly follow the turn that made the calls.",
    rationale=(
        "Anthropic: the tool_result blocks answering an assistant turn must be in the very next message, with "
        "nothing in between. OpenAI Chat: the `role: tool` messages answering a turn must follow it directly, "
        "before any other message. A user message, a system note or another assistant turn slipped in between "
        "makes the next request fail even though every id is answered."
    ),
    examples=(
        Bad(lines(USER, assistant(use("toolu_01")), '{"role": "user", "content": "Also, hurry."}',
                  user(res("toolu_01"))), line=5, column=30, message="not in the message right after"),
        Good(lines(USER, assistant(use("toolu_01")), user(res("toolu_01")),
                   '{"role": "user", "content": "Also, hurry."}')),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis = ctx.conversation, ctx.analysis
    if conversation.format == ANTHROPIC:
        for turn in analysis.rounds:
            results = answered(turn, analysis)
            if results and results[0].message != turn.last + 1:
                first = results[0]
                yield result_hit(first, f"the results of the calls at {turn.where} start at message "
                                        f"{first.message}, not in the message right after the call "
                                        f"({turn.last + 1})")
    elif conversation.format == OPENAI_CHAT:
        by_index = {m.index: m for m in conversation.messages}
        for turn in analysis.rounds:
            results = answered(turn, analysis)
            window: set[int] = set()
            index = turn.last + 1
            while index in by_index and by_index[index].role == "tool":
                window.add(index)
                index += 1
            late = [r for r in results if r.message not in window]
            if late:
                yield result_hit(late[0], f"the tool message for call {late[0].call_id!r} (message {late[0].message}) "
                                          f"does not directly follow the assistant message {turn.first} that made "
                                          "the call")
