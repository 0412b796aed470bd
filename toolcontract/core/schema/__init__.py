"""JSON Schema once: the one table of the keywords that hold subschemas, and one walker.

Pure: no I/O, no state. Every part of the package that needs to know where the subschemas of a
schema are reads it here (the rules' walk in lint/schema_walk.py, the security surfaces, the
portability rules, the provider readers, schema_tools); a walker that needs more than the plain
walk (base URIs, marks) builds on this table and says why where it is.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterator, Mapping

# keywords whose value is one subschema (in this order: walks visit them so)
ONE = (
    "additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    "additionalItems",  # draft 2019 and older, still seen in the wild
)
# keywords whose value is a map of name -> subschema
MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
# keywords whose value is a list of subschemas
LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
# every subschema-bearing keyword
SUBSCHEMA_KEYWORDS = frozenset((*ONE, *MAP, *LIST))
# one-subschema keywords that also take a list (the draft-07 tuple form of `items`)
TUPLE_FORM = frozenset(("items", "additionalItems"))

# How a subschema applies. In-place applicators and conditions apply to the same instance as
# their parent; every other subschema keyword applies to a new one.
IN_PLACE = frozenset(("allOf", "anyOf", "oneOf", "then", "else", "dependentSchemas"))
CONDITIONS = frozenset(("if", "not"))

# keyword -> (form: "one" | "map" | "list", token of the instance location its subschemas apply
# to; None: the same instance). "*": any other property; "[]": any item; "[i]": the item at the
# subschema's index; "~name": a property name; "~content": decoded content; "properties" /
# "patternProperties": the named (or matching) property; "$defs": reached only through a `$ref`.
KEYWORDS: Mapping[str, tuple[str, str | None]] = MappingProxyType({
    "not": ("one", None), "if": ("one", None), "then": ("one", None), "else": ("one", None),
    "additionalProperties": ("one", "*"), "unevaluatedProperties": ("one", "*"),
    "propertyNames": ("one", "~name"), "items": ("one", "[]"), "additionalItems": ("one", "[]"),
    "unevaluatedItems": ("one", "[]"), "contains": ("one", "[]"), "contentSchema": ("one", "~content"),
    "properties": ("map", "properties"), "patternProperties": ("map", "patternProperties"),
    "dependentSchemas": ("map", None), "$defs": ("map", "$defs"), "definitions": ("map", "$defs"),
    "allOf": ("list", None), "anyOf": ("list", None), "oneOf": ("list", None), "prefixItems": ("list", "[i]"),
})
assert set(KEYWORDS) == SUBSCHEMA_KEYWORDS

MAX_DEPTH = 200  # the loader's nesting limit: nothing deeper is walked


def subschemas(schema: dict) -> Iterator[tuple[tuple, Any]]:
    """The direct subschemas of a schema (whatever their type), as (path below it, value), the
    one-subschema keywords first, then the maps, then the lists, each in table order."""
    for keyword in ONE:
        sub = schema.get(keyword)
        if isinstance(sub, dict):
            yield (keyword,), sub
        elif keyword in TUPLE_FORM and isinstance(sub, list):
            for index, item in enumerate(sub):
                yield (keyword, index), item
    for keyword in MAP:
        subs = schema.get(keyword)
        if isinstance(subs, dict):
            for name, sub in subs.items():
                yield (keyword, name), sub
    for keyword in LIST:
        subs = schema.get(keyword)
        if isinstance(subs, list):
            for index, sub in enumerate(subs):
                yield (keyword, index), sub


def instance_step(keyword: str, name: Any, location: tuple, path: tuple) -> tuple:
    """The instance location a subschema under `keyword` applies to, given its parent's: `name`
    is its key or index in a map or list (None for a single subschema), `path` its own schema path."""
    token = KEYWORDS[keyword][1]
    if token is None:
        return location
    if token == "$defs":
        return ("def", *path)  # reached only through a $ref: a location of its own
    if token == "[i]" or (token == "[]" and name is not None):  # prefixItems, draft-07 tuple form
        return (*location, name)
    if name is None:
        return (*location, token)
    return (*location, token, name)


def walk(schema: Any, depth: int = 0) -> Iterator[tuple[dict, tuple, tuple]]:
    """Every subschema that is a mapping, the schema itself first, in pre-order, as (node, schema
    path from the schema's root, instance location: a tuple of steps as instance_step makes them).

    A `$ref` is not followed, so a cyclic `$ref` cannot loop; bounded by MAX_DEPTH."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return
    stack: list[tuple[dict, tuple, tuple, int]] = [(schema, (), (), depth)]
    while stack:
        node, path, location, level = stack.pop()
        yield node, path, location
        if level >= MAX_DEPTH:
            continue
        children = []
        for below, sub in subschemas(node):
            if isinstance(sub, dict):
                name = below[1] if len(below) > 1 else None
                sub_path = (*path, *below)
                children.append((sub, sub_path, instance_step(below[0], name, location, sub_path), level + 1))
        stack.extend(reversed(children))
