"""TC101 name-format: a native descriptor's name is not snake_case; a provider tool's name breaks
its own surface's rule."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.model import Severity
from toolcontract.core.surfaces import FAMILY_LABEL, FORMAT_FAMILY, NAME_RULES, PORTABLE_NAME, name_problem


NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}\Z")


RULE = Rule(
    id="TC101",
    name="name-format",
    severity=Severity.ERROR,
    summary="A native descriptor's name is not snake_case; a provider tool's name breaks its own surface's rule.",
    rationale=(
        "Every provider restricts tool names, and not in the same way: OpenAI and Anthropic accept "
        "^[a-zA-Z0-9_-]{1,64}$, Gemini wants a letter or `_` first and allows `. : -` up to 128, MCP allows "
        "`A-Za-z0-9_-.` up to 128. A native descriptor is ours: its name is the portable, log-stable "
        "snake_case ^[a-z][a-z0-9_]{0,63}$, which passes everywhere. A tool in a provider file is judged by "
        "that file's own surface: an error when the surface refuses the name (a dot in an OpenAI tool name is "
        "a 400 from the API), a warning when the surface accepts it but another surface would not (a dotted "
        "MCP name that an OpenAI or Anthropic client cannot pass on; the portable subset is "
        "^[A-Za-z_][A-Za-z0-9_-]{0,63}$). camelCase and hyphens are never findings in provider files: every "
        "surface accepts them."
    ),
    examples=(
        Bad("toolcontract: 1\nname: Weather.Current\neffect: read\n", line=2, column=7,
            message="is not portable snake_case"),
        Bad("toolcontract: 1\neffect: read\nname: weather-current\n", line=3, column=7,
            message="is not portable snake_case: it contains '-'"),
        Bad("tools:\n  - type: function\n    function: {name: weather.current, parameters: {type: object}}\n", line=3,
            column=22, message="is refused by OpenAI", note="OpenAI refuses a dot: an error"),
        Bad("tools:\n  - name: weather.current\n    inputSchema: {type: object}\n", line=2, column=11,
            message="works on MCP but not on every surface",
            note="MCP accepts a dot, OpenAI and Anthropic do not: a warning"),
        Good("toolcontract: 1\nname: weather_current\neffect: read\n"),
        Good("tools:\n  - name: getWeather-current\n    inputSchema: {type: object}\n",
             note="camelCase and hyphens in a provider file"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    name = tool.get("name")
    if not isinstance(name, str):
        return  # TC002 reports a missing or non-string name
    family = FORMAT_FAMILY.get(tool.format)
    if family is not None:
        pattern, _ = NAME_RULES[family]
        label = FAMILY_LABEL[family]
        if not pattern.match(name):
            yield Hit(("name",), f"name {name!r} is refused by {label}: {name_problem(name, family)}")
        elif not PORTABLE_NAME.match(name):
            yield Hit(("name",), f"name {name!r} works on {label} but not on every surface: "
                      f"{name_problem(name, 'portable')}", severity=Severity.WARNING)
        return
    if not NAME_PATTERN.match(name):
        reasons = []
        if not name:
            reasons.append("it is empty")
        else:
            if len(name) > 64:
                reasons.append(f"it is {len(name)} characters long (at most 64)")
            if not ("a" <= name[0] <= "z"):
                reasons.append("it does not start with a lower-case letter")
            bad = sorted({c for c in name if not (c.isascii() and (c.islower() or c.isdigit() or c == "_"))})
            if bad:
                reasons.append("it contains " + ", ".join(repr(c) for c in bad[:8]))
        yield Hit(("name",), f"name {name!r} is not portable snake_case: {'; '.join(reasons)}")
