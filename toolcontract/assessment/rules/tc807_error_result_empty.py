"""TC807 error-result-empty: An error result is empty or whitespace only."""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import USER, assistant, lines, res, use, user
from toolcontract.assessment.rules.hits import result_hit
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC807",
    name="error-result-empty",
    severity=Severity.WARNING,
    summary="An error result is empty or whitespace only.",
    rationale=(
        "A failed call must tell the model what went wrong and what to do ({\"error\": ..., \"hint\": ...}). "
        "An empty error result is an error swallowed into an empty string: the model guesses what happened, "
        "and a guess about a failure becomes a hallucinated success or a blind retry (seed anti-pattern)."
    ),
    examples=(
        Bad(lines(USER, assistant(use("toolu_01")), user(res("toolu_01", "  ", error=True))),
            line=4, column=30, message="is empty: say what failed"),
        Good(lines(USER, assistant(use("toolu_01")),
                   user(res("toolu_01", "unknown city 'Pariss'; ask the user", error=True)))),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation = ctx.conversation
    for result in conversation.results:
        if result.is_error and _empty(result.content):
            yield result_hit(result, f"the error result for call {result.call_id!r} is empty: say what failed and "
                                     "what the model should do instead")


def _empty(content: Any) -> bool:
    if content is None:
        return True
    if isinstance(content, str):
        return not content.strip()
    if isinstance(content, list):
        return all(isinstance(item, dict) and item.get("type") in (None, "text") and
                   not str(item.get("text") or "").strip() for item in content)
    return False
