"""Real data: BFCL v4 simple_python function definitions and ground-truth calls
through the admission gates.

The corpus is read in place ($TOOLCONTRACT_CORPUS, else ../shared/corpus next
to the repo) and never copied into the repo. BFCL's format quirks (corpus
SOURCES.md): `parameters.type` is "dict", and property types include "float",
"tuple" and "any"; they are mapped to JSON Schema before the descriptor is built.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest

from conftest import corpus_dir
from toolcontract.assessment import Registry, assess
from toolcontract.core.model import Candidate, Case, Context, Gate, Outcome

BFCL = corpus_dir() / "bfcl"
SIMPLE = BFCL / "BFCL_v4_simple_python.json"
FUNCTIONS = BFCL / "functions_unique.json"
SHAPE_FLOOR = 0.95  # share of ground-truth calls the shape gate must admit

pytestmark = pytest.mark.skipif(
    not (SIMPLE.is_file() and FUNCTIONS.is_file()),
    reason=f"BFCL corpus not found at {BFCL} (set TOOLCONTRACT_CORPUS to the shared corpus folder)",
)

BFCL_TYPES = {"dict": "object", "float": "number", "tuple": "array"}
CONTEXT = Context(environment={"id": "bfcl", "allows": ["pure", "read"]})


def to_json_schema(schema):
    """BFCL's parameter schema as JSON Schema: dict->object, float->number, tuple->array, any-> no type."""
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            if value in ("any", ""):
                continue
            out[key] = BFCL_TYPES.get(value, value)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: to_json_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = to_json_schema(value)
        else:
            out[key] = value
    return out


def to_descriptor(function: dict) -> dict:
    return {"name": function["name"], "effect": "read", "input_schema": to_json_schema(function["parameters"])}


@cache
def load():
    functions = {entry["hash"]: entry["function"] for entry in json.loads(FUNCTIONS.read_text(encoding="utf-8"))}
    entries = json.loads(SIMPLE.read_text(encoding="utf-8"))
    return functions, entries


@cache
def assessed():
    """(entry id, call, descriptors, envelope) for every canonical call."""
    functions, entries = load()
    rows = []
    for entry in entries:
        descriptors = [to_descriptor(functions[h]) for h in entry["function_hashes"]]
        registry = Registry.from_descriptors(descriptors)
        for index, call in enumerate(entry.get("canonical_calls") or ()):
            call_id = f"{entry['id']}#{index}"
            case = Case(call_id, Candidate(call_id, call["name"], call["arguments"]), CONTEXT)
            rows.append((entry["id"], call, registry, assess(case, registry)))
    return tuple(rows)


def test_every_function_maps_to_a_usable_descriptor():
    functions, entries = load()
    hashes = {h for entry in entries for h in entry["function_hashes"]}
    assert len(hashes) >= 300
    for digest in hashes:
        tool = Registry.from_descriptors([to_descriptor(functions[digest])]).get(functions[digest]["name"])
        assert tool is not None and tool.input_problem is None, (functions[digest]["name"], tool and tool.input_problem)


def test_ground_truth_calls_are_admitted_or_rejected_never_a_crash():
    rows = assessed()
    assert len(rows) >= 390
    outcomes = Counter(envelope.outcome for *_, envelope in rows)
    assert set(outcomes) <= {Outcome.ALLOWED, Outcome.REJECTED}, outcomes
    for _, _, _, envelope in rows:
        assert envelope.unverified_scope and envelope.model_view["content"]


def test_share_admitted_at_the_shape_gate():
    rows = assessed()
    gates = Counter(envelope.gate for *_, envelope in rows)
    admitted = sum(1 for *_, e in rows if e.gate is None)
    share = admitted / len(rows)
    refused = sorted((entry_id, e.reasons[0]) for entry_id, _, _, e in rows if e.gate is not None)
    print(f"\nBFCL simple_python: {admitted}/{len(rows)} ground-truth calls admitted ({share:.2%}); "
          f"refusals by gate: { {g.value: n for g, n in gates.items() if g} }; {refused}")
    # the ground truth only names tools it defines: nothing fails before the shape gate
    assert not gates[Gate.PARSE] and not gates[Gate.REGISTRY]
    assert share >= SHAPE_FLOOR, refused
    # A known disagreement in the upstream data: simple_python_307's ground truth passes
    # `venue: true` where the schema says string. The shape gate must catch it.
    by_id = {entry_id: e for entry_id, _, _, e in rows}
    if "simple_python_307" in by_id:
        assert by_id["simple_python_307"].gate is Gate.SHAPE
        assert by_id["simple_python_307"].evidence["issues"][0]["pointer"] == "/venue"


def test_mutated_calls_are_refused_at_the_right_gate():
    """Each ground-truth call broken three ways: case-folded name, non-JSON arguments, a dropped required field."""
    rows = assessed()
    counts = Counter()
    for entry_id, call, registry, envelope in rows[:200]:
        if envelope.gate is not None:
            continue
        folded = call["name"].upper() if call["name"] != call["name"].upper() else call["name"].lower()
        cases = [
            (Candidate("m1", folded, call["arguments"]), Gate.REGISTRY),
            (Candidate("m2", call["name"], json.dumps(call["arguments"])[:-1]), Gate.PARSE),
        ]
        tool = registry.get(call["name"])
        required = tool.data["input_schema"].get("required") or []
        present = [name for name in required if name in call["arguments"]]
        if present:
            dropped = {k: v for k, v in call["arguments"].items() if k != present[0]}
            cases.append((Candidate("m3", call["name"], dropped), Gate.SHAPE))
        for candidate, gate in cases:
            refused = assess(Case(entry_id, candidate, CONTEXT), registry)
            assert (refused.outcome, refused.gate) == (Outcome.REJECTED, gate), (entry_id, gate, refused.reasons)
            counts[gate] += 1
    assert counts[Gate.REGISTRY] >= 150 and counts[Gate.SHAPE] >= 100


def test_raw_string_arguments_give_the_same_answer():
    for _, call, registry, envelope in assessed()[:100]:
        raw = assess(Case("r", Candidate("r", call["name"], json.dumps(call["arguments"])), CONTEXT), registry)
        assert (raw.outcome, raw.gate) == (envelope.outcome, envelope.gate)
