"""Provider limits, in one place: what the TC5xx portability rules check and what `convert`
asks before it marks a tool strict. Sources: ../shared/reference/tool-surfaces.md (source keys
OA-SO: OpenAI structured outputs, AN-SO: Anthropic strict tools, GM-SDK: Gemini's SDK)."""

from __future__ import annotations

from types import MappingProxyType

# OpenAI strict mode (OA-SO)
OPENAI_MAX_DEPTH = 10  # levels of nesting
OPENAI_MAX_PROPERTIES = 5000  # object properties in one schema, all objects together
OPENAI_MAX_ENUM_VALUES = 1000  # enum values in one schema, all enums together
OPENAI_MAX_STRING_BUDGET = 120_000  # characters of property names, definition names, enum and const values
OPENAI_LARGE_ENUM = 250  # an enum above this many values ...
OPENAI_LARGE_ENUM_CHARS = 15_000  # ... may hold at most this many characters of string values
# the keywords, types and formats strict mode documents (convert's conservative allow-list)
OPENAI_STRICT_KEYWORDS = frozenset((
    "type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "$defs", "definitions",
    "$ref", "description", "title", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
))
STRICT_TYPES = frozenset(("string", "number", "integer", "boolean", "object", "array", "null"))

# Anthropic strict tools (AN-SO), across every strict schema of one request
ANTHROPIC_MAX_OPTIONAL = 24  # optional parameters
ANTHROPIC_MAX_UNIONS = 16  # type unions (anyOf, type lists)

# the string formats each strict surface supports
STRICT_FORMATS = MappingProxyType({
    "openai-strict": frozenset(("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")),
    "anthropic-strict": frozenset((
        "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid",
    )),
})

# Hard limits on one request's tools: OpenAI's `tools` array (400 array_above_max_length, observed
# through GPT-5.1), Gemini's function declarations (GM-SDK), Anthropic's strict tools (AN-SO)
OPENAI_MAX_TOOLS = 128
GEMINI_MAX_DECLARATIONS = 512
ANTHROPIC_MAX_STRICT_TOOLS = 20

# OpenAI's limit on a function description (characters)
OPENAI_MAX_DESCRIPTION = 1024
