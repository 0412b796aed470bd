"""TC502 parameter-name-refused: A parameter name is not `^[A-Za-z_][A-Za-z0-9_]{0,63}$`, which Gemini requires."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER
from toolcontract.lint.rules.tc5_portability.messages import names, quoted
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema
from toolcontract.core.model import Severity


_GEMINI_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z")


RULE = Rule(
    id="TC502",
    name="parameter-name-refused",
    severity=Severity.ERROR,
    summary="A parameter name is not `^[A-Za-z_][A-Za-z0-9_]{0,63}$`, which Gemini requires.",
    rationale=(
        "Gemini reads the top-level properties of the parameters schema as the function's parameter names, "
        "and they must start with a letter or `_` and hold only letters, digits and `_`, at most 64 "
        "characters (GM-SDK, `FunctionDeclaration.parameters`). MCP and OpenAI accept names such as "
        "`repo-name`, `$filter` or `page.size`, so a schema written for them can be refused by Gemini. "
        "Only the top-level names are parameter names; nested property names are not checked."
    ),
    examples=(
        Bad(WEATHER.replace("    city:", "    city-name:").replace("[city]", "[city-name]"),
            line=7, column=5, message="parameter name 'city-name' is refused by gemini"),
        Good(WEATHER),
    ),
    surfaces=("gemini",),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    properties = schema.get("properties") if schema else None
    if not isinstance(properties, dict):
        return
    for name in properties:
        if isinstance(name, str) and not _GEMINI_PARAMETER.match(name):
            yield Hit(("input_schema", "properties", name), f"parameter name {quoted(name)} is refused by "
                      f"{names(surfaces)}: start with a letter or _, then only A-Z a-z 0-9 _, at most 64",
                      anchor="key")
