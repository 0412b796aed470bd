"""The Gemini writer: a function declaration with `parametersJsonSchema` (plain JSON Schema)."""

from __future__ import annotations

from typing import Any

from toolcontract.convert.tool import ToolWriter, name_and_description

def write(tool: ToolWriter) -> dict[str, Any]:
    out = name_and_description(tool)
    schema = tool.input_schema(required=False, no_root_combinators=False)
    if schema is not None:
        out["parametersJsonSchema"] = schema
    output = tool.output_schema()
    if output is not None:
        out["responseJsonSchema"] = output
    return out
