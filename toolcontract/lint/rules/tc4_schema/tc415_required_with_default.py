"""TC415 required-with-default: A property listed in `required` also declares a `default`."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import DEFAULTS
from toolcontract.lint.rules.tc4_schema.quoting import quoted, quoted_json
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC415",
    name="required-with-default",
    severity=Severity.WARNING,
    summary="A property listed in `required` also declares a `default`.",
    rationale=(
        "A default applies only when the argument is left out, and a required argument never is: either the "
        "default is dead, or the property is meant to be optional and every call is made to send it anyway "
        "(models do, when the schema says required). Drop the default, or take the property out of `required`. "
        "Only the `required` of the object that declares the property counts; a requirement under `then` or a "
        "`oneOf` branch still leaves room for the default."
    ),
    examples=(
        Bad(DEFAULTS.replace("required: [report_id]", "required: [report_id, format]"),
            line=8, column=55, message="is required, so its default"),
        Good(DEFAULTS),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = ctx.walk(schema)
    if "required" not in w.marks:
        return
    for node in w.having("required"):
        required, properties = node.schema.get("required"), node.schema.get("properties")
        if node.conditional or not isinstance(required, list) or not isinstance(properties, dict):
            continue
        reported: set[str] = set()
        for name in required:
            sub = properties.get(name) if name.__class__ is str else None
            if sub.__class__ is dict and "default" in sub and name not in reported:
                reported.add(name)
                yield Hit(("input_schema", *node.path, "properties", name, "default"),
                          f"property {quoted(name)} is required, so its default {quoted_json(sub['default'])} "
                          f"never applies: drop the default, or take {quoted(name)} out of `required` if callers "
                          "may leave it out")
