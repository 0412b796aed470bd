"""TC002 descriptor-structure: the file does not match the descriptor format (schemas/descriptor.schema.json)."""

from __future__ import annotations

import functools
from typing import Iterator

from toolcontract.lint.context import DocumentContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc0_file.examples import GOOD
from toolcontract.core.model import Severity


# errors that a dedicated rule reports with a better message: (field, keyword) -> rule
_OWNED = {("name", "pattern"): "TC101", ("effect", "enum"): "TC301"}


RULE = Rule(
    id="TC002",
    name="descriptor-structure",
    severity=Severity.ERROR,
    summary="The file does not match the descriptor format (schemas/descriptor.schema.json).",
    rationale=(
        "Fields of the wrong type or with unknown names are read by nobody: `non_goals: \"x\"` is not a list "
        "of non-goals, and `efect: read` is no effect class. The format is published as a JSON Schema so "
        "editors can check it as you type (`# yaml-language-server: $schema=...`); this rule applies the "
        "same schema. Extension fields start with `x-`."
    ),
    examples=(
        Bad(GOOD + "non_goals: Does not forecast.\n", line=4, column=12, message='is not of type "array"',
            note="a string where a list is expected"),
        Bad(GOOD + "efect: read\n", line=4, column=1, message="unknown field 'efect' (did you mean 'effect'?)",
            note="an unknown field"),
        Good(GOOD + "non_goals: [Does not forecast.]\nx-owner: weather-team\n"),
    ),
    scope="document",
)


def check(ctx: DocumentContext) -> Iterator[Hit]:
    data = ctx.document.data
    if data is None:
        yield Hit((), "the file is empty: expected a descriptor (`toolcontract: 1`, `name`, ...) or `tools: [...]`")
        return
    if not isinstance(data, dict):
        yield Hit((), f"expected a mapping (a descriptor or `tools: [...]`), found {_kind(data)}", anchor="value")
        return
    validator = _descriptor_validator()
    if validator.is_valid(data):  # the common case, in half the time of collecting no errors
        return
    for error in validator.iter_errors(data):
        path = tuple(error.instance_path)
        keyword = error.schema_path[-1] if error.schema_path else ""
        field = path[2] if len(path) >= 3 and path[0] == "tools" else (path[0] if path else None)
        if len(path) in (1, 3) and (field, keyword) in _OWNED:
            continue
        if keyword == "additionalProperties":
            for name in error.kind.unexpected:
                at_descriptor = len(path) == 0 or (len(path) == 2 and path[0] == "tools")
                hint = _hint(name) if at_descriptor else ""
                yield Hit((*path, name), f"unknown field {name!r}{hint}", anchor="key")
            continue
        if keyword == "required":
            yield Hit(path, f"missing required field {error.kind.property!r}", anchor="value")
            continue
        if keyword == "const" and path[-1:] == ("toolcontract",):
            yield Hit(path, f"`toolcontract` must be 1 (the format version), found {error.instance!r}")
            continue
        yield Hit(path, error.message)


@functools.cache
def _descriptor_validator():
    from toolcontract.core.schema.validation import compile_validator
    from toolcontract.core.schema.bundled import load_schema

    return compile_validator(load_schema("descriptor.schema.json"))


def _kind(value: object) -> str:
    return {list: "a list", str: "a string", int: "a number", float: "a number", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


_KNOWN = (
    "toolcontract", "tools", "name", "title", "version", "description", "purpose", "when_to_use",
    "non_goals", "effect", "limitations", "input_schema", "output_schema", "target", "semantic_rules",
    "approval", "observation", "annotations", "examples",
)


def _hint(name: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, _KNOWN, n=1)
    return f" (did you mean {close[0]!r}?)" if close else " (extension fields start with `x-`)"
