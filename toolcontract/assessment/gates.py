"""The admission gates: parse → registry → shape → semantic → target → environment → approval.

Each gate is a small pure function `Call -> Verdict`. `admit` runs them in order,
keeps the trail, and stops at the first refusal. Nothing here reads a clock, a
file or the network: time is `context.now`, state is what the context snapshots.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

from toolcontract.assessment.registry import Registry, Tool
from toolcontract.core.model import Candidate, Context, Gate, Outcome
from toolcontract.core.nesting import nests_deeper
from toolcontract.core.pointer import join_pointer, resolve_pointer


@dataclass(frozen=True)
class Call:
    """A candidate made ready for the gates: arguments parsed, tool looked up (exactly),
    and the call's target id / version / field read once through the tool's pointers."""

    candidate: Candidate
    context: Context
    tool: Tool | None
    arguments: dict | None
    parse_problem: str | None = None
    targets: dict[str, str | None] = field(default_factory=dict)

    def argument(self, pointer: str | None) -> tuple[bool, Any]:
        if pointer is None or self.arguments is None:
            return False, None
        return resolve_pointer(self.arguments, pointer)

    def target_value(self, key: str) -> str | None:
        """The call's target id / version / field as a string (ids compare as strings)."""
        return self.targets.get(key)


@dataclass(frozen=True)
class Verdict:
    gate: Gate
    passed: bool
    reasons: tuple[str, ...] = ()
    issues: tuple[dict, ...] = ()  # {"pointer": ..., "message": ...}
    outcome: Outcome | None = None  # a refusal's outcome
    unverified: tuple[str, ...] = ()  # what a passing gate could not check
    judged: bool = True  # False: the gate was not judged (evidence-only: no context to judge it by)

    def as_dict(self) -> dict:
        result: dict[str, Any] = {"gate": str(self.gate),
                                  "result": "passed" if self.passed and self.judged else
                                  "not_judged" if self.passed else "refused"}
        if self.reasons:
            result["reasons"] = list(self.reasons)
        if self.issues:
            result["issues"] = list(self.issues)
        if self.unverified:
            result["unverified"] = list(self.unverified)
        return result


def as_id(value: Any) -> str:
    """Ids and versions compare as strings, so YAML's 7 equals "7" (and true is "true")."""
    if type(value) is str:  # the usual case; str() would return it unchanged
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


MAX_ARGUMENT_DEPTH = 64  # as the loader's nesting limit; validators recurse through the arguments


def parse_arguments(raw: Any) -> tuple[dict | None, str | None]:
    if isinstance(raw, dict):
        value = raw
        nested = False  # the usual arguments hold no container: one level deep, nothing to walk
        for child in raw.values():
            if isinstance(child, (dict, list)):
                nested = True
                break
    elif isinstance(raw, str):
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            detail = f" ({exc.msg} at line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
            return None, f"arguments are not valid JSON{detail}"
        if not isinstance(value, dict):
            return None, f"arguments must be a JSON object, got {_json_kind(value)}"
        # every container parsed opens with a `{` or `[` of the text
        nested = raw.count("{") + raw.count("[") > MAX_ARGUMENT_DEPTH
    else:
        return None, f"arguments must be a JSON object, got {_json_kind(raw)}"
    if nested and nests_deeper(value, MAX_ARGUMENT_DEPTH):
        return None, f"arguments nest deeper than {MAX_ARGUMENT_DEPTH} levels"
    return value, None


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}.get(type(value), type(value).__name__)


def _resolve(data: Any, tokens: tuple[str, ...]) -> Any:
    """`resolve_pointer` over a pointer split once per tool: the value, or None when absent."""
    node = data
    for token in tokens:
        if isinstance(node, dict):
            if token not in node:
                return None
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return None
            node = node[int(token)]
        else:
            return None
    return node


def prepare(candidate: Candidate, registry: Registry, context: Context, unoffered: bool = False) -> Call:
    """The candidate made ready for the gates. `unoffered`: the recording has no tool list, so the call's
    tool is taken as offered, with no schema and no effect class (the worst case)."""
    if candidate.arguments_known:
        arguments, problem = parse_arguments(candidate.arguments)
    else:  # fail-closed for `admit`: nothing to check is not a pass
        arguments, problem = None, ARGUMENTS_UNKNOWN
    tool = registry.get(candidate.name)
    if tool is None and unoffered:
        tool = Tool(name=candidate.name, effect=None, version=None, approval=None, target={})
    targets: dict[str, str | None] = {}
    if tool is not None and arguments is not None:
        for key, tokens in tool.target_tokens:
            value = _resolve(arguments, tokens)
            targets[key] = None if value is None else as_id(value)
    return Call(candidate, context, tool, arguments, problem, targets)


# one shared passing verdict per gate (enum members as module constants: `Gate.PARSE`
# costs a metaclass attribute lookup on every use)
_PASSED: dict[Gate, Verdict] = {gate: Verdict(gate, True) for gate in Gate}
_PASS_PARSE, _PASS_REGISTRY, _PASS_SHAPE, _PASS_SEMANTIC, _PASS_TARGET, _PASS_ENVIRONMENT, _PASS_APPROVAL = (
    _PASSED[gate] for gate in (Gate.PARSE, Gate.REGISTRY, Gate.SHAPE, Gate.SEMANTIC, Gate.TARGET, Gate.ENVIRONMENT,
                               Gate.APPROVAL))


def _pass(gate: Gate, *unverified: str) -> Verdict:
    if not unverified:
        return _PASSED[gate]
    return Verdict(gate, True, unverified=tuple(unverified))


def _refuse(gate: Gate, outcome: Outcome, *reasons: str, issues: tuple[dict, ...] = ()) -> Verdict:
    return Verdict(gate, False, tuple(reasons), issues, outcome)


# ------------------------------------------------------------------- the gates


def parse_gate(call: Call) -> Verdict:
    if call.parse_problem:
        return _refuse(Gate.PARSE, Outcome.REJECTED, call.parse_problem)
    return _PASS_PARSE


def registry_gate(call: Call) -> Verdict:
    if call.tool is None:
        name = call.candidate.name
        return _refuse(Gate.REGISTRY, Outcome.REJECTED, f"unknown tool {name!r}: no descriptor has exactly this name")
    return _PASS_REGISTRY


def shape_gate(call: Call) -> Verdict:
    tool = call.tool
    assert tool is not None and call.arguments is not None
    if tool.input_problem:
        return _refuse(Gate.SHAPE, Outcome.REJECTED, f"the tool's input_schema cannot be used: {tool.input_problem}")
    validator = tool.input_validator
    if validator is None:
        return _pass(Gate.SHAPE, "argument shape (the tool has no input_schema)")
    if validator.is_valid(call.arguments):  # no error objects to build for a valid call
        return _PASS_SHAPE
    from toolcontract.core.schema.validation import explain_errors

    explained = explain_errors(validator, call.arguments)  # bounded: at most 20, never quadratic
    issues = tuple({"pointer": join_pointer("", *path), "message": message} for path, message in explained)
    if issues:
        reasons = tuple(f"{i['pointer'] or '/'}: {i['message']}" for i in issues)
        if explained.note:
            reasons += (explained.note,)
        return _refuse(Gate.SHAPE, Outcome.REJECTED, *reasons, issues=issues)
    return _PASS_SHAPE


def semantic_gate(call: Call) -> Verdict:
    tool = call.tool
    assert tool is not None
    if not tool.semantic_rules:
        return _PASS_SEMANTIC
    reasons: list[str] = []
    for rule in tool.semantic_rules:
        if rule.problem:
            reasons.append(f"{rule.id}: cannot be evaluated ({rule.problem})")
        elif rule.when.is_valid(call.arguments):
            if rule.then is not None and not rule.then.is_valid(call.arguments):
                reasons.append(f"{rule.id}: {rule.message}")
        elif rule.otherwise is not None and not rule.otherwise.is_valid(call.arguments):
            reasons.append(f"{rule.id}: {rule.message}")
    if reasons:
        return _refuse(Gate.SEMANTIC, Outcome.REJECTED, *reasons)
    return _PASS_SEMANTIC


def target_gate(call: Call) -> Verdict:
    tool = call.tool
    assert tool is not None
    if "id" not in tool.target:
        return _PASS_TARGET
    call_id = call.targets.get("id")
    if call_id is None:
        return _refuse(Gate.TARGET, Outcome.REJECTED, f"the call names no target (nothing at {tool.target['id']})")
    observed = call.context.target
    if not isinstance(observed, dict):
        if tool.consequential:
            return _refuse(Gate.TARGET, Outcome.NEEDS_EVIDENCE,
                           f"target {call_id!r} was not observed: observe it before deciding, never guess")
        return _pass(Gate.TARGET, f"state of target {call_id!r} (not observed)")
    if observed.get("exists") is False:
        return _refuse(Gate.TARGET, Outcome.REJECTED, f"target {call_id!r} does not exist")
    if "id" not in observed:
        return _refuse(Gate.TARGET, Outcome.NEEDS_EVIDENCE if tool.consequential else Outcome.REJECTED,
                       "the observed target has no id to compare with the call's")
    if as_id(observed["id"]) != call_id:
        return _refuse(Gate.TARGET, Outcome.REJECTED,
                       f"the call names target {call_id!r} but the observed target is {as_id(observed['id'])!r}")
    if "version" in tool.target:
        call_version = call.targets.get("version")
        if call_version is None:
            return _refuse(Gate.TARGET, Outcome.REJECTED,
                           f"the call carries no expected version (nothing at {tool.target['version']})")
        if observed.get("version") is None:
            if tool.consequential:
                return _refuse(Gate.TARGET, Outcome.NEEDS_EVIDENCE,
                               f"the observed target {call_id!r} has no version to compare with {call_version!r}")
            return _pass(Gate.TARGET, f"version of target {call_id!r} (not observed)")
        if as_id(observed["version"]) != call_version:
            return _refuse(Gate.TARGET, Outcome.REJECTED,
                           f"version mismatch: the call expects {call_version!r}, target {call_id!r} is at "
                           f"{as_id(observed['version'])!r}")
    return _PASS_TARGET


def environment_gate(call: Call) -> Verdict:
    tool = call.tool
    assert tool is not None
    environment = call.context.environment
    effect = tool.effect
    if not isinstance(environment, dict):
        if tool.consequential:
            return _refuse(Gate.ENVIRONMENT, Outcome.REJECTED,
                           "no environment snapshot: nothing says this environment allows a "
                           f"{tool.effect_value or 'consequential'} effect")
        return _pass(Gate.ENVIRONMENT, "environment policy (no snapshot)")
    if effect is None:
        return _refuse(Gate.ENVIRONMENT, Outcome.REJECTED,
                       f"tool {tool.name!r} declares no effect class, so no environment can allow it")
    allows = environment.get("allows")
    allowed = [a for a in allows if isinstance(a, str)] if isinstance(allows, list) else []
    if tool.effect_value not in allowed:
        where = f"environment {as_id(environment['id'])!r}" if environment.get("id") is not None else "the environment"
        return _refuse(Gate.ENVIRONMENT, Outcome.REJECTED,
                       f"{where} allows {', '.join(allowed) or 'no effect'}, not {tool.effect_value}")
    if call.context.untrusted_input and call.context.sensitive_data and tool.consequential:
        covered, why = find_covering_approval(call)
        if not covered:
            return _refuse(Gate.ENVIRONMENT, Outcome.REQUIRES_APPROVAL,
                           "Rule of Two: untrusted input, sensitive data and a consequential effect together "
                           f"need a covering approval ({why})")
    return _PASS_ENVIRONMENT


def approval_gate(call: Call) -> Verdict:
    tool = call.tool
    assert tool is not None
    if not tool.needs_approval:
        return _PASS_APPROVAL
    covered, why = find_covering_approval(call)
    if covered:
        return _PASS_APPROVAL
    effect = tool.effect_value or "undeclared"
    return _refuse(Gate.APPROVAL, Outcome.REQUIRES_APPROVAL, f"the {effect} effect needs an approval: {why}")


GATES: tuple[tuple[Gate, Callable[[Call], Verdict]], ...] = (
    (Gate.PARSE, parse_gate),
    (Gate.REGISTRY, registry_gate),
    (Gate.SHAPE, shape_gate),
    (Gate.SEMANTIC, semantic_gate),
    (Gate.TARGET, target_gate),
    (Gate.ENVIRONMENT, environment_gate),
    (Gate.APPROVAL, approval_gate),
)


# --------------------------------------------------------------------- approval


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 timestamp (naive ones are taken as UTC), or None."""
    if type(value) is str:
        return _parse_iso(value)
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        return _parse_iso.__wrapped__(value)
    else:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


@functools.lru_cache(maxsize=1024)  # a log repeats its `now` and expiry strings; datetimes are immutable
def _parse_iso(value: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value.strip().replace("z", "Z"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def approval_problem(approval: Any, call: Call) -> str | None:
    """Why an approval does not cover this call, or None when it does."""
    tool = call.tool
    assert tool is not None
    if not isinstance(approval, dict):
        return "the approval is not an object"
    if approval.get("tool") != tool.name:
        return f"{_approval_ref(approval)} names tool {approval.get('tool')!r}, not {tool.name!r}"
    if "id" in tool.target:
        target = call.targets.get("id")
        if approval.get("target") is None or as_id(approval["target"]) != target:
            return f"{_approval_ref(approval)} covers target {approval.get('target')!r}, not {target!r}"
    if "version" in tool.target:
        version = call.targets.get("version")
        if approval.get("version") is None or as_id(approval["version"]) != version:
            return f"{_approval_ref(approval)} covers version {approval.get('version')!r}, not {version!r}"
    fields = approval.get("fields")
    if fields is not None and "fields" in tool.target:
        listed = [as_id(f) for f in (fields if isinstance(fields, list) else [fields])]
        field_value = call.targets.get("fields")
        if field_value not in listed:
            return f"{_approval_ref(approval)} covers fields {listed}, not {field_value!r}"
    if approval.get("expires") is not None:
        expires = parse_time(approval["expires"])
        if expires is None:
            return f"{_approval_ref(approval)} has an unreadable expiry {approval['expires']!r}"
        now = parse_time(call.context.now)
        if now is None:
            return f"{_approval_ref(approval)} expires, and the context gives no `now` to check it against"
        if not now < expires:
            return f"{_approval_ref(approval)} expired at {approval['expires']} (now is {call.context.now})"
    return None


def _approval_ref(approval: dict) -> str:
    return f"approval {as_id(approval['ref'])!r}" if approval.get("ref") is not None else "the approval"


def find_covering_approval(call: Call) -> tuple[bool, str]:
    """(covered, why not) over every approval in the context."""
    if not call.context.approvals:
        return False, "no approval was given"
    problems = []
    for approval in call.context.approvals:
        problem = approval_problem(approval, call)
        if problem is None:
            return True, ""
        problems.append(problem)
    return False, "; ".join(problems)


# ------------------------------------------------------------------- admission


@dataclass(frozen=True)
class Admission:
    call: Call
    trail: tuple[Verdict, ...]
    refusal: Verdict | None = None
    evidence_only: bool = False  # judged from a recording alone (see admit_from_evidence)
    offered: bool = True  # evidence-only: whether the recording says which tools were offered

    @property
    def admitted(self) -> bool:
        return self.refusal is None

    @property
    def outcome(self) -> Outcome:
        return self.refusal.outcome if self.refusal is not None else Outcome.ALLOWED  # type: ignore[return-value]

    def unverified(self) -> list[str]:
        return [item for verdict in self.trail for item in verdict.unverified]


def admit(candidate: Candidate, registry: Registry, context: Context = Context()) -> Admission:
    """Run the gates in order; the first refusal ends admission. Fail-closed: with no environment in
    the context, no consequential call is admitted."""
    call = prepare(candidate, registry, context)
    trail: list[Verdict] = []
    for _, gate in GATES:
        verdict = gate(call)
        trail.append(verdict)
        if not verdict.passed:
            return Admission(call, tuple(trail), verdict)
    return Admission(call, tuple(trail))


# gates a recording can judge, and the policy gates it cannot: it shows what the model asked and what came
# back, never the policy in force (DESIGN §2, evidence-only assessment)
EVIDENCE_GATES = (Gate.PARSE, Gate.REGISTRY, Gate.SHAPE, Gate.SEMANTIC)
POLICY_GATES = (Gate.TARGET, Gate.ENVIRONMENT, Gate.APPROVAL)
_NOT_JUDGED: dict[Gate, Verdict] = {gate: Verdict(gate, True, judged=False) for gate in Gate}
ARGUMENTS_UNKNOWN = "the arguments are unknown: the recording does not carry them"
# the recording does not carry the arguments: nothing to parse, shape or semantic rule to check them against
_ARGUMENTS_NOT_JUDGED = Verdict(Gate.PARSE, True, judged=False,
                                unverified=("arguments (the recording does not carry them): parse, shape and "
                                            "semantic not judged",))


def admit_from_evidence(candidate: Candidate, registry: Registry, offered: bool = True) -> Admission:
    """Admission as far as a recording with no context can show it: parse, registry, shape and semantic
    against the tools the recording offered (only parse when it offered none: `offered` False), the other
    gates `not_judged`. A refusal ends it, as in `admit`."""
    call = prepare(candidate, registry, Context(), unoffered=not offered)
    judged = EVIDENCE_GATES if offered else EVIDENCE_GATES[:1]
    if not candidate.arguments_known:
        judged = (Gate.REGISTRY,) if offered else ()
    trail: list[Verdict] = []
    for gate, check in GATES:
        if gate not in judged:
            trail.append(_ARGUMENTS_NOT_JUDGED if gate is Gate.PARSE and not candidate.arguments_known
                         else _NOT_JUDGED[gate])
            continue
        verdict = check(call)
        trail.append(verdict)
        if not verdict.passed:  # the policy gates stay not judged; the judged ones after it, not reached
            trail.extend(_NOT_JUDGED[g] for g in POLICY_GATES)
            return Admission(call, tuple(trail), verdict, evidence_only=True, offered=offered)
    return Admission(call, tuple(trail), evidence_only=True, offered=offered)
