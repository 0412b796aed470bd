"""TC512 gemini-keyword-unsupported: `input_schema` uses a keyword outside Gemini's schema subset."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.schema import SUBSCHEMA_KEYWORDS
from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER
from toolcontract.lint.rules.tc5_portability.gemini import GEMINI_KEYWORDS, gemini_json_form
from toolcontract.lint.rules.tc5_portability.messages import names, quoted, short_key
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema, inside
from toolcontract.core.model import Severity


_GEMINI_JSON_KEYWORDS = frozenset((
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems",
    "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties", "additionalProperties",
    "required", "propertyOrdering",
    # annotations and comments: not in the documented list, but nothing a validator acts on
    "$schema", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly",
))


RULE = Rule(
    id="TC512",
    name="gemini-keyword-unsupported",
    severity=Severity.ERROR,
    summary="`input_schema` uses a keyword outside Gemini's schema subset.",
    rationale=(
        "Gemini's `parameters` accepts only an OpenAPI 3.0 Schema subset: type, format, title, description, "
        "enum, items, min/maxItems, min/maxLength, pattern, minimum, maximum, properties, required, "
        "min/maxProperties, propertyOrdering, anyOf, default, example, additionalProperties, nullable, and "
        "`$defs`/`$ref` with the definitions at the root (GM-SDK). Any other key, `$schema`, `const`, "
        "`oneOf`, `exclusiveMinimum` or an `x-` extension included, is a 400 \"Unknown name\" (o9: "
        "prism-php/prism#974), so schemas written for MCP (zod output carries `$schema`) are refused as "
        "they are. With `parametersJsonSchema` the documented subset is wider and documented for response "
        "schemas only (GM-JS), so keys outside it are warnings."
    ),
    examples=(
        Bad(WEATHER.replace("{type: string, description", "{type: string, const: Lisbon, description"),
            line=7, column=26, message="`const` is not in the schema subset"),
        Bad(WEATHER.replace("  type: object\n", "  $schema: https://json-schema.org/draft/2020-12/schema\n"
                             "  type: object\n"), line=5, column=3, message="`$schema` is not in the schema subset"),
        Good(WEATHER),
    ),
    surfaces=("gemini",),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    json_form = gemini_json_form(tool)
    allowed = _GEMINI_JSON_KEYWORDS if json_form else GEMINI_KEYWORDS
    severity = Severity.WARNING if json_form else None
    surface = names(surfaces) + (" (parametersJsonSchema)" if json_form else "")
    w = context(tool).walk(schema)
    refused = frozenset(k for k in SUBSCHEMA_KEYWORDS if k not in allowed)
    under = inside(w, refused)
    for index, node in enumerate(w.nodes):
        if under[index]:
            continue
        path = ("input_schema", *node.path)
        for keyword in node.schema:
            if not isinstance(keyword, str):
                continue
            if keyword not in allowed:
                fate = "it may be refused" if json_form else "it is refused as an unknown field"
                yield Hit((*path, keyword), f"`{short_key(keyword)}` is not in the schema subset of {surface}: {fate}",
                          anchor="key", severity=severity)
            elif keyword == "$defs" and index and not json_form:
                yield Hit((*path, keyword), f"`$defs` below the root is refused by {surface}: move the "
                          "definitions to the root of input_schema", anchor="key")
            elif keyword == "$ref" and not json_form:
                ref = node.schema[keyword]
                if isinstance(ref, str) and not ref.startswith("#/$defs/"):
                    yield Hit((*path, keyword), f"$ref {quoted(ref)} is refused by {surface}: it may only name a "
                              "definition under the root's `$defs` (`#/$defs/...`)")
