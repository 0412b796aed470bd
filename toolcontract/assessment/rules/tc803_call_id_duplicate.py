"""TC803 call-id-duplicate: Two tool calls in one conversation share an id."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import call_hit, name_of
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC803",
    name="call-id-duplicate",
    severity=Severity.ERROR,
    summary="Two tool calls in one conversation share an id.",
    rationale=(
        "Ids are what pair a result with its call; two calls with one id make every later pairing a guess, "
        "and providers refuse duplicate ids. A harness that synthesises ids (counters reset per turn, ids "
        "copied between conversations) is the usual cause."
    ),
    examples=(
        Bad(lines(USER, assistant(use("toolu_01")), user(res("toolu_01")),
                  assistant(use("toolu_01", "Lyon")), user(res("toolu_01", "9 C"))),
            line=5, column=35, message="is already used by the call"),
        Good(lines(USER, assistant(use("toolu_01")), user(res("toolu_01")),
                   assistant(use("toolu_02", "Lyon")), user(res("toolu_02", "9 C")))),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    analysis = ctx.analysis
    for call, first in analysis.duplicates:
        yield call_hit(call, f"call id {call.id!r} is already used by the call of {name_of(first)} at message "
                             f"{first.message}")
