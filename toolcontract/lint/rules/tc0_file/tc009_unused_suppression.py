"""TC009 unused-suppression: an inline `# toolcontract: ignore[...]` comment suppressed no finding.

What the comments are and which findings they suppress is toolcontract.lint.suppression; this rule
reports the comments that suppressed nothing (or codes of one that suppressed nothing: `ignore[TC403,
TC404]` where only TC403 had a finding), the codes that name no rule (`TC4O3`, `TC999`), and comments
that start as a suppression but are none (`# toolcontract: ignroe[TC403]`). Fix (safe): remove the
unused suppression, or the unused codes from it; an invalid code is kept (its finding stays).
"""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import SuppressionContext
from toolcontract.core.rule import Bad, Edit, Fix, Good, Hit, Rule
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
    fixable="safe",
)


def check(ctx: SuppressionContext) -> Iterator[Hit]:
    for s in ctx.suppressions:
        if s.malformed:
            yield Hit(message=f"invalid suppression {s.text!r}: write `# toolcontract: ignore[TC403]` (this line or "
                      "the next), or `# toolcontract: ignore-file[TC4]`", position=(s.line, s.column))
            continue
        for code in s.invalid:
            yield Hit(message=f"invalid suppression {code!r}: rule ids look like TC403, prefixes like TC4"
                      + ("" if not _code_like(code) else "; no rule has this id or prefix"),
                      position=(s.line, s.column))
        if s.invalid and not s.codes:
            continue
        if not s.used:
            if s.codes and not all(ctx.ran(code) for code in s.codes):
                continue  # it names a rule that did not run: not evidence of anything
            what = ", ".join(s.codes) if s.codes else "any rule"
            yield Hit(message=f"unused suppression: no finding of {what} " + _where(s), position=(s.line, s.column),
                      fix=_fix(s, s.invalid))
            continue
        unused = tuple(code for code in s.codes if code not in s.used_codes and ctx.ran(code))
        if unused:  # `ignore[TC403, TC404]` where only TC403 had a finding
            kept = tuple(code for code in s.codes if code not in unused) + s.invalid
            yield Hit(message=f"unused suppression code{'s' * (len(unused) > 1)} {', '.join(unused)}: no finding "
                      f"of {'them' if len(unused) > 1 else 'it'} " + _where(s), position=(s.line, s.column),
                      fix=_fix(s, kept))


def _where(s) -> str:
    if s.kind == "overlay":
        return f"for the tool {s.tool!r} (this overlay entry's `ignore`)"
    return "in this file" if s.applies_to is None else f"on line {s.applies_to}"


def _code_like(code: str) -> bool:
    return code.startswith("TC") and code[2:].isdigit()


def _fix(s, kept: tuple[str, ...]) -> Fix | None:
    """Remove the suppression (keeping only `kept` codes, when any: the used ones and those TC009 names
    invalid, which another finding reports). None for an overlay's `ignore` item (edit it by hand)."""
    if s.kind == "overlay":
        return None
    if kept:
        return Fix((Edit("comment", position=(s.line, s.column), text=s.text, value=s.rewritten(kept)),), True,
                   f"keep only {', '.join(kept)} in the suppression")
    return Fix((Edit("comment", position=(s.line, s.column), text=s.text),), True, "remove the suppression")
