"""TC411 property-untyped: A property of `input_schema` says nothing about its type."""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.properties import declared_properties
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC411",
    name="property-untyped",
    severity=Severity.WARNING,
    summary="A property of `input_schema` says nothing about its type.",
    rationale=(
        "A property with no `type`, `enum`, `const`, `$ref` or typed `anyOf`/`oneOf`/`allOf` accepts any "
        "JSON value, so a model may send a number, a string or an object for it and every one validates; "
        "the tool finds out at run time. `allOf` counts when one of its branches is typed, `anyOf`/`oneOf` "
        "when all are; a property schema `true` is untyped, `false` (a forbidden property) is not reported."
    ),
    examples=(
        Bad(WEATHER.replace("{type: string, description", "{description"),
            line=7, column=11, message="has no type: it accepts any value"),
        Good(WEATHER),
        Good(WEATHER.replace("{type: string, description", "{anyOf: [{type: string}, {type: integer}], description"),
             note="every branch is typed"),
    ),
    once_per_copy=True,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    for node, name, sub in declared_properties(ctx.walk(schema)):
        if sub is True or (isinstance(sub, dict) and "type" not in sub and not _typed(sub)):
            yield Hit(("input_schema", *node.path, "properties", name),
                      f"property {quoted(name)} has no type: it accepts any value (give it `type`, `enum` or `const`)",
                      anchor="value")


def _typed(schema: Any, depth: int = 0) -> bool:
    """Whether a schema tells a model what kind of value to write."""
    if isinstance(schema, bool):
        return not schema
    if not isinstance(schema, dict) or depth > 50:
        return False
    if "type" in schema or "enum" in schema or "const" in schema or "$ref" in schema or "$dynamicRef" in schema:
        return True
    if "not" in schema and schema["not"] in ({}, True):  # matches nothing, like `false`
        return True
    if "anyOf" not in schema and "oneOf" not in schema and "allOf" not in schema:
        return False
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches and all(_typed(b, depth + 1) for b in branches):
            return True
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(_typed(b, depth + 1) for b in branches)
