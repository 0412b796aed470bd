"""The properties a schema declares for a model to fill (TC404, TC411, TC417)."""

from __future__ import annotations

from itertools import repeat
from typing import Any

from toolcontract.core.schema import IN_PLACE
from toolcontract.lint.schema_walk import Node, Walk, in_place_ancestors


def declared_properties(w: Walk) -> list[tuple[Node, str, Any]]:
    """(parent node, name, schema) for each property a schema declares for a model to fill.

    Properties under `if`/`not` are tests, not declarations; a property an enclosing
    schema already declares (`allOf: [{properties: {city: {maxLength: 40}}}]`) is a refinement.
    Computed once per walk (TC404, TC411 and TC417 read it).
    """
    declared = w._declared
    if declared is not None:
        return declared
    declared = []
    marked = w.marks.get("properties", ())
    if len(marked) > 1:
        marked = sorted(set(marked))  # node order (see Walk.having)
    for index in marked:
        node = w.nodes[index]
        properties = node.schema["properties"]
        if node.conditional or not isinstance(properties, dict):
            continue
        if node.via in IN_PLACE and node.parent >= 0:
            outer = [a.schema.get("properties") for a in in_place_ancestors(w, index)]
            outer = [p for p in outer if isinstance(p, dict)]
            for name, sub in properties.items():
                if not any(name in p for p in outer):
                    declared.append((node, name, sub))
        else:  # the common case: nothing encloses it in place
            declared.extend(zip(repeat(node), properties, properties.values()))
    w._declared = declared
    return declared
