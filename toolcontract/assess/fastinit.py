"""A quicker `__init__` for the frozen dataclasses built once or more per assessed case.

A frozen dataclass's generated `__init__` stores every field with `object.__setattr__`
(its own `__setattr__` refuses), several times the cost of a plain store: for the
objects of one case (call, admission, classification, envelope) that added up to a
tenth of the time `assess` takes. `frozen_init(cls)` gives such a class an `__init__`
with the same signature, defaults and default factories that stores the same values
straight into the instance: into its `__dict__`, or through each slot's descriptor.
Instances stay frozen (assignment still raises `FrozenInstanceError`), equal and hashed
as before; nothing but construction changes.

`builder(cls)` is the same for a class one may not alter (the shared frozen, slotted
model classes): a function taking the fields by keyword, with the same defaults.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar

T = TypeVar("T")

_MISSING = object()


def _source(cls: type, name: str, signature: list[str], prelude: list[str]) -> tuple[str, dict[str, Any]]:
    namespace: dict[str, Any] = {"__cls": cls, "__new": object.__new__, "__MISSING": _MISSING}
    fields = dataclasses.fields(cls)
    slotted = "__slots__" in cls.__dict__
    body = list(prelude)
    for f in fields:
        if f.name == "self" or f.name.startswith("__"):
            raise TypeError(f"{cls.__name__}.{f.name}: a field name this generator does not support")
        if not f.init or f._field_type is not dataclasses._FIELD:  # type: ignore[attr-defined]
            raise TypeError(f"{cls.__name__}.{f.name}: only plain init fields are supported")
        if f.default is not dataclasses.MISSING:
            namespace[f"__d_{f.name}"] = f.default
            signature.append(f"{f.name}=__d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"__f_{f.name}"] = f.default_factory
            signature.append(f"{f.name}=__MISSING")
            body.append(f"    if {f.name} is __MISSING: {f.name} = __f_{f.name}()")
        else:
            signature.append(f.name)
    if slotted:
        for f in fields:
            namespace[f"__s_{f.name}"] = cls.__dict__[f.name].__set__
            body.append(f"    __s_{f.name}(self, {f.name})")
    else:
        body.append("    __o = self.__dict__")
        body.extend(f"    __o[{f.name!r}] = {f.name}" for f in fields)
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: __post_init__ is not supported")
    return f"def {name}({', '.join(signature)}):\n" + "\n".join(body) + "\n", namespace


def frozen_init(cls: type[T]) -> type[T]:
    """Give a frozen dataclass a quicker `__init__` (same signature and defaults)."""
    if not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    source, namespace = _source(cls, "__init__", ["self"], [])
    exec(source, namespace)  # noqa: S102 - generated from the class's own field names, as dataclasses does
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[misc]
    return cls


def builder(cls: type[T]) -> Callable[..., T]:
    """A function building a frozen dataclass instance from its fields (by keyword; same defaults)
    without calling its `__init__`, for classes that must stay as they are."""
    source, namespace = _source(cls, "build", ["*"], ["    self = __new(__cls)"])
    exec(source + "    return self\n", namespace)  # noqa: S102
    return namespace["build"]
