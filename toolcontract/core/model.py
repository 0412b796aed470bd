"""Plain data shared by the core and the shells: enums, findings, and the records of assessment.

The assessment records (Candidate, Context, Record, Observation, Case) are frozen
dataclasses defined in toolcontract.core.assessment and made on first use: `lint` never needs
them, and creating dataclasses is a large part of its start-up (see toolcontract.core.records).
"""

from __future__ import annotations

import enum
from typing import Any

from toolcontract.core.records import Record as _Record


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
        return self is not Effect.PURE and self is not Effect.READ

    @classmethod
    def of(cls, value: object) -> Effect | None:
        """The effect class named by `value`, or None when it names none."""
        return _EFFECTS.get(value) if isinstance(value, str) else None


_EFFECTS = {effect.value: effect for effect in Effect}  # a lookup, not a raised ValueError per miss


class Finding(_Record):
    """One lint finding, located in a file. Sorted by path, line, column, rule (then the rest).

    `fix`: the rule's fix for it (core.rule.Fix, its edits placed as FileEdits), or None; not part of
    what a finding is compared or reported by (nor cached: `lint --fix` lints without the cache)."""

    __slots__ = ("path", "line", "column", "rule", "name", "severity", "message", "pointer", "tool", "fix")

    def __init__(self, path: str, line: int, column: int, rule: str, name: str, severity: Severity, message: str,
                 pointer: str = "", tool: str | None = None, fix: object = None):
        self.path = path
        self.line = line
        self.column = column
        self.rule = rule
        self.name = name
        self.severity = severity
        self.message = message
        self.pointer = pointer
        self.tool = tool
        self.fix = fix

    def _key(self) -> tuple:
        return (self.path, self.line, self.column, self.rule, self.name, self.severity, self.message,
                self.pointer, self.tool)

    _fields = _key

    def __lt__(self, other: Finding) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: Finding) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: Finding) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: Finding) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() >= other._key()

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


# the assessment's vocabulary and records, made on first use: lint never needs them
_ASSESSMENT = frozenset(("Candidate", "Context", "Record", "Observation", "Case",
                         "Outcome", "EffectState", "NextStep", "Gate", "GATE_ORDER"))


def __getattr__(name: str) -> Any:
    if name in _ASSESSMENT:  # the assessment records, made on first use (see the module's docstring)
        from toolcontract.core import assessment

        return getattr(assessment, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class InternalError(Exception):
    """An unexpected exception (a bug) while processing `path` (None: no file in particular). The
    command line reports it in one line and exits 3, never 1, which means findings."""

    def __init__(self, path: str | None, error: BaseException):
        super().__init__(f"{type(error).__name__}: {error}")
        self.path = path
        self.error = error
