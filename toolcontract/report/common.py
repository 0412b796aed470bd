"""Helpers every reporter uses."""

from __future__ import annotations

from toolcontract.core.text import UNSAFE_CHARACTERS, line_start, printable  # noqa: F401 - the reporters' escaper
from toolcontract.core.model import Severity


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


_CONSEQUENTIAL = frozenset(("reversible_write", "irreversible_write", "open_world"))


class ToolStats:
    """One tool's calls in a run, as a reviewer asks about them: by outcome, consequential calls whose
    effect is unverified or unknown, refusals by gate."""

    __slots__ = ("tool", "calls", "by_outcome", "effect_unverified", "effect_unknown", "refused_by_gate")

    def __init__(self, tool: str) -> None:
        self.tool = tool
        self.calls = 0
        self.by_outcome: dict[str, int] = {}
        self.effect_unverified = 0
        self.effect_unknown = 0
        self.refused_by_gate: dict[str, int] = {}

    def add(self, envelope, consequential: bool, times: int = 1) -> None:
        """Count `envelope` (`times` envelopes alike: a batch run's counted groups)."""
        self.calls += times
        key = envelope.outcome._value_
        self.by_outcome[key] = self.by_outcome.get(key, 0) + times
        if consequential:
            effect = envelope.effect._value_
            if effect == "unverified":
                self.effect_unverified += times
            elif effect == "unknown":
                self.effect_unknown += times
        if envelope.gate is not None:
            gate = envelope.gate._value_
            self.refused_by_gate[gate] = self.refused_by_gate.get(gate, 0) + times

    def as_dict(self) -> dict:
        return {"tool": self.tool, "calls": self.calls, "by_outcome": dict(sorted(self.by_outcome.items())),
                "consequential_effect_unverified": self.effect_unverified,
                "consequential_effect_unknown": self.effect_unknown,
                "refused_by_gate": dict(sorted(self.refused_by_gate.items()))}

    def line(self) -> str:
        """`tool x: 12 calls (needs_evidence 9, succeeded 3); effect unverified on 9 consequential calls`"""
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(self.by_outcome.items()))
        parts = [f"tool {printable(self.tool)}: {self.calls} call{'s' * (self.calls != 1)} ({outcomes})"]
        if self.effect_unverified or self.effect_unknown:
            parts.append(f"consequential with effect unverified {self.effect_unverified}, unknown {self.effect_unknown}")
        if self.refused_by_gate:
            parts.append("refused at " + ", ".join(f"{k} {v}" for k, v in sorted(self.refused_by_gate.items())))
        return "; ".join(parts)


def tool_key(envelope) -> str:
    return envelope.tool if isinstance(envelope.tool, str) else str(envelope.tool)


def consequential_of(envelope) -> bool:
    """Whether the assessed call's tool is consequential: its effect class is, or it has none (the worst case)."""
    tool = envelope.evidence.get("tool") if isinstance(envelope.evidence, dict) else None
    if tool is None:
        return False  # no such tool: nothing ran as that tool
    effect = tool.get("effect")
    return effect is None or effect in _CONSEQUENTIAL


class AssessSummary:
    """Counts as cases stream past: the `summary` of every assess format, and the tools' stats (per
    run in `tools`, per file in `file_tools`, bounded by the number of tool names)."""

    def __init__(self, per_file: bool = True) -> None:
        self.per_file = per_file  # whether to keep `file_tools` (the formats that print a file's tools)
        self.cases = 0
        self.by_outcome: dict[str, int] = {}
        self.expect_failed = 0
        self.expected = 0  # cases that carry an expectation
        self.evidence_only = 0  # cases assessed from a recording alone (no context)
        self.no_effect_class = 0  # calls of a tool with no effect class from any source (judged consequential)
        self.conversations = 0  # transcripts only: conversations and their findings by severity
        self.conversation_findings = {s.label: 0 for s in sorted(Severity, reverse=True)}
        self.tools: dict[str, ToolStats] = {}
        self.file_tools: dict[str, ToolStats] = {}

    def begin_file(self) -> None:
        self.file_tools = {}

    def add(self, envelope, times: int = 1) -> None:
        """Count `envelope` (`times` envelopes alike: a batch run's counted groups, toolcontract.app.scale)."""
        self.cases += times
        key = envelope.outcome._value_  # (`.value`, without the enum property's cost per case)
        self.by_outcome[key] = self.by_outcome.get(key, 0) + times
        if not envelope.expect_met:
            self.expect_failed += times
        if envelope.expect is not None:
            self.expected += times
        if envelope.trail and envelope.trail[-1].get("result") == "not_judged":
            self.evidence_only += times
        tool = envelope.evidence.get("tool") if isinstance(envelope.evidence, dict) else None
        if tool is not None and tool.get("effect") is None:
            self.no_effect_class += times
        consequential = tool is not None and (tool.get("effect") is None or tool.get("effect") in _CONSEQUENTIAL)
        name = envelope.tool if isinstance(envelope.tool, str) else str(envelope.tool)  # tool_key
        entry = self.tools.get(name)
        if entry is None:
            entry = self.tools[name] = ToolStats(name)
        entry.add(envelope, consequential, times)
        if self.per_file:
            entry = self.file_tools.get(name)
            if entry is None:
                entry = self.file_tools[name] = ToolStats(name)
            entry.add(envelope, consequential, times)

    def add_conversation(self, report) -> None:
        self.conversations += 1
        for finding in report.findings:
            self.conversation_findings[finding.severity.label] += 1

    def as_dict(self) -> dict:
        summary = {"cases": self.cases, "by_outcome": dict(sorted(self.by_outcome.items())),
                   "expect_failed": self.expect_failed}
        if self.evidence_only:  # only runs with such cases gain these keys
            summary["evidence_only"] = self.evidence_only
        if self.no_effect_class:
            summary["no_effect_class"] = self.no_effect_class
        if self.conversations:  # only runs that read transcripts gain these keys
            summary["conversations"] = self.conversations
            summary["conversation_findings"] = dict(self.conversation_findings)
        return summary


class AssessReporter:
    """Streaming interface of an assess format: cases arrive one at a time; from transcripts,
    each conversation's report follows its cases.

    `failing_outcomes` (set by the job): the outcomes `--fail-on` names. Every case that fails the run (an unmet
    expectation, or such an outcome) is kept, up to SHORT_LIMIT, for the short summary of the human formats."""

    finding_threshold: Severity = Severity.ERROR  # conversation findings at or above it fail the run
    failing_outcomes: frozenset = frozenset()
    SHORT_LIMIT = 100

    PROGRESS_FROM = 5000  # cases before a progress line is worth showing
    PER_FILE_TOOLS = False  # True: the format prints each file's tools (summary.file_tools)
    PROGRESS_EVERY = 1000

    def __init__(self, stream, verbose: bool = False, progress=None) -> None:
        self.stream = stream
        self.verbose = verbose
        self.summary = AssessSummary(self.PER_FILE_TOOLS)
        self.progress = progress  # a terminal's stderr, for a `assessed N cases` line on long inputs
        self._progress_shown = False
        self.failures: list[str] = []  # the short summary's lines (the first SHORT_LIMIT)
        self.failures_total = 0
        self.failing_total = 0  # cases with a --fail-on outcome

    def begin_file(self, path: str) -> None:
        self.summary.begin_file()

    def case(self, envelope) -> None:
        self.summary.add(envelope)
        if not envelope.expect_met or envelope.outcome in self.failing_outcomes:
            self.failures_total += 1
            self.failing_total += envelope.outcome in self.failing_outcomes
            if len(self.failures) < self.SHORT_LIMIT:
                self.failures.append(failure_line(envelope, self.failing_outcomes))
        n = self.summary.cases
        if self.progress is not None and n >= self.PROGRESS_FROM and n % self.PROGRESS_EVERY == 0:
            self.progress.write(f"\rassessed {n:,} cases ...")
            self.progress.flush()
            self._progress_shown = True

    def clear_progress(self) -> None:
        if self._progress_shown:
            self.progress.write("\r" + " " * 40 + "\r")
            self.progress.flush()
            self._progress_shown = False

    def conversation(self, report) -> None:
        """A conversation's summary and findings (`ConversationReport`), after its cases."""
        self.summary.add_conversation(report)

    def end_file(self, path: str) -> None:
        pass

    def finish(self, error: str | None = None) -> None:
        """`error` is the one-line fixture error that stopped the run, if any."""


def want_got(envelope) -> str:
    """`want outcome=rejected effect=none, got outcome=allowed effect=none` of an unmet expectation."""
    want = " ".join(f"{k}={v or '-'}" for k, v in envelope.expect["want"].items())
    got = " ".join(f"{k}={v or '-'}" for k, v in envelope.expect["got"].items())
    return f"want {want}, got {got}"


def failure_line(envelope, failing_outcomes=frozenset()) -> str:
    """A case that fails the run, as the short summary lists it: `path:line: case id: want X, got Y` for an unmet
    expectation, `path:line: case id: OUTCOME (failing)` for a `--fail-on` outcome (both, when both)."""
    source = envelope.source or {}
    parts = []
    if not envelope.expect_met:
        parts.append(want_got(envelope))
    if envelope.outcome in failing_outcomes:
        parts.append(f"{envelope.outcome.value} (failing)")
    return (f"{printable(str(source.get('path', '-')))}:{source.get('line', 0)}: {printable(str(envelope.case_id))}: "
            + "; ".join(parts))


def short_summary(reporter: "AssessReporter") -> list[str]:
    """The short summary at the end of text and rich: a head line, then one indented line per failing case
    (the first SHORT_LIMIT, then how many more). Empty when no case failed the run."""
    if not reporter.failures_total:
        return []
    s = reporter.summary
    failing = reporter.failing_total
    counts = []
    if s.expect_failed:
        counts.append(f"{s.expect_failed} unmet expectation{'s' * (s.expect_failed != 1)}")
    if failing > 0:
        counts.append(f"{failing} failing outcome{'s' * (failing != 1)}")
    lines = ["short summary: " + ", ".join(counts)]
    lines += ["  " + line for line in reporter.failures]
    if reporter.failures_total > len(reporter.failures):
        lines.append(f"  ... and {reporter.failures_total - len(reporter.failures)} more")
    return lines


def expectation_note(summary: "AssessSummary") -> str:
    """`; 2 unmet expectations`, `; every expectation met`, or `; no expectations` (no case had one)."""
    if summary.expect_failed:
        return f"; {summary.expect_failed} unmet expectation{'s' * (summary.expect_failed != 1)}"
    return "; every expectation met" if summary.expected else "; no expectations"


def evidence_notes(summary: "AssessSummary") -> list[str]:
    """The lines under an assess summary that say what was judged from the evidence alone."""
    notes = []
    if summary.evidence_only:
        n = summary.evidence_only
        notes.append(f"{n} call{'s' * (n != 1)} assessed from evidence only: no --context, so target, environment and "
                     "approval were not judged")
    if summary.no_effect_class:
        n = summary.no_effect_class
        notes.append(f"{n} call{'s' * (n != 1)} of tools with no effect class (no descriptor, overlay or MCP "
                     "annotation gives one) judged as consequential: the worst case")
    return notes
