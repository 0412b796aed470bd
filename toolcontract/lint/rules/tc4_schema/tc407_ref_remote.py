"""TC407 ref-remote: A `$ref` or `$dynamicRef` points outside the document."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import ADDRESS
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.lint.rules.tc4_schema.refs import refs
from toolcontract.lint.schema_walk import resolve_ref
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC407",
    name="ref-remote",
    severity=Severity.ERROR,
    summary="A `$ref` or `$dynamicRef` points outside the document.",
    rationale=(
        "A reference outside the schema is either not resolved (the MCP draft and Anthropic's strict mode "
        "refuse external references, and a client that skips it leaves the property unchecked) or fetched: "
        "python-jsonschema fetches `http` and `file` references by default, so validating one argument can "
        "make a request or read a local file. toolcontract never fetches it; put the definition under "
        "`$defs` and refer to it with `#/$defs/...`."
    ),
    examples=(
        Bad(ADDRESS.replace('"#/$defs/address"', '"https://example.com/schemas/address.json"'),
            line=7, column=16, message="points outside the schema"),
        Bad(ADDRESS.replace('"#/$defs/address"', '"address.json#/address"'),
            line=7, column=16, message="points outside the schema", note="a relative file"),
        Good(ADDRESS),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    for path, schema, w in ctx.field_walks():
        for node, keyword, ref in refs(w):
            fate, target = resolve_ref(w, node, ref)
            if fate == "remote":
                yield Hit((*path, *node.path, keyword), f"{keyword} {quoted(ref)} points outside the schema and is "
                          "never fetched: define it under `$defs` and use `#/$defs/...`")
