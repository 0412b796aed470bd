"""How the TC4xx messages quote a value from the input and name a place in a schema."""

from __future__ import annotations

from typing import Any

from toolcontract.core.pointer import join_pointer


def quoted(value: Any, limit: int = 80) -> str:
    """A value from the input, quoted for a message and cut to a readable length."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def quoted_json(value: Any, limit: int = 80) -> str:
    """A value from the input as JSON (`null`, `false`, `[1, 2]`), or quoted as `quoted` does for a string."""
    if isinstance(value, str):
        return quoted(value, limit)
    try:
        text = as_json(value)
    except (TypeError, ValueError):
        return quoted(value, limit)
    return text if len(text) <= limit else text[: limit - 4] + " ..."


def as_json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def location(path: tuple) -> str:
    return join_pointer("", *path) or "the root"
