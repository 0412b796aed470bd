"""TC607 pattern-backtracking: A `pattern` or `patternProperties` key can take exponential time on a backtracking
regex engine."""

from __future__ import annotations

from typing import Iterable, Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc6_security.examples import WEATHER
from toolcontract.lint.rules.tc6_security.reports import hit, quote, reports, scanned
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC607",
    name="pattern-backtracking",
    severity=Severity.WARNING,
    owasp=("MCP03",),
    when=scanned,  # the rules run on the tools whose scan found something
    summary="A `pattern` or `patternProperties` key can take exponential time on a backtracking regex engine.",
    rationale=(
        "Most validators (JavaScript, Python's `re`, PCRE, .NET) match `pattern` by backtracking, and a "
        "pattern that can match one text in many ways — nested quantifiers `(a+)+`, `(\\w+\\s?)*`, "
        "overlapping alternatives `(a|a)*`, `(a|aa)+` — takes time exponential in the argument's length "
        "when it fails: one crafted argument hangs the client that validates it (ReDoS). toolcontract "
        "itself evaluates patterns with a linear-time engine. The heuristic is documented in "
        "`toolcontract.security.regex_safety`; patterns that are only polynomial (`^\\d+\\d+$`) pass. "
        "Rewrite the group so each character has one way to match: `^[a-z]+(-[a-z]+)*$`."
    ),
    examples=(
        Bad(WEATHER.replace("{type: string, description", "{type: string, pattern: '^([A-Za-z]+ ?)+$', description"),
            line=8, column=35, message="can backtrack exponentially: nested quantifier"),
        Good(WEATHER.replace("{type: string, description", "{type: string, pattern: '^[A-Za-z]+( [A-Za-z]+)*$', "
                             "description")),
    ),
)


def check(ctx: ToolContext) -> Iterable[Hit]:
    tool = ctx.tool
    found = reports(tool)  # most tools: nothing
    return _pattern_backtracking(found, tool) if found else ()


def _pattern_backtracking(found: list, tool: ToolView) -> Iterator[Hit]:
    for item in found:
        risk = item.report.backtracking
        if risk:
            surface = item.surface
            pattern = surface.text
            group = pattern[risk.start : risk.end]
            yield hit(surface, f"pattern {quote(pattern)} can backtrack exponentially: {risk.why} "
                      f"({quote(group, 40)} at character {risk.start + 1})")
