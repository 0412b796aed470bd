"""Plain data shared by the core and the shells: enums and frozen dataclasses."""

from __future__ import annotations

import enum
from dataclasses import dataclass


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
