"""TC510 gemini-type-list: `type` is a list, which Gemini's `parameters` schema cannot hold."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER
from toolcontract.lint.rules.tc5_portability.gemini import gemini_json_form
from toolcontract.lint.rules.tc5_portability.messages import names, verb_s
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC510",
    name="gemini-type-list",
    severity=Severity.ERROR,
    summary="`type` is a list, which Gemini's `parameters` schema cannot hold.",
    rationale=(
        "Gemini's `parameters` is an OpenAPI 3.0 Schema: `type` is one value, and a nullable value is "
        "written `type: string` with `nullable: true` (GM-SDK); a list such as `[string, \"null\"]` is "
        "refused (\"Proto field is not repeating, cannot start list\"). For several non-null types use "
        "`anyOf`. Declarations sent as `parametersJsonSchema` are not checked: that form is JSON Schema."
    ),
    examples=(
        Bad(WEATHER.replace("{type: string, description", "{type: [string, 'null'], description"),
            line=7, column=12, message="`type` is a list, which gemini refuses"),
        Good(WEATHER),
        Good(WEATHER.replace("{type: string, description", "{type: string, nullable: true, description")),
    ),
    surfaces=("gemini",),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema or gemini_json_form(tool):
        return
    if tool.format == "gemini" and isinstance(tool.raw, dict) and isinstance(tool.raw.get("parameters"), dict):
        # the reader turned `nullable: true` into a type list; judge what the file wrote
        schema = tool.raw["parameters"]
    for node in context(tool).walk(schema).nodes:
        kind = node.schema.get("type")
        if not isinstance(kind, list):
            continue
        others = [k for k in kind if k != "null"]
        if len(others) == 1 and len(kind) == 2:
            fix = f"write `type: {others[0]}` with `nullable: true`"
        elif len(kind) == 1:
            fix = f"write `type: {kind[0]}`"
        else:
            fix = "use `anyOf` with one type per branch"
        yield Hit(("input_schema", *node.path, "type"), f"`type` is a list, which {names(surfaces)} refuse{verb_s(surfaces)} "
                  f"(one type per schema): {fix}")
