"""The JSON Schema type names, and what other languages and older formats call them."""

from __future__ import annotations


JSON_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))


TYPE_NAMES = {  # what other languages and older formats call the JSON types
    "dict": "object", "map": "object", "hash": "object", "float": "number", "double": "number",
    "decimal": "number", "int": "integer", "long": "integer", "str": "string", "text": "string",
    "list": "array", "tuple": "array", "bool": "boolean", "none": "null",
}
