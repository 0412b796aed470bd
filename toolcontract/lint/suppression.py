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

What was not read is never hidden: a parse error (TC000) and the TC002 finding of a file from
which no tool could be read are kept whatever a comment says (the engine adds them after this
step; see lint.engine.lint_files), as they are whatever `--select`, `--ignore` and per-file
ignores say. A comment in such a file is not read as a suppression of anything, so it is not
reported as unused (TC009) either: no rule that it could name ran on the file.

Only real comments count: YAML comments as the scanner sees them (a `#` inside any scalar,
quoted, block or plain, is text), never anything in a JSON file or a live server's answer, which
are data a tool's author controls. The security rules (TC6xx) are never hidden by a comment that
does not name them (a bare `ignore` / `ignore-file`), nor by a comment at the end of a line,
which sits beside the very scalar that holds the finding's span: put `# toolcontract:
ignore[TC603]` on the line above. A code that is not a rule id or prefix (`TC4O3`) is reported
as an invalid suppression (TC009).
"""

from __future__ import annotations

import re

from toolcontract.core.model import Finding
from toolcontract.core.records import Record

# within a comment's text: the suppression, at its start or after other comment text
_COMMENT_SOURCE = r"(?:^|\s)#\s*toolcontract:\s*(?P<kind>ignore-file|ignore)\b(?:\[(?P<codes>[^\]]*)\])?"
_CODE = re.compile(r"TC\d{0,3}\Z|ALL\Z")
# `# toolcontract:` and a word that is no suppression (`ignroe[TC403]`, `disable=TC4`); not a value
# (`# toolcontract: 1` is a commented-out key)
_LOOSE = re.compile(r"(?:^|\s)#\s*toolcontract:\s*(?P<word>[A-Za-z]\S*)")
SECURITY = "TC6"


class Suppression(Record):
    """A `# toolcontract: ignore[...]` comment: where it is (`line`, `column`), the line it
    covers (`applies_to`; None for ignore-file), the rule ids or prefixes it names (`codes`;
    empty: every rule), whether it ends a line of YAML (`trailing`), the codes that are no rule id
    or prefix (`invalid`), its text, and whether a finding used it."""

    __slots__ = ("line", "column", "applies_to", "codes", "text", "used", "trailing", "invalid", "used_codes",
                 "kind", "malformed", "tool", "paths")

    def __init__(self, line: int, column: int, applies_to: int | None, codes: tuple[str, ...], text: str,
                 used: bool = False, trailing: bool = False, invalid: tuple[str, ...] = (),
                 used_codes: set[str] | None = None, kind: str = "ignore", malformed: bool = False,
                 tool: str | None = None, paths: tuple[str, ...] = ()):
        self.line = line
        self.column = column
        self.applies_to = applies_to
        self.codes = codes
        self.text = text
        self.used = used
        self.trailing = trailing
        self.invalid = invalid
        self.used_codes = set() if used_codes is None else used_codes  # the codes a finding matched
        self.kind = kind  # "ignore" or "ignore-file"
        self.malformed = malformed  # `# toolcontract:` and then no suppression it could read (`invalid`: its text)
        self.tool = tool  # an overlay entry's `ignore` item (kind "overlay"): the tool's findings in `paths`
        self.paths = paths

    __hash__ = None  # type: ignore[assignment]  # `used` changes

    def covers(self, rule_id: str) -> bool:
        return bool(self.covering(rule_id)) if self.codes else self._covers_bare(rule_id)

    def _covers_bare(self, rule_id: str) -> bool:
        return not rule_id.startswith(SECURITY)  # the security rules only by name

    def covering(self, rule_id: str) -> tuple[str, ...]:
        """The codes of this suppression that cover the rule (empty for a bare one: see `covers`)."""
        if rule_id.startswith(SECURITY):  # only by name, and never from beside the scalar itself
            if self.trailing:
                return ()
            return tuple(code for code in self.codes if rule_id.startswith(code) and code != "ALL" and len(code) > 2)
        return tuple(code for code in self.codes if code == "ALL" or rule_id.startswith(code))

    def rewritten(self, codes: tuple[str, ...]) -> str:
        """This comment's suppression naming only `codes` (those still in use, and the invalid ones)."""
        return f"# toolcontract: {self.kind}[{', '.join(codes)}]"


# whatever a suppression comment holds, in a text: most descriptors have `toolcontract: 1` but
# no such comment, and this finds that in one quick pass instead of scanning the YAML
_GATE = re.compile(r"#\s*toolcontract:")


def parse_suppressions(text: str, path: str = "<text>.yaml") -> list[Suppression]:
    """The suppression comments of a file: none in JSON (it has no comments)."""
    from toolcontract.io.document import looks_like_json

    if _GATE.search(text) is None or looks_like_json(path, text):
        return []
    return _parse(text)


def _parse(text: str) -> list[Suppression]:
    from toolcontract.io.document import yaml_comments

    comment = re.compile(_COMMENT_SOURCE)
    found: list[Suppression] = []
    for number, column, body, trailing in yaml_comments(text):
        match = comment.search(body)
        malformed = None
        if match is None:
            loose = _LOOSE.search(body)
            if loose is not None:  # `# toolcontract: ignroe[TC403]`: a suppression it cannot read
                malformed = loose
        elif match.group("codes") is None and body[match.end():match.end() + 1] == "[":
            malformed = match  # `ignore[TC403` without its `]`: not the bare `ignore` it starts with
        elif match.group("codes") is not None and not match.group("codes").strip():
            malformed = match  # `ignore[]`: names nothing, and is no bare `ignore`
        if malformed is not None:
            at = column + body.index("#", malformed.start())
            written = body[at - column:].rstrip()
            found.append(Suppression(number, at, -1, (), written, trailing=trailing, invalid=(written,),
                                     malformed=True))
            continue
        if match is None:
            continue
        named = [c.strip().upper() for c in (match.group("codes") or "").split(",") if c.strip()]
        codes = tuple(c for c in named if _CODE.match(c))
        invalid = tuple(c for c in named if not _CODE.match(c))
        at = column + body.index("#", match.start())
        if match.group("kind") == "ignore-file":
            applies = None
        elif trailing:  # code before the comment: this line
            applies = number
        else:  # a comment alone on its line: the next line
            applies = number + 1
        if invalid and not codes:  # nothing it names is a rule: it suppresses nothing
            applies = -1
        found.append(Suppression(number, at, applies, codes, match.group(0).strip(), trailing=trailing,
                                 invalid=invalid, kind=match.group("kind")))
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
            if suppression.applies_to is None or suppression.applies_to == finding.line:
                if not suppression.codes:
                    if suppression.applies_to == -1 or not suppression._covers_bare(finding.rule):
                        continue
                else:
                    covering = suppression.covering(finding.rule)
                    if not covering:
                        continue
                    suppression.used_codes.update(covering)
                suppression.used = True
                hit = True
        if not hit:
            kept.append(finding)
    return kept, suppressions


def overlay_suppressions(documents, overlays) -> dict[str, list[Suppression]]:
    """The `ignore:` items of the overlays' entries, by overlay path: one Suppression per item, for
    that tool's findings in the provider file and the overlay (kind "overlay")."""
    found: dict[str, list[Suppression]] = {}
    for provider, (overlay_path, _) in (overlays or {}).items():
        overlay = documents.get(overlay_path)
        entries = overlay.data.get("tools") if overlay is not None and isinstance(overlay.data, dict) else None
        if not isinstance(entries, dict) or provider not in documents:
            continue
        for name, entry in entries.items():
            codes = entry.get("ignore") if isinstance(entry, dict) else None
            if not isinstance(codes, list):
                continue  # of the wrong type: the overlay's structure check reports it
            from toolcontract.core.pointer import join_pointer

            for index, code in enumerate(codes):
                if not isinstance(code, str):
                    continue
                line, column = overlay.locate(join_pointer("/tools", name, "ignore", str(index)), "value")
                code = code.strip().upper()
                valid = bool(_CODE.match(code))
                found.setdefault(overlay_path, []).append(Suppression(
                    line, column, None if valid else -1, (code,) if valid else (), code,
                    invalid=() if valid else (code,), kind="overlay", tool=name, paths=(provider, overlay_path)))
    return found


def suppress(findings, documents, selection, rules, unread_paths=frozenset(), overlays=None):
    """Findings after inline suppressions and overlay entries' `ignore` (see overlay_suppressions),
    plus TC009's findings on the comments and items (sorted); none for the files in `unread_paths`
    (files that gave no tool: TC002)."""
    from toolcontract.lint.context import SuppressionContext

    by_overlay = overlay_suppressions(documents, overlays) if overlays else {}
    for suppressions in by_overlay.values():
        for suppression in suppressions:
            _known_codes(suppression)
        findings = [f for f in findings if not _overlay_covers(f, suppressions)]
    by_path: dict[str, list] = {}
    for finding in findings:
        by_path.setdefault(finding.path, []).append(finding)
    report_unused = selection.enabled("TC009")
    evidence: list = []  # the enabled rules and the targeted ones, read from `rules` at the first comment

    def ran(code: str) -> bool:
        if not evidence:
            enabled = [rule.id for rule in rules.values()
                       if selection.enabled(rule.id) and (not rule.surfaces or selection.surfaces_for(rule))]
            # selected rules that run only for targets, and which of them ran
            targeted = [(rule.id, bool(selection.surfaces_for(rule))) for rule in rules.values()
                        if rule.surfaces and selection.enabled(rule.id)]
            evidence.append((enabled, targeted))
        return _evidence(code, *evidence[0])

    result = []
    for path in set(by_path) | set(documents):
        document = documents.get(path)
        here = by_path.get(path, [])
        if document is None:
            result.extend(here)
            continue
        suppressions = parse_suppressions(document.text, document.path)
        for suppression in suppressions:
            _known_codes(suppression)
        suppressions.extend(by_overlay.get(path, ()))
        if not suppressions:
            result.extend(here)
            continue
        kept, suppressions = apply_suppressions(here, [x for x in suppressions if x.kind != "overlay"])
        suppressions = [*suppressions, *by_overlay.get(path, ())]
        result.extend(kept)
        if not report_unused or path in unread_paths:
            continue
        unused_rule = rules["TC009"]
        for hit in unused_rule.check(SuppressionContext(path, suppressions, ran)):
            line, column = hit.position
            fix = None
            if hit.fix is not None:
                from toolcontract.lint.engine import place_fix

                fix = place_fix(hit.fix, path, document)
            result.append(Finding(path, line, column, unused_rule.id, unused_rule.name,
                                  selection.severity_of(unused_rule, hit), hit.message, "", None, fix))
    result.sort()
    return result


def _overlay_covers(finding, suppressions: list[Suppression]) -> bool:
    """Whether an overlay's `ignore` item suppresses the finding (marking the item used)."""
    if finding.tool is None or finding.rule == "TC000":
        return False
    hit = False
    for suppression in suppressions:
        if suppression.tool == finding.tool and finding.path in suppression.paths and suppression.codes:
            covering = suppression.covering(finding.rule)
            if covering:
                suppression.used = True
                suppression.used_codes.update(covering)
                hit = True
    return hit


def _known_codes(suppression: Suppression) -> None:
    """Move the codes that name no rule (`TC999`, `TC9`) to the suppression's invalid ones."""
    if not suppression.codes:
        return
    from toolcontract.lint.engine import rule_ids

    known = rule_ids()
    unknown = tuple(code for code in suppression.codes
                    if code != "ALL" and not any(rule_id.startswith(code) for rule_id in known))
    if unknown:
        suppression.codes = tuple(code for code in suppression.codes if code not in unknown)
        suppression.invalid = (*suppression.invalid, *unknown)
        if not suppression.codes:
            suppression.applies_to = -1  # nothing it names is a rule: it suppresses nothing


def _evidence(code: str, enabled: list[str], targeted: list[tuple[str, bool]]) -> bool:
    """Whether a code's rules ran, so that no finding of it means the comment is unused: some
    rule it covers ran, and, if it covers rules that run only for targets, one of those ran."""
    if not any(rule_id.startswith(code) for rule_id in enabled):
        return False
    covered = [ran for rule_id, ran in targeted if rule_id.startswith(code)]
    return not covered or any(covered)
