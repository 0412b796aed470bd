"""TC520 mcp-header-invalid: An `x-mcp-header` that MCP's HTTP clients must refuse: not a token, repeated, on a non-scalar, or not statically reachable."""

from __future__ import annotations

import re
from typing import Any, Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.schema import LIST, MAP, ONE
from toolcontract.core.schema.validation import types_of
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc4_schema.quoting import as_json

# RFC 9110 §5.6.2: token = 1*tchar
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_SCALARS = frozenset(("string", "integer", "boolean"))
_KEY = "x-mcp-header"
_LIST = ("resultType: complete\nttlMs: 0\ncacheScope: public\ntools:\n  - name: search_orders\n"
         "    description: Search the orders of one tenant.\n    inputSchema:\n      type: object\n"
         "      properties:\n")


RULE = Rule(
    id="TC520",
    name="mcp-header-invalid",
    severity=Severity.ERROR,
    summary="An `x-mcp-header` that MCP's HTTP clients must refuse: not a token, repeated, on a non-scalar, or "
            "not statically reachable.",
    rationale=(
        "MCP 2026-07-28 lets a property of `inputSchema` carry `x-mcp-header: Name`, so that the Streamable "
        "HTTP transport mirrors the argument into an HTTP header (`Mcp-Param-Name`) a gateway can route on. "
        "The header name must be an RFC 9110 token, unique in the tool ignoring case, on a property of type "
        "string, integer or boolean, and statically reachable (through `properties` from the root, never "
        "inside `items`, a combinator or `$defs`); HTTP clients MUST drop a tool that breaks any of these "
        "(MD: schema.ts, tool-surfaces.md), so the tool silently disappears for every HTTP user."
    ),
    examples=(
        Bad(_LIST + "        tenant: {type: string, x-mcp-header: Tenant Id}\n",
            line=10, column=46, message='"Tenant Id" is not an RFC 9110 token'),
        Bad(_LIST + "        tenant: {type: string, x-mcp-header: Tenant}\n"
                    "        region: {type: string, x-mcp-header: tenant}\n",
            line=11, column=46, message="repeats 'Tenant'"),
        Bad(_LIST + "        filters: {type: object, x-mcp-header: Filters}\n",
            line=10, column=47, message="on a property of type object"),
        Bad(_LIST + "        query:\n          anyOf:\n            - {type: string, x-mcp-header: Query}\n",
            line=12, column=44, message="not statically reachable"),
        Good(_LIST + "        tenant: {type: string, x-mcp-header: Tenant-Id}\n"
                     "        limit: {type: integer, x-mcp-header: Limit}\n"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    schema = ctx.tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    seen: dict[str, str] = {}
    for path, node in _headers(schema, ()):
        where = ("input_schema", *path, _KEY)
        value = node[_KEY]
        if not isinstance(value, str) or not _TOKEN.match(value):
            yield Hit(where, f"x-mcp-header {as_json(value)} is not an RFC 9110 token (letters, digits and "
                      "!#$%&'*+-.^_`|~, no spaces): MCP HTTP clients drop this tool", anchor="value")
            continue
        if not _reachable(path):
            yield Hit(where, f"x-mcp-header {value!r} is not statically reachable (only a property reached "
                      "through `properties` from the root may carry one, not one inside items, a combinator "
                      "or $defs): MCP HTTP clients drop this tool", anchor="value")
            continue
        types = types_of(node)
        if not types or not types <= _SCALARS:
            kind = "/".join(sorted(types)) if types else "unspecified type"
            yield Hit(where, f"x-mcp-header {value!r} is on a property of type {kind}: only string, integer "
                      "or boolean values go in a header; MCP HTTP clients drop this tool", anchor="value")
            continue
        first = seen.get(value.lower())
        if first is not None:
            yield Hit(where, f"x-mcp-header {value!r} repeats {first!r} (header names ignore case): MCP HTTP "
                      "clients drop this tool", anchor="value")
        else:
            seen[value.lower()] = value


def _reachable(path: tuple) -> bool:
    """A path of (`properties`, name) steps only: a property every valid argument object may hold."""
    return len(path) % 2 == 0 and all(step == "properties" for step in path[::2])


def _headers(schema: Any, path: tuple, depth: int = 0) -> Iterator[tuple[tuple, dict]]:
    """Every subschema below the root that carries `x-mcp-header`, with its path, in file order."""
    if not isinstance(schema, dict) or depth > 64:
        return
    if path and _KEY in schema:
        yield path, schema
    for key, value in schema.items():
        if key in MAP and isinstance(value, dict):
            for name, sub in value.items():
                yield from _headers(sub, (*path, key, name), depth + 1)
        elif key in LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _headers(sub, (*path, key, index), depth + 1)
        elif key in ONE:
            yield from _headers(value, (*path, key), depth + 1)
