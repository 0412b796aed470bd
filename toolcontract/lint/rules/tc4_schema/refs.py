"""The references (`$ref`, `$dynamicRef`) of a walked schema (TC407, TC408)."""

from __future__ import annotations

from toolcontract.lint.schema_walk import Node, Walk


def refs(w: Walk) -> list[tuple[Node, str, str]]:
    """(node, keyword, reference) for each `$ref` and `$dynamicRef` string of the walk's nodes, in node order."""
    found = []
    if "$ref" in w.marks or "$dynamicRef" in w.marks:
        for node in w.having("$ref", "$dynamicRef"):
            for keyword in ("$ref", "$dynamicRef"):
                ref = node.schema.get(keyword)
                if isinstance(ref, str):
                    found.append((node, keyword, ref))
    return found
