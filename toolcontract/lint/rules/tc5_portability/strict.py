"""The strict-mode targets (`STRICT`) and what Anthropic's strict mode counts against its
per-request budgets (TC509 for one tool, TC516 for a list)."""

from __future__ import annotations

from toolcontract.lint.rules.tc5_portability.subschemas import Walk, object_nodes

STRICT = ("openai-strict", "anthropic-strict")


def anthropic_strict_counts(w: Walk) -> tuple[int, int]:
    """What Anthropic's strict mode counts against its per-request limits in one schema: the
    optional properties (not in `required`, at every object level) and the union parameters
    (`anyOf`, or a `type` list of more than one type)."""
    optional = unions = 0
    for node in object_nodes(w):
        props, required = node.schema.get("properties"), node.schema.get("required", [])
        if isinstance(props, dict):
            listed = {name for name in required if isinstance(name, str)} if isinstance(required, list) else set()
            optional += sum(1 for name in props if name not in listed)
    for node in w.nodes:
        kind = node.schema.get("type")
        if isinstance(node.schema.get("anyOf"), list) or (isinstance(kind, list) and len(kind) > 1):
            unions += 1
    return optional, unions
