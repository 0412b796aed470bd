"""TC0xx: the file itself — it must parse, keep its keys unique and match the format."""

from __future__ import annotations

import functools
from typing import Iterator

from toolcontract.core.rule import Bad, Good, Hit, rule
from toolcontract.core.model import Severity
from toolcontract.lint.context import MAX_TOOLS_CHECKED, DocumentContext, ListContext, LoadContext, SuppressionContext
from toolcontract.core.pointer import split_pointer

_GOOD = """\
toolcontract: 1
name: weather_current
effect: read
"""

@rule(
    id="TC000",
    name="parse-error",
    severity=Severity.ERROR,
    summary="The file does not parse as YAML or JSON, or breaks a loader limit.",
    rationale=(
        "A descriptor that cannot be read is a contract nobody can check: the tool would reach a model "
        "unlinted, or not at all. Loader limits (5 MiB, 64 levels of nesting, 10,000 nodes from aliases) "
        "keep a hostile file from exhausting memory or time; a file over a limit is refused here instead. "
        "Only the YAML core schema's tags are read, and one document per file."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: [read\n", line=4, note="unclosed flow sequence"),
        Bad("toolcontract: 1\nname: !!python/object:os.system weather\n", line=2, note="non-core tag"),
        Good(_GOOD),
    ),
    scope="load",
)
def parse_error(ctx: LoadContext) -> Iterator[Hit]:
    error = ctx.error
    if error is not None:
        yield Hit(message=error.message, position=(error.line, error.column))


@rule(
    id="TC001",
    name="duplicate-key",
    severity=Severity.ERROR,
    summary="A mapping repeats a key.",
    rationale=(
        "YAML and JSON parsers silently keep one of the repeated values (PyYAML and most JSON parsers the "
        "last one), so what a reviewer reads is not what a client loads. A repeated `effect:` or schema "
        "property is a contract that says two things."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\neffect: open_world\n", line=4),
        Good(_GOOD),
    ),
    scope="load",
)
def duplicate_key(ctx: LoadContext) -> Iterator[Hit]:
    document = ctx.document
    if document is None:
        return
    for dup in document.duplicates:
        yield Hit(split_pointer(dup.pointer) if dup.pointer else (),
                  f"key {dup.key!r} repeats the one at line {dup.first_line}, column {dup.first_column}; "
                  "only the last value is used", position=(dup.line, dup.column))

# errors that a dedicated rule reports with a better message: (field, keyword) -> rule
_OWNED = {("name", "pattern"): "TC101", ("effect", "enum"): "TC301"}


@functools.cache
def _descriptor_validator():
    from toolcontract.core.schema.validation import compile_validator
    from toolcontract.core.schema.bundled import load_schema

    return compile_validator(load_schema("descriptor.schema.json"))


@rule(
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
        Bad(_GOOD + "non_goals: Does not forecast.\n", line=4, note="a string where a list is expected"),
        Bad(_GOOD + "efect: read\n", line=4, note="an unknown field"),
        Good(_GOOD + "non_goals: [Does not forecast.]\nx-owner: weather-team\n"),
    ),
    scope="document",
)
def descriptor_structure(ctx: DocumentContext) -> Iterator[Hit]:
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


@rule(
    id="TC003",
    name="tool-limit",
    severity=Severity.WARNING,
    summary="A file holds more tools than lint checks in one file (2,000 by default).",
    rationale=(
        "Every per-tool rule costs a fraction of a millisecond, so a file of 100,000 tools (a 5 MiB list "
        "of tiny, generated or hostile entries) would take minutes. The largest real tool lists hold a few "
        "hundred (Gemini takes 512 declarations, OpenAI 128 tools). Past `max-tools-checked` tools of one "
        "file (config; default 2,000), lint still reads every tool, counts it, and runs the rules of the "
        "whole list (duplicate names, the list's limits and context cost) and the structure checks, but the "
        "per-tool rules see only the first ones: this finding says so, so a bounded run never looks complete."
    ),
    examples=(
        Bad("toolcontract: 1\ntools:\n  - {name: note_get, effect: read}\n  - {name: note_list, effect: read}\n"
            "  - {name: note_find, effect: read}\n", line=2, options={"max-tools-checked": 2}),
        Good("toolcontract: 1\ntools:\n  - {name: note_get, effect: read}\n  - {name: note_list, effect: read}\n",
             options={"max-tools-checked": 2}),
    ),
    scope="list",
)
def tool_limit(ctx: ListContext) -> Iterator[Hit]:
    tools = ctx.tools
    budget = ctx.option("max-tools-checked", MAX_TOOLS_CHECKED)
    if len(tools) > budget:
        yield Hit(ctx.list_path, f"the file holds {len(tools):,} tools; the first {budget:,} were checked by every "
                  f"rule, the other {len(tools) - budget:,} only for their structure, names and the rules of the "
                  "whole list (setting: max-tools-checked)")


@rule(
    id="TC009",
    name="unused-suppression",
    severity=Severity.WARNING,
    summary="An inline `# toolcontract: ignore[...]` comment suppressed no finding.",
    rationale=(
        "Suppressions outlive the problems they were written for: the finding is fixed, the comment stays, "
        "and later hides a new problem of the same rule on that line. Reporting unused suppressions (as "
        "ruff's RUF100 does for `noqa`) keeps every exception justified. Only suppressions naming rules "
        "that ran are checked."
    ),
    examples=(
        Bad(_GOOD + "x-team: weather  # toolcontract: ignore\n", line=4, note="nothing on this line to ignore"),
        Good("toolcontract: 1\nname: Weather  # toolcontract: ignore[TC101]\neffect: read\n",
             note="suppresses the TC101 finding on its line"),
    ),
    scope="suppression",
)
def unused_suppression(ctx: SuppressionContext) -> Iterator[Hit]:
    for s in ctx.suppressions:
        for code in s.invalid:
            yield Hit(message=f"invalid suppression {code!r}: rule ids look like TC403, prefixes like TC4",
                      position=(s.line, s.column))
        if s.used or (s.invalid and not s.codes):
            continue
        if s.codes and not all(ctx.ran(code) for code in s.codes):
            continue  # it names a rule that did not run: not evidence of anything
        what = ", ".join(s.codes) if s.codes else "any rule"
        yield Hit(message=f"unused suppression: no finding of {what} "
                  + ("in this file" if s.applies_to is None else f"on line {s.applies_to}"),
                  position=(s.line, s.column))
