"""Gemini's two schema forms: `parameters` (an OpenAPI Schema subset, GM-SDK), which every input
is converted to, and `parametersJsonSchema` (JSON Schema); what the `parameters` form validates."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.schema import SUBSCHEMA_KEYWORDS
from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import context
from toolcontract.lint.rules.tc5_portability.subschemas import Node, input_schema, inside

# Gemini `parameters` (OpenAPI Schema subset, GM-SDK)
GEMINI_KEYWORDS = frozenset((
    "type", "format", "title", "description", "enum", "items", "minItems", "maxItems", "minLength", "maxLength",
    "pattern", "minimum", "maximum", "properties", "required", "minProperties", "maxProperties",
    "propertyOrdering", "anyOf", "default", "example", "additionalProperties", "nullable", "$defs", "$ref",
))
# the walked keywords outside Gemini's `parameters` subset (TC512 reports them)
GEMINI_REFUSED_WALKED = frozenset(k for k in SUBSCHEMA_KEYWORDS if k not in GEMINI_KEYWORDS)


def gemini_json_form(tool: ToolView) -> bool:
    """Whether the tool came as a Gemini declaration with `parametersJsonSchema` (a JSON
    Schema) rather than `parameters` (the OpenAPI subset every other input is converted to)."""
    raw = tool.raw
    return isinstance(raw, dict) and ("parametersJsonSchema" in raw or "parameters_json_schema" in raw)


def gemini_nodes(tool: ToolView) -> Iterator[Node]:
    """The subschemas Gemini's `parameters` validates as written: not tests under `if`/`not`,
    nor anything under a keyword outside its subset (TC512 reports that keyword). None for a
    declaration sent as `parametersJsonSchema`, which is JSON Schema."""
    schema = input_schema(tool)
    if not schema or gemini_json_form(tool):
        return
    w = context(tool).walk(schema)
    under = inside(w, GEMINI_REFUSED_WALKED)
    for index, node in enumerate(w.nodes):
        if not under[index] and not node.conditional:
            yield node
