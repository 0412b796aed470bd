"""Metaschema errors of a schema as hits (TC401, TC409, TC413), with a readable message for each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Hit
from toolcontract.lint.rules.tc4_schema.quoting import as_json, location
from toolcontract.lint.rules.tc4_schema.type_names import JSON_TYPES, TYPE_NAMES

if TYPE_CHECKING:
    from toolcontract.core.schema.validation import SchemaError


def meta_hits(ctx: ToolContext, path: tuple, schema: Any, what: str) -> Iterator[Hit]:
    for error in ctx.meta_errors(schema):
        where = location(error.path)
        yield Hit((*path, *error.path), f"{what} is not valid JSON Schema 2020-12 at {where}: "
                  f"{_schema_error_message(error)}")


def _schema_error_message(error: SchemaError) -> str:
    at_type = error.path[-1:] == ("type",) or (len(error.path) > 1 and error.path[-2] == "type")
    if at_type and error.keyword in ("enum", "anyOf"):
        value = error.instance
        if isinstance(value, str):
            better = value.lower() if value.lower() in JSON_TYPES else TYPE_NAMES.get(value.lower())
            if value.lower() == "any":
                return '"any" is not a JSON Schema type: leave `type` out, or list the types allowed'
            hint = f': use "{better}"' if better else f" (one of {', '.join(sorted(JSON_TYPES))})"
            return f"{as_json(value)} is not a JSON Schema type{hint}"
        if isinstance(value, list) and len(set(map(as_json, value))) < len(value):
            return f"`type` {as_json(value)} repeats a type"
        if value == []:
            return "`type` is an empty list"
        return f"`type` must be one of {', '.join(sorted(JSON_TYPES))}, or a list of them"
    message = error.message  # it quotes the offending value, which can be large
    return message if len(message) <= 240 else f"{message[:180]} ... {message[-50:]}"
