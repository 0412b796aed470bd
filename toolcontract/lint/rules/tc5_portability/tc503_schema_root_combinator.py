"""TC503 schema-root-combinator: The root of `input_schema` uses `anyOf`/`oneOf`/`allOf` (or `enum`/`not`), which OpenAI and Anthropic refuse."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER, with_property
from toolcontract.lint.rules.tc5_portability.messages import names
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema
from toolcontract.core.model import Severity
from toolcontract.core.surfaces import surface_family


_ROOT_REFUSED = {  # keyword at the root -> surface families that refuse it
    "anyOf": ("openai", "anthropic"), "oneOf": ("openai", "anthropic"), "allOf": ("openai", "anthropic"),
    "enum": ("openai",), "not": ("openai",),
}


RULE = Rule(
    id="TC503",
    name="schema-root-combinator",
    severity=Severity.ERROR,
    summary="The root of `input_schema` uses `anyOf`/`oneOf`/`allOf` (or `enum`/`not`), which OpenAI and Anthropic refuse.",
    rationale=(
        "JSON Schema lets the arguments object be described as alternatives at the root (`anyOf: [{required: "
        "[id]}, {required: [email]}]`), and MCP accepts it (2026-07-28 says so: any 2020-12 keyword may sit "
        "beside the root `type: object`, so `--target mcp` never reports it). OpenAI refuses `oneOf`, `anyOf`, `allOf`, `enum` "
        "and `not` at the top level of `parameters` (o3: spring-ai-alibaba#4576, vscode#307515), strict or "
        "not (OA-SO: the root must be an object, not `anyOf`); Anthropic answers a top-level `oneOf`/`allOf`/"
        "`anyOf` with a 400 (o7: claude-code#5319, #40075). Describe one object and say in the description "
        "(or in `semantic_rules`) which combinations are valid."
    ),
    examples=(
        Bad(with_property("postcode: {type: string, description: Postal code.}", "[]").replace(
            "  required: []\n", "  anyOf:\n    - required: [city]\n    - required: [postcode]\n"),
            line=9, column=3, message="`anyOf` at the root of input_schema"),
        Bad(WEATHER.replace("  additionalProperties", "  not: {required: [country]}\n  additionalProperties"),
            line=9, column=3, message="`not` at the root of input_schema", note="`not` at the root: openai"),
        Good(WEATHER),
    ),
    surfaces=("openai", "openai-strict", "anthropic", "anthropic-strict"),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    for keyword, families in _ROOT_REFUSED.items():
        if keyword in schema:
            refusing = [s for s in surfaces if surface_family(s) in families]
            if refusing:
                yield Hit(("input_schema", keyword), f"`{keyword}` at the root of input_schema is refused by "
                          f"{names(refusing)}: describe one object and state the valid combinations in the "
                          "description", anchor="key")
