"""JSON Schema 2020-12 helpers for the core: metaschema checks, validators, walking.

Nothing here ever fetches a remote `$ref`: every validator gets a retriever that
refuses, and the metaschema is resolved from jsonschema-rs's bundled copy.
jsonschema-rs does the checks and explains a schema already known to be invalid
(python-jsonschema's `best_match` is reproduced for the metaschema's `anyOf`s).
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
    instance: Any = None  # the offending value


def metaschema_errors(schema: Any) -> list[SchemaError]:
    """One error per distinct problem: for an `anyOf`/`oneOf` of the metaschema, the error of
    the one branch the value was plausibly meant for (as python-jsonschema's best_match), else
    the `anyOf` itself. jsonschema-rs explains in microseconds what python-jsonschema takes
    milliseconds for, which matters for corpora where most schemas are invalid."""
    if is_valid_schema(schema):
        return []
    seen: set[tuple] = set()
    errors: list[SchemaError] = []
    for error in _meta_validator().iter_errors(schema):
        for best in _explain(error, 0):
            key = (best.path, best.message)
            if key not in seen:  # the 2020-12 metaschema reaches some keywords by several routes
                seen.add(key)
                errors.append(best)
    if not errors:  # cannot happen unless the validator changes: still say something true
        errors.append(SchemaError((), "", "the schema is not valid JSON Schema 2020-12"))
    return errors


_BRANCHING = frozenset(("AnyOf", "OneOfNotValid"))


def _explain(error: jsonschema_rs.ValidationError, depth: int) -> list[SchemaError]:
    path = tuple(error.instance_path)
    kind = type(error.kind).__name__.rsplit("_", 1)[-1]
    context = getattr(error.kind, "context", None) if kind in _BRANCHING else None
    if context and depth < 20:
        # a branch that fails only because the value has another type was not the one meant
        plausible = [b for b in context if b and not all(_type_miss(e, path) for e in b)]
        if len(plausible) > 1:
            deepest = max(len(e.instance_path) for b in plausible for e in b)
            deeper = [b for b in plausible if any(len(e.instance_path) == deepest for e in b)]
            if deepest > len(path) and len(deeper) == 1:
                plausible = deeper
        if len(plausible) == 1:
            return [x for e in plausible[0] for x in _explain(e, depth + 1)]
    keyword = str(error.schema_path[-1]) if len(error.schema_path) else ""
    return [SchemaError(path, keyword, error.message, getattr(error, "instance", None))]


def _type_miss(error: jsonschema_rs.ValidationError, path: tuple) -> bool:
    return type(error.kind).__name__.rsplit("_", 1)[-1] == "Type" and tuple(error.instance_path) == path


def compile_validator(schema: Any) -> jsonschema_rs.Validator:
    """A 2020-12 validator for an (already metaschema-valid) schema. Raises ValueError
    when the schema cannot be compiled: a bad regex, an unresolvable or remote `$ref`."""
    # `pattern`s come from untrusted schemas: the `regex` crate matches in linear time. It has
    # no lookaround or backreferences; a schema that uses them gets the backtracking engine
    # with a small step budget (a match over budget fails validation, it never hangs).
    try:
        return jsonschema_rs.Draft202012Validator(schema, retriever=_refuse, pattern_options=_LINEAR)
    except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
        pass
    try:
        return jsonschema_rs.Draft202012Validator(schema, retriever=_refuse, pattern_options=_BOUNDED)
    except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError) as exc:
        raise ValueError(str(exc).split("\n", 1)[0]) from None


_LINEAR = jsonschema_rs.RegexOptions()
_BOUNDED = jsonschema_rs.FancyRegexOptions(backtrack_limit=10_000)


def instance_errors(validator: jsonschema_rs.Validator, instance: Any) -> list[tuple[tuple, str]]:
    """Every error of an instance, as (path into the instance, message)."""
    if validator.is_valid(instance):  # the common case, without building error objects
        return []
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


@functools.lru_cache(maxsize=4096)
def _pattern_validator(pattern: str) -> jsonschema_rs.Validator | None:
    try:
        return compile_validator({"type": "string", "pattern": pattern})
    except ValueError:
        return None


def pattern_matches(pattern: str, text: str) -> bool | None:
    """Whether an ECMA-262 `pattern` finds a match in `text` (unanchored, as JSON Schema reads
    it), in linear time for any pattern the `regex` crate reads; None when it cannot tell (the
    pattern does not compile, or a lookaround/backreference pattern runs over its budget)."""
    validator = _pattern_validator(pattern)
    if validator is None:
        return None
    if validator.is_valid(text):
        return True
    for error in validator.iter_errors(text):
        if error.message.startswith("Error executing regex"):
            return None
    return False
