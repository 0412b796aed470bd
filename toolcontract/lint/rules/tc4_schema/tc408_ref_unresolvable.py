"""TC408 ref-unresolvable: A local `$ref` (`#...`) does not resolve within its schema."""

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
    id="TC408",
    name="ref-unresolvable",
    severity=Severity.ERROR,
    summary="A local `$ref` (`#...`) does not resolve within its schema.",
    rationale=(
        "A dangling reference makes the schema uncompilable: validators refuse it, so a client either "
        "rejects the tool or validates nothing. A common cause is a schema converted from draft-07 that "
        "still points at `#/definitions/...` after the definitions moved to `$defs`. Each schema (input, "
        "output, each semantic rule's `if`/`then`) resolves on its own; `#name` needs a matching `$anchor`."
    ),
    examples=(
        Bad(ADDRESS.replace('"#/$defs/address"', '"#/definitions/address"'),
            line=7, column=16, message="does not resolve: nothing at"),
        Good(ADDRESS),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    for path, schema, w in ctx.field_walks():
        for node, keyword, ref in refs(w):
            fate, why = resolve_ref(w, node, ref)
            if fate == "missing":
                yield Hit((*path, *node.path, keyword), f"{keyword} {quoted(ref)} does not resolve: {why}")
