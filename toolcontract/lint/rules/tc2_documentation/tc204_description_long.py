"""TC204 description-long: the model-facing description exceeds 1024 characters (an OpenAI limit)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.limits import OPENAI_MAX_DESCRIPTION
from toolcontract.core.descriptor import model_description
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc2_documentation.description import description_path
from toolcontract.lint.rules.tc2_documentation.examples import FULL
from toolcontract.core.model import Severity


MAX_CHARS = OPENAI_MAX_DESCRIPTION  # OpenAI's limit on a function description


RULE = Rule(
    id="TC204",
    name="description-long",
    severity=Severity.WARNING,
    summary="The model-facing description exceeds 1024 characters (an OpenAI limit).",
    rationale=(
        "OpenAI rejects function descriptions over 1024 characters, and long descriptions cost context on "
        "every request whether or not the tool is used. Move reference material to parameter descriptions "
        "or documentation."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\ndescription: " + "Reports weather. " * 70 + "\n",
            line=4, column=14, message="is 1189 characters (at most 1024)"),
        Good(FULL),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    text = model_description(tool)
    if len(text) > MAX_CHARS:
        yield Hit(description_path(tool), f"the model-facing description is {len(text)} characters (at most {MAX_CHARS})")
