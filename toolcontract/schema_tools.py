"""JSON Schema 2020-12 helpers for the core: metaschema checks, validators, walking.

Nothing here ever fetches a remote `$ref`: every validator gets a retriever that
refuses, and the metaschema is resolved from jsonschema-rs's bundled copy.
jsonschema-rs does the fast checks; python-jsonschema (slow to import) is loaded
only to explain a schema already known to be invalid, for its `best_match`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Iterator

import jsonschema_rs

META_2020_12 = "https://json-schema.org/draft/2020-12/schema"

# keywords whose value is one subschema / a map of subschemas / a list of subschemas
SCHEMA_KEYWORDS = (
    "additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    "additionalItems",  # draft 2019 and older, still seen in the wild
)
SCHEMA_MAP_KEYWORDS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf", "prefixItems")


class RemoteRefRefused(Exception):
    pass


def _refuse(uri: str) -> Any:
    raise RemoteRefRefused(f"remote reference {uri} is never fetched")


@functools.cache
def _meta_validator() -> jsonschema_rs.Validator:
    return jsonschema_rs.Draft202012Validator({"$ref": META_2020_12}, retriever=_refuse)


def is_valid_schema(schema: Any) -> bool:
    """Whether `schema` is valid against the 2020-12 metaschema (whatever its `$schema` says)."""
    return _meta_validator().is_valid(schema)


@dataclass(frozen=True, slots=True)
class SchemaError:
    path: tuple[str | int, ...]  # into the checked value
    keyword: str
    message: str


def metaschema_errors(schema: Any) -> list[SchemaError]:
    """One error per distinct problem (python-jsonschema's best_match per top-level error)."""
    if is_valid_schema(schema):
        return []
    import jsonschema
    from jsonschema.exceptions import best_match

    validator = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
    seen: set[tuple] = set()
    errors: list[SchemaError] = []
    for error in validator.iter_errors(schema):
        best = best_match([error]) or error
        key = (tuple(best.absolute_path), best.message)
        if key in seen:
            continue
        seen.add(key)
        errors.append(SchemaError(tuple(best.absolute_path), str(best.validator), best.message))
    if not errors:  # the two implementations disagree: still say something true
        errors.append(SchemaError((), "", "the schema is not valid JSON Schema 2020-12"))
    return errors


def compile_validator(schema: Any) -> jsonschema_rs.Validator:
    """A 2020-12 validator for an (already metaschema-valid) schema. Raises ValueError
    when the schema cannot be compiled: a bad regex, an unresolvable or remote `$ref`."""
    try:
        return jsonschema_rs.Draft202012Validator(schema, retriever=_refuse)
    except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError) as exc:
        raise ValueError(str(exc).split("\n", 1)[0]) from None


def instance_errors(validator: jsonschema_rs.Validator, instance: Any) -> list[tuple[tuple, str]]:
    """Every error of an instance, as (path into the instance, message)."""
    return [(tuple(e.instance_path), e.message) for e in validator.iter_errors(instance)]


def walk_schema(schema: Any, path: tuple = (), depth: int = 0) -> Iterator[tuple[tuple, dict]]:
    """Every subschema (objects only) with its path, the schema itself first.

    Bounded by the loader's nesting limit; a `$ref` is not followed.
    """
    if not isinstance(schema, dict) or depth > 200:
        return
    yield path, schema
    for keyword in SCHEMA_KEYWORDS:
        sub = schema.get(keyword)
        if isinstance(sub, dict):
            yield from walk_schema(sub, (*path, keyword), depth + 1)
        elif keyword in ("items", "additionalItems") and isinstance(sub, list):  # draft-07 tuple form
            for index, item in enumerate(sub):
                yield from walk_schema(item, (*path, keyword, index), depth + 1)
    for keyword in SCHEMA_MAP_KEYWORDS:
        subs = schema.get(keyword)
        if isinstance(subs, dict):
            for name, sub in subs.items():
                yield from walk_schema(sub, (*path, keyword, name), depth + 1)
    for keyword in SCHEMA_LIST_KEYWORDS:
        subs = schema.get(keyword)
        if isinstance(subs, list):
            for index, sub in enumerate(subs):
                yield from walk_schema(sub, (*path, keyword, index), depth + 1)


def types_of(schema: dict) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return set()


def is_object_schema(schema: dict) -> bool:
    """A schema that describes objects: `type: object`, or object keywords without a type."""
    kinds = types_of(schema)
    if kinds:
        return "object" in kinds
    return any(k in schema for k in ("properties", "patternProperties", "required", "additionalProperties"))
