"""JSON pointers (RFC 6901): how findings, overlays and rules name a place in a document."""

from __future__ import annotations

import functools
from typing import Any


def escape_token(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, *tokens: str | int) -> str:
    for token in tokens:
        base = f"{base}/{escape_token(token)}"
    return base


@functools.lru_cache(maxsize=4096)
def split_pointer(pointer: str) -> tuple[str, ...]:
    if not pointer:
        return ()
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/"))


def resolve_pointer(data: Any, pointer: str) -> tuple[bool, Any]:
    """(found, value) for a JSON pointer into plain data."""
    node = data
    for token in split_pointer(pointer):
        if isinstance(node, dict):
            if token not in node:
                return False, None
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return False, None
            node = node[int(token)]
        else:
            return False, None
    return True, node


def parent_pointer(pointer: str) -> str:
    return pointer[: pointer.rfind("/")] if pointer else ""
