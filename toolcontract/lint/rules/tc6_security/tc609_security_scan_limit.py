"""TC609 security-scan-limit: The security rules stopped reading a file: too many findings, or too much distinct
text."""

from __future__ import annotations

from typing import Iterable

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ToolContext, context
from toolcontract.lint.rules.tc6_security.reports import scanned
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.model import Severity
from toolcontract.security import MAX_CHARACTERS, MAX_FINDINGS


def _many_hidden(count: int) -> str:
    lines = "".join(f'    p{i}: {{type: string, description: "Part\\u200b {i}."}}\n' for i in range(count))
    return ("toolcontract: 1\nname: weather_current\neffect: read\ninput_schema:\n  type: object\n  properties:\n"
            + lines + "  additionalProperties: false\n")


RULE = Rule(
    id="TC609",
    name="security-scan-limit",
    severity=Severity.WARNING,
    owasp=("MCP03",),
    when=scanned,  # the rules run on the tools whose scan found something
    summary="The security rules stopped reading a file: too many findings, or too much distinct text.",
    rationale=(
        f"The TC6 rules report at most {MAX_FINDINGS} strings per file and scan at most {MAX_CHARACTERS:,} "
        "characters of distinct model-facing text (a string counts once for its length, and once more for "
        "each pattern it makes run), so that a file built to be slow to read is linted in seconds; real tool "
        "lists stay far below both (3,526 BFCL functions in one file scan under 2 million). The strings after that "
        "point were not checked: a tool hidden behind enough padding would otherwise pass unseen. Fix the "
        "findings, or split the file, and lint again. Reported once per file, at the first tool not read "
        "in full."
    ),
    examples=(
        Bad(_many_hidden(MAX_FINDINGS + 5), line=1, column=1, message="the security rules stopped reading"),
        Good(_many_hidden(3)),
    ),
)


def check(ctx: ToolContext) -> Iterable[Hit]:
    tool = ctx.tool
    budget = stopped_here(tool)
    if budget is None:
        return ()
    why = (f"{budget.findings} strings with findings" if budget.findings >= MAX_FINDINGS
           else f"scanning {budget.characters:,} characters")
    return [Hit((), f"the security rules stopped reading this file at this tool, after {why}: the rest of "
                "its text was not checked for tool poisoning", anchor="value")]


def stopped_here(tool: ToolView):
    """The file's budget, when this is the tool where the security rules stopped reading."""
    return context(tool).scan.stopped_here(tool)
