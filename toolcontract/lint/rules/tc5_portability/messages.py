"""How the TC5xx messages quote what they found and name the surfaces they speak for."""

from __future__ import annotations

from typing import Any

from toolcontract.core.pointer import join_pointer


def quoted(value: Any, limit: int = 60) -> str:
    """A value from the input, quoted for a message and cut to a readable length."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def short_key(key: str, limit: int = 60) -> str:
    """A key from the input, cut to a readable length."""
    return key if len(key) <= limit else key[: limit - 3] + "..."


def where(path: tuple) -> str:
    """A subschema's place in input_schema, as a JSON pointer ("the root" for the root)."""
    return join_pointer("", *path) or "the root"


def names(surfaces: tuple[str, ...] | list[str]) -> str:
    return ", ".join(surfaces)


def verb_s(surfaces: tuple[str, ...] | list[str]) -> str:
    """The verb ending for the surfaces as a subject: "openai refuses", "openai, gemini refuse"."""
    return "s" if len(surfaces) == 1 else ""
