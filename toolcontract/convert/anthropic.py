"""The Anthropic writer: a Messages API tool, with the input examples the API accepts."""

from __future__ import annotations

from typing import Any, Callable

from toolcontract.convert.tool import ToolWriter, name_and_description

def write(tool: ToolWriter) -> dict[str, Any]:
    out = name_and_description(tool)
    schema = tool.input_schema(required=True, no_root_combinators=True)
    out["input_schema"] = schema
    if tool.has("examples"):
        examples = tool.take("examples")
        if not isinstance(examples, list):
            tool.warn("examples", "not a list; not written")
        else:
            kept = valid_examples(tool, examples, schema)
            if kept:
                out["input_examples"] = kept
    return out


def valid_examples(tool: ToolWriter, examples: list, schema: Any) -> list:
    """The examples Anthropic accepts: objects valid against the input schema."""
    from toolcontract.core.schema.validation import compile_validator, is_valid_schema

    check: Callable[[Any], bool] | None = None
    if isinstance(schema, (dict, bool)) and is_valid_schema(schema):
        try:
            check = compile_validator(schema).is_valid
        except ValueError:
            check = None
    kept = []
    for index, example in enumerate(examples):
        if not isinstance(example, dict):
            tool.warn(f"examples.{index}", "not an object; not written")
            continue
        if check is None:
            tool.warn(f"examples.{index}", "the input schema cannot be compiled, so the example cannot be "
                      "checked; Anthropic rejects an invalid one; not written")
            continue
        try:
            valid = check(example)
        except (ValueError, TypeError, OverflowError):
            valid = False
        if not valid:
            tool.warn(f"examples.{index}", "does not validate against input_schema, and Anthropic rejects a "
                      "request with such an example; not written")
            continue
        kept.append(example)
    return kept
