"""Envelopes: the assessed result of one case, and its two projections.

`model_view` is what a harness would put back into the model's context;
`evidence` is the full record for a human reviewer. `project` derives both from
the same facts in one pass, so they carry the same correlation id and cannot
drift apart; `model_view.omitted` names what the model does not see.
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass
from typing import Any

from toolcontract.assessment.classify import Classification, classify
from toolcontract.assessment.gates import _PASSED, GATES, Admission, admit, admit_from_evidence, as_id
from toolcontract.assessment.registry import Registry
from toolcontract.core.model import Case, EffectState, Gate, NextStep, Outcome

MODEL_VIEW_LIMIT = 4000  # characters of a return shown to the model

HINTS = {
    NextStep.FIX_REQUEST: "Fix the call as the issues say, then call again.",
    NextStep.REQUEST_APPROVAL: "Ask for an approval that names this tool, target and version; do not call again without it.",
    NextStep.OBSERVE_TARGET: "Read the target's current state first; do not repeat the call before that.",
    NextStep.READ_BACK: "Read the target back to confirm the effect before relying on it.",
    NextStep.STOP_OR_ESCALATE: "Stop and hand this to a person; do not retry.",
    NextStep.HAND_TO_ACCEPTANCE: "The effect is confirmed; check the task's acceptance criteria.",
    NextStep.NONE: "",
}

_ERROR_OUTCOMES = {Outcome.REJECTED, Outcome.REQUIRES_APPROVAL, Outcome.BLOCKED, Outcome.FAILED,
                   Outcome.CANCELLED, Outcome.EFFECT_UNKNOWN}


@dataclass(frozen=True)
class Envelope:
    case_id: str
    correlation_id: str
    tool: str
    outcome: Outcome
    gate: Gate | None
    effect: EffectState
    trail: tuple[dict, ...]
    reasons: tuple[str, ...]
    unverified_scope: tuple[str, ...]
    next_step: NextStep
    model_view: dict
    evidence: dict
    expect: dict | None = None
    source: dict | None = None

    @property
    def expect_met(self) -> bool:
        return self.expect is None or bool(self.expect.get("met"))

    def as_dict(self) -> dict:
        return {
            "id": self.case_id,
            "correlation_id": self.correlation_id,
            "tool": self.tool,
            "outcome": self.outcome,  # StrEnum members serialise as their strings
            "gate": self.gate,
            "effect": self.effect,
            "trail": list(self.trail),
            "reasons": list(self.reasons),
            "unverified_scope": list(self.unverified_scope),
            "next_step": self.next_step,
            "model_view": self.model_view,
            "evidence": self.evidence,
            "expect": self.expect,
            "source": self.source,
        }


def is_error(outcome: Outcome, effect: EffectState, at_admission: bool) -> bool:
    if outcome in _ERROR_OUTCOMES:
        return True
    if outcome is Outcome.NEEDS_EVIDENCE:
        return at_admission  # a refusal; after a return it is a success still to be verified
    if outcome is Outcome.TIMED_OUT:
        return effect is not EffectState.CONFIRMED
    return False


_GATE_NAMES = tuple(g for g, _ in GATES)


# the shared passing verdicts (most of every trail) and the steps they and unreached gates give
_PASSED_SEQ = tuple(_PASSED[g] for g in _GATE_NAMES)
_PASSED_STEPS = tuple({"gate": str(g), "result": "passed"} for g in _GATE_NAMES)  # as Verdict.as_dict() gives
_NOT_REACHED_STEPS = tuple({"gate": g, "result": "not_reached"} for g in _GATE_NAMES)
_gate_of = operator.attrgetter("gate")


def _trail(admission: Admission) -> tuple[dict, ...]:
    trail = admission.trail
    reached = len(trail)
    if reached <= len(_GATE_NAMES) and tuple(map(_gate_of, trail)) == _GATE_NAMES[:reached]:
        # as `admit` runs them: the gates in order up to the first refusal, the rest not reached
        steps = [step.copy() if verdict is shared else verdict.as_dict()
                 for verdict, shared, step in zip(trail, _PASSED_SEQ, _PASSED_STEPS)]
        steps.extend(map(dict.copy, _NOT_REACHED_STEPS[reached:]))
        return tuple(steps)
    steps = {v.gate: v.as_dict() for v in trail}
    return tuple(steps.get(g) or {"gate": g, "result": "not_reached"} for g in _GATE_NAMES)  # in gate order


# json.dumps(value, ensure_ascii=False[, default=str]) without building an encoder per call
_dumps = json.JSONEncoder(ensure_ascii=False).encode
_dumps_any = json.JSONEncoder(ensure_ascii=False, default=str).encode
_quote = json.encoder.encode_basestring  # a str as json.dumps(..., ensure_ascii=False) writes it


def _error_content(error: str, issues: list, hint: str) -> str:
    """`json.dumps({"error": error, "issues": issues, "hint": hint}, ensure_ascii=False)`, written
    directly when every item is a string (json's own string encoder, the same separators)."""
    try:
        return ('{"error": ' + _quote(error) + ', "issues": [' + ", ".join(map(_quote, issues)) + '], "hint": '
                + _quote(hint) + "}")
    except TypeError:  # an item that is not a string
        return _dumps({"error": error, "issues": issues, "hint": hint})


_EMPTY = (None, [], {})  # evidence the model view does not list as omitted (never mutated)


def _render(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return _dumps_any(value)
    except (TypeError, ValueError):
        return str(value)


def project(case: Case, admission: Admission, result: Classification, correlation_id: str) -> tuple[dict, dict]:
    """(model_view, evidence) from one case, its admission and its classification."""
    call, record, observation = admission.call, case.record, case.observation
    tool = call.tool
    issues = [i for v in admission.trail for i in v.issues]
    evidence: dict[str, Any] = {
        "correlation_id": correlation_id,
        "candidate": {"id": case.candidate.id, "name": case.candidate.name, "arguments": case.candidate.arguments},
        "tool": None if tool is None else {
            "name": tool.name, "version": tool.version,
            "effect": tool.effect_value,
            "approval": "required" if tool.needs_approval else "not_required",
            "target": dict(tool.target),
        },
        "context": None if case.context is None else {
            "now": case.context.now, "environment": case.context.environment,
            "approvals": list(case.context.approvals), "target": case.context.target,
            "untrusted_input": case.context.untrusted_input, "sensitive_data": case.context.sensitive_data,
        },
        "record": None if record is None else {
            "call_id": record.call_id, "status": record.status, "sent": record.sent,
            "result": record.result, "error": record.error,
        },
        "observation": None if observation is None else {
            "call_id": observation.call_id, "target": observation.target, "effect": observation.verdict,
        },
        "issues": issues,
    }
    if not case.candidate.arguments_known:
        evidence["candidate"]["arguments_known"] = False
    if record is not None and not record.result_known:
        evidence["record"]["result_known"] = False

    outcome, at_admission = result.outcome, admission.refusal is not None
    error = is_error(outcome, result.effect, at_admission)
    shown: set[str] = {"correlation_id"}
    truncated = False
    if at_admission or outcome is Outcome.BLOCKED or (error and record is None):
        content = _error_content(
            f"{outcome._value_}: {result.reasons[0] if result.reasons else outcome._value_}",
            [f"{i['pointer'] or '/'}: {i['message']}" for i in issues] or list(result.reasons[1:]) or list(result.reasons),
            HINTS[result.next_step] or "No action is needed.",
        )
        shown.add("issues")
    elif error:
        detail = (record.error or {}).get("message") if record and isinstance(record.error, dict) else None
        content = _error_content(
            f"{outcome._value_}: {detail or result.reasons[0]}",
            list(result.reasons),
            HINTS[result.next_step] or "No action is needed.",
        )
        shown.add("record")
    elif record is None:  # allowed: admitted, not executed
        content = "The call was admitted and has not run yet."
    else:
        text = _render(record.result) if record.result_known else "(the recording does not carry the tool's return)"
        if len(text) > MODEL_VIEW_LIMIT:
            text, truncated = text[:MODEL_VIEW_LIMIT] + " …[truncated]", True
        if not text.strip():
            text = "(the tool returned no content)"
        if outcome is Outcome.NEEDS_EVIDENCE:
            text += "\n[unverified: nothing has read the target back yet]"
        content = text
        shown.add("record")
    omitted = [key for key in evidence if key not in shown and evidence[key] not in _EMPTY]
    if truncated:
        omitted.append(f"record.result (cut at {MODEL_VIEW_LIMIT} characters)")
    model_view = {"correlation_id": correlation_id, "content": content, "is_error": error, "omitted": omitted}
    return model_view, evidence


def _expect(case: Case, result: Classification) -> dict | None:
    if not case.expect:
        return None
    want = {k: v for k, v in case.expect.items() if k in ("outcome", "gate", "effect")}
    got = {"outcome": result.outcome.value, "gate": result.gate.value if result.gate else None,
           "effect": result.effect.value}
    met = all(got[k] == (v if v is None else str(v)) for k, v in want.items())
    expectation = {"met": met, "want": want}
    if not met:
        expectation["got"] = {k: got[k] for k in want}
    return expectation


def assess(case: Case, registry: Registry) -> Envelope:
    """Admit the candidate, classify what the record and observation prove, and project. A case with no
    context (None) is judged from the evidence alone (`admit_from_evidence`, DESIGN §2)."""
    if case.context is None:
        admission = admit_from_evidence(case.candidate, registry, registry.offered)
    else:
        admission = admit(case.candidate, registry, case.context)
    result = classify(admission, case.record, case.observation, case.pending)
    correlation_id = as_id(
        case.candidate.id
        or (case.record.call_id if case.record and case.record.call_id else None)
        or f"case:{case.id}"
    )  # always a string: ids compare (and are reported) as strings
    model_view, evidence = project(case, admission, result, correlation_id)
    return Envelope(
        case_id=case.id,
        correlation_id=correlation_id,
        tool=case.candidate.name,
        outcome=result.outcome,
        gate=result.gate,
        effect=result.effect,
        trail=_trail(admission),
        reasons=result.reasons,
        unverified_scope=result.unverified,
        next_step=result.next_step,
        model_view=model_view,
        evidence=evidence,
        expect=_expect(case, result),
        source=case.source,
    )
