"""Property tests: whatever the model, the adapter and the observer produced,
`assess` never crashes and its answer keeps DESIGN §2's promises.

Arguments are any JSON value or any string; records have one of the four
statuses, `sent` true/false/"unknown"/absent, any result and any error layer;
observations have any of the three verdicts, any call id and any target.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import examples
from toolcontract.assessment import Registry, assess
from toolcontract.assessment.classify import TASK_ACCEPTANCE
from toolcontract.core.model import Candidate, Case, Context, EffectState, Gate, NextStep, Observation, Outcome, Record

ALL = ["pure", "read", "reversible_write", "irreversible_write", "open_world"]
DESCRIPTORS = [
    {"name": "doc_write", "effect": "reversible_write",
     "input_schema": {"type": "object", "properties": {"doc": {"type": "string"}, "v": {"type": "string"}},
                      "required": ["doc", "v"]},
     "output_schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
     "target": {"id": "/doc", "version": "/v"},
     "semantic_rules": [{"id": "r1", "message": "m", "if": {"required": ["x"]}, "then": {"required": ["y"]}}]},
    {"name": "pay", "effect": "irreversible_write", "input_schema": {"type": "object"}, "target": {"id": "/id"}},
    {"name": "mail_send", "effect": "open_world", "input_schema": {"type": "object"}},
    {"name": "calc", "effect": "pure", "input_schema": {"type": "object"},
     "output_schema": {"type": "object", "required": ["y"]}},
    {"name": "doc_read", "effect": "read", "target": {"id": "/doc"}},
    {"name": "audit", "effect": "read", "approval": "required"},
    {"name": "draft", "effect": "reversible_write", "approval": "not_required"},
    {"name": "mystery"},  # no effect class
]
REGISTRY = Registry.from_descriptors(DESCRIPTORS)
NAMES = [d["name"] for d in DESCRIPTORS]

ERROR_OUTCOMES = {Outcome.REJECTED, Outcome.REQUIRES_APPROVAL, Outcome.BLOCKED, Outcome.FAILED, Outcome.CANCELLED,
                  Outcome.EFFECT_UNKNOWN}
ADMISSION_OUTCOMES = {Outcome.REJECTED, Outcome.REQUIRES_APPROVAL, Outcome.NEEDS_EVIDENCE, Outcome.ALLOWED}

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
ids = st.none() | st.sampled_from(["c1", "c2", "7", "d1"]) | st.integers(-3, 10) | st.text(max_size=6)


@st.composite
def arguments(draw):
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(json_values)
    if kind == 1:
        return draw(st.text(max_size=40))  # a raw string, usually not JSON
    if kind == 2:
        return json.dumps(draw(json_values))  # a raw string that is JSON, maybe not an object
    base = {"doc": draw(st.sampled_from(["d1", "d2"]) | st.integers(0, 3)),
            "v": draw(st.sampled_from(["7", "8"]) | st.integers(6, 8)),
            "id": draw(st.sampled_from(["p1", "p2"]))}
    extra = draw(st.dictionaries(st.sampled_from(["x", "y", "z"]), json_values, max_size=2))
    merged = {**base, **extra}
    return json.dumps(merged) if kind == 3 and draw(st.booleans()) else merged


approvals = st.fixed_dictionaries(
    {},
    optional={
        "ref": st.text(max_size=4), "tool": st.sampled_from(NAMES) | st.text(max_size=6),
        "target": st.sampled_from(["d1", "d2", "p1"]) | st.integers(0, 3),
        "version": st.sampled_from(["7", "8"]) | st.integers(6, 8),
        "fields": st.text(max_size=3) | st.lists(st.text(max_size=3), max_size=2),
        "expires": st.sampled_from(["2026-11-29T09:00:00Z", "2026-11-30T00:00:00Z", "garbage", "2026-11-29"]),
    },
)
contexts = st.builds(
    Context,
    now=st.none() | st.sampled_from(["2026-11-29T10:00:00Z", "2026-11-29T10:00:00+05:00", "not a time"]),
    environment=st.none() | st.fixed_dictionaries(
        {}, optional={"id": ids, "allows": st.lists(st.sampled_from(ALL), unique=True) | json_values}),
    approvals=st.lists(approvals | json_values, max_size=3).map(tuple),
    target=st.none() | json_values | st.fixed_dictionaries(
        {}, optional={"id": st.sampled_from(["d1", "d2", "p1"]) | st.integers(0, 3), "exists": st.booleans(),
                      "version": st.sampled_from(["7", "8"]) | st.integers(6, 8)}),
    untrusted_input=st.booleans(),
    sensitive_data=st.booleans(),
)
errors = st.none() | json_values | st.fixed_dictionaries(
    {}, optional={"layer": st.sampled_from(["transport", "protocol", "execution"]) | st.text(max_size=5),
                  "message": st.text(max_size=20) | json_values})
records = st.none() | st.builds(
    Record,
    status=st.sampled_from(["returned", "error", "timeout", "cancelled"]),
    call_id=ids,
    sent=st.sampled_from([True, False, "unknown", None]),
    result=json_values,
    error=errors,
)
observations = st.none() | st.builds(
    Observation,
    verdict=st.sampled_from(["applied", "not_applied", "conflict"]),
    call_id=ids,
    target=st.none() | json_values | st.fixed_dictionaries(
        {}, optional={"id": st.sampled_from(["d1", "d2", "p1"]) | st.integers(0, 3), "version": json_values}),
)
wild_cases = st.builds(
    Case,
    id=st.text(max_size=6),
    candidate=st.builds(Candidate, id=ids, name=st.sampled_from(NAMES) | st.text(max_size=10), arguments=arguments()),
    context=contexts,
    record=records,
    observation=observations,
)

# Calls that pass admission, so the execution table gets exercised as much as the admission one.
ADMITTED = [
    ("doc_write", {"doc": "d1", "v": "7"}, Context(now="2026-11-29T10:00:00Z", environment={"allows": ALL},
                                                 approvals=({"tool": "doc_write", "target": "d1", "version": "7"},),
                                                 target={"id": "d1", "exists": True, "version": 7})),
    ("pay", {"id": "p1"}, Context(environment={"allows": ALL}, approvals=({"tool": "pay", "target": "p1"},),
                                  target={"id": "p1"})),
    ("mail_send", {}, Context(environment={"allows": ALL}, approvals=({"tool": "mail_send"},))),
    ("calc", {"q": 1}, Context(environment={"allows": ["pure"]})),
    ("doc_read", {"doc": "d1"}, Context(environment={"allows": ["read"]})),
    ("draft", {}, Context(environment={"allows": ALL})),
]
correlated_ids = st.sampled_from(["c1"] * 8 + [None, "c2", 7])
admitted_records = st.builds(
    Record,
    status=st.sampled_from(["returned", "error", "timeout", "cancelled"]),
    call_id=correlated_ids,
    sent=st.sampled_from([True, False, "unknown", None]),
    result=json_values | st.fixed_dictionaries({"ok": st.booleans(), "y": st.integers()}),
    error=errors,
)
admitted_observations = st.none() | st.builds(
    Observation,
    verdict=st.sampled_from(["applied", "not_applied", "conflict"]),
    call_id=correlated_ids,
    target=st.sampled_from([None, {"id": "d1"}, {"id": "p1"}, {"id": "d1", "version": "8"}, {"id": "p1"}, {"id": "x"},
                            {"version": "8"}, "garbage"]),
)


@st.composite
def admitted_cases(draw):
    name, args, context = draw(st.sampled_from(ADMITTED))
    return Case(draw(st.text(max_size=6)), Candidate("c1", name, args), context,
                draw(admitted_records), draw(admitted_observations))



SETTINGS = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.long
@SETTINGS
@given(wild_cases)
def test_any_case_is_assessed_without_crashing_and_keeps_the_promises(case):
    check_promises(case)


@pytest.mark.long
@SETTINGS
@given(admitted_cases())
def test_admitted_calls_with_any_record_and_read_back_keep_the_promises(case):
    """The same promises where the execution table decides (every gate passed)."""
    envelope = check_promises(case)
    assert envelope.gate is None


def check_promises(case: Case):
    envelope = assess(case, REGISTRY)
    event(f"outcome {envelope.outcome.value}")

    # one of the ten outcomes, one of the five effects, one of the seven next steps
    assert envelope.outcome in set(Outcome)
    assert envelope.effect in set(EffectState)
    assert envelope.next_step in set(NextStep)

    # the unverified scope is never empty and always ends with task acceptance
    assert envelope.unverified_scope and envelope.unverified_scope[-1] == TASK_ACCEPTANCE

    # two projections of one envelope
    view = envelope.model_view
    assert isinstance(view["content"], str) and view["content"].strip()
    assert view["correlation_id"] == envelope.evidence["correlation_id"] == envelope.correlation_id
    assert isinstance(envelope.correlation_id, str)

    # model_view.is_error per DESIGN §2
    if envelope.outcome in ERROR_OUTCOMES:
        assert view["is_error"] is True
    elif envelope.outcome is Outcome.NEEDS_EVIDENCE:
        assert view["is_error"] is (envelope.gate is not None)
    elif envelope.outcome is Outcome.TIMED_OUT:
        assert view["is_error"] is (envelope.effect is not EffectState.CONFIRMED)
    else:
        assert view["is_error"] is False

    # effect_unknown: never failed, next step observe, never a retry
    if envelope.outcome is Outcome.EFFECT_UNKNOWN:
        assert envelope.effect is EffectState.UNKNOWN and envelope.next_step is NextStep.OBSERVE_TARGET
    if envelope.outcome is Outcome.FAILED:
        assert envelope.effect is not EffectState.UNKNOWN

    # admission vs execution
    if case.record is None:
        assert envelope.outcome in ADMISSION_OUTCOMES
        assert envelope.effect is EffectState.NONE
        assert (envelope.outcome is Outcome.ALLOWED) is (envelope.gate is None)
    elif envelope.gate is not None:  # a record, although admission was refused
        assert envelope.outcome is Outcome.BLOCKED and envelope.effect is EffectState.UNKNOWN
    else:
        assert envelope.outcome not in (Outcome.REJECTED, Outcome.REQUIRES_APPROVAL, Outcome.ALLOWED)

    # next_step per the decided list
    if envelope.outcome is Outcome.REJECTED:
        assert envelope.next_step is {
            Gate.PARSE: NextStep.FIX_REQUEST, Gate.REGISTRY: NextStep.FIX_REQUEST, Gate.SHAPE: NextStep.FIX_REQUEST,
            Gate.SEMANTIC: NextStep.FIX_REQUEST, Gate.TARGET: NextStep.OBSERVE_TARGET,
            Gate.ENVIRONMENT: NextStep.STOP_OR_ESCALATE,
        }[envelope.gate]
    if envelope.outcome is Outcome.REQUIRES_APPROVAL:
        assert envelope.next_step is NextStep.REQUEST_APPROVAL
        assert envelope.gate in (Gate.ENVIRONMENT, Gate.APPROVAL)
    if envelope.outcome is Outcome.NEEDS_EVIDENCE:
        assert envelope.next_step is (NextStep.OBSERVE_TARGET if envelope.gate else NextStep.READ_BACK)
        assert envelope.effect is (EffectState.NONE if envelope.gate else EffectState.UNVERIFIED)
    if envelope.outcome is Outcome.BLOCKED:
        assert envelope.next_step is NextStep.STOP_OR_ESCALATE
        assert envelope.effect in (EffectState.UNKNOWN, EffectState.CONTRADICTED)
    if envelope.outcome is Outcome.CANCELLED and envelope.effect is EffectState.UNKNOWN:
        assert envelope.next_step is NextStep.OBSERVE_TARGET
    if envelope.outcome is Outcome.FAILED and envelope.effect is EffectState.UNVERIFIED:
        assert envelope.next_step is NextStep.READ_BACK
    if envelope.outcome is Outcome.SUCCEEDED:
        assert envelope.effect in (EffectState.NONE, EffectState.CONFIRMED)
        assert envelope.next_step is (NextStep.HAND_TO_ACCEPTANCE if envelope.effect is EffectState.CONFIRMED
                                      else NextStep.NONE)
    if envelope.outcome is Outcome.TIMED_OUT:
        assert envelope.effect in (EffectState.NONE, EffectState.CONFIRMED)
        if envelope.effect is EffectState.NONE:
            assert envelope.next_step is NextStep.NONE
    if envelope.outcome is Outcome.ALLOWED:
        assert envelope.next_step is NextStep.NONE

    # a consequential call's effect is never declared "none" without evidence for it
    tool = REGISTRY.get(case.candidate.name)
    if (tool is not None and tool.consequential and envelope.gate is None and case.record is not None
            and case.observation is None and case.record.sent is not False):
        assert envelope.effect is not EffectState.NONE, envelope.reasons

    # the whole envelope serialises
    json.dumps(envelope.as_dict(), default=str)
    return envelope


@pytest.mark.long
@SETTINGS
@given(st.sampled_from(NAMES), arguments(), contexts)
def test_admission_alone_is_total(name, args, context):
    """A harness calls admit() before running anything: it must answer for any input."""
    from toolcontract.assessment import admit

    admission = admit(Candidate("c1", name, args), REGISTRY, context)
    assert admission.outcome in ADMISSION_OUTCOMES
    assert admission.trail and admission.trail[0].gate is Gate.PARSE
    assert [v.passed for v in admission.trail].count(False) == (0 if admission.admitted else 1)
    assert admission.admitted or admission.trail[-1] is admission.refusal
