"""TC812 error-result-retried-unchanged: A call whose result was an error is repeated with identical arguments in
the next round."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import Call, ConversationContext, ConversationHit, failed, retry_streaks
from toolcontract.assessment.rules.answers import effect_unknown
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import call_hit, name_of
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity


def _error_retry_example(second_city: str) -> str:
    return lines(USER, assistant(use("toolu_01", "Pariss")),
                 user(res("toolu_01", "unknown city 'Pariss'", error=True)),
                 assistant(use("toolu_02", second_city)), user(res("toolu_02")))


RULE = Rule(
    id="TC812",
    name="error-result-retried-unchanged",
    severity=Severity.WARNING,
    summary="A call whose result was an error is repeated with identical arguments in the next round.",
    rationale=(
        "An error result is the tool telling the model what to change. Sending the very same call again in the "
        "next turn ignores it: the same error comes back, and the loop budget is spent on nothing. It is the "
        "first, cheapest sign of the loops TC810 finds at three near-same retries; the fix is an error result "
        "with an actionable hint, and a harness that does not resend a failed call unchanged. Arguments are "
        "identical when equal as JSON (key order and 1.0 == 1 aside). A call whose effect is unknown is TC811's."
    ),
    examples=(
        Bad(_error_retry_example("Pariss"),
            line=5, column=35, message="repeats 'get_weather' with the identical arguments",
            note="the same misspelt city again"),
        Good(_error_retry_example("Paris")),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    # one finding per run of failing retries; a run long enough for TC810 is that rule's (a loop, not a sign)
    quiet: set[Call] = set()
    for streak in retry_streaks(conversation, analysis, options):
        quiet.update(streak if len(streak) > options.retry_limit else streak[2:])
    for number, turn in enumerate(analysis.rounds):
        for call in turn.calls:
            if call in quiet or effect_unknown(analysis, call) or not failed(analysis.answer(call)):
                continue
            arguments = analysis.exact_arguments(call)
            if arguments is None:
                continue
            following = analysis.rounds[number + 1].calls if number + 1 < len(analysis.rounds) else ()
            for later in following:
                if later.name == call.name and analysis.exact_arguments(later) == arguments and later not in quiet:
                    yield call_hit(later, f"call {later.id!r} repeats {name_of(call)} with the identical arguments "
                                          f"of call {call.id!r}, whose result was an error: change the call as "
                                          "the error says, or stop")
                    break
