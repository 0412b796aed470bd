"""TC307 target-pointer-dangling: a `target` pointer does not name a property of `input_schema`."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc3_effects.examples import GOOD_WRITE
from toolcontract.core.model import Severity
from toolcontract.core.pointer import split_pointer


RULE = Rule(
    id="TC307",
    name="target-pointer-dangling",
    severity=Severity.ERROR,
    summary="A `target` pointer does not name a property of `input_schema`.",
    rationale=(
        "The target gate reads the call's target id and version through these pointers. A pointer to a "
        "property the schema does not define never finds anything, so every call looks like it has no "
        "target and the concurrency guard silently does nothing."
    ),
    examples=(
        Bad(GOOD_WRITE.replace("version: /expected_version", "version: /expected_revision"), line=13, column=37,
            message="target.version '/expected_revision' names no property"),
        Good(GOOD_WRITE),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    target, schema = tool.get("target"), tool.get("input_schema")
    if not isinstance(target, dict):
        return
    for key in ("id", "version", "fields"):
        pointer = target.get(key)
        if isinstance(pointer, str) and not pointer_in_schema(schema, pointer):
            yield Hit(("target", key), f"target.{key} {pointer!r} names no property of input_schema")


def pointer_in_schema(schema: object, pointer: str) -> bool:
    """Whether a JSON pointer into the arguments names a property the schema defines."""
    node = schema
    tokens = split_pointer(pointer)
    if not tokens:
        return False
    for token in tokens:
        if not isinstance(node, dict):
            return False
        properties = node.get("properties")
        if isinstance(properties, dict) and token in properties:
            node = properties[token]
        elif token.isdigit() and isinstance(node.get("items"), dict):
            node = node["items"]
        else:
            return False
    return True
