"""TC809 rounds-exceeded: The conversation takes more tool rounds than the limit (--max-rounds, default 20)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import DEFAULT_MAX_ROUNDS, ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import call_hit
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity


def _rounds_example(count: int) -> str:
    messages = [USER]
    for n in range(1, count + 1):
        messages.append(assistant(use(f"toolu_{n:02d}")))
        messages.append(user(res(f"toolu_{n:02d}")))
    return lines(*messages)


RULE = Rule(
    id="TC809",
    name="rounds-exceeded",
    severity=Severity.WARNING,
    summary="The conversation takes more tool rounds than the limit (--max-rounds, default 20).",
    rationale=(
        "A call -> result loop needs a bound; at the limit a harness degrades or escalates to a person instead "
        "of spinning (seed runbook R3). A transcript past the limit shows a loop that the harness did not stop. "
        "A round is one model turn that calls tools, however many calls it makes."
    ),
    examples=(
        Bad(_rounds_example(DEFAULT_MAX_ROUNDS + 1),
            line=2 * DEFAULT_MAX_ROUNDS + 3, column=35, message="21 tool rounds, more than the limit",
            note=f"{DEFAULT_MAX_ROUNDS + 1} rounds"),
        Good(_rounds_example(DEFAULT_MAX_ROUNDS)),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    analysis, options = ctx.analysis, ctx.options
    rounds = analysis.rounds
    if len(rounds) > options.max_rounds:
        first = rounds[options.max_rounds].calls[0]
        yield call_hit(first, f"{len(rounds)} tool rounds, more than the limit of {options.max_rounds}: round "
                              f"{options.max_rounds + 1} starts here")
