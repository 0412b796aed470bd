"""The shortcuts of assess's hot path (issue 3, Speed) give exactly what the plain code gives:
JSON decoding and encoding, the nesting check, the refusal bodies, the trail; and a run over fixture logs leaves the
transcript readers (and the lint rules they bring) unimported."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, examples, run_cli
from toolcontract.core import jsoncodec
from toolcontract.assessment import Registry, admit, assess
from toolcontract.assessment.envelope import Envelope, _error_content, _trail
from toolcontract.assessment.gates import GATES, MAX_ARGUMENT_DEPTH, Admission, Verdict, _PASSED, parse_arguments, prepare
from toolcontract.core.model import Candidate, Case, Context, Gate, Observation, Outcome, Record
from toolcontract.core.nesting import nests_deeper
from toolcontract.io.fixtures import _nests_deeper, case_from_dict, jsonl_holds_cases

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


# ------------------------------------------------------------------- jsoncodec


@given(st.binary(max_size=60) | st.text(alphabet="0123456789 x", max_size=60).map(str.encode))
def test_the_long_digit_check_is_the_regex(raw):
    assert jsoncodec._has_long_digit_run(raw) == bool(re.search(rb"\d{19}", raw))


def _plain_dumps(value, indent=None) -> str:
    """jsoncodec.dumps as it was: the whole text through the hidden-character escaping."""
    import orjson

    try:
        text = orjson.dumps(value, default=str, option=orjson.OPT_INDENT_2 if indent == 2 else 0).decode("utf-8")
    except (orjson.JSONEncodeError, TypeError):
        separators = (",", ":") if indent is None else (",", ": ")
        text = json.dumps(value, ensure_ascii=False, default=str, separators=separators, indent=indent)
    return jsoncodec._HIDDEN.sub(jsoncodec._escape, text)


@given(json_values | st.text(alphabet="a\x7f\x9f\u200b\u202e\U000e0041é\n\"", max_size=8))
def test_dumps_writes_what_the_escaping_path_writes(value):
    assert jsoncodec.dumps(value) == _plain_dumps(value)
    assert jsoncodec.dumps(value, indent=2) == _plain_dumps(value, indent=2)


@pytest.mark.parametrize("value", ["del\x7f", "zero\u200bwidth", "plain", {"k": "\x9f"}, [1, "é"], 2**70, {1: "a"}])
def test_dumps_escapes_hidden_characters_on_either_path(value):
    assert jsoncodec.dumps(value) == _plain_dumps(value)


# ------------------------------------------------------------- nesting checks


@given(json_values)
def test_the_nesting_shortcut_agrees_with_the_walk(value):
    raw = json.dumps(value).encode()
    for limit in (0, 1, 2, 3, 64):
        assert _nests_deeper(raw, value, limit) == nests_deeper(value, limit)


@pytest.mark.parametrize("depth", [MAX_ARGUMENT_DEPTH - 1, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_DEPTH + 1])
def test_argument_depth_is_checked_for_objects_and_strings(depth):
    nested: dict = {}
    for _ in range(depth - 1):
        nested = {"a": nested}
    too_deep = depth > MAX_ARGUMENT_DEPTH
    for raw in (nested, json.dumps(nested)):
        value, problem = parse_arguments(raw)
        assert (problem is not None) == too_deep
        assert (value is None) == too_deep


# ---------------------------------------------------------------- envelope


@given(st.text(), st.lists(st.text(), max_size=4), st.text())
def test_error_content_is_json_dumps(error, issues, hint):
    expected = json.dumps({"error": error, "issues": issues, "hint": hint}, ensure_ascii=False)
    assert _error_content(error, issues, hint) == expected


def test_error_content_with_an_item_that_is_no_string():
    issues = ["a", 3, {"x": None}]
    assert _error_content("e", issues, "h") == json.dumps({"error": "e", "issues": issues, "hint": "h"},
                                                          ensure_ascii=False)


def _plain_trail(admission: Admission) -> tuple[dict, ...]:
    """Every gate in gate order: its (last) verdict where reached, else not_reached."""
    steps = []
    for gate, _ in GATES:
        mine = [v for v in admission.trail if v.gate == gate]
        steps.append(mine[-1].as_dict() if mine else {"gate": gate, "result": "not_reached"})
    return tuple(steps)


verdicts = st.builds(
    Verdict, st.sampled_from(list(Gate)), st.booleans(), st.lists(st.text(max_size=3), max_size=2).map(tuple),
    st.lists(st.fixed_dictionaries({"pointer": st.text(max_size=3), "message": st.text(max_size=3)}),
             max_size=2).map(tuple),
    st.none(), st.lists(st.text(max_size=3), max_size=2).map(tuple),
) | st.sampled_from(list(_PASSED.values()))


@given(st.lists(verdicts, max_size=9))
def test_the_trail_is_the_plain_trail_for_any_verdicts(trail):
    admission = Admission(None, tuple(trail), None)  # type: ignore[arg-type]
    assert _trail(admission) == _plain_trail(admission)


def test_trail_steps_are_fresh_objects():
    registry = Registry.from_descriptors([{"name": "t", "effect": "read"}])
    first, second = (assess(Case(str(i), Candidate("c", "t", {}), Context(environment={"allows": ["read"]})), registry)
                     for i in range(2))
    assert first.trail == second.trail
    assert all(a is not b for a, b in zip(first.trail, second.trail))


@given(st.fixed_dictionaries(
    {"id": st.text(max_size=3) | st.integers(), "candidate": st.fixed_dictionaries(
        {"name": st.text(max_size=3), "arguments": json_values}, optional={"id": st.none() | st.text(max_size=3)})},
    optional={
        "context": st.none() | st.fixed_dictionaries({}, optional={
            "now": st.text(max_size=3), "environment": st.none() | st.dictionaries(st.text(max_size=3), json_values),
            "approval": st.none() | st.dictionaries(st.text(max_size=3), json_values, max_size=2),
            "approvals": st.lists(st.dictionaries(st.text(max_size=3), json_values, max_size=2), max_size=2),
            "target": st.none() | st.dictionaries(st.text(max_size=3), json_values, max_size=2),
            "untrusted_input": st.booleans(), "sensitive_data": st.booleans()}),
        "record": st.none() | st.fixed_dictionaries({"status": st.text(max_size=3)}, optional={
            "call_id": st.none() | st.integers(), "sent": json_values, "result": json_values, "error": json_values}),
        "observation": st.none() | st.fixed_dictionaries({"effect": st.text(max_size=3)}, optional={
            "call_id": st.none() | st.text(max_size=3), "target": json_values}),
        "expect": st.dictionaries(st.sampled_from(["outcome", "gate"]), st.text(max_size=3)),
    }))
@pytest.mark.long
@settings(max_examples=examples(200))
def test_case_from_dict_builds_the_same_case(data):
    def plain(data: dict) -> Case:  # case_from_dict as it was: through the dataclasses' constructors
        candidate = data["candidate"]
        given = data.get("context")
        context = given or {}
        approvals = list(context.get("approvals") or ())
        if context.get("approval"):
            approvals.insert(0, context["approval"])
        record, observation = data.get("record"), data.get("observation")

        def ident(value):
            return value if value is None or type(value) is str else str(value)

        return Case(
            id=ident(data["id"]) or "",
            candidate=Candidate(ident(candidate.get("id")), candidate["name"], candidate["arguments"]),
            context=None if given is None else Context(now=context.get("now"), environment=context.get("environment"), approvals=tuple(approvals),
                            target=context.get("target"), untrusted_input=bool(context.get("untrusted_input", False)),
                            sensitive_data=bool(context.get("sensitive_data", False))),
            record=None if record is None else Record(record["status"], ident(record.get("call_id")), record.get("sent"),
                                                      record.get("result"), record.get("error")),
            observation=None if observation is None else Observation(observation["effect"],
                                                                     ident(observation.get("call_id")),
                                                                     observation.get("target")),
            expect=data.get("expect"),
        )

    assert case_from_dict(data) == plain(data)


# ------------------------------------------------------------------ the gates


def test_a_valid_call_passes_the_shape_gate_with_the_shared_verdict():
    registry = Registry.from_descriptors([{"name": "t", "effect": "read", "input_schema": {
        "type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}])
    good = admit(Candidate("1", "t", {"a": 1}), registry, Context())
    bad = admit(Candidate("1", "t", {"a": "x"}), registry, Context())
    assert good.trail[2] is _PASSED[Gate.SHAPE]
    assert bad.refusal is not None and bad.refusal.gate is Gate.SHAPE and bad.refusal.issues
    assert prepare(Candidate("1", "t", {"a": 1}), registry, Context()).targets == {}


# ------------------------------------------------------------- the command


def test_a_fixture_log_without_context_or_tools_is_judged_from_the_evidence(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"id": "a", "candidate": {"name": "x", "arguments": {}}}) + "\n")
    done = run_cli("assess", log, "--format", "json", cwd=REPO)
    assert done.returncode == 0, done.stderr
    # no context and no tools: judged from the evidence alone, which cannot say what was offered
    assert json.loads(done.stdout)["summary"]["by_outcome"] == {"allowed": 1}


@pytest.mark.parametrize("content, settled", [
    (b'{"id": "a", "candidate": {"name": "x", "arguments": {}}}\n{"id": "b"}\n', True),
    (b"\xef\xbb\xbf\n\n  \n", True),  # no line with content: never a transcript
    (b"not json\n", True),
    (b'\n{"messages": [{"role": "user", "content": "hi"}]}\n', False),
    (b"[1, 2]\n", False),
    (b'{"id": "b"}\n{"id": "a", "candidate": {"name": "x", "arguments": {}}}\n', False),
])
def test_jsonl_holds_cases_only_settles_what_the_transcript_check_would(tmp_path, content, settled):
    from toolcontract.io import transcripts

    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    with open(path, "rb") as stream:
        assert jsonl_holds_cases(stream) is settled
        assert stream.tell() == 0
        if settled:
            assert not transcripts.jsonl_holds_conversations(stream)


def test_envelopes_stay_frozen():
    registry = Registry.from_descriptors([{"name": "t", "effect": "read"}])
    envelope = assess(Case("a", Candidate("c", "t", {})), registry)
    assert isinstance(envelope, Envelope) and envelope.outcome is Outcome.ALLOWED
    with pytest.raises(dataclasses.FrozenInstanceError):
        envelope.outcome = Outcome.BLOCKED  # type: ignore[misc]
