"""A tool's input schema and its subschemas, as TC4xx's walker gives them, for the TC5xx rules.

Schemas are walked with TC4xx's walker: `$ref`s are not followed, so a limit that a
reference would push over is not seen, and nothing is ever fetched. The family imports the
walker's types (`Node`, `Walk`, `resolve_ref`) from here.
"""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.schema_walk import Node, Walk, resolve_ref
from toolcontract.core.schema.validation import types_of

__all__ = ["Node", "Walk", "resolve_ref", "input_schema", "spans", "inside", "object_nodes"]


def input_schema(tool: ToolView) -> dict | None:
    schema = tool.get("input_schema")
    return schema if isinstance(schema, dict) else None  # absent: no arguments; wrong type: TC002


def spans(w: Walk) -> tuple[list[int], list[int]]:
    """Per node: its depth (subschema hops from the root) and the end of its subtree
    (nodes are in pre-order, so a node's descendants are the ones up to `end`)."""
    n = len(w.nodes)
    depth = [0] * n
    end = list(range(1, n + 1))
    for i, node in enumerate(w.nodes):
        if node.parent >= 0:
            depth[i] = depth[node.parent] + 1
    for i in range(n - 1, 0, -1):
        parent = w.nodes[i].parent
        if parent >= 0 and end[i] > end[parent]:
            end[parent] = end[i]
    return depth, end


def inside(w: Walk, keywords: frozenset[str]) -> list[bool]:
    """Per node: whether it lies under one of `keywords` (reported there already)."""
    under = [False] * len(w.nodes)
    for i, node in enumerate(w.nodes):
        if node.parent >= 0:
            under[i] = under[node.parent] or node.via in keywords
    return under


def object_nodes(w: Walk) -> Iterator[Node]:
    """Subschemas that describe an object a model writes: `type` includes object, or
    untyped with `properties`. Tests under `if`/`not` are left out (TC506 reports them)."""
    for node in w.nodes:
        s = node.schema
        if node.conditional:
            continue
        kinds = types_of(s)
        if "object" in kinds or (not kinds and "type" not in s and isinstance(s.get("properties"), dict)):
            yield node
