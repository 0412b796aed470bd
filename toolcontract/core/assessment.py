"""The records of one assessed interaction (DESIGN §2): what the model proposed, the context the
harness injected, what the adapter saw, and an independent read-back.

Frozen dataclasses, with the enums that name outcomes, effect states, next steps and gates;
imported through toolcontract.core.model on first use (lint never needs them).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Candidate:
    """What the model produced: a proposal, not an action."""

    id: str | None
    name: str
    arguments: Any  # an object, or the raw JSON string the model emitted
    # False: the recording does not carry the arguments (a trace that did not capture them); `arguments` is
    # then None. Evidence-only admission does not judge parse, shape or semantic; `admit` refuses at parse.
    arguments_known: bool = True


@dataclass(frozen=True, slots=True)
class Context:
    """Snapshots the harness injects; never live look-ups."""

    now: str | None = None
    environment: dict | None = None
    approvals: tuple[dict, ...] = ()
    target: dict | None = None
    untrusted_input: bool = False
    sensitive_data: bool = False


@dataclass(frozen=True, slots=True)
class Record:
    """What the adapter saw after sending."""

    status: str  # returned | error | timeout | cancelled
    call_id: str | None = None
    sent: bool | None = None  # None: unknown
    result: Any = None
    error: dict | None = None  # {layer: transport | protocol | execution, message}
    note: str | None = None  # what the evidence says happened, when the status alone does not (a lost call)
    result_known: bool = True  # False: the recording does not carry the return (`result` is None)
    # True: `result` is the content the model was given (a transcript's or trace's tool result), not the
    # tool's return value, so only its structured part (MCP structuredContent, JSON text) meets output_schema
    as_content: bool = False


@dataclass(frozen=True, slots=True)
class Observation:
    """An independent read-back of the target after the call."""

    verdict: str  # applied | not_applied | conflict
    call_id: str | None = None
    target: dict | None = None


@dataclass(frozen=True, slots=True)
class Case:
    """One call to assess. `context` None: the recording carries no context, so admission is judged
    only as far as the recording can show (DESIGN §2, evidence-only assessment). `pending`: the
    recording ends right after the call's turn, before any result could be in it; a text: why the
    call is unfinished although a result is recorded (an MCP `resultType` of `task` or `input_required`)."""

    id: str
    candidate: Candidate
    context: Context | None = Context()
    record: Record | None = None
    observation: Observation | None = None
    expect: dict | None = None
    source: dict | None = None  # {"path": ..., "line": ...}
    pending: bool | str = False


class Outcome(enum.StrEnum):
    """What happened to one assessed interaction (DESIGN §2)."""

    REJECTED = "rejected"
    REQUIRES_APPROVAL = "requires_approval"
    NEEDS_EVIDENCE = "needs_evidence"
    ALLOWED = "allowed"
    BLOCKED = "blocked"
    CANCELLED = "cancelled"
    FAILED = "failed"
    TIMED_OUT = "timed_out"
    EFFECT_UNKNOWN = "effect_unknown"
    SUCCEEDED = "succeeded"


class EffectState(enum.StrEnum):
    """What the evidence shows about the world."""

    NONE = "none"
    CONFIRMED = "confirmed"
    UNVERIFIED = "unverified"
    UNKNOWN = "unknown"
    CONTRADICTED = "contradicted"


class NextStep(enum.StrEnum):
    FIX_REQUEST = "fix_request"
    REQUEST_APPROVAL = "request_approval"
    OBSERVE_TARGET = "observe_target"
    READ_BACK = "read_back"
    STOP_OR_ESCALATE = "stop_or_escalate"
    HAND_TO_ACCEPTANCE = "hand_to_acceptance"
    NONE = "none"


class Gate(enum.StrEnum):
    PARSE = "parse"
    REGISTRY = "registry"
    SHAPE = "shape"
    SEMANTIC = "semantic"
    TARGET = "target"
    ENVIRONMENT = "environment"
    APPROVAL = "approval"


GATE_ORDER = tuple(Gate)
