"""TC406 example-invalid: An entry of `examples` does not validate against `input_schema`."""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.schema_walk import Walk
from toolcontract.core.model import Severity
from toolcontract.core.schema.validation import accepts, compile_validator, explain_errors, linear_pattern
from toolcontract.core.pointer import join_pointer


_FORECAST = """\
toolcontract: 1
name: weather_forecast
effect: read
input_schema:
  type: object
  properties:
    city: {type: string, description: City name such as Lisbon.}
    days: {type: integer, minimum: 1, maximum: 7, description: Number of days to forecast.}
  required: [city]
  additionalProperties: false
examples:
  - {city: Lisbon, days: 3}
"""


RULE = Rule(
    id="TC406",
    name="example-invalid",
    severity=Severity.ERROR,
    summary="An entry of `examples` does not validate against `input_schema`.",
    rationale=(
        "A model imitates examples closely and people copy them, so an invalid example teaches calls the "
        "schema then refuses; Anthropic rejects a request (400) whose `input_examples` do not validate. An "
        "example that fails is also the quickest sign that the schema says less, or more, than the author "
        "meant. Checked only when `input_schema` is valid and compiles; every error is reported with its place."
    ),
    examples=(
        Bad(_FORECAST + "  - {city: Lisbon, days: 10}\n", line=13, column=5, message="is greater than the maximum"),
        Bad(_FORECAST + "  - {days: 2}\n",
            line=13, column=5, message="is a required property", note="a required property is missing"),
        Good(_FORECAST),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    examples, schema = tool.get("examples"), tool.get("input_schema")
    if not isinstance(examples, list) or not examples or not isinstance(schema, (dict, bool)):
        return
    if ctx.meta_errors(schema):
        return  # TC401
    if _examples_accepted(ctx, schema, examples):
        return  # every example is certainly valid: no need to compile the schema
    try:
        validator = compile_validator(schema)
    except ValueError:
        return  # a remote or dangling $ref, a bad pattern: TC407, TC408, TC410
    for i, example in enumerate(examples):
        if not isinstance(example, dict):
            continue  # TC002
        try:
            errors = explain_errors(validator, example)  # bounded: at most 20, never quadratic
        except (ValueError, TypeError, OverflowError):
            continue  # a value JSON cannot hold
        for n, (at, message) in enumerate(errors, 1):
            where = join_pointer("", *at) or "the root"
            note = f" ({errors.note})" if errors.note and n == len(errors) else ""
            yield Hit(("examples", i), f"example {i + 1} fails input_schema at {where}: {message}{note}")


def _examples_accepted(ctx: ToolContext, schema: Any, examples: list) -> bool:
    """Whether schema_tools.accepts vouches for every example (`schema` is metaschema-valid)."""
    if isinstance(schema, dict):
        w = ctx.walk(schema)
        if w._patterns_linear is None:
            w._patterns_linear = _patterns_linear(w, schema)
        if not w._patterns_linear:
            return False
    try:
        return all(accepts(schema, example) for example in examples if isinstance(example, dict))
    except RecursionError:
        return False


def _patterns_linear(w: Walk, schema: dict) -> bool:
    """What accepts() asks of a schema: no `$ref` (nothing outside the walk's nodes is compiled),
    and every `pattern` and `patternProperties` key compiles with the linear-time engine (so
    compile_validator would compile the whole schema with it, the engine `accepts` matches with).

    The walk's marks find them in every subschema under a keyword it knows; a keyword it does not
    know (`dependencies`, which jsonschema-rs compiles, or any other) whose value is a mapping or a
    list sends the question to _linear_everywhere, which looks at every key at any depth."""
    marks = w.marks
    if w.truncated or "$ref" in marks or "$dynamicRef" in marks:
        return False
    nodes = w.nodes
    if w.foreign:
        return _linear_everywhere(schema, 0)
    for i in marks.get("pattern", ()):
        pattern = nodes[i].schema["pattern"]
        if isinstance(pattern, str) and linear_pattern(pattern) is None:
            return False
    for i in marks.get("patternProperties", ()):
        keys = nodes[i].schema["patternProperties"]
        if isinstance(keys, dict) and any(isinstance(k, str) and linear_pattern(k) is None for k in keys):
            return False
    return True


def _linear_everywhere(value: Any, depth: int) -> bool:
    """No `$ref` anywhere in `value`, and every `pattern` and `patternProperties` key in it
    compiles with the linear-time engine: then compile_validator would compile the schema with
    that engine, the one `accepts` matches patterns with. Every key at any depth counts, not only
    those the walk knows as keywords: whatever a validator might compile is covered."""
    if depth > 200:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "pattern":
                if isinstance(item, str) and linear_pattern(item) is None:
                    return False
            elif key == "patternProperties":
                if isinstance(item, dict) and any(isinstance(k, str) and linear_pattern(k) is None for k in item):
                    return False
            elif key == "$ref" or key == "$dynamicRef":
                return False
            if isinstance(item, (dict, list)) and not _linear_everywhere(item, depth + 1):
                return False
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)) and not _linear_everywhere(item, depth + 1):
                return False
    return True
