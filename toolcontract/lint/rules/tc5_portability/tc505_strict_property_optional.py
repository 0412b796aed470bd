"""TC505 strict-property-optional: A property is missing from `required`, which OpenAI's strict mode refuses."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Edit, Fix, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER, with_property
from toolcontract.lint.rules.tc5_portability.messages import names, quoted, verb_s
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema, object_nodes
from toolcontract.core.model import Severity


_REFINING = frozenset(("allOf", "then", "else", "dependentSchemas"))


RULE = Rule(
    id="TC505",
    name="strict-property-optional",
    severity=Severity.ERROR,
    summary="A property is missing from `required`, which OpenAI's strict mode refuses.",
    rationale=(
        "In OpenAI's strict mode every property of every object must be listed in `required` (OA-SO, OA-FC); "
        "an optional argument is written as a required one that may be null, `type: [string, \"null\"]`, "
        "and the tool treats null as absent. Anthropic's strict mode allows optional properties (up to 24 "
        "per request, see TC509), so this rule speaks for openai-strict only."
    ),
    examples=(
        Bad(with_property("units: {type: string, enum: [metric, imperial], description: Unit system.}"),
            line=8, column=5, message="property 'units' is not in `required`"),
        Good(with_property('units: {type: [string, "null"], enum: [metric, imperial, null], description: '
                            'Unit system; null for the default.}', "[city, units]")),
        Good(WEATHER),
    ),
    surfaces=("openai-strict",),
    fixable="unsafe",
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    for node in object_nodes(context(tool).walk(schema)):
        if node.via in _REFINING:
            continue  # a branch that refines properties declared next to it (and allOf/then are TC506's)
        properties, required = node.schema.get("properties"), node.schema.get("required", [])
        if not isinstance(properties, dict) or not isinstance(required, list):
            continue  # a `required` of the wrong type is TC401's
        for name in properties:
            if name not in required:
                yield Hit(("input_schema", *node.path, "properties", name), f"property {quoted(name)} is not in "
                          f"`required`, which {names(surfaces)} refuse{verb_s(surfaces)}: list it, and allow null "
                          "(`type: [T, \"null\"]`) to keep it optional", anchor="key",
                          fix=_required_nullable(("input_schema", *node.path), name, properties[name]))


def _required_nullable(path: tuple, name: str, schema) -> Fix | None:
    """List the property in `required` and let it be null (unsafe: a model must then send it, as
    null when it has no value). Only for a property with a `type` (and an `enum` gets null too)."""
    if not isinstance(schema, dict) or "default" in schema:
        return None  # a default says what absence means: required, it would be a contradiction (TC415)
    kind = schema.get("type")
    if isinstance(kind, str):
        nullable = kind if kind == "null" else [kind, "null"]
    elif isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        nullable = kind if "null" in kind else [*kind, "null"]
    else:
        return None
    place = (*path, "properties", name)
    edits = [Edit("append", path, "required", name)]
    if nullable != kind:
        edits.append(Edit("set", place, "type", nullable))
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        edits.append(Edit("append", place, "enum", None))
    return Fix(tuple(edits), False, f"make {name!r} required and nullable")
