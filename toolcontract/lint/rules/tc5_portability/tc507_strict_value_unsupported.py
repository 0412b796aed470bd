"""TC507 strict-value-unsupported: A `format`, `pattern`, `minItems` or `enum` value is outside a targeted strict mode's subset."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.limits import STRICT_FORMATS
from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER, with_property
from toolcontract.lint.rules.tc5_portability.messages import names, quoted
from toolcontract.lint.rules.tc5_portability.strict import STRICT
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC507",
    name="strict-value-unsupported",
    severity=Severity.ERROR,
    summary="A `format`, `pattern`, `minItems` or `enum` value is outside a targeted strict mode's subset.",
    rationale=(
        "Strict mode accepts some keywords only with some values. OpenAI's supports the formats date-time, "
        "time, date, duration, email, hostname, ipv4, ipv6 and uuid (OA-SO); Anthropic's the same plus uri, "
        "a `pattern` without backreferences, lookarounds or `\\b`, `minItems` of 0 or 1 only, and `enum` "
        "values that are primitives (AN-SO, AN-SDK). Any other value is refused with a 400. Put the "
        "constraint into the description and check it in the tool."
    ),
    examples=(
        Bad(with_property("source: {type: string, format: uri, description: Data source URL.}", "[city, source]"),
            line=8, column=36, message="format 'uri' is not supported by openai-strict",
            note="openai-strict: no uri format"),
        Bad(WEATHER.replace("{type: string, description", "{type: string, pattern: '\\bLisbon', description"),
            line=7, column=35, message="uses a word boundary", note="anthropic-strict: word boundary"),
        Bad(with_property("days: {type: array, items: {type: string, format: date}, minItems: 2, description: "
                           "Days.}", "[city, days]"),
            line=8, column=72, message="minItems 2 is not supported by anthropic-strict",
            note="anthropic-strict: minItems 2"),
        Good(with_property("day: {type: string, format: date, description: Day of the report.}", "[city, day]")),
        Good(WEATHER.replace("{type: string, description", "{type: string, pattern: '^[A-Z][a-z]+$', description")),
    ),
    surfaces=STRICT,
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    anthropic = "anthropic-strict" in surfaces
    for node in context(tool).walk(schema).nodes:
        s, path = node.schema, ("input_schema", *node.path)
        fmt = s.get("format")
        if isinstance(fmt, str):
            refusing = [x for x in surfaces if fmt not in STRICT_FORMATS[x]]
            if refusing:
                yield Hit((*path, "format"), f"format {quoted(fmt)} is not supported by {names(refusing)} "
                          f"(supported: {', '.join(sorted(STRICT_FORMATS[refusing[0]]))})")
        if not anthropic:
            continue
        pattern = s.get("pattern")
        if isinstance(pattern, str):
            feature = pattern_feature(pattern)
            if feature:
                yield Hit((*path, "pattern"), f"pattern {quoted(pattern)} uses {feature}, which anthropic-strict "
                          "cannot compile")
        least = s.get("minItems")
        if isinstance(least, int) and not isinstance(least, bool) and least > 1:
            yield Hit((*path, "minItems"), f"minItems {least} is not supported by anthropic-strict (only 0 or 1)")
        values = s.get("enum")
        if isinstance(values, list):
            for i, value in enumerate(values):
                if isinstance(value, (dict, list)):
                    yield Hit((*path, "enum", i), f"enum value {i + 1} is an {'object' if isinstance(value, dict) else 'array'}"
                              "; anthropic-strict accepts only strings, numbers, booleans and null")
                    break


def pattern_feature(pattern: str) -> str | None:
    """The first regex feature Anthropic's strict mode cannot compile: a backreference, a
    lookaround or a word boundary (outside a character class, where `\\b` is a backspace)."""
    i, in_class, n = 0, False, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if not in_class:
                if nxt in "bB":
                    return f"a word boundary (\\{nxt})"
                if nxt in "123456789":
                    return f"a backreference (\\{nxt})"
                if nxt == "k" and pattern.startswith("<", i + 2):
                    return "a named backreference (\\k<...>)"
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern.startswith("^", i + 1):
                i += 1
            if pattern.startswith("]", i + 1):  # a leading ] is literal
                i += 1
        elif c == "(" and pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
            return "a lookaround"
        i += 1
    return None
