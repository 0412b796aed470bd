"""How deep plain data nests: checked before anything recurses into data a file or a call gave."""

from __future__ import annotations

from typing import Any


def nests_deeper(data: Any, limit: int) -> bool:
    """True when data nests deeper than `limit` containers."""
    if not isinstance(data, (dict, list)):
        return False
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        deeper = depth + 1
        for child in (node.values() if isinstance(node, dict) else node):
            if isinstance(child, (dict, list)) and child:  # an empty one is as deep as it gets
                stack.append((child, deeper))
            elif deeper > limit and isinstance(child, (dict, list)):
                return True
    return False
