"""TC814 trace-span-invalid: A span of a trace that may be a tool call cannot be read as one, so it is not
assessed."""

from __future__ import annotations

from typing import Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity


def _trace_example(tool_name: str) -> str:
    """An OTLP/JSON trace of one execute_tool span whose gen_ai.tool.name is `tool_name` (an AnyValue)."""
    return ('{"resourceSpans": [{"scopeSpans": [{"spans": [\n'
            '  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174",\n'
            '   "name": "execute_tool get_weather", "startTimeUnixNano": "1700000000000000000",\n'
            '   "attributes": [\n'
            '     {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},\n'
            f'     {{"key": "gen_ai.tool.name", "value": {tool_name}}},\n'
            '     {"key": "gen_ai.tool.call.id", "value": {"stringValue": "call_01"}},\n'
            '     {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": "{\\"city\\": \\"Paris\\"}"}}]}]}]}]}\n')


RULE = Rule(
    id="TC814",
    name="trace-span-invalid",
    severity=Severity.WARNING,
    summary="A span of a trace that may be a tool call cannot be read as one, so it is not assessed.",
    rationale=(
        "A trace is evidence only as far as its spans can be read. A tool-call span (`gen_ai.operation.name` "
        "`execute_tool`, or an MCP `tools/call`) with a malformed id, time or status, an attribute of the wrong "
        "type (a `gen_ai.tool.name` that is not a string, `gen_ai.tool.call.arguments` that is neither a JSON "
        "string nor a map), or a span that carries tool-call attributes under an operation name that is not a "
        "tool call, is skipped instead of being guessed at: the call it records goes unassessed, which the "
        "report must say. Fix the instrumentation that wrote it."
    ),
    examples=(
        Bad(_trace_example('{"intValue": "7"}'),
            line=6, column=6, message="gen_ai.tool.name must be a string", note="gen_ai.tool.name is an integer"),
        Good(_trace_example('{"stringValue": "get_weather"}')),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation = ctx.conversation
    for pointer, message, index in conversation.unread:
        yield ConversationHit(pointer, message, index)
