"""TC514 gemini-array-items-missing: An array schema has no `items`, which Gemini's `parameters` schema refuses."""

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
    id="TC514",
    name="gemini-array-items-missing",
    severity=Severity.ERROR,
    summary="An array schema has no `items`, which Gemini's `parameters` schema refuses.",
    rationale=(
        "Gemini's `parameters` schema lists `items` as the element schema of an ARRAY (GM-SDK), and the API "
        "checks that every ARRAY has one, refusing the whole request without it (obs): \"GenerateContentRequest.tools[0].function_declarations[3]."
        "parameters.properties[tags].items: missing field\" (kkrishnan90/gemini-desktop#7, cline#7339, "
        "jackmusick/bifrost#225, cognizant-ai-lab/neuro-san#1051). JSON Schema, MCP, OpenAI and Anthropic "
        "take a bare `type: array`, so schemas written for them (Python `list` without a type argument, "
        "LangChain's `*args`) fail only on Gemini. Say what the elements are, `items: {type: string}` at the "
        "least. Declarations sent as `parametersJsonSchema` are not checked: that form is JSON Schema."
    ),
    examples=(
        Bad(with_property("tags: {type: array, description: Labels to filter by.}", "[city, tags]"),
            line=8, column=5, message="the array at /properties/tags has no `items`"),
        Good(with_property("tags: {type: array, items: {type: string}, description: Labels to filter by.}",
                            "[city, tags]")),
    ),
    surfaces=("gemini",),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    for node in gemini_nodes(tool):
        s = node.schema
        if "items" not in s and "$ref" not in s and "array" in types_of(s):
            yield Hit(("input_schema", *node.path), f"the array at {where(node.path)} has no `items`, which "
                      f"{names(surfaces)} refuse{verb_s(surfaces)} (\"items: missing field\"): say what its elements "
                      "are, e.g. `items: {type: string}`", anchor="key")
