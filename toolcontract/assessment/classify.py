"""Classify what the evidence proves, per the two outcome tables of DESIGN §2.

`outcome` says what happened to the interaction; `effect` what the evidence shows
about the world. "No answer" is never turned into "no effect": a consequential
call whose effect nobody observed stays unknown or unverified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolcontract.assessment.gates import GATES, Admission, as_id
from toolcontract.core.model import EffectState, Gate, NextStep, Observation, Outcome, Record

TASK_ACCEPTANCE = "task acceptance"


@dataclass(frozen=True)
class Classification:
    outcome: Outcome
    effect: EffectState
    next_step: NextStep
    reasons: tuple[str, ...]
    unverified: tuple[str, ...]  # never empty: task acceptance is always last
    gate: Gate | None = None  # the refusing gate, when admission was refused


_ADMISSION_NEXT = {
    Gate.PARSE: NextStep.FIX_REQUEST,
    Gate.REGISTRY: NextStep.FIX_REQUEST,
    Gate.SHAPE: NextStep.FIX_REQUEST,
    Gate.SEMANTIC: NextStep.FIX_REQUEST,
    Gate.TARGET: NextStep.OBSERVE_TARGET,
    Gate.ENVIRONMENT: NextStep.STOP_OR_ESCALATE,
}


_GATE_NAMES = tuple((g, g.value) for g, _ in GATES)


def effective_sent(record: Record) -> bool | None:
    """`sent` as the evidence has it: True, False, or None for unknown.

    Absent means true for a return and for protocol/execution errors (the request
    demonstrably reached the other side), unknown otherwise.
    """
    if record.sent is True or record.sent is False:
        return record.sent
    if record.sent == "unknown":
        return None
    layer = record.error.get("layer") if isinstance(record.error, dict) else None
    if record.status == "returned" or (record.status == "error" and layer in ("protocol", "execution")):
        return True
    return None


def _done(outcome, effect, next_step, reasons, unverified, gate=None) -> Classification:
    scope = tuple(dict.fromkeys([*unverified, TASK_ACCEPTANCE]))
    return Classification(outcome, effect, next_step, tuple(reasons), scope, gate)


POLICY_NOT_JUDGED = "admission policy: target, environment, approval (no context given)"
TOOLS_NOT_OFFERED = "tools offered (the recording has no tool list)"
PENDING = "execution (the recording ends before a result)"

# what a call that ran although a judged gate refused it did, said from the recording (evidence-only)
_EXECUTED_ALTHOUGH = {
    Gate.PARSE: "executed although its arguments are not a JSON object",
    Gate.REGISTRY: "executed although the request did not offer the tool",
    Gate.SHAPE: "executed although its arguments fail the schema",
    Gate.SEMANTIC: "executed although it breaks a semantic rule",
}


def _evidence_scope(admission: Admission) -> list[str]:
    """What an evidence-only assessment leaves unverified before anything else."""
    if not admission.evidence_only:
        return []
    return [POLICY_NOT_JUDGED] + ([] if admission.offered else [TOOLS_NOT_OFFERED])


def classify(admission: Admission, record: Record | None, observation: Observation | None,
             pending: bool | str = False) -> Classification:
    """The outcome of an admission with what the record and the read-back show. `pending`: the recording
    ends before the call's result could be in it (evidence-only); a text: why the call is unfinished
    although a result is recorded (MCP `resultType` task or input_required)."""
    unverified = _evidence_scope(admission) + admission.unverified()
    call = admission.call
    refusal = admission.refusal

    # ---- admission refused
    if refusal is not None:
        reached = {v.gate for v in admission.trail}  # (the policy gates of an evidence-only trail: not judged)
        later = [name for g, name in _GATE_NAMES if g not in reached]
        if later:
            unverified.append(f"gates not reached: {', '.join(later)}")
        if record is not None:
            if admission.evidence_only:  # the recording shows it ran: say what it ran with
                first = refusal.reasons[0] if refusal.reasons else ""
                what = _EXECUTED_ALTHOUGH.get(refusal.gate, "executed although admission was refused")
                if refusal.gate is Gate.REGISTRY:
                    what = f"{what} {call.candidate.name!r}"
                reasons = (f"{what}: {first}" if first and refusal.gate is not Gate.REGISTRY else what,
                           *refusal.reasons[1:])
                effect = EffectState.UNKNOWN
                if observation is not None and observation.verdict in ("applied", "not_applied"):
                    effect = EffectState.CONFIRMED if observation.verdict == "applied" else EffectState.NONE
                return _done(Outcome.BLOCKED, effect, NextStep.STOP_OR_ESCALATE, reasons,
                             ["effect on the target (executed without admission)", *unverified], refusal.gate)
            return _done(
                Outcome.BLOCKED, EffectState.UNKNOWN, NextStep.STOP_OR_ESCALATE,
                (f"a record exists although admission was refused at the {refusal.gate.value} gate: "
                 "the call was executed without admission", *refusal.reasons),
                ["effect on the target (executed without admission)", *unverified], refusal.gate,
            )
        outcome = refusal.outcome or Outcome.REJECTED
        if outcome is Outcome.REQUIRES_APPROVAL:
            next_step = NextStep.REQUEST_APPROVAL
            unverified.insert(0, "whether an approver accepts this call")
        elif outcome is Outcome.NEEDS_EVIDENCE:
            next_step = NextStep.OBSERVE_TARGET
            unverified.insert(0, "the target's current state")
        else:
            next_step = _ADMISSION_NEXT[refusal.gate]
        return _done(outcome, EffectState.NONE, next_step, refusal.reasons, unverified, refusal.gate)

    tool = call.tool
    assert tool is not None
    if record is None:
        if isinstance(pending, str):
            gates = "every judged gate passed" if admission.evidence_only else "every gate passed"
            return _done(Outcome.ALLOWED, EffectState.NONE, NextStep.NONE, (f"{gates}; {pending}",),
                         ["execution (the call has not finished: pending)", *unverified])
        if admission.evidence_only:
            why = ("the recording ends before a result" if pending else "the recording holds no result")
            return _done(Outcome.ALLOWED, EffectState.NONE, NextStep.NONE,
                         (f"every judged gate passed; {why}",),
                         [PENDING if pending else "execution (the call has not run)", *unverified])
        return _done(Outcome.ALLOWED, EffectState.NONE, NextStep.NONE,
                     ("every gate passed; no record: admitted, not executed",),
                     ["execution (the call has not run)", *unverified])

    reasons: list[str] = []
    candidate_id = None if call.candidate.id is None else as_id(call.candidate.id)  # ids compare as strings
    target_id = call.targets.get("id")

    # ---- 1. correlation
    if candidate_id is None:
        unverified.append("correlation (the candidate has no call id)")
    conflicts = []
    if record.call_id is None:
        unverified.append("correlation of the record (it has no call_id)")
    elif candidate_id is not None and as_id(record.call_id) != candidate_id:
        conflicts.append(f"the record answers call {as_id(record.call_id)!r}, not {candidate_id!r}")
    readback = None
    if observation is not None:
        observed_target = (observation.target or {}).get("id") if isinstance(observation.target, dict) else None
        if observation.call_id is not None and candidate_id is not None and as_id(observation.call_id) != candidate_id:
            conflicts.append(f"the read-back belongs to call {as_id(observation.call_id)!r}, not {candidate_id!r}")
        if target_id is not None and observed_target is not None and as_id(observed_target) != target_id:
            conflicts.append(f"the read-back observed target {as_id(observed_target)!r}, not {target_id!r}")
        if target_id is not None and observed_target is None:
            unverified.append("the read-back's target (it names no target id)")
        else:
            readback = observation
    if conflicts:
        return _done(Outcome.BLOCKED, EffectState.UNKNOWN, NextStep.STOP_OR_ESCALATE,
                     ["correlation conflict: " + c for c in conflicts], ["effect on the target", *unverified])
    # the observer's `conflict` verdict blocks whether or not it names the target id (DESIGN §2)
    if observation is not None and observation.verdict == "conflict":
        return _done(Outcome.BLOCKED, EffectState.CONTRADICTED, NextStep.STOP_OR_ESCALATE,
                     ["the observer reports a conflict on the target"], unverified)

    consequential = tool.consequential
    sent = effective_sent(record)

    def decided() -> EffectState | None:
        """The effect, when pure/read, a read-back or `sent: false` decides it."""
        if not consequential:
            return EffectState.NONE
        if readback is not None:
            return EffectState.CONFIRMED if readback.verdict == "applied" else EffectState.NONE
        if sent is False:
            return EffectState.NONE
        return None

    if readback is None and consequential:
        unverified.append("effect on the target (nothing read it back)")

    # ---- 2. cancelled
    if record.status == "cancelled":
        effect = decided() or EffectState.UNKNOWN
        next_step = {EffectState.UNKNOWN: NextStep.OBSERVE_TARGET, EffectState.CONFIRMED: NextStep.STOP_OR_ESCALATE}.get(
            effect, NextStep.NONE)
        return _done(Outcome.CANCELLED, effect, next_step, ["the call was cancelled", *_effect_reason(effect)], unverified)

    error = record.error if isinstance(record.error, dict) else {}
    layer = error.get("layer")
    message = error.get("message")
    detail = f": {message}" if message else ""

    # ---- 3. timeout, transport error, or unknown whether it was sent
    # `lost`: a recording shows no result although the conversation went on (evidence-only; sent unknown)
    unknown_send = (record.status in ("timeout", "lost") or (record.status == "error" and layer == "transport")
                    or sent is None)
    if unknown_send and not (record.status == "returned" and decided() is not None):
        # (a return whose effect is decided anyway is judged as a return, below)
        what = (record.note if record.note
                else "the call timed out" if record.status == "timeout"
                else f"transport error{detail}" if layer == "transport"
                else "it is unknown whether the request was sent")
        effect = decided()
        if effect is None:
            return _done(Outcome.EFFECT_UNKNOWN, EffectState.UNKNOWN, NextStep.OBSERVE_TARGET,
                         [what, "no read-back: the effect is unknown; do not retry before observing the target"],
                         ["whether the call reached the tool", *unverified])
        outcome = Outcome.TIMED_OUT if record.status in ("timeout", "lost") else Outcome.FAILED
        return _done(outcome, effect, _failed_next(effect) if outcome is Outcome.FAILED else _timed_out_next(effect),
                     [what, *_effect_reason(effect)], unverified)

    # ---- 4. protocol / execution error
    if record.status == "error":
        effect = _failure_effect(consequential, sent, readback)
        return _done(Outcome.FAILED, effect, _failed_next(effect),
                     [f"{layer or 'execution'} error{detail}", *_effect_reason(effect)], unverified)

    # ---- 5. returned
    if not record.result_known:
        unverified.append("the return's content (the recording does not carry it)")
    elif tool.output_problem:
        unverified.append(f"the return's shape (output_schema cannot be used: {tool.output_problem})")
    elif tool.output_validator is not None:
        errors = output_mismatch(tool, record)
        if errors is None:
            unverified.append("the return's shape (the result holds no structured content to check against "
                              "output_schema)")
        elif errors:
            effect = _failure_effect(consequential, sent, readback)
            return _done(Outcome.FAILED, effect, _failed_next(effect),
                         [OUTPUT_MISMATCH, *errors, *_effect_reason(effect)], unverified)
    if not consequential:
        return _done(Outcome.SUCCEEDED, EffectState.NONE, NextStep.NONE,
                     [f"a {tool.effect_value} tool returned: the return suffices" if tool.effect else "returned"],
                     ["freshness and completeness of the returned data", *unverified])
    if readback is None:
        return _done(Outcome.NEEDS_EVIDENCE, EffectState.UNVERIFIED, NextStep.READ_BACK,
                     ["the tool returned success, but nothing read the target back"], unverified)
    if readback.verdict == "applied":
        return _done(Outcome.SUCCEEDED, EffectState.CONFIRMED, NextStep.HAND_TO_ACCEPTANCE,
                     ["returned, and a read-back of the same target reports the effect applied"],
                     ["fields the read-back did not cover", *unverified])
    return _done(Outcome.BLOCKED, EffectState.CONTRADICTED, NextStep.STOP_OR_ESCALATE,
                 ["the tool returned success, but the read-back reports the effect not applied"], unverified)


OUTPUT_MISMATCH = "the return does not match output_schema"  # the first reason of such a `failed` case


def structured_return(record: Record) -> tuple[bool, Any]:
    """(found, value): what of a return `output_schema` describes.

    An MCP `CallToolResult` (a mapping with `structuredContent`) gives its structured content. A
    fixture's or log's `result` is otherwise the return value itself. A recorded result that is the
    content the model was given (`as_content`) is structured only as JSON: a mapping or array that is not
    a list of content blocks, the JSON text of an object or array, or content blocks that are exactly one
    such text; prose, images and other blocks are not (found False).
    An MCP `CallToolResult` without `structuredContent`, or one with `isError: true` (whose content
    is the error, not the promised value), holds nothing structured (found False).
    """
    value = record.result
    if _unstructured_call_result(value):
        return False, None
    if not record.as_content:
        return True, _structured_content(value)
    if isinstance(value, list) and value and all(isinstance(b, dict) and isinstance(b.get("type"), str)
                                                  for b in value):  # content blocks
        if len(value) != 1 or value[0]["type"] != "text" or not isinstance(value[0].get("text"), str):
            return False, None  # images, documents, several blocks: content, not a structured return
        value = value[0]["text"]  # one text block: what a harness makes of an MCP result
    if isinstance(value, str):
        if len(value) > MAX_STRUCTURED_TEXT:
            return False, None
        from toolcontract.core.jsoncodec import loads_container

        value = loads_container(value)  # None: prose, or not JSON
    if _unstructured_call_result(value):
        return False, None
    if isinstance(value, (dict, list)):
        return True, _structured_content(value)
    return False, None


# the members of an MCP CallToolResult (2025-11-25 and 2026-07-28) besides structuredContent
_CALL_RESULT_KEYS = frozenset(("content", "isError", "resultType", "_meta"))


def _unstructured_call_result(value: Any) -> bool:
    """An MCP CallToolResult (`content` blocks, only its own members) that has no structuredContent,
    or says `isError: true`."""
    if not (isinstance(value, dict) and isinstance(value.get("content"), list)):
        return False
    if value.get("isError") is True:
        return True
    return "structuredContent" not in value and _CALL_RESULT_KEYS.issuperset(value)


MAX_STRUCTURED_TEXT = 4 * 1024 * 1024  # a longer text result is not parsed to be checked


def _structured_content(value: Any) -> Any:
    if isinstance(value, dict) and "structuredContent" in value:
        return value["structuredContent"]
    return value


def output_mismatch(tool, record: Record) -> list[str] | None:
    """Why a return does not match the tool's output_schema ([] when it does); None when the return
    holds nothing structured to check. Bounded: at most 20 errors, never quadratic."""
    found, value = structured_return(record)
    if not found:
        return None
    from toolcontract.core.schema.validation import explain_errors

    explained = explain_errors(tool.output_validator, value)
    errors = [f"{'/' + '/'.join(map(str, path)) if path else '/'}: {message}" for path, message in explained]
    if explained.note:
        errors.append(explained.note)
    return errors


def _failure_effect(consequential: bool, sent: bool | None, readback: Observation | None) -> EffectState:
    if not consequential or sent is False:
        return EffectState.NONE
    if readback is not None:
        return EffectState.CONFIRMED if readback.verdict == "applied" else EffectState.NONE
    return EffectState.UNVERIFIED


def _failed_next(effect: EffectState) -> NextStep:
    return {
        EffectState.UNVERIFIED: NextStep.READ_BACK,
        EffectState.CONFIRMED: NextStep.STOP_OR_ESCALATE,  # it failed, yet the effect happened
    }.get(effect, NextStep.FIX_REQUEST)


def _timed_out_next(effect: EffectState) -> NextStep:
    return NextStep.HAND_TO_ACCEPTANCE if effect is EffectState.CONFIRMED else NextStep.NONE


def _effect_reason(effect: EffectState) -> list[str]:
    return {
        EffectState.CONFIRMED: ["a read-back shows the effect applied"],
        EffectState.UNKNOWN: ["nothing shows whether the effect happened"],
        EffectState.UNVERIFIED: ["nothing read the target back"],
    }.get(effect, [])
