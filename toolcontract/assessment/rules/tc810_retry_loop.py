"""TC810 retry-loop: After an error, the same tool is called again with the same or near-same arguments, 3 times or
more."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import RETRY_LIMIT, ConversationContext, ConversationHit, retry_streaks
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import call_hit, name_of
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity


def _retry_example(errors: int) -> str:
    messages = [USER]
    for n in range(1, errors + 2):
        messages.append(assistant(use(f"toolu_{n:02d}", "Pariss")))
        last = n == errors + 1
        messages.append(user(res(f"toolu_{n:02d}", "11 C" if last else "unknown city", error=not last)))
    return lines(*messages)


RULE = Rule(
    id="TC810",
    name="retry-loop",
    severity=Severity.WARNING,
    summary="After an error, the same tool is called again with the same or near-same arguments, 3 times or more.",
    rationale=(
        "Repeating a failed call unchanged does not converge: the error comes back and the loop budget runs out "
        "(seed runbook R3). The error result should carry an actionable hint, and the harness should stop after "
        "a few failures and explain or escalate. Arguments compare after normalising case, whitespace and key "
        "order; near-same means at least 90% similar."
    ),
    examples=(
        Bad(_retry_example(RETRY_LIMIT),
            line=2 * RETRY_LIMIT + 3, column=35, message="a loop that does not converge",
            note="one failing call and three near-same retries"),
        Good(_retry_example(RETRY_LIMIT - 1)),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    for streak in retry_streaks(conversation, analysis, options):
        if len(streak) > options.retry_limit:
            call = streak[options.retry_limit]
            where = ", ".join(str(c.message) for c in streak[:options.retry_limit + 1])
            yield call_hit(call, f"{name_of(call)} is called again with the same or near-same arguments "
                                 f"after an error, {options.retry_limit} times (messages {where}): a loop "
                                 "that does not converge")
