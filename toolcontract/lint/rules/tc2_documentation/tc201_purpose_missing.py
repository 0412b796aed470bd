"""TC201 purpose-missing: the descriptor has no `purpose` (provider formats: no description)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.descriptor import is_placeholder
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc2_documentation.examples import FULL
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC201",
    name="purpose-missing",
    severity=Severity.ERROR,
    summary="The descriptor has no `purpose` (provider formats: no description).",
    rationale=(
        "The purpose is the one sentence that says what the tool is for. Without it a model guesses from "
        "the name and the parameters, and a reviewer cannot tell a call that serves the tool's purpose from "
        "one that abuses it."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\n", line=1, column=1,
            message="no `purpose`: say in one sentence"),
        Bad("toolcontract: 1\nname: weather_current\npurpose: '  '\neffect: read\n", line=3, column=10,
            message="`purpose` is empty"),
        Bad("toolcontract: 1\nname: weather_current\npurpose: 'TODO: say in one sentence'\neffect: read\n", line=3,
            column=10, message="`purpose` is still a TODO placeholder"),
        Good(FULL),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if "purpose" in tool.data:
        if tool.text("purpose") is None:
            yield Hit(("purpose",), "`purpose` is empty: say in one sentence what the tool is for")
        elif is_placeholder(tool.data["purpose"]):  # what `toolcontract init` writes in an overlay skeleton
            yield Hit(("purpose",), "`purpose` is still a TODO placeholder: say in one sentence what the tool is for")
        return
    if tool.format != "native":
        if tool.text("description") is None:  # a provider format has no purpose field: its description stands in
            where = ("description",) if "description" in tool.data else ()
            yield Hit(where, "no `description`: the model sees only the name and the schema; say what the tool is "
                      "for and when to use it", anchor="value")
        return
    yield Hit((), "no `purpose`: say in one sentence what the tool is for", anchor="value")
