"""TC404 property-undocumented: A property of `input_schema` has no `description`."""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.properties import declared_properties
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.lint.schema_walk import resolve_ref
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC404",
    name="property-undocumented",
    severity=Severity.WARNING,
    summary="A property of `input_schema` has no `description`.",
    rationale=(
        "The property descriptions are the only documentation a model reads for each argument: without "
        "one it guesses formats, units and meaning from the name (is `date` ISO 8601? is `limit` a count "
        "or bytes?). A property that is only a `$ref` is documented when the schema it refers to has a "
        "description. A `title` does not count: it is a display label, not an explanation."
    ),
    examples=(
        Bad(WEATHER.replace("{type: string, description: City name such as Lisbon.}", "{type: string}"),
            line=7, column=11, message="has no description"),
        Good(WEATHER),
    ),
    once_per_copy=True,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = ctx.walk(schema)
    for node, name, sub in declared_properties(w):
        if not isinstance(sub, dict):
            continue
        description = sub.get("description")
        if isinstance(description, str):
            if description.strip():
                continue
        elif "description" in sub:
            continue  # not a string: TC401's
        ref = sub.get("$ref")
        if isinstance(ref, str):
            fate, target = resolve_ref(w, node, ref)
            if fate != "ok" or (isinstance(target, dict) and _text(target.get("description"))):
                continue  # TC407/TC408 report a ref that does not resolve
        yield Hit(("input_schema", *node.path, "properties", name),
                  f"property {quoted(name)} has no description: say what it means, its format and units",
                  anchor="value")


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())
