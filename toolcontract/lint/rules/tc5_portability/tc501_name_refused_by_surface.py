"""TC501 name-refused-by-surface: The tool name breaks a targeted surface's name rule (characters or length)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER
from toolcontract.lint.rules.tc5_portability.messages import names, quoted
from toolcontract.core.model import Severity
from toolcontract.core.surfaces import NAME_RULES, name_problem, surface_family


RULE = Rule(
    id="TC501",
    name="name-refused-by-surface",
    severity=Severity.ERROR,
    summary="The tool name breaks a targeted surface's name rule (characters or length).",
    rationale=(
        "Each surface checks tool names its own way, and refuses the whole request over one bad name. "
        "OpenAI (Chat and Responses) takes `^[a-zA-Z0-9_-]+$` up to 64 characters, so a dot, slash or colon "
        "is a 400 (OA-API, o1); Anthropic takes `^[a-zA-Z0-9_-]{1,64}$` (AN-impl, o6); Gemini wants a letter "
        "or `_` first, then letters, digits, `_ . : -`, at most 128 (GM-SDK). MCP only says a name SHOULD be "
        "1-128 characters of `A-Za-z0-9_-.` (MT, TS), so a name that only MCP would object to is a warning. "
        "MCP servers often use dotted names (`github.get_issue`) that work there and fail on OpenAI and Anthropic."
    ),
    examples=(
        Bad(WEATHER.replace("name: weather_current", "name: weather.current"),
            line=2, column=7, message="name 'weather.current' is refused by openai",
            note="openai and anthropic refuse the dot; gemini and mcp accept it"),
        Bad(WEATHER.replace("name: weather_current", "name: 2day_forecast"),
            line=2, column=7, message="it starts with '2'",
            note="gemini refuses a leading digit"),
        Bad(WEATHER.replace("name: weather_current", "name: weather_" + "current_" * 8),
            line=2, column=7, message="it is 72 characters long",
            note="72 characters: over 64"),
        Good(WEATHER),
        Good(WEATHER.replace("name: weather_current", "name: weather-current"), note="a hyphen is fine everywhere"),
    ),
    surfaces=("openai", "openai-strict", "anthropic", "anthropic-strict", "gemini", "mcp"),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    name = tool.get("name")
    if not isinstance(name, str):
        return  # TC002
    refusing: dict[str, list[str]] = {}  # problem -> surfaces
    for surface in surfaces:
        family = surface_family(surface)
        if not NAME_RULES[family][0].match(name):
            refusing.setdefault(name_problem(name, family), []).append(surface)
    if not refusing:
        return
    hard = [s for group in refusing.values() for s in group if s != "mcp"]
    parts = []
    for problem, group in refusing.items():
        verb = "is refused by" if group != ["mcp"] else "does not follow the naming guidance of"
        parts.append(f"{verb} {names(group)}: {problem}")
    yield Hit(("name",), f"name {quoted(name)} " + "; it ".join(parts),
              severity=None if hard else Severity.WARNING)
