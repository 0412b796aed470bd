"""TC811 retry-after-unknown-effect: A consequential call whose effect is unknown is retried on the same target
without a read in between."""

from __future__ import annotations

import bisect
from typing import Any, Iterator

from toolcontract.assessment.conversation import ConversationContext, ConversationHit
from toolcontract.assessment.rules.answers import effect_unknown
from toolcontract.assessment.rules.examples import assistant, lines, res, user
from toolcontract.assessment.rules.hits import call_hit, name_of
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity


def _retry_example(first_result: str | None, between: str = "") -> str:
    """A refund lost (no result; the conversation goes on), then the same refund again."""
    tool = ('{"name": "refund_payment", "description": "Refund a captured payment. Irreversible.",\n'
            '   "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string"}}},\n'
            '   "annotations": {"destructiveHint": true, "openWorldHint": false}},\n'
            '  {"name": "get_payment", "description": "Read a payment: status and refunds.",\n'
            '   "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string"}}},\n'
            '   "annotations": {"readOnlyHint": true}}')
    refund = '{"type": "tool_use", "id": "%s", "name": "refund_payment", "input": {"payment_id": "pay_81"}}'
    messages = ['{"role": "user", "content": "Refund payment pay_81."}',
                assistant(refund % "toolu_01"),
                first_result or '{"role": "user", "content": "Did it work?"}']
    if between:
        messages += [assistant(between), user(res("toolu_02", "status: captured, no refund"))]
    messages.append(assistant(refund % "toolu_03"))
    return '{"tools": [\n  ' + tool + '],\n "messages": ' + lines(*messages).rstrip("\n") + "}\n"


RULE = Rule(
    id="TC811",
    name="retry-after-unknown-effect",
    severity=Severity.ERROR,
    summary="A consequential call whose effect is unknown is retried on the same target without a read in between.",
    rationale=(
        "When a consequential call is lost, times out or fails in transport, nobody knows whether it took effect "
        "(outcome effect_unknown). Calling it again on the same target may apply the effect twice: two refunds, "
        "two bookings. The rule of the seeds: after an unknown effect, observe the target first, never retry "
        "blind. The same target is the same `target.id` argument, or the same arguments when the tool has no "
        "target; a read in between is a call of a read or pure tool whose arguments name that target (or share a "
        "value with the call). A tool with no effect class from any source counts as consequential."
    ),
    examples=(
        Bad(_retry_example(None),
            line=12, column=35, message="whose effect is unknown, with no read",
            note="the refund got no result, and is sent again"),
        Good(_retry_example(None, between='{"type": "tool_use", "id": "toolu_02", "name": "get_payment", '
                                          '"input": {"payment_id": "pay_81"}}'),
             note="the payment is read back before the retry"),
    ),
    scope="conversation",
)


def check(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis = ctx.conversation, ctx.analysis
    if not analysis.envelopes:
        return  # the calls were not assessed: no outcome to go by
    calls = list(conversation.calls)
    # indexes, so that many unknown effects cost n log n, not n squared: calls by (tool, target id) and by
    # (tool, arguments), reads by each value their arguments name
    tools = [analysis.tool(call) for call in calls]
    keys: list[tuple | None] = []
    by_key: dict[tuple, list[int]] = {}
    reads: dict[str, list[int]] = {}
    for position, (call, tool) in enumerate(zip(calls, tools)):
        target = _target_id(analysis.arguments(call), tool)
        arguments = analysis.exact_arguments(call)
        key = (call.name, "target", target) if target is not None else \
            (call.name, "arguments", arguments) if arguments is not None and isinstance(call.name, str) else None
        keys.append(key)
        if key is not None:
            by_key.setdefault(key, []).append(position)
        if not _consequential(tool):
            for value in set(_scalars(analysis.arguments(call))):
                reads.setdefault(value, []).append(position)
    for position, unknown in enumerate(calls):
        key = keys[position]
        if key is None or not effect_unknown(analysis, unknown) or not _consequential(tools[position]):
            continue  # (same target: the same target id when the tool has one, else the same arguments)
        round_of = analysis.round_of(unknown)
        retry = None
        for later in by_key[key][bisect.bisect_right(by_key[key], position):]:
            later_round = analysis.round_of(calls[later])
            if round_of is None or later_round is None or later_round > round_of:
                retry = later  # (a parallel call of the same turn is no retry: nothing was known yet)
                break
        if retry is None:
            continue
        values = {key[2]} if key[1] == "target" else set(_scalars(analysis.arguments(unknown)))
        if any(_between(reads.get(value, ()), position, retry) for value in values):
            continue  # the target was read: the retry is a decision taken on evidence
        what = f"on target {key[2]!r}" if key[1] == "target" else "with the same arguments"
        again = calls[retry]
        yield call_hit(again, f"call {again.id!r} retries {name_of(unknown)} {what} after call {unknown.id!r}, "
                              "whose effect is unknown, with no read of the target in between: the effect may "
                              "now be applied twice; observe the target first")


def _between(positions: list[int], after: int, before: int) -> bool:
    """Whether a sorted list of positions holds one strictly between `after` and `before`."""
    index = bisect.bisect_right(positions, after)
    return index < len(positions) and positions[index] < before


def _scalars(value: Any, depth: int = 0) -> Iterator[str]:
    """The string and number values in arguments, as strings (ids compare as strings)."""
    if depth > 32:
        return
    if isinstance(value, dict):
        for item in value.values():
            yield from _scalars(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item, depth + 1)
    elif isinstance(value, str):
        if value.strip():
            yield value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _target_id(arguments: Any, tool: Any) -> str | None:
    """The call's target id through its tool's `target.id` pointer (None: the tool has no target, or the
    call names none)."""
    if tool is None or "id" not in tool.target:
        return None
    from toolcontract.assessment.gates import as_id
    from toolcontract.core.pointer import resolve_pointer

    found, value = resolve_pointer(arguments, tool.target["id"])
    return as_id(value) if found and value is not None and not isinstance(value, (dict, list)) else None


def _consequential(tool: Any) -> bool:
    return tool is None or tool.consequential  # no effect class from any source: the worst case
