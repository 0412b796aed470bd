"""JSON Schema 2020-12 helpers for the core: metaschema checks, validators, walking.

Nothing here ever fetches a remote `$ref`: every validator gets a retriever that
refuses, and the metaschema is resolved from jsonschema-rs's bundled copy.
jsonschema-rs does the checks and explains a schema already known to be invalid
(python-jsonschema's `best_match` is reproduced for the metaschema's `anyOf`s).
"""

from __future__ import annotations

import functools
from typing import Any

from toolcontract.core.schema import rs_import
from toolcontract.core.records import Record

jsonschema_rs = rs_import.load()

META_2020_12 = "https://json-schema.org/draft/2020-12/schema"



class RemoteRefRefused(Exception):
    pass


def _refuse(uri: str) -> Any:
    raise RemoteRefRefused(f"remote reference {uri} is never fetched")


@functools.cache
def _meta_validator() -> jsonschema_rs.Validator:
    return jsonschema_rs.Draft202012Validator({"$ref": META_2020_12}, retriever=_refuse)


def is_valid_schema(schema: Any) -> bool:
    """Whether `schema` is valid against the 2020-12 metaschema (whatever its `$schema` says)."""
    try:
        if _flat_meta_validator().is_valid(schema):
            return True
    except Exception:  # whatever it is, the original metaschema's answer (or exception) is the one given
        pass
    try:
        return _meta_validator().is_valid(schema)
    except UnicodeEncodeError:  # a lone surrogate (JSON lets `"\ud800"` through): see metaschema_errors
        return False


# The 2020-12 metaschema with its seven vocabulary metaschemas merged into one document, which
# jsonschema-rs checks a schema against four to five times faster than the original (whose
# `allOf` of seven documents and `$dynamicRef`s it evaluates for every subschema). It is the same
# test, by the specification: an `allOf` of schemas whose `properties` name different keywords is
# one `properties` naming them all; every `$dynamicRef: "#meta"` resolves to the outermost schema
# with that dynamic anchor, which is the metaschema itself, so here it is `$ref: "#"`; the `$defs`
# have different names; annotations (`title`, `default`, `$comment`, `deprecated`) are left out.
# tests/test_schema_fast_paths.py rebuilds it from the published documents and checks both agree.
# Only its "valid" is taken: any other answer is the original's (so an invalid schema is
# explained, and anything the original raises is raised, exactly as before).
_SCHEMA = {"$ref": "#"}
_META_FLAT = {
    "type": ["object", "boolean"],
    "properties": {
        # core
        "$id": {"$ref": "#/$defs/uriReferenceString", "pattern": "^[^#]*#?$"},
        "$schema": {"$ref": "#/$defs/uriString"},
        "$ref": {"$ref": "#/$defs/uriReferenceString"},
        "$anchor": {"$ref": "#/$defs/anchorString"},
        "$dynamicRef": {"$ref": "#/$defs/uriReferenceString"},
        "$dynamicAnchor": {"$ref": "#/$defs/anchorString"},
        "$vocabulary": {"type": "object", "propertyNames": {"$ref": "#/$defs/uriString"},
                        "additionalProperties": {"type": "boolean"}},
        "$comment": {"type": "string"},
        "$defs": {"type": "object", "additionalProperties": _SCHEMA},
        # applicator
        "prefixItems": {"$ref": "#/$defs/schemaArray"},
        "items": _SCHEMA,
        "contains": _SCHEMA,
        "additionalProperties": _SCHEMA,
        "properties": {"type": "object", "additionalProperties": _SCHEMA},
        "patternProperties": {"type": "object", "additionalProperties": _SCHEMA, "propertyNames": {"format": "regex"}},
        "dependentSchemas": {"type": "object", "additionalProperties": _SCHEMA},
        "propertyNames": _SCHEMA,
        "if": _SCHEMA,
        "then": _SCHEMA,
        "else": _SCHEMA,
        "allOf": {"$ref": "#/$defs/schemaArray"},
        "anyOf": {"$ref": "#/$defs/schemaArray"},
        "oneOf": {"$ref": "#/$defs/schemaArray"},
        "not": _SCHEMA,
        # unevaluated
        "unevaluatedItems": _SCHEMA,
        "unevaluatedProperties": _SCHEMA,
        # validation
        "type": {"anyOf": [{"$ref": "#/$defs/simpleTypes"}, {"type": "array", "items": {"$ref": "#/$defs/simpleTypes"},
                                                             "minItems": 1, "uniqueItems": True}]},
        "const": True,
        "enum": {"type": "array", "items": True},
        "multipleOf": {"type": "number", "exclusiveMinimum": 0},
        "maximum": {"type": "number"},
        "exclusiveMaximum": {"type": "number"},
        "minimum": {"type": "number"},
        "exclusiveMinimum": {"type": "number"},
        "maxLength": {"$ref": "#/$defs/nonNegativeInteger"},
        "minLength": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
        "pattern": {"type": "string", "format": "regex"},
        "maxItems": {"$ref": "#/$defs/nonNegativeInteger"},
        "minItems": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
        "uniqueItems": {"type": "boolean"},
        "maxContains": {"$ref": "#/$defs/nonNegativeInteger"},
        "minContains": {"$ref": "#/$defs/nonNegativeInteger"},
        "maxProperties": {"$ref": "#/$defs/nonNegativeInteger"},
        "minProperties": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
        "required": {"$ref": "#/$defs/stringArray"},
        "dependentRequired": {"type": "object", "additionalProperties": {"$ref": "#/$defs/stringArray"}},
        # meta-data
        "title": {"type": "string"},
        "description": {"type": "string"},
        "default": True,
        "deprecated": {"type": "boolean"},
        "readOnly": {"type": "boolean"},
        "writeOnly": {"type": "boolean"},
        "examples": {"type": "array", "items": True},
        # format-annotation
        "format": {"type": "string"},
        # content
        "contentEncoding": {"type": "string"},
        "contentMediaType": {"type": "string"},
        "contentSchema": _SCHEMA,
        # the metaschema's own: keywords of earlier drafts
        "definitions": {"type": "object", "additionalProperties": _SCHEMA},
        "dependencies": {"type": "object", "additionalProperties": {"anyOf": [_SCHEMA, {"$ref": "#/$defs/stringArray"}]}},
        "$recursiveAnchor": {"$ref": "#/$defs/anchorString"},
        "$recursiveRef": {"$ref": "#/$defs/uriReferenceString"},
    },
    "$defs": {
        "anchorString": {"type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"},
        "uriString": {"type": "string", "format": "uri"},
        "uriReferenceString": {"type": "string", "format": "uri-reference"},
        "schemaArray": {"type": "array", "minItems": 1, "items": _SCHEMA},
        "nonNegativeInteger": {"type": "integer", "minimum": 0},
        "nonNegativeIntegerDefault0": {"$ref": "#/$defs/nonNegativeInteger"},
        "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
        "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    },
}


@functools.cache
def _flat_meta_validator() -> jsonschema_rs.Validator:
    return jsonschema_rs.Draft202012Validator(_META_FLAT, retriever=_refuse)


class SchemaError(Record):
    """A metaschema error: `path` into the checked value, the failing `keyword`, its message and
    the offending value (`instance`)."""

    __slots__ = ("path", "keyword", "message", "instance")

    def __init__(self, path: tuple[str | int, ...], keyword: str, message: str, instance: Any = None):
        self.path = path
        self.keyword = keyword
        self.message = message
        self.instance = instance


def metaschema_errors(schema: Any) -> list[SchemaError]:
    """One error per distinct problem: for an `anyOf`/`oneOf` of the metaschema, the error of
    the one branch the value was plausibly meant for (as python-jsonschema's best_match), else
    the `anyOf` itself. jsonschema-rs explains in microseconds what python-jsonschema takes
    milliseconds for, which matters for corpora where most schemas are invalid."""
    if is_valid_schema(schema):
        return []
    seen: set[tuple] = set()
    errors: list[SchemaError] = []
    try:
        for error in _meta_validator().iter_errors(schema):
            for best in _explain(error, 0):
                key = (best.path, best.message)
                if key not in seen:  # the 2020-12 metaschema reaches some keywords by several routes
                    seen.add(key)
                    errors.append(best)
    except UnicodeEncodeError:
        return [SchemaError((), "", "a string in the schema holds a lone surrogate (half of a UTF-16 pair, such as "
                            "\"\\ud800\"): it is not valid Unicode, so no validator can read the schema")]
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


# Explaining errors is bounded: jsonschema-rs copies the failing instance into every error it
# reports, so an object-level keyword (propertyNames, required, dependentRequired, ...) failing for
# each of N keys of an N-key object costs O(N^2) time and memory (4,000 keys: 2.5 GB). Values of up
# to SMALL_INSTANCE nodes get every error listed (then at most MAX_EXPLAINED); larger ones get the
# first error (one copy) and a note. Each message is cut to MAX_MESSAGE characters.
MAX_EXPLAINED = 20
SMALL_INSTANCE = 256
MAX_MESSAGE = 300


class Explained(list):
    """Errors of one instance, as (path into the instance, message), at most MAX_EXPLAINED;
    `note` says what was left out ("" when nothing was)."""

    note = ""


def _nodes_over(value: Any, budget: int) -> bool:
    """Whether `value` has more than `budget` nodes (containers and scalars); stops counting there."""
    stack, count = [value], 0
    while stack:
        item = stack.pop()
        count += 1
        if count > budget:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
            count += len(item)  # the keys
        elif isinstance(item, list):
            stack.extend(item)
    return False


def short_message(message: str, limit: int = MAX_MESSAGE) -> str:
    """A validator's message cut to `limit` characters (it may quote a large value whole)."""
    return message if len(message) <= limit else f"{message[: limit - 60]} ... {message[-50:]}"


def explain_errors(validator: jsonschema_rs.Validator, instance: Any, limit: int = MAX_EXPLAINED) -> Explained:
    """The errors of an instance, bounded in number, size and cost (see MAX_EXPLAINED)."""
    found = Explained()
    if validator.is_valid(instance):  # the common case, without building error objects
        return found
    if _nodes_over(instance, SMALL_INSTANCE):
        try:
            validator.validate(instance)
        except jsonschema_rs.ValidationError as error:
            found.append((tuple(error.instance_path), short_message(error.message)))
        found.note = "further errors are not listed: the value is too large to explain every error"
        return found
    errors = list(validator.iter_errors(instance))
    found.extend((tuple(e.instance_path), short_message(e.message)) for e in errors[:limit])
    if len(errors) > limit:
        more = len(errors) - limit
        found.note = f"and {more} more error{'s' * (more != 1)}"
    return found


def error_objects(validator: jsonschema_rs.Validator, instance: Any) -> list:
    """The validator's error objects for an instance, for callers that read their details (`kind`):
    every one for a value of up to SMALL_INSTANCE nodes, else only the first (see MAX_EXPLAINED)."""
    if validator.is_valid(instance):
        return []
    if _nodes_over(instance, SMALL_INSTANCE):
        try:
            validator.validate(instance)
        except jsonschema_rs.ValidationError as error:
            return [error]
        return []
    return list(validator.iter_errors(instance))


def instance_errors(validator: jsonschema_rs.Validator, instance: Any) -> list[tuple[tuple, str]]:
    """The errors of an instance, as (path into the instance, message): explain_errors without its note."""
    return list(explain_errors(validator, instance))


@functools.lru_cache(maxsize=4096)
def linear_pattern(pattern: str) -> jsonschema_rs.Validator | None:
    """`{"pattern": pattern}` compiled as compile_validator's first try does (the linear-time
    engine), or None when that engine refuses the pattern."""
    try:
        return jsonschema_rs.Draft202012Validator({"pattern": pattern}, retriever=_refuse, pattern_options=_LINEAR)
    except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError, ValueError):
        return None


# -------------------------------------------------- a quick exact check of simple instances
#
# Compiling a schema costs tens of microseconds (its patterns most of all); checking an
# example against a small schema by hand costs a few. `accepts` answers True only when
# the instance is certainly valid, keyword by keyword as the 2020-12 specification and
# jsonschema-rs read them, and False ("cannot tell") on anything it does not model, so a
# caller falls back to the compiled validator for every answer but a clean pass.
#
# What the caller guarantees: the schema is valid against the 2020-12 metaschema (so each
# keyword's value has its specified type), and every `pattern` and `patternProperties`
# key in it compiles with the linear-time engine (so compile_validator would use that
# engine, which `linear_pattern` reuses; the engine choice is the only thing its retry changes).

_EXACT = 2**53  # numbers below this in magnitude compare exactly as floats and as integers


def accepts(schema: Any, instance: Any) -> bool:
    """True: `instance` is valid against `schema` (see above for what the caller guarantees).
    False: it may not be; ask a compiled validator."""
    if schema is True:
        return True
    if schema.__class__ is not dict:
        return False  # `false`, or something the caller should not have passed
    kind = instance.__class__
    if kind is int or kind is float:
        if not -_EXACT < instance < _EXACT:
            return False  # beyond exact comparison, or NaN/infinity (which jsonschema-rs reads as null)
    elif kind not in _JSON_CLASSES:
        return False  # a subclass (of str, dict, int: an IntEnum) or not JSON at all
    codes = _CODES
    for keyword, value in schema.items():
        try:
            code = codes[keyword]
        except KeyError:
            return False  # a keyword not modelled here: patternProperties, allOf, $ref, multipleOf, ...
        if code == _ANNOTATION:
            continue
        if code == _TYPE:
            if value.__class__ is str:
                if kind not in _TYPE_CLASSES.get(value, ()):
                    return False
            else:  # a list of type names
                for name in value:
                    if name.__class__ is str and kind in _TYPE_CLASSES.get(name, ()):
                        break
                else:
                    return False
        elif code < _MAX_LENGTH:  # objects
            if kind is not dict:
                continue
            if code == _PROPERTIES:
                for name, item in instance.items():
                    sub = value.get(name, _EMPTY)
                    if sub is not _EMPTY and not accepts(sub, item):
                        return False
            elif code == _REQUIRED:
                if not all(map(instance.__contains__, value)):
                    return False
            else:  # additionalProperties (patternProperties is not modelled)
                declared = schema.get("properties", _EMPTY)
                if value is False:
                    if not instance.keys() <= declared.keys():
                        return False
                else:
                    for name, item in instance.items():
                        if name not in declared and not accepts(value, item):
                            return False
        elif code < _MINIMUM:  # strings
            if kind is not str:
                continue
            if code == _MAX_LENGTH:
                if len(instance) > value:
                    return False
            elif code == _MIN_LENGTH:
                if len(instance) < value:
                    return False
            else:  # pattern
                validator = linear_pattern(value)
                try:
                    if validator is None or not validator.is_valid(instance):
                        return False
                except (ValueError, TypeError, OverflowError):
                    return False  # a string Rust cannot hold (a lone surrogate)
        elif code < _ITEMS:  # numbers
            if kind is not int and kind is not float:
                continue
            if code == _MINIMUM:
                if instance < value:
                    return False
            elif code == _MAXIMUM:
                if instance > value:
                    return False
            elif code == _EXCLUSIVE_MINIMUM:
                if instance <= value:
                    return False
            elif instance >= value:  # exclusiveMaximum
                return False
        elif code < _ENUM:  # arrays
            if kind is not list:
                continue
            if code == _ITEMS:
                for item in instance:
                    if not accepts(value, item):
                        return False
            elif code == _MIN_ITEMS:
                if len(instance) < value:
                    return False
            elif len(instance) > value:  # maxItems
                return False
        elif code == _ENUM:
            if kind is str or instance is None:  # only a string equals a string; only null equals null
                if instance not in value:
                    return False
            elif kind is dict or kind is list:
                return False  # container equality (where Python's 1 == True) is left to the validator
            else:  # a number or a boolean: Python's 1 == 1.0 == True must not count here
                for item in value:
                    if item.__class__ is kind and item == instance:
                        break
                else:
                    return False
        elif kind is dict or kind is list or value.__class__ is not kind or value != instance:  # const
            return False
    return True


# keyword codes, grouped by the kind of instance they constrain (see the `<` tests in accepts)
_ANNOTATION, _TYPE = 0, 1
_PROPERTIES, _REQUIRED, _ADDITIONAL = 10, 11, 12  # objects
_MAX_LENGTH, _MIN_LENGTH, _PATTERN = 20, 21, 22  # strings
_MINIMUM, _MAXIMUM, _EXCLUSIVE_MINIMUM, _EXCLUSIVE_MAXIMUM = 30, 31, 32, 33  # numbers
_ITEMS, _MIN_ITEMS, _MAX_ITEMS = 40, 41, 42  # arrays
_ENUM, _CONST = 50, 51  # any instance
_CODES = {
    "type": _TYPE, "properties": _PROPERTIES, "required": _REQUIRED, "additionalProperties": _ADDITIONAL,
    "maxLength": _MAX_LENGTH, "minLength": _MIN_LENGTH, "pattern": _PATTERN,
    "minimum": _MINIMUM, "maximum": _MAXIMUM, "exclusiveMinimum": _EXCLUSIVE_MINIMUM,
    "exclusiveMaximum": _EXCLUSIVE_MAXIMUM, "items": _ITEMS, "minItems": _MIN_ITEMS, "maxItems": _MAX_ITEMS,
    "enum": _ENUM, "const": _CONST,
    # keywords no validator asserts (2020-12 reads `format` as an annotation unless told
    # otherwise, and compile_validator does not tell it otherwise)
    **dict.fromkeys(("description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly",
                     "$comment", "format"), _ANNOTATION),
}
_EMPTY: dict = {}
_JSON_CLASSES = frozenset((dict, list, str, int, float, bool, type(None)))
# exact classes: a bool is not a number, and 1.0 (an integer to JSON Schema) is left to the validator
_TYPE_CLASSES = {
    "string": (str,), "integer": (int,), "number": (int, float), "object": (dict,), "boolean": (bool,),
    "array": (list,), "null": (type(None),),
}


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
