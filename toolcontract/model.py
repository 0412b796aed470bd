"""Plain data shared by the core and the shells: enums and frozen dataclasses."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Severity(enum.IntEnum):
    """Finding severity; the order is the one `--fail-on` compares with."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (expected error, warning or info)") from None


class Effect(enum.StrEnum):
    PURE = "pure"
    READ = "read"
    REVERSIBLE_WRITE = "reversible_write"
    IRREVERSIBLE_WRITE = "irreversible_write"
    OPEN_WORLD = "open_world"

    @property
    def consequential(self) -> bool:
        return self not in (Effect.PURE, Effect.READ)

    @classmethod
    def of(cls, value: object) -> Effect | None:
        """The effect class named by `value`, or None when it names none."""
        if isinstance(value, str):
            try:
                return cls(value)
            except ValueError:
                return None
        return None


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One lint finding, located in a file. Sorted by path, line, column, rule."""

    path: str
    line: int
    column: int
    rule: str
    name: str
    severity: Severity
    message: str
    pointer: str = ""
    tool: str | None = None

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity.label,
            "message": self.message,
            "tool": self.tool,
            "pointer": self.pointer,
        }


# ------------------------------------------------------------------ assessment


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


@dataclass(frozen=True, slots=True)
class Candidate:
    """What the model produced: a proposal, not an action."""

    id: str | None
    name: str
    arguments: Any  # an object, or the raw JSON string the model emitted


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


@dataclass(frozen=True, slots=True)
class Observation:
    """An independent read-back of the target after the call."""

    verdict: str  # applied | not_applied | conflict
    call_id: str | None = None
    target: dict | None = None


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    candidate: Candidate
    context: Context = Context()
    record: Record | None = None
    observation: Observation | None = None
    expect: dict | None = None
    source: dict | None = None  # {"path": ..., "line": ...}
