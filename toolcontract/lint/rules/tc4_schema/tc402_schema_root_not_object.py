"""TC402 schema-root-not-object: The root of `input_schema` is not `type: object`."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.quoting import as_json
from toolcontract.lint.rules.tc4_schema.type_names import JSON_TYPES
from toolcontract.core.model import Severity
from toolcontract.core.schema.validation import types_of


RULE = Rule(
    id="TC402",
    name="schema-root-not-object",
    severity=Severity.ERROR,
    summary="The root of `input_schema` is not `type: object`.",
    rationale=(
        "Tool arguments are always a JSON object: MCP, OpenAI and Anthropic require the parameters schema "
        "to say `type: object` at its root (a `$ref` or `anyOf` that leads to one is not enough), and refuse "
        "anything else. A tool without parameters writes `{type: object, additionalProperties: false}`. A "
        "descriptor with no `input_schema` is not reported by this rule: that is a missing field, not a wrong root."
    ),
    examples=(
        Bad(WEATHER.replace("  type: object\n", "  type: [object, 'null']\n"),
            line=5, column=3, message="tool arguments are never null"),
        Bad(WEATHER.replace("  type: object\n", ""),
            line=5, column=3, message="has no `type: object`", note="no type at the root"),
        Good(WEATHER),
        Good("toolcontract: 1\nname: clock_now\neffect: read\n"
             "input_schema: {type: object, additionalProperties: false}\n", note="a tool without parameters"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if isinstance(schema, bool):
        yield Hit(("input_schema",), f"input_schema is `{str(schema).lower()}`: write `type: object` with "
                  "the properties the tool takes")
        return
    if not isinstance(schema, dict):
        return  # absent (not a finding) or of the wrong type (TC002)
    kind = schema.get("type")
    if "type" not in schema:
        yield Hit(("input_schema",), "the root of input_schema has no `type: object`: tool arguments are "
                  "always an object", anchor="value")
    elif kind == "object" or kind == ["object"]:
        return
    elif isinstance(kind, (str, list)) and not (types_of(schema) - JSON_TYPES):  # bad names are TC401's
        why = "never null" if "null" in types_of(schema) else "always an object"
        yield Hit(("input_schema", "type"), f"the root of input_schema is type {as_json(kind)}, not object: "
                  f"tool arguments are {why}")
