"""TC506 strict-keyword-unsupported: `input_schema` uses a keyword that a targeted strict mode does not support."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER, with_property
from toolcontract.lint.rules.tc5_portability.messages import names
from toolcontract.lint.rules.tc5_portability.strict import STRICT
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema, inside
from toolcontract.core.model import Severity


# keywords strict mode refuses (error), and keywords outside a surface's documented subset (warning)
_STRICT_REFUSED = {
    "openai-strict": frozenset((
        "allOf", "not", "oneOf", "dependentRequired", "dependentSchemas", "dependencies", "if", "then", "else",
    )),
    "anthropic-strict": frozenset((
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
        "maxItems", "oneOf", "not",
    )),
}

_STRICT_UNDOCUMENTED = {
    "openai-strict": frozenset(),
    "anthropic-strict": frozenset((
        "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies", "patternProperties",
        "propertyNames", "unevaluatedProperties", "unevaluatedItems", "uniqueItems", "contains", "minContains",
        "maxContains", "minProperties", "maxProperties", "prefixItems", "$dynamicRef",
    )),
}

_STRICT_ANY = frozenset().union(*_STRICT_REFUSED.values(), *_STRICT_UNDOCUMENTED.values())


RULE = Rule(
    id="TC506",
    name="strict-keyword-unsupported",
    severity=Severity.ERROR,
    summary="`input_schema` uses a keyword that a targeted strict mode does not support.",
    rationale=(
        "Strict mode compiles the schema into a grammar and refuses keywords it cannot compile. OpenAI's "
        "strict mode refuses `allOf`, `not`, `dependentRequired`, `dependentSchemas` and `if`/`then`/`else`, "
        "and supports only `anyOf` among the combinators, so `oneOf` is out too (OA-SO). Anthropic's strict "
        "mode refuses numeric bounds (`minimum`, `maximum`, `exclusive*`, `multipleOf`), `minLength`/"
        "`maxLength`, `maxItems`, `oneOf` and `not`, and `$ref` inside `allOf` (AN-SO; its SDK rewrites "
        "`oneOf` to `anyOf` and moves the rest into the description, AN-SDK). Keywords outside Anthropic's "
        "documented subset (`if`, `patternProperties`, `uniqueItems`, ...) are warnings: not documented "
        "either way. Move such constraints into the description and check them in the tool."
    ),
    examples=(
        Bad(with_property("days: {type: integer, minimum: 1, maximum: 7, description: Days ahead.}", "[city, days]"),
            line=8, column=27, message="`minimum` is not supported by anthropic-strict",
            note="anthropic-strict: numeric bounds"),
        Bad(with_property("day: {oneOf: [{type: string, format: date}, {type: 'null'}], description: Day.}",
                           "[city, day]"),
            line=8, column=11, message="`oneOf` is not supported by openai-strict, anthropic-strict",
            note="both: oneOf"),
        Bad(WEATHER.replace("  additionalProperties", "  if: {required: [city]}\n  then: {required: [city]}\n"
                             "  additionalProperties"),
            line=9, column=3, message="`if` is not supported by openai-strict", note="openai-strict: if/then"),
        Good(WEATHER),
    ),
    surfaces=STRICT,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    refused = {s: _STRICT_REFUSED[s] for s in surfaces}
    loose = {s: _STRICT_UNDOCUMENTED[s] for s in surfaces}
    w = context(tool).walk(schema)
    under = inside(w, frozenset().union(*refused.values(), *loose.values()))
    for index, node in enumerate(w.nodes):
        if under[index]:
            continue  # inside a keyword already reported
        path = ("input_schema", *node.path)
        for keyword in node.schema:
            if keyword not in _STRICT_ANY:
                continue
            hard = [s for s in surfaces if keyword in refused[s]]
            soft = [s for s in surfaces if keyword in loose[s]]
            if hard:
                yield Hit((*path, keyword), f"`{keyword}` is not supported by {names(hard)}: "
                          f"{_strict_fix(keyword)}", anchor="key")
            elif soft:
                yield Hit((*path, keyword), f"`{keyword}` is outside the documented strict subset of "
                          f"{names(soft)} and may be refused: {_strict_fix(keyword)}", anchor="key",
                          severity=Severity.WARNING)
        if "anthropic-strict" in surfaces and node.via == "allOf" and "$ref" in node.schema:
            yield Hit((*path, "$ref"), "`$ref` inside `allOf` is not supported by anthropic-strict: inline "
                      "the referenced schema", anchor="key")


def _strict_fix(keyword: str) -> str:
    if keyword == "oneOf":
        return "use `anyOf`"
    if keyword == "allOf":
        return "merge the branches into one schema"
    if keyword in ("not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies"):
        return "state the rule in the description (or `semantic_rules`) and check it in the tool"
    return "state the constraint in the description and check it in the tool"
