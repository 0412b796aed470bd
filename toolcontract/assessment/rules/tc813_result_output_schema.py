"""TC813 result-output-schema: A structured tool result does not match the tool's output schema."""

from __future__ import annotations

import json
from typing import Any, Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.assessment.rules.examples import lines
from toolcontract.assessment.rules.hits import name_of, result_hit
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity


def _structured_example(count: Any) -> str:
    tool = ('{"name": "count_orders", "description": "Count the open orders of a customer.",\n'
            '   "inputSchema": {"type": "object", "properties": {"customer": {"type": "string"}}},\n'
            '   "outputSchema": {"type": "object", "properties": {"open": {"type": "integer"}}, "required": ["open"]},\n'
            '   "annotations": {"readOnlyHint": true}}')
    result = json.dumps(json.dumps({"open": count}))[1:-1]
    return ('{"tools": [\n  ' + tool + '],\n "messages": ' + lines(
        '{"role": "user", "content": "How many open orders has ACME?"}',
        '{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "count_orders", '
        '"input": {"customer": "ACME"}}]}',
        '{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", '
        f'"content": "{result}"}}]}}').rstrip("\n") + "}\n")


RULE = Rule(
    id="TC813",
    name="result-output-schema",
    severity=Severity.ERROR,
    summary="A structured tool result does not match the tool's output schema.",
    rationale=(
        "A tool that declares an output schema promises the shape of what it returns; MCP requires a server's "
        "structuredContent to conform to its tool's outputSchema. A result that breaks the promise reaches "
        "the model and the code that parses it as something it was told could not happen. The structured part "
        "is MCP `structuredContent`, or the result when it is JSON (a mapping, or the JSON text of an object or "
        "array); a prose result is not checked. The call's case is `failed` (DESIGN §2)."
    ),
    examples=(
        Bad(_structured_example("three"),
            line=9, column=30, message="does not match the tool's output schema",
            note="`open` is a string, the schema says integer"),
        Good(_structured_example(3)),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    analysis = ctx.analysis
    if not analysis.envelopes:
        return
    from toolcontract.assessment.classify import OUTPUT_MISMATCH

    for call, envelope in analysis.envelopes.items():
        result = analysis.answer(call)
        if result is None or envelope.outcome != "failed" or envelope.reasons[:1] != (OUTPUT_MISMATCH,):
            continue
        errors = [r for r in envelope.reasons[1:] if r.startswith("/")][:3]
        more = sum(1 for r in envelope.reasons[1:] if r.startswith("/")) - len(errors)
        detail = "; ".join(errors) + (f"; and {more} more" if more > 0 else "")
        hit = result_hit(result, f"the result of call {call.id!r} ({name_of(call)}) does not match the tool's output "
                                 f"schema: {detail}")
        yield ConversationHit(hit.pointer, hit.message, hit.message_index, hit.block, hit.call_id,
                              call.name if isinstance(call.name, str) else None)
