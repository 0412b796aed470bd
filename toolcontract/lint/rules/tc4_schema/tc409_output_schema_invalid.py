"""TC409 output-schema-invalid: `output_schema` is not valid JSON Schema 2020-12, or its root is not an object.

The object root is required of native descriptors and of MCP tools served under revisions before
2026-07-28; from 2026-07-28 on MCP takes any output schema (and any JSON as `structuredContent`)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.metaschema import meta_hits
from toolcontract.lint.rules.tc4_schema.quoting import as_json
from toolcontract.core.descriptor import mcp_at_least
from toolcontract.core.model import Severity
from toolcontract.core.schema.validation import types_of


RULE = Rule(
    id="TC409",
    name="output-schema-invalid",
    severity=Severity.ERROR,
    summary="`output_schema` is not valid JSON Schema 2020-12, or its root is not an object.",
    rationale=(
        "MCP 2025-11-25 requires `outputSchema` to be `type: object`, servers must return `structuredContent` "
        "that conforms, and clients should validate results against it, so an invalid or non-object schema "
        "makes every result suspect; MCP 2026-07-28 lifts the object root (any JSON Schema 2020-12, checked "
        "only for validity for a tool of a list served under it). The assess step uses it too: a result that does not match is a failed "
        "call, which an unusable schema turns into noise."
    ),
    examples=(
        Bad(WEATHER + "output_schema:\n  type: array\n  items: {type: number}\n",
            line=11, column=9, message="not object: MCP structured results"),
        Bad(WEATHER + "output_schema:\n  type: object\n  properties:\n    temperature: {type: float}\n",
            line=13, column=25, message="output_schema is not valid JSON Schema"),
        Good(WEATHER + "output_schema:\n  type: object\n  properties:\n    temperature_c: {type: number}\n"),
        Good('{"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [{"name": "list_users", '
             '"inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {"type": "string"}}}]}'),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("output_schema")
    if not isinstance(schema, (dict, bool)):
        return
    errors = list(meta_hits(ctx, ("output_schema",), schema, "output_schema"))
    yield from errors
    if mcp_at_least(tool, "2026-07-28"):
        return  # any schema is an output schema from this revision on
    if isinstance(schema, bool):
        yield Hit(("output_schema",), f"output_schema is `{str(schema).lower()}`: write `type: object` with "
                  "the fields the tool returns")
    elif "type" not in schema:
        yield Hit(("output_schema",), "the root of output_schema has no `type: object`", anchor="value")
    elif not any(h.path == ("output_schema", "type") for h in errors) and types_of(schema) != {"object"}:
        yield Hit(("output_schema", "type"), f"the root of output_schema is type {as_json(schema['type'])}, "
                  "not object: MCP structured results are objects (return the value in a field)")
