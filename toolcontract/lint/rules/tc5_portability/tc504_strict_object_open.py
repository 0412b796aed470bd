"""TC504 strict-object-open: An object in `input_schema` lacks `additionalProperties: false`, which strict mode requires."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Edit, Fix, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER, with_property
from toolcontract.lint.rules.tc5_portability.messages import names, verb_s, where
from toolcontract.lint.rules.tc5_portability.strict import STRICT
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema, object_nodes
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC504",
    name="strict-object-open",
    severity=Severity.ERROR,
    summary="An object in `input_schema` lacks `additionalProperties: false`, which strict mode requires.",
    rationale=(
        "OpenAI's strict mode (`strict: true`, Structured Outputs) requires `additionalProperties: false` on "
        "every object, nested ones and those under `$defs` included (OA-SO, OA-FC), and so does Anthropic's "
        "(AN-SO); either refuses the tool otherwise. A typed map (`additionalProperties: {type: string}`) is "
        "refused too: write it as an array of `{key, value}` objects. TC403 says the same as advice for "
        "every surface; this rule is the hard requirement of the strict targets."
    ),
    examples=(
        Bad(WEATHER.replace("  additionalProperties: false\n", ""),
            line=5, column=3, message="does not set `additionalProperties: false`"),
        Bad(WEATHER.replace("additionalProperties: false", "additionalProperties: true"),
            line=9, column=25, message="the object at the root allows extra properties"),
        Bad(with_property("labels: {type: object, additionalProperties: {type: string}, description: Tags.}"),
            line=8, column=28, message="the object at /properties/labels is a typed map", note="a typed map"),
        Good(WEATHER),
    ),
    surfaces=STRICT,
    fixable="unsafe",
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    for node in object_nodes(context(tool).walk(schema)):
        s = node.schema
        extra = s.get("additionalProperties")
        if extra is False or ("$ref" in s and "properties" not in s):
            continue
        path = ("input_schema", *node.path)
        what = f"the object at {where(node.path)}"
        if "additionalProperties" not in s:
            yield Hit(path, f"{what} does not set `additionalProperties: false`, which {names(surfaces)} "
                      f"require{verb_s(surfaces)} on every object", anchor="value", fix=_close(path))
        elif isinstance(extra, dict):
            yield Hit((*path, "additionalProperties"), f"{what} is a typed map, which {names(surfaces)} "
                      f"refuse{verb_s(surfaces)}: strict mode allows only `additionalProperties: false` (use an array of "
                      "{key, value} objects)")
        else:
            yield Hit((*path, "additionalProperties"), f"{what} allows extra properties; {names(surfaces)} "
                      f"require{verb_s(surfaces)} `additionalProperties: false`", fix=_close(path))


def _close(path: tuple) -> Fix:
    """`additionalProperties: false` (unsafe: extra properties once accepted are refused); a typed map
    has none (it needs another shape)."""
    return Fix((Edit("set", path, "additionalProperties", False),), False, "set `additionalProperties: false`")
