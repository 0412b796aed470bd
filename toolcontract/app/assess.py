"""The assess job: recordings in (fixtures, JSONL logs, transcripts, OpenTelemetry traces), every call
assessed, and each envelope and conversation report handed to a reporter as it is made. No terminal, no
exit code: the CLI (`toolcontract.cli.assess_run`) picks the reporter and decides the exit code;
`assess_paths` collects everything for a library caller.

    from toolcontract import assess_paths
    result = assess_paths(["logs/run.jsonl"], tools=["tools/"])
    for envelope in result.cases: ...

Bad input (a missing path, `--tools` that gives no tool, an unreadable fixture, a bad context file, an
unknown `fail_on`) raises `InputError` (toolcontract.io.errors), one line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Optional

from toolcontract.io.errors import InputError
from toolcontract.report.common import AssessReporter  # the summary every format counts


class AssessJob:
    """One assess run, checked and ready: its files found, `tools` loaded, the context read. `run(reporter)`
    assesses every file; True when the run must exit 1 (an unmet expectation, a `fail_on` outcome, or a
    conversation finding at or above the lowest severity named in `fail_on`, default error)."""

    def __init__(self, paths: Iterable[str], tools: Optional[Iterable[str]] = None,
                 fail_on: Optional[Iterable[str]] = None, context_file: Optional[str] = None,
                 max_rounds: int = 20, select: Optional[Iterable[str]] = None,
                 ignore: Optional[Iterable[str]] = None) -> None:
        # the readers still live in the CLI package; they move to io/ with the layout of DESIGN §5
        from toolcontract.app.codes import split_codes
        from toolcontract.io.inputs import FIXTURE_SUFFIXES, discover, load_descriptor_dicts
        from toolcontract.core.model import Outcome, Severity

        failing = set(split_codes(_listed(fail_on)))
        severities = {s.name for s in Severity} & failing  # transcript findings at or above the lowest named fail
        self.threshold = min((Severity[name] for name in severities), default=Severity.ERROR)
        failing -= severities
        known = {o.value.upper() for o in Outcome}
        for outcome in failing:
            if outcome not in known:
                raise InputError(f"toolcontract: --fail-on: {outcome.lower()!r} is not an outcome "
                                 f"({', '.join(o.value for o in Outcome)}) or a severity (error, warning, info)")
        self.failing = failing
        self.failing_outcomes = frozenset(o for o in Outcome if o.value.upper() in failing)
        self.rule_select = conversation_selection(split_codes(_listed(select)), split_codes(_listed(ignore)))
        self.fixture_files = list(discover(_listed(paths), FIXTURE_SUFFIXES))
        self.descriptor_cache: dict[str, list[dict]] = {}
        self.shared: list[dict] = []
        for given in _listed(tools):  # each --tools must give tools: a typo'd path must not assess against nothing
            found = load_descriptor_dicts([given], self.descriptor_cache)
            if not found:
                raise InputError(f"toolcontract: --tools {given}: no tool descriptors found")
            self.shared.extend(found)
        self.registries: dict = {}
        # transcripts, and the conversation rules they bring, are imported when a file needs them:
        # a run over fixture logs alone starts without them
        self.transcript_context = None
        if context_file:
            from toolcontract.io import transcripts

            try:
                self.transcript_context = transcripts.load_context(context_file)
            except transcripts.ContextError as exc:
                raise InputError(str(exc)) from None
        self.max_rounds = max_rounds
        self.assessor = None  # the one TranscriptAssessor of the run, made on first use
        self.current: Optional[str] = None  # the file being assessed

    def run_transcripts(self, reporter, conversations) -> bool:
        from toolcontract.assessment.conversation import Options
        from toolcontract.assessment.transcripts import TranscriptAssessor

        if self.assessor is None:
            self.assessor = TranscriptAssessor(self.shared, self.transcript_context, Options(max_rounds=self.max_rounds),
                                               select=self.rule_select)
        return run_conversations(conversations, self.assessor, reporter, self.failing, self.threshold)

    def registry_for(self, extra: list[str]):
        from toolcontract.io.inputs import load_descriptor_dicts

        key = tuple(extra)
        if key not in self.registries:
            self.registries[key] = build_registry(self.shared + load_descriptor_dicts(extra, self.descriptor_cache))
        return self.registries[key]

    def run(self, reporter) -> bool:
        """Assess every file into `reporter` (begin_file, case, conversation, end_file; never finish).
        Raises FixtureError, OSError or InputError for a file it cannot read, after the cases before it."""
        from toolcontract.assessment.envelope import assess as assess_case
        from toolcontract.io.inputs import read_fixture
        from toolcontract.io.document import DEFAULT_LIMITS
        from toolcontract.io.fixtures import FixtureError, jsonl_holds_cases, read_fixture_bytes, read_jsonl

        failed = False
        reporter.failing_outcomes = self.failing_outcomes  # what the short summary lists as failing
        for path in self.fixture_files:
            self.current = path  # what a bug report names
            reporter.begin_file(path)
            try:
                if path.lower().endswith(".jsonl"):
                    from toolcontract.io.files import open_regular

                    with open_regular(path) as stream:
                        if not jsonl_holds_cases(stream, DEFAULT_LIMITS):
                            from toolcontract.io import traces, transcripts

                            if traces.jsonl_holds_traces(stream, DEFAULT_LIMITS):  # OTLP/JSON lines (a Collector file)
                                failed |= self.run_transcripts(reporter, traces.read_jsonl(stream, path, DEFAULT_LIMITS))
                                continue
                            if transcripts.jsonl_holds_conversations(stream, DEFAULT_LIMITS):
                                failed |= self.run_transcripts(reporter, transcripts.read_jsonl(stream, path, DEFAULT_LIMITS))
                                continue
                        registry = self.registry_for([])
                        for case in read_jsonl(stream, path, DEFAULT_LIMITS):
                            envelope = assess_case(case, registry)
                            if not envelope.expect_met or (self.failing and envelope.outcome in self.failing_outcomes):
                                failed = True
                            reporter.case(envelope)
                else:
                    from toolcontract.io import traces, transcripts
                    from toolcontract.io.files import open_regular

                    with open_regular(path) as stream:  # an OTLP/JSON trace: JSON lines are streamed, whatever the name
                        if traces.looks_like_traces(stream.read(256)):
                            stream.seek(0)
                            failed |= self.run_transcripts(reporter, traces.read_stream(stream, path, DEFAULT_LIMITS))
                            continue
                    raw = read_fixture(path, DEFAULT_LIMITS.max_bytes)
                    document = transcripts.transcript_document(raw, path, DEFAULT_LIMITS)
                    if document is not None:
                        failed |= self.run_transcripts(reporter, transcripts.read_document(document))
                        continue
                    document = traces.trace_document(raw, path, DEFAULT_LIMITS)  # `resourceSpans` not first
                    if document is not None:
                        failed |= self.run_transcripts(reporter, traces.read_document(document))
                        continue
                    fixture = read_fixture_bytes(raw, path, DEFAULT_LIMITS)
                    base = os.path.dirname(path)
                    extra = []
                    for index, entry in enumerate(fixture.tools):
                        resolved = os.path.normpath(os.path.join(base, entry))
                        if not os.path.exists(resolved):
                            line, column = fixture.locate(f"/tools/{index}")
                            raise FixtureError(path, line, column, f"tools entry {entry!r} does not exist ({resolved})")
                        extra.append(resolved)
                    registry = self.registry_for(extra)
                    for case in fixture.cases:
                        envelope = assess_case(case, registry)
                        if not envelope.expect_met or (self.failing and envelope.outcome in self.failing_outcomes):
                            failed = True
                        reporter.case(envelope)
            finally:
                reporter.end_file(path)
        return failed


def build_registry(descriptors: list[dict]):
    """The registry of a fixture's or a log's cases: the named descriptors compiled once; `offered` False when
    there are no tools at all (a log that cannot say what was offered)."""
    from toolcontract.assessment.registry import Registry

    registry = Registry.from_descriptors([d for d in descriptors if isinstance(d.get("name"), str)])
    registry.offered = bool(descriptors)
    return registry


def conversation_selection(select: tuple[str, ...], ignore: tuple[str, ...]) -> Optional[tuple[str, ...]]:
    """The ids of the conversation rules (TC8xx) that `--select` and `--ignore` leave on (as lint's: the longest
    matching prefix decides), or None for all of them. A code that matches no conversation rule is an InputError."""
    if not select and not ignore:
        return None
    from toolcontract.assessment.conversation import conversation_rules
    from toolcontract.lint.engine import Selection

    ids = [rule.id for rule in conversation_rules()]
    for flag, codes in (("--select", select), ("--ignore", ignore)):
        for code in codes:
            if code != "ALL" and not any(rule_id.startswith(code) for rule_id in ids):
                raise InputError(f"toolcontract: assess {flag}: {code!r} matches no conversation rule ({ids[0]} to "
                                 f"{ids[-1]}; `toolcontract rules` lists them)")
    selection = Selection(select=select or ("TC",), ignore=ignore)
    return tuple(rule_id for rule_id in ids if selection.enabled(rule_id))


class AssessSettings:
    """What an assess run takes from the command line, and where an option is not given, from the configuration's
    `assess` table (`[tool.toolcontract.assess]`, `assess:` in .toolcontract.yaml), else the defaults."""

    def __init__(self, select=None, ignore=None, fail_on=None, context_file=None, max_rounds=None,
                 config: Optional[str] = None, no_config: bool = False) -> None:
        from toolcontract.app.codes import split_codes
        from toolcontract.io.inputs import resolve_config

        table = resolve_config(config, no_config).assess
        self.select = split_codes(_listed(select)) or table.select
        self.ignore = split_codes(_listed(ignore)) or table.ignore
        self.fail_on = _listed(fail_on) or list(table.fail_on)
        self.context_file = context_file if context_file is not None else table.context
        self.max_rounds = max_rounds if max_rounds is not None else (table.max_rounds or 20)

    def job(self, paths: Iterable[str], tools: Optional[Iterable[str]] = None) -> "AssessJob":
        return AssessJob(paths, tools, self.fail_on, self.context_file, self.max_rounds, self.select, self.ignore)


@dataclass
class AssessResult:
    """What `assess_paths` found: every case's envelope and every conversation's report, in order; the
    summary every assess format reports; `failed`, whether `toolcontract assess` would exit 1."""

    cases: list = field(default_factory=list)
    conversations: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    tools: list = field(default_factory=list)  # per tool: calls by outcome, effects unverified, refusals by gate
    failed: bool = False


def assess_paths(paths: Iterable[str], *, tools: Optional[Iterable[str]] = None,
                 fail_on: Optional[Iterable[str]] = None, context: Optional[str] = None,
                 max_rounds: int = 20, select: Optional[Iterable[str]] = None,
                 ignore: Optional[Iterable[str]] = None) -> AssessResult:
    """Assess the recordings `paths` as `toolcontract assess` does (`tools`: descriptor files or folders
    for every registry; `context`: a context file for transcripts; `fail_on`: outcomes or severities
    that fail the run; `select`/`ignore`: conversation rule ids or prefixes), and collect the result.
    Reads no configuration file. Raises InputError for input it cannot take."""
    from toolcontract.io.fixtures import FixtureError

    job = AssessJob(paths, tools, fail_on, context, max_rounds, select, ignore)
    collector = _Collector()
    try:
        failed = job.run(collector)
    except FixtureError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"{getattr(exc, 'filename', None) or '-'}:1:1: cannot read: {exc.strerror or exc}") from None
    summary = collector.summary
    return AssessResult(collector.cases, collector.conversations, summary.as_dict(),
                        [s.as_dict() for s in sorted(summary.tools.values(), key=lambda s: (-s.calls, s.tool))],
                        failed)


class _Collector(AssessReporter):
    """A reporter that keeps what it is given."""

    def __init__(self) -> None:
        super().__init__(None)
        self.cases: list = []
        self.conversations: list = []

    def case(self, envelope) -> None:
        super().case(envelope)
        self.cases.append(envelope)

    def conversation(self, report) -> None:
        super().conversation(report)
        self.conversations.append(report)


def _listed(values) -> list[str]:
    """A list of the strings given: one string is one value, not its characters."""
    if values is None:
        return []
    return [values] if isinstance(values, str) else list(values)


def run_conversations(conversations, assessor, reporter, failing: Iterable[str] = (), threshold=None) -> bool:
    """Assess conversations with `assessor` (toolcontract.assessment.transcripts.TranscriptAssessor) and
    stream the envelopes and conversation reports to an assess reporter; True when the run must exit 1:
    a `--fail-on` outcome, or a finding at or above `threshold` (a Severity; default error)."""
    from toolcontract.core.model import Severity

    threshold = Severity.ERROR if threshold is None else threshold
    failing = {f.upper() for f in failing}
    reporter.finding_threshold = threshold
    failed = False
    for conversation in conversations:
        envelopes, summary = assessor.assess(conversation)
        for envelope in envelopes:
            failed |= not envelope.expect_met or envelope.outcome.value.upper() in failing
            reporter.case(envelope)
        worst = summary.worst()
        failed |= worst is not None and worst >= threshold
        reporter.conversation(summary)
    return failed


def check_text(text: str, path: str = "transcript.json", options=None, select: Iterable[str] | None = None) -> list:
    """Conversation findings of a transcript given as text (rule examples, tests)."""
    from toolcontract.assessment.conversation import Options
    from toolcontract.assessment.transcripts import TranscriptAssessor
    from toolcontract.io.document import load_text
    from toolcontract.io.transcripts import read_document

    document = load_text(text, path)
    assessor = TranscriptAssessor(options=Options() if options is None else options, select=select)  # the calls assessed, as `assess` does
    findings = []
    for conversation in read_document(document):
        findings.extend(assessor.assess(conversation)[1].findings)
    return sorted(findings)
