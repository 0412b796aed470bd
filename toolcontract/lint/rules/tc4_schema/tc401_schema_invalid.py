"""TC401 schema-invalid: `input_schema` is not valid JSON Schema 2020-12."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.metaschema import meta_hits
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC401",
    name="schema-invalid",
    severity=Severity.ERROR,
    summary="`input_schema` is not valid JSON Schema 2020-12.",
    rationale=(
        "Providers that check tool schemas reject the whole request over one invalid keyword, and MCP "
        "requires a schema to be valid for its dialect. Those that do not check hand the schema to the model "
        "as text, where `type: text` or `required: city` means nothing, and the arguments are never "
        "validated. Each distinct problem is reported once, at its keyword."
    ),
    examples=(
        Bad(WEATHER.replace("{type: string,", "{type: text,"),
            line=7, column=18, message="is not a JSON Schema type", note="not a JSON type"),
        Bad(WEATHER.replace("required: [city]", "required: city"),
            line=8, column=13, message='is not of type "array"', note="required must be a list"),
        Good(WEATHER),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if isinstance(schema, (dict, bool)):
        yield from meta_hits(ctx, ("input_schema",), schema, "input_schema")
