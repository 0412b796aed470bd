"""TC403 additional-properties-open: An object in `input_schema` does not set `additionalProperties: false`."""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.core.schema import IN_PLACE
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Edit, Fix, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.quoting import location
from toolcontract.lint.schema_walk import in_place_ancestors
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC403",
    name="additional-properties-open",
    severity=Severity.WARNING,
    summary="An object in `input_schema` does not set `additionalProperties: false`.",
    rationale=(
        "JSON Schema accepts any property a schema does not mention, so an argument a model invents "
        "(`force: true`, a misspelled `cty`) passes validation and the tool silently ignores it, or worse, "
        "uses it. OpenAI's and Anthropic's strict modes require `additionalProperties: false` on every object. "
        "`unevaluatedProperties: false` closes an object too; an `additionalProperties` that is a schema "
        "(a typed map such as labels) is deliberate and not reported."
    ),
    examples=(
        Bad(WEATHER.replace("  additionalProperties: false\n", ""),
            line=5, column=3, message="does not set `additionalProperties: false`"),
        Bad(WEATHER.replace("  additionalProperties: false\n", "  additionalProperties: true\n"),
            line=9, column=25, message="allows any extra property"),
        Good(WEATHER),
        Good(WEATHER.replace("  required", "    labels:\n      type: object\n      additionalProperties: "
                              "{type: string}\n      description: Free-form labels for the request.\n  required"),
             note="a typed map"),
    ),
    once_per_copy=True,
    fixable="unsafe",
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = ctx.walk(schema)
    for index, node in enumerate(w.nodes):
        s = node.schema
        kind = s.get("type")
        if kind.__class__ is str:  # most subschemas: _declares_object without the call
            if kind != "object":
                continue
        elif not _declares_object(s):
            continue
        if node.conditional or _effectively_closed(s):
            continue
        if node.via in IN_PLACE and "type" not in s:
            continue  # a branch that adds properties: the object that combines it is reported
        if ("$ref" in s or "$dynamicRef" in s) and "properties" not in s:
            continue  # the referenced schema decides
        if any(k in s and not isinstance(s[k], bool) for k in ("additionalProperties", "unevaluatedProperties")):
            continue  # of the wrong type: TC401
        if any(_closed(a.schema) for a in in_place_ancestors(w, index)):
            continue
        path = ("input_schema", *node.path)
        what = f"the object at {location(node.path)}"
        if "additionalProperties" in s:
            yield Hit((*path, "additionalProperties"), f"{what} allows any extra property: set "
                      "`additionalProperties: false` (or a schema, for a map)", fix=close(path, "additionalProperties"))
        elif "unevaluatedProperties" in s:
            yield Hit((*path, "unevaluatedProperties"), f"{what} allows any extra property: set "
                      "`unevaluatedProperties: false`", fix=close(path, "unevaluatedProperties"))
        else:
            yield Hit(path, f"{what} does not set `additionalProperties: false`: any extra property a model "
                      "invents is accepted", anchor="value", fix=close(path, "additionalProperties"))


def close(path: tuple, keyword: str) -> Fix:
    """The fix of an open object: `keyword: false` on it (unsafe: calls with extra properties that
    were accepted are then refused)."""
    return Fix((Edit("set", path, keyword, False),), False, f"set `{keyword}: false`")


def _closed(schema: dict) -> bool:
    """`additionalProperties: false`, `unevaluatedProperties: false`, or a typed map."""
    extra = schema.get("additionalProperties")
    return extra is False or isinstance(extra, dict) or schema.get("unevaluatedProperties") is False


def _effectively_closed(schema: Any, depth: int = 0) -> bool:
    """Closed itself, or by its in-place branches: every anyOf/oneOf branch, or one allOf branch."""
    if schema is False:
        return True
    if not isinstance(schema, dict) or depth > 50:
        return False
    if _closed(schema):
        return True
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches and all(_effectively_closed(b, depth + 1) for b in branches):
            return True
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(_effectively_closed(b, depth + 1) for b in branches)


def _declares_object(schema: dict) -> bool:
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind == "object"
    if isinstance(kind, list):  # the same as `"object" in types_of(schema)`: only a string equals "object"
        return "object" in kind
    return "type" not in schema and ("properties" in schema or "patternProperties" in schema)
