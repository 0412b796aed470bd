"""TC2xx: what the model reads — purpose, non-goals, and a description of useful size."""

from __future__ import annotations

from typing import Iterator

from toolcontract.descriptor import ToolView, count_sentences, model_description
from toolcontract.lint.engine import Bad, Good, Hit, rule
from toolcontract.model import Severity

MIN_SENTENCES = 3
MIN_CHARS = 80
MAX_CHARS = 1024  # OpenAI's limit on a function description

_FULL = """\
toolcontract: 1
name: weather_current
version: 1.0.0
purpose: Report the current weather at one named place.
when_to_use: The user asks about weather conditions right now.
non_goals: [Does not forecast future days.]
effect: read
"""


@rule(
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
        Bad("toolcontract: 1\nname: weather_current\neffect: read\n", line=1),
        Bad("toolcontract: 1\nname: weather_current\npurpose: '  '\neffect: read\n", line=3),
        Good(_FULL),
    ),
)
def purpose_missing(tool: ToolView) -> Iterator[Hit]:
    if "purpose" in tool.data:
        if tool.text("purpose") is None:
            yield Hit(("purpose",), "`purpose` is empty: say in one sentence what the tool is for")
        return
    if tool.format != "native":
        if tool.text("description") is None:  # a provider format has no purpose field: its description stands in
            where = ("description",) if "description" in tool.data else ()
            yield Hit(where, "no `description`: the model sees only the name and the schema; say what the tool is "
                      "for and when to use it", anchor="value")
        return
    yield Hit((), "no `purpose`: say in one sentence what the tool is for", anchor="value")


@rule(
    id="TC202",
    name="non-goals-missing",
    severity=Severity.WARNING,
    summary="The descriptor has no `non_goals` (an error for consequential effects).",
    rationale=(
        "Models over-reach: a tool that changes a document's title gets used to rewrite its body. Non-goals "
        "draw the boundary the model and the reviewer both read. For tools whose effect is consequential "
        "(reversible_write, irreversible_write, open_world) the missing boundary is an error."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\n", line=1, note="warning"),
        Bad("toolcontract: 1\nname: invoice_mark_paid\neffect: irreversible_write\n", line=1, note="error"),
        Bad("toolcontract: 1\nname: weather_current\neffect: read\nnon_goals: []\n", line=4),
        Good(_FULL),
    ),
    contract=True,
)
def non_goals_missing(tool: ToolView) -> Iterator[Hit]:
    effect = tool.effect
    severity = Severity.ERROR if effect is not None and effect.consequential else None
    goals = tool.get("non_goals")
    if "non_goals" not in tool.data:
        extra = f" (required for the consequential effect {tool.effect_label})" if severity else ""
        yield Hit((), f"no `non_goals`: list what the tool does not do{extra}", anchor="value", severity=severity)
    elif isinstance(goals, list) and not [g for g in goals if isinstance(g, str) and g.strip()]:
        yield Hit(("non_goals",), "`non_goals` is empty: list what the tool does not do", severity=severity)


def _description_path(tool: ToolView) -> tuple:
    if "description" in tool.data:
        return ("description",)
    for key in ("purpose", "when_to_use", "non_goals"):
        if key in tool.data:
            return (key,)
    return ()


@rule(
    id="TC203",
    name="description-thin",
    severity=Severity.WARNING,
    summary="The model-facing description is under 3 sentences or under 80 characters.",
    rationale=(
        "The description is all a model knows about a tool besides its schema. Anthropic's guidance asks "
        "for at least 3-4 sentences: what the tool does, when to use it and when not, what each parameter "
        "means and what it returns. The text checked is `description`, or the one built from purpose, "
        "when_to_use and non_goals when no description is given."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\ndescription: Gets weather.\n", line=4),
        Good(_FULL),
    ),
)
def description_thin(tool: ToolView) -> Iterator[Hit]:
    text = model_description(tool)
    if not text:
        return  # TC201 reports the missing purpose
    sentences, chars = count_sentences(text), len(text)
    if sentences < MIN_SENTENCES or chars < MIN_CHARS:
        yield Hit(
            _description_path(tool),
            f"the model-facing description has {sentences} sentence{'s' * (sentences != 1)} and {chars} "
            f"characters (want at least {MIN_SENTENCES} and {MIN_CHARS}): say what it does, when to use it, "
            "and what it does not do",
        )


@rule(
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
        Bad("toolcontract: 1\nname: weather_current\neffect: read\ndescription: " + "Reports weather. " * 70 + "\n", line=4),
        Good(_FULL),
    ),
)
def description_long(tool: ToolView) -> Iterator[Hit]:
    text = model_description(tool)
    if len(text) > MAX_CHARS:
        yield Hit(_description_path(tool), f"the model-facing description is {len(text)} characters (at most {MAX_CHARS})")
