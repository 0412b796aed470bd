"""The records of one assessed interaction (DESIGN §2): what the model proposed, the context the
harness injected, what the adapter saw, and an independent read-back.

Frozen dataclasses, imported through toolcontract.model on first use (lint never needs them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
