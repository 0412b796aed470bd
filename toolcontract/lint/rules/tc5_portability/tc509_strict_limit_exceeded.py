"""TC509 strict-limit-exceeded: `input_schema` exceeds a size or nesting limit of a targeted strict mode."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.limits import (
    ANTHROPIC_MAX_OPTIONAL,
    ANTHROPIC_MAX_UNIONS,
    OPENAI_LARGE_ENUM,
    OPENAI_LARGE_ENUM_CHARS,
    OPENAI_MAX_DEPTH,
    OPENAI_MAX_ENUM_VALUES,
    OPENAI_MAX_PROPERTIES,
    OPENAI_MAX_STRING_BUDGET,
)
from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER, with_property
from toolcontract.lint.rules.tc5_portability.strict import STRICT, anthropic_strict_counts
from toolcontract.lint.rules.tc5_portability.subschemas import Walk, input_schema, spans
from toolcontract.core.model import Severity


def _nested(levels: int) -> str:
    text = "{type: string}"
    for level in range(levels, 0, -1):
        text = f"{{type: object, properties: {{l{level}: {text}}}}}"
    return text


RULE = Rule(
    id="TC509",
    name="strict-limit-exceeded",
    severity=Severity.ERROR,
    summary="`input_schema` exceeds a size or nesting limit of a targeted strict mode.",
    rationale=(
        "Strict mode caps what it compiles. OpenAI's: at most 10 levels of nesting, 5000 object properties, "
        "1000 enum values, 120,000 characters of property names, definition names, enum and const values, "
        "and 15,000 characters for one string enum of more than 250 values (OA-SO). Anthropic's: at most 24 "
        "optional properties and 16 union parameters (`anyOf` or a type list) across all strict tools of a "
        "request (AN-SO), so one tool over the limit is refused whatever else is sent. Depth counts every "
        "subschema step from the root, as OpenAI's SDK validator does; `$ref`s are not followed."
    ),
    examples=(
        Bad(with_property(f"deep: {_nested(10)}", "[city, deep]"),
            line=8, column=327, message="nested 11 levels deep", note="openai-strict: 11 levels"),
        Bad(WEATHER.replace("  required: [city]\n", "".join(
            f"    note{i}: {{type: string, description: Note {i}.}}\n" for i in range(25)) + "  required: [city]\n"),
            line=4, column=1, message="input_schema has 25 optional properties",
            note="anthropic-strict: 25 optional properties"),
        Good(WEATHER),
    ),
    surfaces=STRICT,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    w = context(tool).walk(schema)
    if "openai-strict" in surfaces:
        yield from _openai_limits(w)
    if "anthropic-strict" in surfaces:
        yield from _anthropic_limits(w)


def _openai_limits(w: Walk) -> Iterator[Hit]:
    depth, _ = spans(w)
    deepest = max(range(len(w.nodes)), key=lambda i: depth[i])
    if depth[deepest] > OPENAI_MAX_DEPTH:
        first = next(i for i in range(len(w.nodes)) if depth[i] > OPENAI_MAX_DEPTH)
        reach = f" (input_schema reaches {depth[deepest]})" if depth[deepest] > depth[first] else ""
        yield Hit(("input_schema", *w.nodes[first].path), f"this subschema is nested {depth[first]} levels "
                  f"deep{reach}: openai-strict allows {OPENAI_MAX_DEPTH}")
    properties = enum_values = budget = 0
    for node in w.nodes:
        s = node.schema
        props = s.get("properties")
        if isinstance(props, dict):
            properties += len(props)
            budget += sum(len(k) for k in props if isinstance(k, str))
        for key in ("$defs", "definitions"):
            defs = s.get(key)
            if isinstance(defs, dict):
                budget += sum(len(k) for k in defs if isinstance(k, str))
        const = s.get("const")
        if isinstance(const, str):
            budget += len(const)
        values = s.get("enum")
        if isinstance(values, list):
            enum_values += len(values)
            chars = sum(len(v) for v in values if isinstance(v, str))
            budget += chars
            if len(values) > OPENAI_LARGE_ENUM and chars > OPENAI_LARGE_ENUM_CHARS:
                yield Hit(("input_schema", *node.path, "enum"), f"this enum has {len(values)} values of "
                          f"{chars} characters in all: openai-strict allows {OPENAI_LARGE_ENUM_CHARS} "
                          f"characters for an enum of more than {OPENAI_LARGE_ENUM} values", anchor="key")
    for count, limit, what in ((properties, OPENAI_MAX_PROPERTIES, "object properties"),
                               (enum_values, OPENAI_MAX_ENUM_VALUES, "enum values"),
                               (budget, OPENAI_MAX_STRING_BUDGET, "characters of property names, definition "
                                "names, enum and const values")):
        if count > limit:
            yield Hit(("input_schema",), f"input_schema has {count} {what}: openai-strict allows {limit}",
                      anchor="key")


def _anthropic_limits(w: Walk) -> Iterator[Hit]:
    optional, unions = anthropic_strict_counts(w)
    for count, limit, what in ((optional, ANTHROPIC_MAX_OPTIONAL, "optional properties"),
                               (unions, ANTHROPIC_MAX_UNIONS, "union parameters (anyOf or a type list)")):
        if count > limit:
            yield Hit(("input_schema",), f"input_schema has {count} {what}: anthropic-strict allows {limit} "
                      "across all strict tools of a request", anchor="key")
