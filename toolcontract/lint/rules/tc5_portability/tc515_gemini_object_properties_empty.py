"""TC515 gemini-object-properties-empty: A nested object schema declares no `properties`, which Gemini's `parameters` schema refuses."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import with_property
from toolcontract.lint.rules.tc5_portability.gemini import gemini_nodes
from toolcontract.lint.rules.tc5_portability.messages import names, verb_s, where
from toolcontract.core.model import Severity
from toolcontract.core.schema.validation import types_of


RULE = Rule(
    id="TC515",
    name="gemini-object-properties-empty",
    severity=Severity.ERROR,
    summary="A nested object schema declares no `properties`, which Gemini's `parameters` schema refuses.",
    rationale=(
        "In Gemini's `parameters` schema an OBJECT names its members in `properties` (GM-SDK), and the API "
        "refuses one whose `properties` are missing or empty (obs): \"GenerateContent"
        "Request.tools[0].function_declarations[2].parameters.properties: should be non-empty for OBJECT "
        "type\" (agno#2112, lobehub#5002, langchain-google#416; nested: browser-use#3786). The request "
        "carries the schema as a protocol buffer, where an empty map and a missing one are the same, so "
        "`{type: object}` and `{type: object, properties: {}}` fail alike. A free-form map (`type: object` "
        "with only an `additionalProperties` schema) has been refused the same way; `additionalProperties` "
        "is in Gemini's subset now, so such a map is a warning. Declare the keys an object takes, or take "
        "an array of `{key, value}` objects or a JSON string. The root of a tool without arguments is not "
        "reported: for Gemini such a function is declared without `parameters` (the Google SDKs accept "
        "`parameters: None`), or with an empty object, which pydantic-ai sends so that mode ANY works "
        "(pydantic-ai#1998; earlier API versions refused that too). Declarations sent as "
        "`parametersJsonSchema` are not checked: that form is JSON Schema."
    ),
    examples=(
        Bad(with_property("filters: {type: object, description: Extra filters.}", "[city, filters]"),
            line=8, column=5, message="/properties/filters has no `properties`"),
        Bad(with_property("filters: {type: object, properties: {}, description: Extra filters.}",
                           "[city, filters]"),
            line=8, column=5, message="/properties/filters has empty `properties`",
            note="empty properties: the same to Gemini"),
        Good(with_property("filters: {type: object, properties: {country: {type: string, description: ISO "
                            "code.}}, description: Extra filters.}", "[city, filters]")),
        Good("toolcontract: 1\nname: clock_now\neffect: read\ninput_schema: {type: object, additionalProperties: "
             "false}\n", note="the root of a tool without arguments"),
    ),
    surfaces=("gemini",),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    for node in gemini_nodes(tool):
        s = node.schema
        if node.parent < 0 or "object" not in types_of(s) or any(k in s for k in ("$ref", "anyOf", "oneOf", "allOf")):
            continue  # the root: a tool without arguments; a $ref or its branches may hold the properties
        properties = s.get("properties")
        if properties is not None and properties != {}:
            continue
        what = "no `properties`" if properties is None else "empty `properties`"
        extra = s.get("additionalProperties")
        if isinstance(extra, dict) or extra is True:  # a map: Gemini documents additionalProperties now
            yield Hit(("input_schema", *node.path), f"the object at {where(node.path)} has {what}, only "
                      f"`additionalProperties`: {names(surfaces)} may refuse it (\"should be non-empty for OBJECT "
                      "type\"): declare the keys it takes, or take an array of {key, value} objects",
                      anchor="key", severity=Severity.WARNING)
        else:
            yield Hit(("input_schema", *node.path), f"the object at {where(node.path)} has {what}, which "
                      f"{names(surfaces)} refuse{verb_s(surfaces)} (\"should be non-empty for OBJECT type\"): "
                      "declare the keys it takes, or take an array of {key, value} objects", anchor="key")
