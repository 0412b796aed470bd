"""TC511 gemini-enum-not-string: An `enum` holds a value that is not a string, which Gemini's `parameters` schema refuses."""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import with_property
from toolcontract.lint.rules.tc5_portability.gemini import gemini_json_form
from toolcontract.lint.rules.tc5_portability.messages import names
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC511",
    name="gemini-enum-not-string",
    severity=Severity.ERROR,
    summary="An `enum` holds a value that is not a string, which Gemini's `parameters` schema refuses.",
    rationale=(
        "In Gemini's OpenAPI `parameters` schema `enum` is a list of strings (GM-SDK); a number or boolean "
        "in it fails to parse and the request is refused. Write the values as strings with `type: string` "
        "and convert in the tool, or drop the enum and give the range in the description. With "
        "`parametersJsonSchema`, strings and numbers are documented (for response schemas, GM-JS), so "
        "other values there are a warning."
    ),
    examples=(
        Bad(with_property("days: {type: integer, enum: [1, 3, 7], description: Days ahead.}", "[city, days]"),
            line=8, column=34, message="enum value 1 is a number"),
        Good(with_property("days: {type: string, enum: ['1', '3', '7'], description: Days ahead.}", "[city, days]")),
    ),
    surfaces=("gemini",),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    json_form = gemini_json_form(tool)
    for node in context(tool).walk(schema).nodes:
        values = node.schema.get("enum")
        if not isinstance(values, list):
            continue
        for i, value in enumerate(values):
            if isinstance(value, str):
                continue
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if json_form and number:
                continue
            yield Hit(("input_schema", *node.path, "enum", i),
                      f"enum value {_json(value)} is {_kind(value)}, not a string: {names(surfaces)} "
                      + ("documents string and number enums only" if json_form else "accepts string enums only"),
                      severity=Severity.WARNING if json_form else None)
            break


def _json(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:36] + " ..."


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "an object" if isinstance(value, dict) else "an array"
