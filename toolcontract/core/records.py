"""Small value classes for the lint path, without `dataclasses`.

Importing `dataclasses` (it imports `inspect`, `ast`, `dis`, `tokenize`) and creating a
dataclass (it compiles generated methods with `exec`, about a millisecond each) cost a
third of a one-file `toolcontract lint` run: roughly 40 ms of start-up for the two dozen
classes `lint` needs. A `Record` subclass lists its fields in `__slots__` and sets them
in a plain `__init__` whose parameters are named as the fields; records of one class
compare equal, hash and print by their fields, and pickle as a call with the fields.
Records are treated as immutable (nothing assigns to a field after `__init__`), but,
unlike a frozen dataclass, that is not enforced: enforcing it would make every
construction several times slower.

The assessment records (toolcontract.core.assessment) stay dataclasses: `assess` needs their
frozenness.
"""

from __future__ import annotations


class Record:
    __slots__ = ()

    def _fields(self) -> tuple:
        return tuple([getattr(self, name) for name in self.__slots__])

    def _replace(self, **changes: object) -> object:
        """A copy with some fields changed (as `dataclasses.replace`)."""
        values = {name: getattr(self, name) for name in self.__slots__}
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        values.update(changes)
        return type(self)(**values)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__name__}({fields})"

    def __reduce__(self) -> tuple:
        return self.__class__, self._fields()


class FrozenRecord(Record):
    """A record that refuses assignment after construction, as a frozen dataclass does; its
    `__init__` sets fields with `object.__setattr__`. For the few values shared widely enough
    that an accidental change would be hard to find (loader limits, duplicate-key records)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")


class MutableRecord(Record):
    """A record whose fields may change after construction (compared by identity, unhashable
    by field), as a `@dataclass(eq=False)` is."""

    __slots__ = ()
    __eq__ = object.__eq__  # type: ignore[assignment]
    __hash__ = object.__hash__  # type: ignore[assignment]


__all__ = ["FrozenRecord", "MutableRecord", "Record"]
