"""Inline suppression comments, as ruff's `noqa`:

    effect: read  # toolcontract: ignore[TC303]       on the offending line
    # toolcontract: ignore[TC403, TC404]                alone on the line above it
    # toolcontract: ignore-file[TC4]                    anywhere: the whole file

Codes are rule ids or prefixes; a bare `ignore` / `ignore-file` (no brackets) covers
every rule. A suppression that matched no finding is itself reported (TC009), but
only when every code it names belongs to a rule that ran: a comment for a rule
left out by `--select` is not "unused", nor is one whose code names portability rules
of which none ran for want of a `--target` (`ignore-file[TC5]` without targets, where
only the default-on TC517 ran). JSON has no comments: use per-file ignores.
Parse errors (TC000) cannot be suppressed inline, since the file is not read.
"""

from __future__ import annotations

import re

from toolcontract.records import Record

# compiled (and kept in re's own cache) when a text has a comment that may be one (_GATE)
_COMMENT_SOURCE = r"(?:^|\s)#\s*toolcontract:\s*(?P<kind>ignore-file|ignore)\b(?:\[(?P<codes>[^\]]*)\])?"


class Suppression(Record):
    """A `# toolcontract: ignore[...]` comment: where it is (`line`, `column`), the line it
    covers (`applies_to`; None for ignore-file), the rule ids or prefixes it names (`codes`;
    empty: every rule), its text, and whether a finding used it."""

    __slots__ = ("line", "column", "applies_to", "codes", "text", "used")

    def __init__(self, line: int, column: int, applies_to: int | None, codes: tuple[str, ...], text: str,
                 used: bool = False):
        self.line = line
        self.column = column
        self.applies_to = applies_to
        self.codes = codes
        self.text = text
        self.used = used

    __hash__ = None  # type: ignore[assignment]  # `used` changes

    def covers(self, rule_id: str) -> bool:
        return not self.codes or any(rule_id.startswith(code) for code in self.codes)


# whatever a suppression comment holds, in a text: most descriptors have `toolcontract: 1` but
# no such comment, and this finds that in one quick pass instead of a look at every line
_GATE = re.compile(r"#\s*toolcontract:")


def parse_suppressions(text: str) -> list[Suppression]:
    if _GATE.search(text) is None:
        return []
    return _parse_lines(text)


def _parse_lines(text: str) -> list[Suppression]:
    comment = re.compile(_COMMENT_SOURCE)
    found: list[Suppression] = []
    for number, line in enumerate(text.split("\n"), 1):
        if "toolcontract:" not in line:
            continue
        match = comment.search(line)
        if match is None:
            continue
        codes = tuple(c.strip().upper() for c in (match.group("codes") or "").split(",") if c.strip())
        column = line.index("#", match.start()) + 1
        if match.group("kind") == "ignore-file":
            applies = None
        elif line[: column - 1].strip():  # code before the comment: this line
            applies = number
        else:  # a comment alone on its line: the next line
            applies = number + 1
        found.append(Suppression(number, column, applies, codes, match.group(0).strip()))
    return found


def apply_suppressions(findings, suppressions: list[Suppression]):
    """(kept findings, suppressions) with `used` set on those that matched."""
    kept = []
    for finding in findings:
        if finding.rule == "TC000":  # the file was not read: nothing in it can speak for it
            kept.append(finding)
            continue
        hit = False
        for suppression in suppressions:
            if (suppression.applies_to is None or suppression.applies_to == finding.line) and suppression.covers(finding.rule):
                suppression.used = True
                hit = True
        if not hit:
            kept.append(finding)
    return kept, suppressions


def suppress(findings, documents, selection, rules):
    """Findings after inline suppressions, plus TC009 for each unused one (sorted)."""
    from toolcontract.model import Finding

    by_path: dict[str, list] = {}
    for finding in findings:
        by_path.setdefault(finding.path, []).append(finding)
    unused_rule = rules["TC009"]
    report_unused = selection.enabled(unused_rule.id)
    enabled = [rule.id for rule in rules.values()
               if selection.enabled(rule.id) and (not rule.surfaces or selection.surfaces_for(rule))]
    # selected rules that run only for targets, and which of them ran
    targeted = [(rule.id, bool(selection.surfaces_for(rule))) for rule in rules.values()
                if rule.surfaces and selection.enabled(rule.id)]
    result = []
    for path in set(by_path) | set(documents):
        document = documents.get(path)
        here = by_path.get(path, [])
        if document is None:
            result.extend(here)
            continue
        suppressions = parse_suppressions(document.text)
        if not suppressions:
            result.extend(here)
            continue
        kept, suppressions = apply_suppressions(here, suppressions)
        result.extend(kept)
        if not report_unused:
            continue
        for s in suppressions:
            if s.used:
                continue
            if s.codes and not all(_evidence(code, enabled, targeted) for code in s.codes):
                continue  # it names a rule that did not run: not evidence of anything
            what = ", ".join(s.codes) if s.codes else "any rule"
            message = f"unused suppression: no finding of {what} " + (
                "in this file" if s.applies_to is None else f"on line {s.applies_to}")
            result.append(Finding(path, s.line, s.column, unused_rule.id, unused_rule.name,
                                  unused_rule.severity, message, "", None))
    result.sort()
    return result


def _evidence(code: str, enabled: list[str], targeted: list[tuple[str, bool]]) -> bool:
    """Whether a code's rules ran, so that no finding of it means the comment is unused: some
    rule it covers ran, and, if it covers rules that run only for targets, one of those ran."""
    if not any(rule_id.startswith(code) for rule_id in enabled):
        return False
    covered = [ran for rule_id, ran in targeted if rule_id.startswith(code)]
    return not covered or any(covered)
