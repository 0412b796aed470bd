"""Classification: one test per row of both outcome tables of DESIGN §2, the
precedence list, and every "Details that the tables leave open, decided".

Cases go through the whole pure core (`assess`: admit, classify, project), as a
harness would call it.
"""

from __future__ import annotations

import json

import pytest

from toolcontract.assessment import Registry, admit, assess, classify
from toolcontract.assessment.classify import TASK_ACCEPTANCE, effective_sent
from toolcontract.core.model import Candidate, Case, Context, EffectState, Gate, NextStep, Observation, Outcome, Record

NOW = "2026-11-29T10:00:00Z"
ALL = ["pure", "read", "reversible_write", "irreversible_write", "open_world"]

WRITE = {  # a consequential tool with target id and version, and an output_schema
    "name": "doc_write",
    "effect": "reversible_write",
    "input_schema": {
        "type": "object",
        "properties": {"doc": {"type": "string"}, "v": {"type": "string"}, "text": {"type": "string"}},
        "required": ["doc", "v"],
        "additionalProperties": False,
    },
    "output_schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
    "target": {"id": "/doc", "version": "/v"},
    "semantic_rules": [{"id": "no-shouting", "message": "text must not be FINAL",
                        "if": {"properties": {"text": {"const": "FINAL"}}, "required": ["text"]},
                        "then": False}],
}
MAIL = {"name": "mail_send", "effect": "open_world", "input_schema": {"type": "object"}}  # no target
PURE = {
    "name": "calc", "effect": "pure",
    "input_schema": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]},
    "output_schema": {"type": "object", "properties": {"y": {"type": "number"}}, "required": ["y"]},
}
READ = {"name": "doc_read", "effect": "read", "input_schema": {"type": "object"}, "target": {"id": "/doc"}}
REGISTRY = Registry.from_descriptors([WRITE, MAIL, PURE, READ])

ARGS = {"doc": "d1", "v": "7"}
APPROVAL = {"ref": "A1", "tool": "doc_write", "target": "d1", "version": "7", "expires": "2026-11-30T00:00:00Z"}
OK_CONTEXT = Context(now=NOW, environment={"id": "stage", "allows": ALL}, approvals=(APPROVAL,),
                     target={"id": "d1", "exists": True, "version": "7"})
MAIL_CONTEXT = Context(now=NOW, environment={"allows": ALL}, approvals=({"tool": "mail_send"},))
FREE_CONTEXT = Context(environment={"allows": ALL})

APPLIED = Observation("applied", "c1", {"id": "d1", "version": "8"})
NOT_APPLIED = Observation("not_applied", "c1", {"id": "d1", "version": "7"})
CONFLICT = Observation("conflict", "c1", {"id": "d1", "version": "9"})


def run(record=None, observation=None, *, name="doc_write", arguments=ARGS, context=OK_CONTEXT, cid="c1"):
    return assess(Case("case", Candidate(cid, name, arguments), context, record, observation), REGISTRY)


def returned(result=None, **kw):
    return Record("returned", call_id=kw.pop("call_id", "c1"), result={"ok": True} if result is None else result, **kw)


def check(envelope, outcome, effect, next_step=None, gate="any"):
    got = (envelope.outcome, envelope.effect)
    assert got == (outcome, effect), (got, envelope.reasons)
    if next_step is not None:
        assert envelope.next_step is next_step, (envelope.next_step, envelope.reasons)
    if gate != "any":
        assert envelope.gate is gate
    # the invariants every envelope keeps
    assert envelope.unverified_scope and envelope.unverified_scope[-1] == TASK_ACCEPTANCE
    assert isinstance(envelope.model_view["content"], str) and envelope.model_view["content"].strip()
    assert envelope.model_view["correlation_id"] == envelope.evidence["correlation_id"] == envelope.correlation_id
    json.dumps(envelope.as_dict())
    return envelope


# ============================================================ admission table


@pytest.mark.parametrize(
    "name, arguments, context, gate, next_step",
    [
        ("doc_write", "{not json", OK_CONTEXT, Gate.PARSE, NextStep.FIX_REQUEST),
        ("Doc_Write", ARGS, OK_CONTEXT, Gate.REGISTRY, NextStep.FIX_REQUEST),
        ("doc_write", {"doc": 1}, OK_CONTEXT, Gate.SHAPE, NextStep.FIX_REQUEST),
        ("doc_write", {**ARGS, "text": "FINAL"}, OK_CONTEXT, Gate.SEMANTIC, NextStep.FIX_REQUEST),
        ("doc_write", ARGS, Context(now=NOW, environment={"allows": ALL}, approvals=(APPROVAL,),
                                    target={"id": "d1", "exists": False}), Gate.TARGET, NextStep.OBSERVE_TARGET),
        ("doc_write", ARGS, Context(now=NOW, environment={"allows": ALL}, approvals=(APPROVAL,),
                                    target={"id": "d1", "version": "6"}), Gate.TARGET, NextStep.OBSERVE_TARGET),
        ("doc_write", ARGS, Context(now=NOW, environment={"allows": ["read"]}, approvals=(APPROVAL,),
                                    target={"id": "d1", "version": "7"}), Gate.ENVIRONMENT, NextStep.STOP_OR_ESCALATE),
    ],
    ids=["parse", "registry", "shape", "semantic", "target-absent", "target-version", "environment"],
)
def test_rejected(name, arguments, context, gate, next_step):
    envelope = check(run(name=name, arguments=arguments, context=context), Outcome.REJECTED, EffectState.NONE,
                     next_step, gate)
    assert envelope.model_view["is_error"] is True


def test_requires_approval_without_covering_approval():
    context = Context(now=NOW, environment={"allows": ALL}, target={"id": "d1", "version": "7"})
    envelope = check(run(context=context), Outcome.REQUIRES_APPROVAL, EffectState.NONE, NextStep.REQUEST_APPROVAL,
                     Gate.APPROVAL)
    assert envelope.model_view["is_error"] is True


@pytest.mark.parametrize("approval", [
    {**APPROVAL, "tool": "other"}, {**APPROVAL, "target": "d2"}, {**APPROVAL, "version": "6"},
    {**APPROVAL, "expires": "2026-11-29T09:00:00Z"},
])
def test_requires_approval_when_the_approval_does_not_cover(approval):
    context = Context(now=NOW, environment={"allows": ALL}, approvals=(approval,), target={"id": "d1", "version": "7"})
    check(run(context=context), Outcome.REQUIRES_APPROVAL, EffectState.NONE, NextStep.REQUEST_APPROVAL, Gate.APPROVAL)


def test_requires_approval_by_rule_of_two_at_the_environment_gate():
    context = Context(now=NOW, environment={"allows": ALL}, target={"id": "d1", "version": "7"},
                      untrusted_input=True, sensitive_data=True)
    check(run(context=context), Outcome.REQUIRES_APPROVAL, EffectState.NONE, NextStep.REQUEST_APPROVAL,
          Gate.ENVIRONMENT)


def test_needs_evidence_at_admission_when_the_target_was_not_observed():
    context = Context(now=NOW, environment={"allows": ALL}, approvals=(APPROVAL,))
    envelope = check(run(context=context), Outcome.NEEDS_EVIDENCE, EffectState.NONE, NextStep.OBSERVE_TARGET,
                     Gate.TARGET)
    assert envelope.model_view["is_error"] is True  # a refusal


def test_allowed_when_every_gate_passes_and_there_is_no_record():
    envelope = check(run(), Outcome.ALLOWED, EffectState.NONE, NextStep.NONE, None)
    assert envelope.model_view["is_error"] is False
    assert all(step["result"] == "passed" for step in envelope.trail)


@pytest.mark.parametrize(
    "context, arguments, gate",
    [
        (OK_CONTEXT, {"doc": 1}, Gate.SHAPE),  # rejected
        (Context(now=NOW, environment={"allows": ALL}, target={"id": "d1", "version": "7"}), ARGS, Gate.APPROVAL),
        (Context(now=NOW, environment={"allows": ALL}, approvals=(APPROVAL,)), ARGS, Gate.TARGET),  # needs_evidence
    ],
    ids=["rejected", "requires_approval", "needs_evidence"],
)
@pytest.mark.parametrize("record", [returned(), Record("timeout", "c1", sent=False), Record("cancelled", "c1")])
def test_blocked_when_a_record_exists_although_admission_did_not_pass(context, arguments, gate, record):
    envelope = check(run(record, APPLIED, arguments=arguments, context=context), Outcome.BLOCKED,
                     EffectState.UNKNOWN, NextStep.STOP_OR_ESCALATE, gate)
    assert envelope.model_view["is_error"] is True
    assert "without admission" in envelope.reasons[0]


# ============================================================ execution table


@pytest.mark.parametrize(
    "record, observation",
    [
        (returned(call_id="c2"), None),  # the record answers another call
        (returned(), Observation("applied", "c2", {"id": "d1"})),  # the read-back belongs to another call
        (returned(), Observation("applied", "c1", {"id": "d2"})),  # the read-back names another target
        (Record("timeout", "c9"), None),
        (Record("cancelled", "c1"), Observation("applied", "c1", {"id": "d9"})),
    ],
)
def test_blocked_by_correlation_conflict(record, observation):
    envelope = check(run(record, observation), Outcome.BLOCKED, EffectState.UNKNOWN, NextStep.STOP_OR_ESCALATE, None)
    assert "correlation conflict" in envelope.reasons[0]


def test_blocked_when_the_observer_reports_conflict():
    check(run(returned(), CONFLICT), Outcome.BLOCKED, EffectState.CONTRADICTED, NextStep.STOP_OR_ESCALATE, None)


def test_blocked_when_the_observer_reports_conflict_without_naming_the_target():
    check(run(returned(), Observation("conflict", "c1", None)), Outcome.BLOCKED, EffectState.CONTRADICTED)


@pytest.mark.parametrize(
    "record, observation, effect, next_step",
    [
        (Record("cancelled", "c1", sent=True), APPLIED, EffectState.CONFIRMED, None),
        (Record("cancelled", "c1", sent=True), NOT_APPLIED, EffectState.NONE, None),
        (Record("cancelled", "c1", sent=False), None, EffectState.NONE, None),
        (Record("cancelled", "c1", sent=True), None, EffectState.UNKNOWN, NextStep.OBSERVE_TARGET),
        (Record("cancelled", "c1", sent="unknown"), None, EffectState.UNKNOWN, NextStep.OBSERVE_TARGET),
        (Record("cancelled", "c1"), None, EffectState.UNKNOWN, NextStep.OBSERVE_TARGET),  # sent absent: unknown
    ],
)
def test_cancelled(record, observation, effect, next_step):
    envelope = check(run(record, observation), Outcome.CANCELLED, effect, next_step, None)
    assert envelope.model_view["is_error"] is True


def test_cancelled_pure_tool_has_no_effect():
    check(run(Record("cancelled", "c1"), name="calc", arguments={"x": 1}, context=FREE_CONTEXT),
          Outcome.CANCELLED, EffectState.NONE)


@pytest.mark.parametrize("layer", ["execution", "protocol"])
@pytest.mark.parametrize(
    "sent, observation, effect, next_step",
    [
        (None, None, EffectState.UNVERIFIED, NextStep.READ_BACK),  # sent absent: true for these layers
        (True, None, EffectState.UNVERIFIED, NextStep.READ_BACK),
        (True, APPLIED, EffectState.CONFIRMED, None),
        (True, NOT_APPLIED, EffectState.NONE, None),
        (False, None, EffectState.NONE, None),
    ],
)
def test_failed_on_a_correlated_error(layer, sent, observation, effect, next_step):
    record = Record("error", "c1", sent=sent, error={"layer": layer, "message": "boom"})
    envelope = check(run(record, observation), Outcome.FAILED, effect, next_step, None)
    assert envelope.model_view["is_error"] is True
    assert "boom" in envelope.model_view["content"]


@pytest.mark.parametrize("name, arguments", [("calc", {"x": 1}), ("doc_read", {"doc": "d1"})])
def test_failed_pure_or_read_tool_has_no_effect(name, arguments):
    record = Record("error", "c1", error={"layer": "execution", "message": "boom"})
    check(run(record, name=name, arguments=arguments, context=FREE_CONTEXT), Outcome.FAILED, EffectState.NONE)


def test_failed_when_the_return_does_not_match_output_schema():
    envelope = check(run(returned({"ok": "yes"})), Outcome.FAILED, EffectState.UNVERIFIED, NextStep.READ_BACK, None)
    assert any("output_schema" in r for r in envelope.reasons)
    check(run(returned({"y": "seven"}), name="calc", arguments={"x": 1}, context=FREE_CONTEXT),
          Outcome.FAILED, EffectState.NONE)


@pytest.mark.parametrize(
    "name, arguments, context, sent, observation, effect",
    [
        ("calc", {"x": 1}, FREE_CONTEXT, True, None, EffectState.NONE),
        ("doc_read", {"doc": "d1"}, FREE_CONTEXT, None, None, EffectState.NONE),
        ("doc_write", ARGS, OK_CONTEXT, True, APPLIED, EffectState.CONFIRMED),
        ("doc_write", ARGS, OK_CONTEXT, True, NOT_APPLIED, EffectState.NONE),
        ("doc_write", ARGS, OK_CONTEXT, False, None, EffectState.NONE),
    ],
)
def test_timed_out_when_the_effect_is_decided(name, arguments, context, sent, observation, effect):
    envelope = check(run(Record("timeout", "c1", sent=sent), observation, name=name, arguments=arguments,
                         context=context), Outcome.TIMED_OUT, effect, None, None)
    assert envelope.model_view["is_error"] is (effect is not EffectState.CONFIRMED)
    if effect is EffectState.NONE:
        assert envelope.next_step is NextStep.NONE


@pytest.mark.parametrize(
    "record",
    [
        Record("timeout", "c1", sent=True),
        Record("timeout", "c1"),  # sent absent: unknown
        Record("error", "c1", error={"layer": "transport", "message": "reset"}),
        Record("error", "c1", sent=True, error={"layer": "transport", "message": "reset"}),
        Record("error", "c1", sent="unknown", error={"layer": "execution", "message": "lost"}),
        Record("error", "c1", sent="unknown", error={"layer": "protocol", "message": "lost"}),
        Record("returned", "c1", sent="unknown", result={"ok": True}),
        Record("error", "c1", error=None),  # an error of no known layer, sent absent: unknown
    ],
)
@pytest.mark.parametrize("name, arguments, context", [("doc_write", ARGS, OK_CONTEXT), ("mail_send", {}, MAIL_CONTEXT)])
def test_effect_unknown_never_failed_never_retried(record, name, arguments, context):
    envelope = check(run(record, name=name, arguments=arguments, context=context), Outcome.EFFECT_UNKNOWN,
                     EffectState.UNKNOWN, NextStep.OBSERVE_TARGET, None)
    assert envelope.model_view["is_error"] is True
    assert "retry" not in envelope.next_step.value


def test_needs_evidence_after_a_return():
    envelope = check(run(returned()), Outcome.NEEDS_EVIDENCE, EffectState.UNVERIFIED, NextStep.READ_BACK, None)
    assert envelope.model_view["is_error"] is False  # a success still to be verified, not a refusal
    assert "unverified" in envelope.model_view["content"]


@pytest.mark.parametrize("name, arguments, result", [("calc", {"x": 1}, {"y": 2}), ("doc_read", {"doc": "d1"}, "text")])
def test_succeeded_pure_or_read_the_return_suffices(name, arguments, result):
    envelope = check(run(returned(result), name=name, arguments=arguments, context=FREE_CONTEXT),
                     Outcome.SUCCEEDED, EffectState.NONE, NextStep.NONE, None)
    assert envelope.model_view["is_error"] is False


def test_succeeded_consequential_with_a_read_back_on_the_same_target():
    envelope = check(run(returned(), APPLIED), Outcome.SUCCEEDED, EffectState.CONFIRMED,
                     NextStep.HAND_TO_ACCEPTANCE, None)
    assert envelope.model_view["is_error"] is False
    assert len(envelope.unverified_scope) >= 1 and TASK_ACCEPTANCE in envelope.unverified_scope


def test_succeeded_tool_without_target_any_applied_read_back_matches():
    check(run(returned({"id": "m1"}), Observation("applied", "c1", None), name="mail_send", arguments={},
              context=MAIL_CONTEXT), Outcome.SUCCEEDED, EffectState.CONFIRMED)


def test_blocked_when_the_read_back_says_not_applied_after_success():
    check(run(returned(), NOT_APPLIED), Outcome.BLOCKED, EffectState.CONTRADICTED, NextStep.STOP_OR_ESCALATE, None)


# ================================================================= precedence


def test_precedence_correlation_conflict_first():
    # beats cancellation, timeouts, errors and success alike
    for record in (Record("cancelled", "c2"), Record("timeout", "c2"), returned(call_id="c2"),
                   Record("error", "c2", error={"layer": "transport"})):
        assert run(record, APPLIED).outcome is Outcome.BLOCKED
    assert run(Record("cancelled", "c1"), CONFLICT).outcome is Outcome.BLOCKED


def test_precedence_cancelled_before_timeout_like_evidence():
    assert run(Record("cancelled", "c1", sent="unknown")).outcome is Outcome.CANCELLED
    assert run(Record("cancelled", "c1", error={"layer": "transport"})).outcome is Outcome.CANCELLED


def test_precedence_transport_or_unknown_sent_before_protocol_or_execution_errors():
    assert run(Record("error", "c1", sent="unknown", error={"layer": "execution"})).outcome is Outcome.EFFECT_UNKNOWN
    assert run(Record("error", "c1", error={"layer": "transport"})).outcome is Outcome.EFFECT_UNKNOWN
    # decided by sent: false or a read-back -> failed, not effect_unknown
    check(run(Record("error", "c1", sent=False, error={"layer": "transport"})), Outcome.FAILED, EffectState.NONE)
    check(run(Record("error", "c1", error={"layer": "transport"}), APPLIED), Outcome.FAILED, EffectState.CONFIRMED)
    # decided by a pure/read tool
    check(run(Record("error", "c1", error={"layer": "transport"}), name="calc", arguments={"x": 1},
              context=FREE_CONTEXT), Outcome.FAILED, EffectState.NONE)


def test_precedence_errors_before_returns():
    assert run(Record("error", "c1", result={"ok": True}, error={"layer": "execution"})).outcome is Outcome.FAILED


def test_precedence_within_returned():
    # output_schema first: failed even when the read-back confirms the effect
    check(run(returned({"nope": 1}), APPLIED), Outcome.FAILED, EffectState.CONFIRMED)
    # then pure/read
    check(run(returned({"y": 1}), name="calc", arguments={"x": 1}, context=FREE_CONTEXT), Outcome.SUCCEEDED,
          EffectState.NONE)
    # then no read-back, applied, not_applied / conflict
    check(run(returned()), Outcome.NEEDS_EVIDENCE, EffectState.UNVERIFIED)
    check(run(returned(), APPLIED), Outcome.SUCCEEDED, EffectState.CONFIRMED)
    check(run(returned(), NOT_APPLIED), Outcome.BLOCKED, EffectState.CONTRADICTED)
    check(run(returned(), CONFLICT), Outcome.BLOCKED, EffectState.CONTRADICTED)


# ======================================================= details, decided


@pytest.mark.parametrize(
    "record, sent",
    [
        (Record("returned", result=1), True),
        (Record("error", error={"layer": "execution"}), True),
        (Record("error", error={"layer": "protocol"}), True),
        (Record("error", error={"layer": "transport"}), None),
        (Record("error"), None),
        (Record("error", error="not an object"), None),
        (Record("timeout"), None),
        (Record("cancelled"), None),
        (Record("timeout", sent=True), True),
        (Record("returned", sent=False), False),
        (Record("returned", sent="unknown"), None),
    ],
)
def test_sent_absent_semantics(record, sent):
    assert effective_sent(record) is sent


def test_sent_absent_on_a_return_is_true_so_a_success_needs_evidence_not_effect_unknown():
    assert run(Record("returned", "c1", result={"ok": True})).outcome is Outcome.NEEDS_EVIDENCE
    assert run(Record("error", "c1", error={"layer": "execution"})).effect is EffectState.UNVERIFIED
    assert run(Record("timeout", "c1")).outcome is Outcome.EFFECT_UNKNOWN


def test_read_back_matches_on_target_id_only_field_values_are_evidence():
    observation = Observation("applied", "c1", {"id": "d1", "version": "999", "fields": {"text": "unexpected"}})
    check(run(returned(), observation), Outcome.SUCCEEDED, EffectState.CONFIRMED)


def test_read_back_without_target_id_does_not_confirm_a_targeted_call():
    envelope = check(run(returned(), Observation("applied", "c1", {"version": "8"})), Outcome.NEEDS_EVIDENCE,
                     EffectState.UNVERIFIED)
    assert any("names no target id" in u for u in envelope.unverified_scope)


def test_ids_compare_as_strings():
    registry = Registry.from_descriptors([{**WRITE, "target": {"id": "/doc", "version": "/v"},
                                           "input_schema": {"type": "object"}}])
    context = Context(now=NOW, environment={"allows": ALL},
                      approvals=({"tool": "doc_write", "target": 7, "version": 3},), target={"id": "7", "version": 3})
    case = Case("c", Candidate("7", "doc_write", {"doc": 7, "v": "3"}), context,
                Record("returned", call_id=7, result={"ok": True}), Observation("applied", 7, {"id": 7}))
    envelope = assess(case, registry)
    assert (envelope.outcome, envelope.effect) == (Outcome.SUCCEEDED, EffectState.CONFIRMED), envelope.reasons


def test_candidate_id_given_as_a_number_still_correlates():
    case = Case("c", Candidate(7, "calc", {"x": 1}), FREE_CONTEXT, Record("returned", call_id="7", result={"y": 1}))
    envelope = assess(case, REGISTRY)
    assert envelope.outcome is Outcome.SUCCEEDED
    assert envelope.correlation_id == envelope.model_view["correlation_id"] == "7"


def test_missing_call_ids_are_unverified_correlation_not_conflict():
    envelope = run(Record("returned", None, result={"ok": True}), Observation("applied", None, {"id": "d1"}), cid=None)
    assert envelope.outcome is Outcome.SUCCEEDED
    assert any("correlation" in u for u in envelope.unverified_scope)
    assert envelope.correlation_id == "case:case"


ALL_CASES = [
    dict(),  # allowed
    dict(arguments="nope"),  # rejected
    dict(context=Context(now=NOW, environment={"allows": ALL}, target={"id": "d1", "version": "7"})),
    dict(context=Context(now=NOW, environment={"allows": ALL}, approvals=(APPROVAL,))),  # needs_evidence
    dict(record=returned(call_id="zz")),  # blocked
    dict(record=returned(), observation=CONFLICT),
    dict(record=Record("cancelled", "c1")),
    dict(record=Record("error", "c1", error={"layer": "execution"})),
    dict(record=Record("timeout", "c1", sent=False)),
    dict(record=Record("timeout", "c1"), observation=APPLIED),
    dict(record=Record("timeout", "c1")),
    dict(record=returned()),
    dict(record=returned(), observation=APPLIED),
    dict(record=returned({"y": 1}), name="calc", arguments={"x": 1}, context=FREE_CONTEXT),
]


def _is_error_per_design(envelope) -> bool:
    outcome = envelope.outcome
    if outcome in (Outcome.REJECTED, Outcome.REQUIRES_APPROVAL, Outcome.BLOCKED, Outcome.FAILED,
                   Outcome.CANCELLED, Outcome.EFFECT_UNKNOWN):
        return True
    if outcome is Outcome.NEEDS_EVIDENCE:
        return envelope.gate is not None  # at admission it is a refusal
    if outcome is Outcome.TIMED_OUT:
        return envelope.effect is not EffectState.CONFIRMED
    return False


@pytest.mark.parametrize("kwargs", ALL_CASES)
def test_model_view_is_error_per_design(kwargs):
    envelope = run(**kwargs)
    assert envelope.model_view["is_error"] is _is_error_per_design(envelope)


@pytest.mark.parametrize("kwargs", ALL_CASES)
def test_unverified_scope_never_empty_and_always_names_task_acceptance(kwargs):
    envelope = run(**kwargs)
    assert envelope.unverified_scope and TASK_ACCEPTANCE in envelope.unverified_scope


@pytest.mark.parametrize("kwargs", ALL_CASES)
def test_two_projections_share_the_correlation_id_and_content_is_never_empty(kwargs):
    envelope = run(**kwargs)
    view, evidence = envelope.model_view, envelope.evidence
    assert view["correlation_id"] == evidence["correlation_id"] == envelope.correlation_id
    assert view["content"].strip()
    assert set(view) >= {"content", "is_error", "omitted"}
    assert isinstance(view["omitted"], list)
    assert all(key in evidence for key in view["omitted"] if "(" not in key)


def test_covered_every_outcome():
    assert {run(**kwargs).outcome for kwargs in ALL_CASES} == set(Outcome)


def test_refusal_model_view_is_an_error_tool_result_with_issues_and_hint():
    envelope = run(arguments={"doc": 1, "extra": True})
    body = json.loads(envelope.model_view["content"])
    assert set(body) == {"error", "issues", "hint"}
    assert body["error"].startswith("rejected")
    assert any(i.startswith("/doc") for i in body["issues"]) and any(i.startswith("/:") for i in body["issues"])
    assert body["hint"]
    assert "evidence" not in envelope.model_view


def test_model_view_of_an_empty_return_is_not_empty():
    registry = Registry.from_descriptors([{"name": "noop", "effect": "pure"}])
    for result in ("", None, "   ", {}, []):
        envelope = assess(Case("c", Candidate("1", "noop", {}), Context(), Record("returned", "1", result=result)),
                          registry)
        assert envelope.outcome is Outcome.SUCCEEDED and envelope.model_view["content"].strip()


def test_long_returns_are_cut_in_the_model_view_and_the_cut_is_listed():
    registry = Registry.from_descriptors([{"name": "dump", "effect": "read"}])
    envelope = assess(Case("c", Candidate("1", "dump", {}), Context(), Record("returned", "1", result="x" * 10_000)),
                      registry)
    assert len(envelope.model_view["content"]) < 5_000
    assert any("truncated" in envelope.model_view["content"] or "cut" in o for o in envelope.model_view["omitted"])
    assert envelope.evidence["record"]["result"] == "x" * 10_000


def test_next_step_table():
    """`next_step` per DESIGN §2, one line per entry of the decided list."""
    expected = [
        (dict(arguments="nope"), NextStep.FIX_REQUEST),
        (dict(name="nope"), NextStep.FIX_REQUEST),
        (dict(arguments={"doc": 1}), NextStep.FIX_REQUEST),
        (dict(arguments={**ARGS, "text": "FINAL"}), NextStep.FIX_REQUEST),
        (dict(context=Context(now=NOW, environment={"allows": ALL}, approvals=(APPROVAL,),
                              target={"id": "d1", "version": "1"})), NextStep.OBSERVE_TARGET),
        (dict(context=Context(now=NOW, environment={"allows": ALL}, approvals=(APPROVAL,))), NextStep.OBSERVE_TARGET),
        (dict(context=Context(now=NOW, environment={"allows": []}, approvals=(APPROVAL,),
                              target={"id": "d1", "version": "7"})), NextStep.STOP_OR_ESCALATE),
        (dict(record=returned(call_id="x")), NextStep.STOP_OR_ESCALATE),
        (dict(context=Context(now=NOW, environment={"allows": ALL}, target={"id": "d1", "version": "7"})),
         NextStep.REQUEST_APPROVAL),
        (dict(record=Record("timeout", "c1")), NextStep.OBSERVE_TARGET),
        (dict(record=Record("cancelled", "c1")), NextStep.OBSERVE_TARGET),
        (dict(record=returned()), NextStep.READ_BACK),
        (dict(record=Record("error", "c1", error={"layer": "execution"})), NextStep.READ_BACK),
        (dict(record=returned(), observation=APPLIED), NextStep.HAND_TO_ACCEPTANCE),
        (dict(), NextStep.NONE),
        (dict(record=returned({"y": 1}), name="calc", arguments={"x": 1}, context=FREE_CONTEXT), NextStep.NONE),
        (dict(record=Record("timeout", "c1"), name="calc", arguments={"x": 1}, context=FREE_CONTEXT), NextStep.NONE),
    ]
    for kwargs, next_step in expected:
        envelope = run(**kwargs)
        assert envelope.next_step is next_step, (kwargs, envelope.outcome, envelope.next_step)


def test_classify_is_usable_without_the_envelope():
    admission = admit(Candidate("c1", "doc_write", ARGS), REGISTRY, OK_CONTEXT)
    result = classify(admission, Record("timeout", "c1"), None)
    assert (result.outcome, result.effect, result.gate) == (Outcome.EFFECT_UNKNOWN, EffectState.UNKNOWN, None)
    assert result.unverified[-1] == TASK_ACCEPTANCE


def test_a_return_with_sent_unknown_is_judged_as_a_return_when_the_effect_is_decided():
    # A read tool's return decides the effect (none): it succeeded, it did not fail.
    envelope = run(Record("returned", "c1", sent="unknown", result={"rows": 1}), name="doc_read",
                   arguments={"doc": "d1"}, context=FREE_CONTEXT)
    assert (envelope.outcome, envelope.effect) == (Outcome.SUCCEEDED, EffectState.NONE)
    # A write with a matching read-back: confirmed, whatever the adapter said about sending.
    envelope = run(Record("returned", "c1", sent="unknown", result={"ok": True}), APPLIED)
    assert (envelope.outcome, envelope.effect) == (Outcome.SUCCEEDED, EffectState.CONFIRMED)
    # Without a read-back the write's effect stays unknown (DESIGN precedence: sent unknown).
    envelope = run(Record("returned", "c1", sent="unknown", result={"ok": True}))
    assert (envelope.outcome, envelope.effect) == (Outcome.EFFECT_UNKNOWN, EffectState.UNKNOWN)
