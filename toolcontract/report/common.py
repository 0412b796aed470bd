"""Helpers every reporter uses."""

from __future__ import annotations

import re

from toolcontract.model import Severity

# C0/C1 controls (terminal escapes), plus invisible format characters that could
# reorder or hide text on a terminal (bidi controls, zero-width characters, tags).
UNSAFE_CHARACTERS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (but tab and newline) and C1 controls: terminal escapes
    "\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"  # invisible, bidi
    "\U000e0000-\U000e007f"  # tag characters (hidden ASCII)
    "\ud800-\udfff\ufffe\uffff"  # no characters: lone surrogates (a file name's undecodable bytes), non-characters
)
_UNSAFE = f"[{UNSAFE_CHARACTERS}]"  # compiled by re (and cached there) on the first text that needs it (~0.5 ms)


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """Input-derived text made safe for a terminal: unsafe characters become visible escapes."""
    if text.isascii() and text.isprintable():  # no control character, no newline: nothing to escape
        return text

    def escape(match: re.Match) -> str:
        char = match.group()
        if keep_newlines and char == "\n":
            return char
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (surrogateescape): that byte
            return f"\\x{code - 0xDC00:02x}"
        return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")

    text = re.sub(_UNSAFE, escape, text)
    if not keep_newlines:
        text = text.replace("\n", "\\n")
    return text


def line_start(text: str) -> str:
    """A printable text that begins a line of output: never a GitHub workflow command (`::add-mask::`,
    `::error ...::`), which the Actions runner acts on in any step's output; its first `:` is escaped."""
    stripped = text.lstrip()
    if stripped.startswith("::"):
        at = len(text) - len(stripped)
        return text[:at] + "\\x3a" + text[at + 1:]
    return text


# Human formats (text, rich) show at most this many findings of one rule in one file, then
# one line saying how many more there are; machine formats (json, sarif, github, junit) keep all.
REPEAT_LIMIT = 10


def by_file(findings) -> dict[str, list]:
    """Findings grouped by path, in the order they arrive (sorted by path, line, column, rule)."""
    groups: dict[str, list] = {}
    for finding in findings:
        groups.setdefault(finding.path, []).append(finding)
    return groups


def limit_repeats(findings, limit: int = REPEAT_LIMIT) -> tuple[list, dict[str, int]]:
    """One file's findings as a human format shows them: the first `limit` of each rule (in the
    order given), and for each rule with more, how many are not shown (by rule id)."""
    seen: dict[str, int] = {}
    shown = []
    for finding in findings:
        count = seen.get(finding.rule, 0) + 1
        seen[finding.rule] = count
        if count <= limit:
            shown.append(finding)
    return shown, {rule: count - limit for rule, count in sorted(seen.items()) if count > limit}


def more_line(rule: str, count: int) -> str:
    """What stands for the findings of a rule past REPEAT_LIMIT in one file (counted, not shown)."""
    return f"and {count} more {rule} in this file"


def rule_tally(findings) -> list[tuple[str, str, int, Severity]]:
    """(rule id, rule name, findings, highest severity) per rule, most findings first, then by id."""
    tally: dict[str, list] = {}
    for finding in findings:
        entry = tally.get(finding.rule)
        if entry is None:
            tally[finding.rule] = [finding.name, 1, finding.severity]
        else:
            entry[1] += 1
            if finding.severity > entry[2]:
                entry[2] = finding.severity
    return [(rule, name, count, severity)
            for rule, (name, count, severity) in sorted(tally.items(), key=lambda item: (-item[1][1], item[0]))]


def lint_summary(result) -> dict:
    """The summary every lint format reports: files linted, tools, findings per severity, and
    `skipped`, the files found in a folder that are no tool list (not counted in `files`)."""
    counts = {s.label: 0 for s in sorted(Severity, reverse=True)}
    for finding in result.findings:
        counts[finding.severity.label] += 1
    return {"files": result.files, "tools": result.tools, **counts, "skipped": len(getattr(result, "skipped", ()))}


def skipped_note(count: int) -> str:
    """`3 files skipped: not tool lists`, the note of a summary with skipped files."""
    return f"{count} file{'s' * (count != 1)} skipped: {'not tool lists' if count != 1 else 'not a tool list'}"


class AssessSummary:
    """Counts as cases stream past: the `summary` of every assess format."""

    def __init__(self) -> None:
        self.cases = 0
        self.by_outcome: dict[str, int] = {}
        self.expect_failed = 0
        self.conversations = 0  # transcripts only: conversations and their findings by severity
        self.conversation_findings = {s.label: 0 for s in sorted(Severity, reverse=True)}

    def add(self, envelope) -> None:
        self.cases += 1
        key = envelope.outcome._value_  # (`.value`, without the enum property's cost per case)
        self.by_outcome[key] = self.by_outcome.get(key, 0) + 1
        if not envelope.expect_met:
            self.expect_failed += 1

    def add_conversation(self, report) -> None:
        self.conversations += 1
        for finding in report.findings:
            self.conversation_findings[finding.severity.label] += 1

    def as_dict(self) -> dict:
        summary = {"cases": self.cases, "by_outcome": dict(sorted(self.by_outcome.items())),
                   "expect_failed": self.expect_failed}
        if self.conversations:  # only runs that read transcripts gain these keys
            summary["conversations"] = self.conversations
            summary["conversation_findings"] = dict(self.conversation_findings)
        return summary


class AssessReporter:
    """Streaming interface of an assess format: cases arrive one at a time; from transcripts,
    each conversation's report follows its cases."""

    finding_threshold: Severity = Severity.ERROR  # conversation findings at or above it fail the run

    def __init__(self, stream, verbose: bool = False) -> None:
        self.stream = stream
        self.verbose = verbose
        self.summary = AssessSummary()

    def begin_file(self, path: str) -> None:
        pass

    def case(self, envelope) -> None:
        self.summary.add(envelope)

    def conversation(self, report) -> None:
        """A conversation's summary and findings (`ConversationReport`), after its cases."""
        self.summary.add_conversation(report)

    def end_file(self, path: str) -> None:
        pass

    def finish(self, error: str | None = None) -> None:
        """`error` is the one-line fixture error that stopped the run, if any."""
