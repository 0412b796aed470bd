"""The OpenAI writers: Chat Completions and Responses function tools, `strict` from the schema."""

from __future__ import annotations

from typing import Any

from toolcontract.convert.tool import ToolWriter, name_and_description
from toolcontract.core import limits

_STRICT_KEYWORDS = limits.OPENAI_STRICT_KEYWORDS


_STRICT_TYPES = limits.STRICT_TYPES


_STRICT_FORMATS = limits.STRICT_FORMATS["openai-strict"]


def openai_strict_compatible(schema: Any) -> bool:
    """Whether a schema meets OpenAI's strict-mode rules, judged conservatively: a root
    object; every object closed (`additionalProperties: false`) with every property
    required; only the documented keywords, types and formats; local `$ref`s; at most
    10 levels of nesting, 5,000 properties and 1,000 enum values. Any doubt is False."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or "anyOf" in schema:
        return False
    budget = {"properties": limits.OPENAI_MAX_PROPERTIES, "enum": limits.OPENAI_MAX_ENUM_VALUES}

    # not core.schema.walk: the walk stops at the first doubt, and a subschema strict mode does
    # not allow (under `not`, `oneOf`, ...) is refused by the keyword allow-list before it is reached
    def ok(node: Any, depth: int) -> bool:
        if not isinstance(node, dict) or depth > limits.OPENAI_MAX_DEPTH or not set(node) <= _STRICT_KEYWORDS:
            return False
        kinds = node.get("type")
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if kinds is not None and not (isinstance(kinds, list) and kinds and set(kinds) <= _STRICT_TYPES
                                      and all(isinstance(k, str) for k in kinds)):
            return False
        if "format" in node and node["format"] not in _STRICT_FORMATS:
            return False
        ref = node.get("$ref")
        if ref is not None and not (isinstance(ref, str) and ref.startswith("#")):
            return False
        if "enum" in node:
            if not isinstance(node["enum"], list):
                return False
            budget["enum"] -= len(node["enum"])
        properties = node.get("properties")
        is_object = (kinds is not None and "object" in kinds) or properties is not None
        if is_object:
            if properties is None:
                properties = {}
            if not isinstance(properties, dict) or node.get("additionalProperties") is not False:
                return False
            required = node.get("required", [])
            if not isinstance(required, list) or set(required) != set(properties) or len(required) != len(properties):
                return False
            budget["properties"] -= len(properties)
            if not all(ok(sub, depth + 1) for sub in properties.values()):
                return False
        elif "additionalProperties" in node or "required" in node:
            return False
        if "items" in node and not ok(node["items"], depth + 1):
            return False
        if "anyOf" in node and not (isinstance(node["anyOf"], list) and all(ok(s, depth + 1) for s in node["anyOf"])):
            return False
        for keyword in ("$defs", "definitions"):
            if keyword in node:
                defs = node[keyword]
                if not isinstance(defs, dict) or not all(ok(s, depth + 1) for s in defs.values()):
                    return False
        return budget["properties"] >= 0 and budget["enum"] >= 0

    try:
        return ok(schema, 1)
    except (TypeError, RecursionError):  # unhashable values in `required` and the like
        return False


def _openai_function(tool: ToolWriter) -> tuple[dict[str, Any], bool]:
    out = name_and_description(tool)
    required = tool.target == "openai-responses"  # Responses requires `parameters` (null allowed)
    schema = tool.input_schema(required=required, no_root_combinators=True)
    if schema is not None:
        out["parameters"] = schema
    return out, openai_strict_compatible(schema)


def write_chat(tool: ToolWriter) -> dict[str, Any]:
    function, strict = _openai_function(tool)
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def write_responses(tool: ToolWriter) -> dict[str, Any]:
    function, strict = _openai_function(tool)
    out = {"type": "function", **function, "strict": strict}
    output = tool.output_schema()
    if output is not None:
        out["output_schema"] = output
    return out
