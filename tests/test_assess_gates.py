"""Each admission gate alone (DESIGN §1, §2 and issue 3 "The gates"): refusal and pass.

Gates are pure functions `Call -> Verdict`; a `Call` is made with `prepare`.
`admit` runs them in order and stops at the first refusal.
"""

from __future__ import annotations

import socket

import pytest

from toolcontract.assessment import Registry, admit
from toolcontract.assessment.gates import (
    GATES,
    approval_gate,
    approval_problem,
    as_id,
    environment_gate,
    find_covering_approval,
    parse_gate,
    prepare,
    registry_gate,
    semantic_gate,
    shape_gate,
    target_gate,
)
from toolcontract.core.model import GATE_ORDER, Candidate, Context, Gate, Outcome

NOW = "2026-11-29T10:00:00Z"
ALL_EFFECTS = ["pure", "read", "reversible_write", "irreversible_write", "open_world"]

DOC = {
    "name": "document_update_metadata",
    "version": "1.2.0",
    "effect": "reversible_write",
    "input_schema": {
        "type": "object",
        "properties": {
            "document_id": {"type": "string"},
            "field": {"type": "string", "enum": ["status", "title"]},
            "value": {"type": "string"},
            "expected_version": {"type": "string"},
            "review_ref": {"type": "string"},
        },
        "required": ["document_id", "field", "value", "expected_version"],
        "additionalProperties": False,
    },
    "target": {"id": "/document_id", "version": "/expected_version", "fields": "/field"},
    "semantic_rules": [
        {
            "id": "complete-needs-review",
            "message": "status=complete is only allowed after review.",
            "if": {"properties": {"field": {"const": "status"}, "value": {"const": "complete"}},
                   "required": ["field", "value"]},
            "then": {"required": ["review_ref"]},
        }
    ],
    "approval": "required",
}
PAID = {
    "name": "invoice_mark_paid",
    "effect": "irreversible_write",
    "input_schema": {
        "type": "object",
        "properties": {
            "invoice_id": {"type": "string", "pattern": "^INV-[0-9]{6}$"},
            "expected_version": {"type": "string"},
            "payment_ref": {"type": "string", "minLength": 1},
            "lines": {
                "type": "array",
                "items": {"type": "object", "properties": {"qty": {"type": "integer", "minimum": 1}},
                          "required": ["qty"]},
            },
        },
        "required": ["invoice_id", "expected_version", "payment_ref"],
        "additionalProperties": False,
    },
    "target": {"id": "/invoice_id", "version": "/expected_version"},
}
GET = {
    "name": "invoice_get",
    "effect": "read",
    "input_schema": {"type": "object", "properties": {"invoice_id": {"type": "string"}},
                     "required": ["invoice_id"], "additionalProperties": False},
    "target": {"id": "/invoice_id"},
}
CONVERT = {
    "name": "unit_convert_length",
    "effect": "pure",
    "input_schema": {
        "type": "object",
        "properties": {"value": {"type": "number"}, "from": {"type": "string"}, "to": {"type": "string"}},
        "required": ["value", "from", "to"],
        "additionalProperties": False,
    },
}
DRAFT = {  # a reversible write whose descriptor waives approval
    "name": "draft_save",
    "effect": "reversible_write",
    "approval": "not_required",
    "input_schema": {"type": "object", "properties": {"draft_id": {"type": "string"}, "text": {"type": "string"}},
                     "required": ["draft_id", "text"]},
    "target": {"id": "/draft_id"},
}
AUDIT = {  # a read tool whose descriptor asks for approval anyway
    "name": "audit_log_read",
    "effect": "read",
    "approval": "required",
    "input_schema": {"type": "object", "properties": {"day": {"type": "string"}}},
}
NO_SCHEMA = {"name": "ping", "effect": "pure"}
NO_EFFECT = {"name": "mystery", "input_schema": {"type": "object"}}

REGISTRY = Registry.from_descriptors([DOC, PAID, GET, CONVERT, DRAFT, AUDIT, NO_SCHEMA, NO_EFFECT])

DOC_ARGS = {"document_id": "chapter-11", "field": "status", "value": "reviewed", "expected_version": "7"}
PAID_ARGS = {"invoice_id": "INV-004211", "expected_version": "3", "payment_ref": "STMT-42"}
DOC_APPROVAL = {"ref": "APR-1", "tool": "document_update_metadata", "target": "chapter-11", "version": "7",
                "fields": ["status"], "expires": "2026-11-29T12:00:00Z"}
DOC_CONTEXT = dict(
    now=NOW,
    environment={"id": "staging", "allows": ALL_EFFECTS},
    approvals=(DOC_APPROVAL,),
    target={"id": "chapter-11", "exists": True, "version": "7"},
)


def call(name, arguments, **context):
    return prepare(Candidate("toolu_1", name, arguments), REGISTRY, Context(**context))


def doc_call(arguments=None, **overrides):
    context = {**DOC_CONTEXT, **overrides}
    return call("document_update_metadata", DOC_ARGS if arguments is None else arguments, **context)


# ------------------------------------------------------------------ the pipeline


def test_gates_run_in_the_designed_order():
    assert [g for g, _ in GATES] == list(GATE_ORDER)
    assert [g.value for g in GATE_ORDER] == [
        "parse", "registry", "shape", "semantic", "target", "environment", "approval"]


def test_admit_passes_every_gate_and_keeps_the_trail():
    admission = admit(Candidate("toolu_1", "document_update_metadata", DOC_ARGS), REGISTRY, Context(**DOC_CONTEXT))
    assert admission.admitted and admission.refusal is None
    assert admission.outcome is Outcome.ALLOWED
    assert [v.gate for v in admission.trail] == list(GATE_ORDER)
    assert all(v.passed for v in admission.trail)


def test_first_refusal_ends_admission():
    admission = admit(Candidate("toolu_1", "document_update_metadata", {"document_id": 5}), REGISTRY,
                      Context(**DOC_CONTEXT))
    assert not admission.admitted
    assert admission.refusal.gate is Gate.SHAPE
    assert [v.gate for v in admission.trail] == [Gate.PARSE, Gate.REGISTRY, Gate.SHAPE]
    assert [v.passed for v in admission.trail] == [True, True, False]


# ------------------------------------------------------------------------- parse


@pytest.mark.parametrize("arguments", [{"value": 1, "from": "m", "to": "cm"}, '{"value": 1, "from": "m", "to": "cm"}',
                                       ' \n{"value": 1, "from": "m", "to": "cm"}\n'])
def test_parse_passes_an_object_or_a_json_object_string(arguments):
    c = call("unit_convert_length", arguments)
    assert parse_gate(c).passed
    assert c.arguments == {"value": 1, "from": "m", "to": "cm"}


@pytest.mark.parametrize(
    "arguments, says",
    [
        ('{"value": 1, "from": "m"', "not valid JSON"),
        ("value=1, from=m", "not valid JSON"),
        ("", "not valid JSON"),
        ("{'value': 1}", "not valid JSON"),  # Python repr, not JSON
        ("[1, 2]", "an array"),
        ('"12 m"', "a string"),
        ("42", "a number"),
        ("true", "a boolean"),
        ("null", "null"),
        ([1, 2], "an array"),
        (42, "a number"),
        (None, "null"),
    ],
)
def test_parse_refuses_what_is_not_a_json_object(arguments, says):
    verdict = parse_gate(call("unit_convert_length", arguments))
    assert not verdict.passed
    assert verdict.gate is Gate.PARSE and verdict.outcome is Outcome.REJECTED
    assert says in verdict.reasons[0]


def test_parse_survives_absurd_nesting():
    verdict = parse_gate(call("unit_convert_length", "[" * 100_000 + "]" * 100_000))
    assert not verdict.passed and verdict.outcome is Outcome.REJECTED


# ---------------------------------------------------------------------- registry


def test_registry_passes_the_exact_name():
    assert registry_gate(call("invoice_get", {"invoice_id": "INV-000001"})).passed


@pytest.mark.parametrize(
    "name",
    [
        "Invoice_Get", "INVOICE_GET", "invoice_GET",  # case-folded
        "invoice", "invoice_", "invoice_ge",  # prefixes
        "invoice_gets", "invoice_get_v2", "invoicc_get", "invoice-get", "invoiceget",  # fuzzy
        " invoice_get", "invoice_get ", "invoice_get\n",  # whitespace
        "functions.invoice_get", "default_api:invoice_get",  # namespaced
        "invoıce_get", "ｉｎｖｏｉｃｅ_get",  # dotless i, full-width letters
        "",
    ],
)
def test_registry_refuses_anything_but_an_exact_match(name):
    verdict = registry_gate(call(name, {"invoice_id": "INV-000001"}))
    assert not verdict.passed
    assert verdict.gate is Gate.REGISTRY and verdict.outcome is Outcome.REJECTED
    assert "unknown tool" in verdict.reasons[0]


def test_registry_lookup_never_guesses():
    assert REGISTRY.get("invoice_get") is not None
    for name in ("Invoice_get", "invoice", "invoice_ge", None, 5):
        assert REGISTRY.get(name) is None and name not in REGISTRY


def test_registry_keeps_the_first_of_duplicate_names():
    registry = Registry.from_descriptors([GET, {**GET, "effect": "irreversible_write"}])
    assert len(registry) == 1 and registry.duplicates == ["invoice_get"]
    assert registry.get("invoice_get").effect.value == "read"


# ------------------------------------------------------------------------- shape


def test_shape_passes_valid_arguments():
    assert shape_gate(call("invoice_mark_paid", PAID_ARGS)).passed


def test_shape_reports_every_error_with_its_pointer():
    arguments = {
        "invoice_id": "inv-1",  # pattern
        "expected_version": 3,  # type
        # payment_ref missing  # required, at the root
        "lines": [{"qty": 1}, {"qty": 0}, {}],  # minimum at /lines/1/qty, required at /lines/2
        "amount": 5,  # additionalProperties, at the root
    }
    verdict = shape_gate(call("invoice_mark_paid", arguments))
    assert not verdict.passed and verdict.outcome is Outcome.REJECTED
    pointers = sorted(i["pointer"] for i in verdict.issues)
    assert pointers == sorted(["/invoice_id", "/expected_version", "", "/lines/1/qty", "/lines/2", ""])
    messages = " ".join(i["message"] for i in verdict.issues)
    for needle in ("payment_ref", "amount", "qty", "does not match", "not of type", "minimum"):
        assert needle in messages
    # one reason per issue, each led by its pointer ("/" for the root)
    assert len(verdict.reasons) == len(verdict.issues) == 6
    assert sum(r.startswith("/: ") for r in verdict.reasons) == 2


def test_shape_pointer_escapes_odd_property_names():
    registry = Registry.from_descriptors([{
        "name": "odd", "effect": "pure",
        "input_schema": {"type": "object", "properties": {"a/b": {"type": "string"}, "c~d": {"type": "string"}}},
    }])
    c = prepare(Candidate("1", "odd", {"a/b": 1, "c~d": 2}), registry, Context())
    assert sorted(i["pointer"] for i in shape_gate(c).issues) == ["/a~1b", "/c~0d"]


def test_shape_passes_a_tool_without_input_schema_but_says_so():
    verdict = shape_gate(call("ping", {"anything": True}))
    assert verdict.passed
    assert any("no input_schema" in u for u in verdict.unverified)


def test_shape_refuses_when_the_input_schema_is_unusable():
    registry = Registry.from_descriptors([{"name": "broken", "effect": "pure", "input_schema": {"type": "objekt"}}])
    verdict = shape_gate(prepare(Candidate("1", "broken", {}), registry, Context()))
    assert not verdict.passed and verdict.outcome is Outcome.REJECTED
    assert "cannot be used" in verdict.reasons[0]


def test_shape_never_fetches_a_remote_ref(monkeypatch):
    """A remote $ref is refused, not fetched: nothing connects, in Python or in the Rust validator."""
    attempts = []

    def no_network(self, address):
        attempts.append(address)
        raise OSError("network access in a test")

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket.socket, "connect_ex", no_network)
    try:
        descriptor = {
            "name": "remote", "effect": "read",
            "input_schema": {"type": "object", "properties": {
                "q": {"$ref": f"http://127.0.0.1:{port}/schema.json"},
                "r": {"$ref": "https://example.com/schemas/query.json#/$defs/q"},
            }},
        }
        registry = Registry.from_descriptors([descriptor])
        admission = admit(Candidate("1", "remote", {"q": "x", "r": "y"}), registry,
                          Context(environment={"allows": ["read"]}))
        assert not admission.admitted
        assert admission.refusal.gate is Gate.SHAPE and admission.refusal.outcome is Outcome.REJECTED
        assert attempts == []
        with pytest.raises(BlockingIOError):  # no connection ever reached the local "server"
            listener.accept()
    finally:
        listener.close()


# ---------------------------------------------------------------------- semantic


def test_semantic_refuses_with_the_rule_id_and_message():
    arguments = {**DOC_ARGS, "value": "complete"}
    verdict = semantic_gate(doc_call(arguments))
    assert not verdict.passed and verdict.outcome is Outcome.REJECTED and verdict.gate is Gate.SEMANTIC
    assert verdict.reasons == ("complete-needs-review: status=complete is only allowed after review.",)


@pytest.mark.parametrize("arguments", [
    DOC_ARGS,  # `if` does not hold
    {**DOC_ARGS, "value": "complete", "review_ref": "review-42"},  # `then` holds
    {**DOC_ARGS, "field": "title", "value": "complete"},
])
def test_semantic_passes_when_the_rule_holds(arguments):
    assert semantic_gate(doc_call(arguments)).passed


def test_semantic_else_branch_and_unusable_rules():
    registry = Registry.from_descriptors([{
        "name": "ship", "effect": "pure", "input_schema": {"type": "object"},
        "semantic_rules": [
            {"id": "express-needs-phone", "message": "express needs a phone",
             "if": {"properties": {"speed": {"const": "express"}}, "required": ["speed"]},
             "then": {"required": ["phone"]}, "else": {"not": {"required": ["phone"]}}},
        ],
    }, {
        "name": "bad_rule", "effect": "pure", "input_schema": {"type": "object"},
        "semantic_rules": [{"id": "half", "message": "m", "if": {"required": ["a"]}}],
    }])

    def verdict(name, arguments):
        return semantic_gate(prepare(Candidate("1", name, arguments), registry, Context()))

    assert verdict("ship", {"speed": "express", "phone": "1"}).passed
    assert not verdict("ship", {"speed": "express"}).passed
    assert not verdict("ship", {"speed": "slow", "phone": "1"}).passed  # else branch
    assert verdict("ship", {"speed": "slow"}).passed
    refused = verdict("bad_rule", {})
    assert not refused.passed and "cannot be evaluated" in refused.reasons[0]


# ------------------------------------------------------------------------ target


def test_target_passes_when_observed_id_and_version_match():
    assert target_gate(doc_call()).passed


def test_target_not_observed_on_a_consequential_call_needs_evidence():
    verdict = target_gate(doc_call(target=None))
    assert not verdict.passed
    assert verdict.gate is Gate.TARGET and verdict.outcome is Outcome.NEEDS_EVIDENCE


def test_target_without_observed_version_on_a_write_needs_evidence():
    verdict = target_gate(doc_call(target={"id": "chapter-11", "exists": True}))
    assert not verdict.passed and verdict.outcome is Outcome.NEEDS_EVIDENCE


def test_target_not_observed_on_a_read_tool_passes_but_says_so():
    verdict = target_gate(call("invoice_get", {"invoice_id": "INV-000001"}))
    assert verdict.passed and verdict.unverified


@pytest.mark.parametrize("observed, says", [
    ({"id": "chapter-11", "exists": False}, "does not exist"),
    ({"id": "chapter-11", "exists": True, "version": "8"}, "version mismatch"),
    ({"id": "chapter-12", "exists": True, "version": "7"}, "chapter-12"),
])
def test_target_refuses_absent_mismatched_or_other_targets(observed, says):
    verdict = target_gate(doc_call(target=observed))
    assert not verdict.passed and verdict.outcome is Outcome.REJECTED
    assert says in verdict.reasons[0]


def test_target_nonexistent_read_target_is_rejected():
    verdict = target_gate(call("invoice_get", {"invoice_id": "INV-9"}, target={"id": "INV-9", "exists": False}))
    assert not verdict.passed and verdict.outcome is Outcome.REJECTED


def test_target_ids_and_versions_compare_as_strings():
    """YAML's 7 equals "7" (target id, target version)."""
    registry = Registry.from_descriptors([{
        "name": "row_update", "effect": "reversible_write",
        "input_schema": {"type": "object", "properties": {"row": {"type": "integer"}, "v": {"type": "integer"}}},
        "target": {"id": "/row", "version": "/v"},
    }])

    def verdict(arguments, observed):
        return target_gate(prepare(Candidate("1", "row_update", arguments), registry, Context(target=observed)))

    assert verdict({"row": 7, "v": 3}, {"id": "7", "version": "3"}).passed
    assert verdict({"row": 7, "v": 3}, {"id": 7, "version": 3}).passed
    assert verdict({"row": 7, "v": 3.0}, {"id": "7", "version": "3"}).passed
    assert not verdict({"row": 7, "v": 3}, {"id": "7", "version": "4"}).passed
    assert as_id(7) == as_id("7") == "7" and as_id(True) == "true"


def test_target_gate_ignores_tools_without_a_target():
    assert target_gate(call("unit_convert_length", {"value": 1, "from": "m", "to": "cm"})).passed


# ------------------------------------------------------------------- environment


def test_environment_refuses_an_effect_it_does_not_allow():
    verdict = environment_gate(doc_call(environment={"id": "prod", "allows": ["pure", "read"]}))
    assert not verdict.passed
    assert verdict.gate is Gate.ENVIRONMENT and verdict.outcome is Outcome.REJECTED
    assert "reversible_write" in verdict.reasons[0]


def test_environment_passes_an_allowed_effect():
    assert environment_gate(doc_call(environment={"allows": ["reversible_write"]})).passed
    assert environment_gate(call("invoice_get", {"invoice_id": "I"}, environment={"allows": ["read"]})).passed


def test_environment_without_snapshot():
    assert not environment_gate(doc_call(environment=None)).passed  # nothing allows a write
    assert environment_gate(call("unit_convert_length", {"value": 1, "from": "m", "to": "cm"})).passed


def test_environment_refuses_a_tool_without_effect_class():
    verdict = environment_gate(call("mystery", {}, environment={"allows": ALL_EFFECTS}))
    assert not verdict.passed and verdict.outcome is Outcome.REJECTED


def test_rule_of_two_without_approval_requires_approval_at_the_environment_gate():
    verdict = environment_gate(doc_call(approvals=(), untrusted_input=True, sensitive_data=True))
    assert not verdict.passed
    assert verdict.gate is Gate.ENVIRONMENT and verdict.outcome is Outcome.REQUIRES_APPROVAL
    assert "Rule of Two" in verdict.reasons[0]
    admission = admit(Candidate("1", "document_update_metadata", DOC_ARGS), REGISTRY,
                      Context(**{**DOC_CONTEXT, "approvals": (), "untrusted_input": True, "sensitive_data": True}))
    assert admission.refusal.gate is Gate.ENVIRONMENT and admission.outcome is Outcome.REQUIRES_APPROVAL


def test_rule_of_two_with_a_covering_approval_passes():
    assert environment_gate(doc_call(untrusted_input=True, sensitive_data=True)).passed


def test_rule_of_two_applies_even_when_the_descriptor_waives_approval():
    c = call("draft_save", {"draft_id": "d1", "text": "x"}, environment={"allows": ALL_EFFECTS},
             target={"id": "d1", "exists": True}, untrusted_input=True, sensitive_data=True)
    verdict = environment_gate(c)
    assert not verdict.passed and verdict.outcome is Outcome.REQUIRES_APPROVAL


@pytest.mark.parametrize("untrusted, sensitive", [(True, False), (False, True), (False, False)])
def test_two_of_three_is_not_the_rule_of_two(untrusted, sensitive):
    assert environment_gate(doc_call(approvals=(), untrusted_input=untrusted, sensitive_data=sensitive)).passed


def test_rule_of_two_needs_a_consequential_effect():
    c = call("invoice_get", {"invoice_id": "I"}, environment={"allows": ["read"]},
             untrusted_input=True, sensitive_data=True)
    assert environment_gate(c).passed


# ---------------------------------------------------------------------- approval


def test_approval_missing_on_a_consequential_call():
    verdict = approval_gate(doc_call(approvals=()))
    assert not verdict.passed
    assert verdict.gate is Gate.APPROVAL and verdict.outcome is Outcome.REQUIRES_APPROVAL
    assert "no approval" in verdict.reasons[0]


def test_approval_covering_the_call_passes():
    assert approval_gate(doc_call()).passed


@pytest.mark.parametrize(
    "change, covered",
    [
        ({}, True),
        ({"tool": "document_delete"}, False),
        ({"tool": None}, False),
        ({"target": "chapter-12"}, False),
        ({"target": None}, False),
        ({"version": "6"}, False),
        ({"version": None}, False),
        ({"version": 7}, True),  # YAML's 7 equals "7"
        ({"fields": ["title"]}, False),
        ({"fields": ["status", "title"]}, True),
        ({"fields": "status"}, True),
        ({"fields": None}, True),  # no field list: every field
        ({"expires": "2026-11-29T10:00:01Z"}, True),
        ({"expires": "2026-11-29T10:00:00Z"}, False),  # now < expires, strictly
        ({"expires": "2026-11-29T09:59:59Z"}, False),
        ({"expires": "2026-11-29T10:30:00+01:00"}, False),  # = 09:30Z
        ({"expires": "2026-11-29T11:30:00+01:00"}, True),  # = 10:30Z
        ({"expires": "next tuesday"}, False),
        ({"expires": None}, True),  # no expiry
    ],
)
def test_approval_coverage_rules(change, covered):
    approval = {k: v for k, v in {**DOC_APPROVAL, **change}.items() if v is not None}
    c = doc_call(approvals=(approval,))
    assert (approval_problem(approval, c) is None) is covered
    assert approval_gate(c).passed is covered


def test_approval_with_expiry_but_no_now_does_not_cover():
    c = doc_call(now=None)
    problem = approval_problem(DOC_APPROVAL, c)
    assert problem is not None and "now" in problem
    assert not approval_gate(c).passed


def test_approval_without_expiry_covers_without_now():
    approval = {k: v for k, v in DOC_APPROVAL.items() if k != "expires"}
    assert approval_gate(doc_call(now=None, approvals=(approval,))).passed


def test_one_of_several_approvals_is_enough():
    stale = {**DOC_APPROVAL, "version": "6"}
    covered, why = find_covering_approval(doc_call(approvals=(stale, DOC_APPROVAL)))
    assert covered and why == ""
    covered, why = find_covering_approval(doc_call(approvals=(stale, "not an approval")))
    assert not covered and "'6'" in why and "not an object" in why


def test_approval_required_on_a_read_tool_is_honoured():
    c = call("audit_log_read", {"day": "2026-11-28"}, environment={"allows": ["read"]})
    verdict = approval_gate(c)
    assert not verdict.passed and verdict.outcome is Outcome.REQUIRES_APPROVAL
    approved = call("audit_log_read", {"day": "2026-11-28"}, environment={"allows": ["read"]},
                    approvals=({"tool": "audit_log_read"},))
    assert approval_gate(approved).passed
    admission = admit(Candidate("1", "audit_log_read", {}), REGISTRY, Context(environment={"allows": ["read"]}))
    assert admission.refusal.gate is Gate.APPROVAL and admission.outcome is Outcome.REQUIRES_APPROVAL


def test_approval_not_required_on_a_reversible_write_is_honoured():
    c = call("draft_save", {"draft_id": "d1", "text": "x"}, environment={"allows": ALL_EFFECTS},
             target={"id": "d1", "exists": True})
    assert approval_gate(c).passed
    admission = admit(c.candidate, REGISTRY, c.context)
    assert admission.admitted


def test_approval_defaults_by_effect():
    assert REGISTRY.get("invoice_mark_paid").needs_approval  # consequential, no `approval:`
    assert not REGISTRY.get("invoice_get").needs_approval  # read
    assert not REGISTRY.get("unit_convert_length").needs_approval  # pure
    assert REGISTRY.get("mystery").needs_approval  # no effect class: the worst case
    assert approval_gate(call("unit_convert_length", {"value": 1, "from": "m", "to": "cm"})).passed


def test_approval_for_a_tool_without_target_needs_only_the_tool_name():
    registry = Registry.from_descriptors([{"name": "mail_send", "effect": "open_world",
                                           "input_schema": {"type": "object"}}])

    def passed(approvals):
        c = prepare(Candidate("1", "mail_send", {}), registry, Context(approvals=approvals))
        return approval_gate(c).passed

    assert passed(({"tool": "mail_send"},))
    assert not passed(({"tool": "mail_sent"},))
    assert not passed(())
