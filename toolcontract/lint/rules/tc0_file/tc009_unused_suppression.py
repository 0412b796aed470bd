"""TC009 unused-suppression: an inline `# toolcontract: ignore[...]` comment suppressed no finding.

What the comments are and which findings they suppress is toolcontract.lint.suppression; this rule
reports the comments that suppressed nothing, and those that name no rule.
"""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import SuppressionContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc0_file.examples import GOOD
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC009",
    name="unused-suppression",
    severity=Severity.WARNING,
    summary="An inline `# toolcontract: ignore[...]` comment suppressed no finding.",
    rationale=(
        "Suppressions outlive the problems they were written for: the finding is fixed, the comment stays, "
        "and later hides a new problem of the same rule on that line. Reporting unused suppressions (as "
        "ruff's RUF100 does for `noqa`) keeps every exception justified. Only suppressions naming rules "
        "that ran are checked."
    ),
    examples=(
        Bad(GOOD + "x-team: weather  # toolcontract: ignore\n", line=4, column=18,
            message="unused suppression: no finding of any rule", note="nothing on this line to ignore"),
        Good("toolcontract: 1\nname: Weather  # toolcontract: ignore[TC101]\neffect: read\n",
             note="suppresses the TC101 finding on its line"),
    ),
    scope="suppression",
)


def check(ctx: SuppressionContext) -> Iterator[Hit]:
    for s in ctx.suppressions:
        for code in s.invalid:
            yield Hit(message=f"invalid suppression {code!r}: rule ids look like TC403, prefixes like TC4",
                      position=(s.line, s.column))
        if s.used or (s.invalid and not s.codes):
            continue
        if s.codes and not all(ctx.ran(code) for code in s.codes):
            continue  # it names a rule that did not run: not evidence of anything
        what = ", ".join(s.codes) if s.codes else "any rule"
        yield Hit(message=f"unused suppression: no finding of {what} "
                  + ("in this file" if s.applies_to is None else f"on line {s.applies_to}"),
                  position=(s.line, s.column))
