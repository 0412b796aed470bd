"""TC410 pattern-invalid: A `pattern` or `patternProperties` key is not a valid regular expression."""

from __future__ import annotations

import functools
import re
from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC410",
    name="pattern-invalid",
    severity=Severity.ERROR,
    summary="A `pattern` or `patternProperties` key is not a valid regular expression.",
    rationale=(
        "A broken regular expression makes the schema uncompilable (the metaschema says `format: regex`, "
        "and checkers such as python-jsonschema's `check_schema` assert it), so a client either rejects the "
        "tool or accepts any string. JSON Schema patterns are ECMA-262 (JavaScript) expressions: "
        "`(?<name>...)` and `\\p{L}` are fine although Python's `re` rejects them; an unclosed group is not."
    ),
    examples=(
        Bad(WEATHER.replace("City name such as Lisbon.}", "City name.}\n    country: {type: string, "
                             "pattern: '^([A-Z]{2}$', description: ISO 3166 code.}"),
            line=8, column=38, message="is not a valid regular expression"),
        Good(WEATHER.replace("City name such as Lisbon.}", "City name.}\n    country: {type: string, "
                              "pattern: '^(?<code>[A-Z]{2})$', description: ISO 3166 code.}")),
        Good(WEATHER.replace("{type: string, description", "{type: string, pattern: '^\\p{L}+$', description")),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    for path, schema, w in ctx.field_walks():
        if "pattern" not in w.marks and "patternProperties" not in w.marks:
            continue
        for node in w.having("pattern", "patternProperties"):
            pattern = node.schema.get("pattern")
            if isinstance(pattern, str):
                problem = regex_problem(pattern)
                if problem:
                    yield Hit((*path, *node.path, "pattern"), f"pattern {quoted(pattern)} is not a valid regular "
                              f"expression: {problem}")
            patterns = node.schema.get("patternProperties")
            if isinstance(patterns, dict):
                for key in patterns:
                    problem = regex_problem(key) if isinstance(key, str) else None
                    if problem:
                        yield Hit((*path, *node.path, "patternProperties", key), f"patternProperties key {quoted(key)} "
                                  f"is not a valid regular expression: {problem}", anchor="key")


@functools.lru_cache(maxsize=4096)
def regex_problem(pattern: str) -> str | None:
    """Why `pattern` is not an ECMA-262 regular expression as validators read it, or None."""
    from toolcontract.core.schema.validation import jsonschema_rs

    try:
        jsonschema_rs.validator_for({"pattern": pattern})
    except jsonschema_rs.ValidationError:
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError) as exc:
            return str(exc)
        return "not valid in ECMA-262 syntax"
    return None
