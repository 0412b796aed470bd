"""Small immutable values for the security rules, without @dataclass's cost at import.

A `Record` subclass lists its fields in `__slots__` and sets them in `__init__`; records of one
class are equal when their fields are, hash by their fields and print as `Name(field=...)`,
as a frozen dataclass does. (A dataclass costs close to a millisecond to create, and the
rules import a dozen: a tenth of a lint run's start-up.)
"""

from __future__ import annotations

from typing import Any


class Record:
    __slots__ = ()

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__name__}({fields})"
