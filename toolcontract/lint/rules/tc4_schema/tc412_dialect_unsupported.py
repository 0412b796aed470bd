"""TC412 dialect-unsupported: `$schema` names an earlier draft that reads a keyword of the schema otherwise than
2020-12, or no known dialect."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.quoting import as_json, location, quoted
from toolcontract.lint.schema_walk import Walk
from toolcontract.core.model import Severity
from toolcontract.core.schema.validation import META_2020_12


KNOWN_DIALECTS = {
    "json-schema.org/draft-03/schema": "draft-03",
    "json-schema.org/draft-04/schema": "draft-04",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft/2020-12/schema": "2020-12",
}
DIALECTS_2020_12 = frozenset((META_2020_12, META_2020_12 + "#"))


RULE = Rule(
    id="TC412",
    name="dialect-unsupported",
    severity=Severity.WARNING,
    summary=("`$schema` names an earlier draft that reads a keyword of the schema otherwise than 2020-12, "
             "or no known dialect."),
    rationale=(
        "MCP reads a schema without `$schema` as JSON Schema 2020-12, and toolcontract reads every schema so, "
        "while validators such as python-jsonschema and jsonschema-rs pick their rules from `$schema`. Naming "
        "draft-07 is harmless in itself (zod-to-json-schema does it for many TypeScript servers): it matters "
        "only where the drafts disagree on a keyword the schema uses, because then two clients accept "
        "different arguments for the same tool. Those keywords are an `items` list (a tuple up to 2019-09, "
        "`prefixItems` in 2020-12), `dependencies` (up to draft-07; `dependentRequired`/`dependentSchemas` "
        "since), `$recursiveRef` and `$recursiveAnchor` (2019-09 only), a boolean `exclusiveMinimum`/"
        "`exclusiveMaximum` and `id` as the base URI of `$ref`s (draft-04), assertions beside a `$ref` (ignored "
        "up to draft-07, applied in 2020-12; annotations there change nothing), and draft-03's boolean "
        "`required`, `extends`, `disallow` and `divisibleBy`. A `$schema` no validator knows is reported too: "
        "jsonschema-rs refuses to build a validator for it. Convert the keyword to 2020-12 and name "
        "https://json-schema.org/draft/2020-12/schema (or drop `$schema`)."
    ),
    examples=(
        Bad(WEATHER.replace("  type: object\n", "  $schema: http://json-schema.org/draft-07/schema#\n  type: object\n")
            .replace("{type: string, description: City name such as Lisbon.}",
                     "{$ref: '#/definitions/city', maxLength: 40}\n  definitions:\n"
                     "    city: {type: string, description: City name such as Lisbon.}"),
            line=8, column=18, message="draft-07 ignores every keyword next to",
            note="draft-07 ignores maxLength beside $ref; 2020-12 applies it"),
        Bad(WEATHER.replace("  type: object\n", "  $schema: http://json-schema.org/draft-07/schema#\n  type: object\n")
            .replace("  required", "    at:\n      type: array\n      description: Latitude and longitude.\n"
                     "      items: [{type: number}, {type: number}]\n  required"),
            line=12, column=7, message="`items` at /properties/at is a list", note="tuple items"),
        Good(WEATHER.replace("  type: object\n", "  $schema: http://json-schema.org/draft-07/schema#\n"
                              "  type: object\n"), note="draft-07 named, but nothing in the schema reads differently"),
        Good(WEATHER.replace("  type: object\n", "  $schema: https://json-schema.org/draft/2020-12/schema\n"
                              "  type: object\n")),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    for path, schema, w in ctx.field_walks():
        if "$schema" not in w.marks:
            continue
        declared = w.having("$schema")
        earlier = False
        for node in declared:
            dialect = node.schema.get("$schema")
            if not isinstance(dialect, str) or dialect in DIALECTS_2020_12:
                continue
            name = dialect_name(dialect)
            if name is None:
                yield Hit((*path, *node.path, "$schema"), f"$schema {quoted(dialect)} is not a JSON Schema dialect "
                          "validators know (jsonschema-rs refuses to build a validator for it): name "
                          f"{quoted(META_2020_12)} or drop it")
            elif name not in _AS_2020_12:
                earlier = True
        if earlier:
            yield from _dialect_differences(path, w)


# the drafts before 2020-12, by the name KNOWN_DIALECTS gives them
_DRAFTS = ("draft-03", "draft-04", "draft-06", "draft-07", "2019-09")
_UP_TO_07 = frozenset(("draft-03", "draft-04", "draft-06", "draft-07"))
_UP_TO_04 = frozenset(("draft-03", "draft-04"))
# what MCP and toolcontract read a schema without `$schema` as; "http://json-schema.org/schema#" is the latest
# draft, which jsonschema-rs reads as 2020-12
_AS_2020_12 = frozenset(("2020-12", "latest"))
# keywords that assert or apply subschemas in draft-07 and earlier: next to a `$ref` those drafts ignore them,
# 2020-12 applies them (annotations such as description or default change nothing that validates)
_REF_IGNORED_SIBLINGS = (
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "items", "additionalItems", "maxItems", "minItems", "uniqueItems",
    "contains", "maxProperties", "minProperties", "required", "properties", "patternProperties",
    "additionalProperties", "dependencies", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not",
    "extends", "disallow", "divisibleBy",
)


def dialect_name(uri: str) -> str | None:
    """The dialect a `$schema` URI names (`draft-07`, `2020-12`, `latest`), or None for one no validator knows.
    The scheme and an empty fragment do not matter (validators accept `http`, `https`, `#` and none)."""
    key = uri.strip().split("://", 1)[-1].rstrip("#")
    if key == "json-schema.org/schema":
        return "latest"
    return KNOWN_DIALECTS.get(key)


def _dialect_differences(path: tuple, w: Walk) -> Iterator[Hit]:
    """The keywords of nodes under an earlier draft's `$schema` that the draft reads otherwise than 2020-12."""
    nodes = w.nodes
    names: list[str | None] = [None] * len(nodes)  # the dialect each node is read with, by its nearest `$schema`
    has_ref = "$ref" in w.marks
    for i, node in enumerate(nodes):
        own = node.schema.get("$schema")
        if isinstance(own, str):
            names[i] = dialect_name(own) if own not in DIALECTS_2020_12 else "2020-12"
        elif node.parent >= 0:
            names[i] = names[node.parent]
        name = names[i]
        if name is None or name not in _DRAFTS:
            continue
        s = node.schema
        at = (*path, *node.path)
        where = location(node.path)
        if isinstance(s.get("items"), list):
            yield Hit((*at, "items"), f"`items` at {where} is a list: {name} checks the n-th item against the n-th "
                      "schema (a tuple), 2020-12 (how MCP reads schemas) has no list form and uses `prefixItems` "
                      "for it: write `prefixItems` and name 2020-12 in `$schema`")
        if name in _UP_TO_07 and isinstance(s.get("dependencies"), dict):
            yield Hit((*at, "dependencies"), f"`dependencies` at {where}: {name} requires the listed properties (or "
                      "applies the schema) when a property is present, 2020-12 has no `dependencies` and validators "
                      "that follow it ignore it: write `dependentRequired` (lists) or `dependentSchemas` (schemas)")
        if name == "2019-09":
            for keyword in ("$recursiveRef", "$recursiveAnchor"):
                if keyword in s:
                    yield Hit((*at, keyword), f"`{keyword}` at {where} is 2019-09's dynamic recursion; 2020-12 "
                              "ignores it (it has `$dynamicRef`/`$dynamicAnchor`), so the recursion is lost: "
                              "convert it to `$dynamicRef`/`$dynamicAnchor`")
        if name in _UP_TO_04:
            for keyword, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
                flag = s.get(keyword)
                if isinstance(flag, bool):
                    value = s.get(bound)
                    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
                    fix = (f"write `{keyword}: {as_json(value)}` without `{bound}`" if flag and numeric
                           else f"write `{keyword}` as the bound itself, or drop it")
                    yield Hit((*at, keyword), f"`{keyword}: {as_json(flag)}` at {where} makes `{bound}` exclusive in "
                              f"{name}; in 2020-12 `{keyword}` is the bound itself and must be a number: {fix}")
            ident = s.get("id")
            if has_ref and isinstance(ident, str):
                yield Hit((*at, "id"), f"`id` {quoted(ident)} at {where} is the base URI `$ref`s resolve against in "
                          f"{name}; 2020-12 ignores `id` (it reads `$id`), so references may resolve elsewhere: "
                          "rename it `$id`")
        if name == "draft-03":
            if isinstance(s.get("required"), bool):
                yield Hit((*at, "required"), f"`required: {as_json(s['required'])}` at {where} marks the property "
                          "required in draft-03; 2020-12 lists required names on the object: move it to the "
                          "object's `required` list")
            for keyword, instead in (("extends", "allOf"), ("disallow", "not"), ("divisibleBy", "multipleOf")):
                if keyword in s:
                    yield Hit((*at, keyword), f"`{keyword}` at {where} is draft-03's; 2020-12 ignores it: "
                              f"write `{instead}`")
        if name in _UP_TO_07 and isinstance(s.get("$ref"), str):
            ignored = [k for k in _REF_IGNORED_SIBLINGS if k in s]
            if ignored:
                listed = ", ".join(f"`{k}`" for k in ignored[:4]) + (" ..." if len(ignored) > 4 else "")
                yield Hit((*at, "$ref"), f"`$ref` at {where} has {listed} beside it: {name} ignores every keyword "
                          "next to `$ref`, 2020-12 applies them too, so clients accept different values: put the "
                          "`$ref` in an `allOf` with them, or drop them")
