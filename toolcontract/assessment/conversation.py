"""Conversations, their analysis and the run of the conversation rules (TC8xx): the invariants
a recorded tool-calling conversation must keep.

The readers in `toolcontract.io.transcripts` turn Anthropic Messages, OpenAI Chat
and OpenAI Responses transcripts into the provider-neutral `Conversation` below; the
rules (one file each, in `toolcontract.assessment.rules`) only look at that and at its
`Analysis`. Pure: no files, no clock, no terminal. Positions come from the
conversation's own `locate` (the reader's already loaded document).

Pairing (DESIGN: the seed's pairing invariant, runbook R2; reference/tool-surfaces.md):

- every call has an id, and is answered by exactly one later result with that id (TC801,
  TC802, TC803). A result pairs with the earliest still-open call of its id; a result
  with no open call of its id is an orphan (it precedes its call, repeats an answer, or
  answers nothing). In a Responses request with `previous_response_id` the calls may be
  in the previous response, so orphans are not reported there.
- Anthropic: all results of one assistant turn go in the very next message (TC805), in
  that one message (TC804), before any other content of it (TC806).
  OpenAI Chat: the `role: tool` messages answering a turn follow it directly, before any
  other message (TC805; the API answers otherwise with "An assistant message with
  'tool_calls' must be followed by tool messages"). OpenAI Responses: pairing by
  `call_id` only.

Loops (runbook R3):

- a *round* is one model turn that calls tools (`turns`): an assistant message with calls
  (Chat); a run of consecutive assistant messages (Anthropic, whose API combines
  consecutive messages of one role into one turn: the results then belong right after the
  run's last message); a run of `function_call` items not interrupted by an output or a
  user message (Responses). More than `max_rounds` (default 20) is TC809.
- TC810: the same tool called again with the same or nearly the same arguments right
  after its previous call failed, `RETRY_LIMIT` (3) times or more. Arguments compare
  after normalising (JSON strings parsed, key order, case and runs of whitespace
  ignored, 1.0 == 1); "nearly the same" is a difflib similarity of at least
  `NEAR_SAME_RATIO` between the word/punctuation tokens of their canonical JSON. A call failed when its result says so:
  Anthropic's `is_error`; in the OpenAI formats, which have no error flag, a result whose
  text starts with "error", "exception", "traceback" or "failed", a JSON object with an
  `error`/`errors` member, or an MCP `isError=True` / `"isError": true` inside it.
- MCP 2026-07-28: a result whose `resultType` is `input_required` or `task` (the CallToolResult
  as the content, or as its JSON text) does not finish its call: the call is *pending*, neither
  answered nor unanswered (TC801 is silent); a later result with its id still answers it.
- TC807 (an empty or whitespace-only error result) needs an explicit error flag, so it
  applies to Anthropic `is_error` results only.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from toolcontract.core.model import Severity

ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES = "anthropic", "openai-chat", "openai-responses"
OTEL_GENAI = "otel-genai"  # an OpenTelemetry trace read by toolcontract.io.traces
FORMATS = (ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES, OTEL_GENAI)
LABELS = {ANTHROPIC: "Anthropic Messages", OPENAI_CHAT: "OpenAI Chat", OPENAI_RESPONSES: "OpenAI Responses",
          OTEL_GENAI: "OpenTelemetry GenAI trace"}

DEFAULT_MAX_ROUNDS = 20
RETRY_LIMIT = 3  # retries after an error before TC810
NEAR_SAME_RATIO = 0.9
_RATIO_MAX_CHARS = 20_000  # longer arguments compare by equality only (difflib is quadratic)


# ----------------------------------------------------------------------- model


@dataclass(frozen=True, eq=False)
class Call:
    """One client tool call: a `tool_use` block, a `tool_calls[]` entry or a `function_call` item."""

    id: str | None
    name: Any  # a string, unless the transcript is broken
    arguments: Any  # Anthropic: the `input` object; OpenAI: the raw JSON string
    message: int  # index of its message (Responses: of its item)
    block: int | None  # index in the message's content / tool_calls (None: the item itself)
    pointer: str  # JSON pointer of the block in the file
    pair: str | None = None  # what pairs it with its result when that is not the id (a trace's span)
    key: str | None = None  # its name in the case id instead of `msg{I}/{id}` (a trace's `span-{span id}`)
    origin: dict | None = None  # source fields a reader adds to the case (a trace's trace_id, span_id)
    arguments_known: bool = True  # False: the recording does not carry the arguments (`arguments` is None)


@dataclass(frozen=True, eq=False)
class Result:
    """One tool result: a `tool_result` block, a `role: tool` message or a `function_call_output` item."""

    call_id: str | None
    content: Any
    is_error: bool | None  # None: the format has no error flag (OpenAI)
    message: int
    block: int | None
    pointer: str
    pair: str | None = None  # as Call.pair
    record: Any = None  # the reader's own Record of what happened (a trace span's status); None: from is_error


@dataclass(frozen=True, eq=False)
class Message:
    index: int
    role: str | None
    pointer: str
    kinds: tuple[str, ...] = ()  # each block's kind, in order: "call", "result", "text", "image", ...
    calls: tuple[Call, ...] = ()
    results: tuple[Result, ...] = ()


def _no_position(pointer: str) -> tuple[int, int]:
    return (1, 1)


@dataclass(eq=False)
class Conversation:
    id: str  # conv1, conv2, ... in file order
    path: str
    format: str  # one of FORMATS
    pointer: str  # of the message (or item) list in the file
    messages: list[Message]
    offered: tuple[dict, ...] | None = None  # the request's tools as native-named descriptor dicts
    offered_names: frozenset[str] | None = None  # None: the transcript offers no tool list
    continues: bool = False  # a Responses request that continues `previous_response_id`
    locate: Callable[[str], tuple[int, int]] = field(default=_no_position, repr=False)
    # where a case's call is (line, column or None); JSONL gives the line alone: a column costs a scan
    # of the whole line, which findings pay for, every call would not
    locate_call: Callable[[str], tuple[int, int | None]] | None = field(default=None, repr=False)
    # what the reader saw but could not read as calls (TC814): (pointer, message, message index)
    unread: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def calls(self) -> Iterator[Call]:
        for message in self.messages:
            yield from message.calls

    @functools.cached_property
    def last_index(self) -> int:
        """The index of the last message (-1: none)."""
        return max((m.index for m in self.messages), default=-1)

    @functools.cached_property
    def last_going_on(self) -> int:
        """The index of the last message that carries the conversation on (-1: none): any message, but in
        Responses not an item that only calls (another call of the same turn)."""
        return max((m.index for m in self.messages
                    if not (self.format == OPENAI_RESPONSES and m.kinds and set(m.kinds) == {"call"})), default=-1)

    @property
    def results(self) -> Iterator[Result]:
        for message in self.messages:
            yield from message.results


@dataclass(frozen=True)
class Options:
    max_rounds: int = DEFAULT_MAX_ROUNDS
    retry_limit: int = RETRY_LIMIT
    near_same: float = NEAR_SAME_RATIO


# ------------------------------------------------------------------- analysis


@dataclass
class Analysis:
    """What every rule needs, computed once: pairing and rounds."""

    answers: dict[Call, Result]  # call -> the result that answers it
    unanswered: list[Call]
    orphans: list[tuple[Result, str]]  # result, why it answers no call
    duplicates: list[tuple[Call, Call]]  # call, the earlier call with its id
    rounds: list[Turn]  # the turns that call tools, in order
    # what assessing the calls gave (TranscriptAssessor.assess): each call's envelope, and the registry
    # of the tools offered; empty when only the conversation's shape is checked (TC811, TC813 need them)
    envelopes: dict[Call, Any] = field(default_factory=dict)
    registry: Any = None
    # call -> the MCP result that leaves it unfinished (resultType input_required or task: `pending_type`)
    pending: dict[Call, Result] = field(default_factory=dict)
    _arguments: dict[Call, tuple[Any, str | None]] = field(default_factory=dict, repr=False)  # parsed once each

    def answer(self, call: Call) -> Result | None:
        return self.answers.get(call)

    @functools.cached_property
    def _round_index(self) -> dict[Call, int]:
        return {c: n for n, turn in enumerate(self.rounds) for c in turn.calls}

    def round_of(self, call: Call) -> int | None:
        """The index of the round (model turn) that made `call`."""
        return self._round_index.get(call)

    def arguments(self, call: Call) -> Any:
        """A call's arguments as data, parsed once (the gates' own parse: OpenAI's JSON text, depth-bounded);
        None when unknown or not a JSON object."""
        parsed = self._arguments.get(call)
        if parsed is None:
            from toolcontract.assessment.gates import parse_arguments

            parsed = self._arguments[call] = parse_arguments(call.arguments) if call.arguments_known else (None, None)
        return parsed[0]

    def exact_arguments(self, call: Call) -> str | None:
        """A call's arguments as canonical JSON (key order and 1.0 == 1 aside, exactly as given); None: unknown.
        Arguments that are not a JSON object compare as the text (or value) they are."""
        if not call.arguments_known:
            return None
        arguments = self.arguments(call)
        if arguments is None:
            arguments = call.arguments
        return json.dumps(_normalise(arguments, fold=False), sort_keys=True, ensure_ascii=False, default=str)

    def tool(self, call: Call) -> Any:
        """The registry's tool of a call (None: unknown, or the calls were not assessed)."""
        if self.registry is None or not isinstance(call.name, str):
            return None
        return self.registry.get(call.name)


def analyse(conversation: Conversation) -> Analysis:
    answers: dict[Call, Result] = {}
    open_calls: dict[str, list[Call]] = {}
    first_with_id: dict[str, Call] = {}
    answered_by: dict[str, Result] = {}
    orphans: list[tuple[Result, str]] = []
    duplicates: list[tuple[Call, Call]] = []
    waiting: dict[Call, Result] = {}
    for message in conversation.messages:
        # results before calls within one message: a message answering and calling at once is
        # not a valid shape, and a result may never answer a call placed after it
        for result in message.results:
            key = result.pair if result.pair is not None else result.call_id
            if key is None:
                orphans.append((result, "it names no call id"))
                continue
            pending = open_calls.get(key)
            if pending and pending_type(result) is not None:
                waiting[pending[0]] = result  # not finished: the call stays open for its final result
            elif pending:
                call = pending.pop(0)
                answers[call] = result
                answered_by[key] = result
            elif key in answered_by:
                earlier = answered_by[key]
                orphans.append((result, f"call {result.call_id!r} was already answered at message {earlier.message}"))
            else:
                orphans.append((result, f"no earlier call has id {result.call_id!r}"))
        for call in message.calls:
            if call.id is not None:
                if call.id in first_with_id:
                    duplicates.append((call, first_with_id[call.id]))
                else:
                    first_with_id[call.id] = call
            key = call.pair if call.pair is not None else call.id
            if key is not None:
                open_calls.setdefault(key, []).append(call)
    waiting = {call: result for call, result in waiting.items() if call not in answers}
    unanswered = [c for c in conversation.calls if c not in answers and c not in waiting]
    return Analysis(answers, unanswered, orphans, duplicates, turns(conversation), pending=waiting)


# MCP 2026-07-28 `resultType`s of a CallToolResult that does not finish the call
PENDING_RESULT_TYPES = ("input_required", "task")


def pending_type(result: Result) -> str | None:
    """The `resultType` of an MCP result that leaves its call unfinished (PENDING_RESULT_TYPES), else None.

    The content is the CallToolResult (a mapping), or its JSON text (a string, or the text of one
    text block, as a client hands an MCP result to a model)."""
    content = result.content
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        content = content[0].get("text", content[0])
    if isinstance(content, str):
        text = content.strip()
        if not (text.startswith("{") and '"resultType"' in text):
            return None
        try:
            content = json.loads(text)
        except (ValueError, RecursionError):
            return None
    if isinstance(content, dict):
        kind = content.get("resultType")
        if kind in PENDING_RESULT_TYPES:
            return kind
    return None


@dataclass(frozen=True, eq=False)
class Turn:
    """One model turn that calls tools: its first and last message, and its calls."""

    first: int
    last: int
    calls: tuple[Call, ...]

    @property
    def where(self) -> str:
        return f"message {self.first}" if self.first == self.last else f"messages {self.first}-{self.last}"


def turns(conversation: Conversation) -> list[Turn]:
    """The turns that call tools. Anthropic combines consecutive messages of one role into one turn
    (so do we: two assistant messages in a row are one turn); OpenAI Chat: each assistant message
    with calls; Responses: a run of function_call items with no output or user message in between."""
    found: list[Turn] = []
    if conversation.format == OPENAI_RESPONSES:
        run: list[Message] = []
        for message in conversation.messages + [Message(-1, "user", "")]:
            if message.calls:
                run.append(message)
            elif message.results or message.role not in (None, "assistant"):
                if run:
                    found.append(Turn(run[0].index, run[-1].index, tuple(c for m in run for c in m.calls)))
                run = []
        return found
    if conversation.format == ANTHROPIC:
        run = []
        for message in conversation.messages + [Message(-1, "user", "")]:
            if message.role == "assistant":
                run.append(message)
                continue
            calls = tuple(c for m in run for c in m.calls)
            if calls:
                found.append(Turn(run[0].index, run[-1].index, calls))
            run = []
        return found
    return [Turn(m.index, m.index, m.calls) for m in conversation.messages if m.calls]


# -------------------------------------------------------------- result reading


def result_text(content: Any) -> str:
    """The text of a result's content: a string, or the text of its blocks/parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, dict):
                text = item.get("text")
                if isinstance(text, str):
                    parts.append(text)
                elif item.get("type") not in (None, "text"):
                    parts.append(f"[{item.get('type')}]")  # an image or document is content too
            elif isinstance(item, str):
                parts.append(item)
        return "\n".join(parts)
    if isinstance(content, dict) and isinstance(content.get("text"), str):
        return content["text"]
    return json.dumps(content, ensure_ascii=False, default=str)


_ERROR_START = re.compile(r"\s*(error|exception|traceback|failed|failure)\b", re.IGNORECASE)
_MCP_ERROR = re.compile(r"isError\s*=\s*True|\"is_?error\"\s*:\s*true", re.IGNORECASE)


def failed(result: Result | None) -> bool:
    """Whether a result reports a failure (module docstring: the flag, else the text)."""
    if result is None:
        return False
    if result.is_error is not None:
        return result.is_error
    content = result.content
    if isinstance(content, dict):
        return bool(content.get("error") or content.get("errors"))
    text = result_text(content)
    if _ERROR_START.match(text) or _MCP_ERROR.search(text):
        return True
    stripped = text.strip()
    if stripped.startswith("{") and ('"error"' in stripped or '"errors"' in stripped):
        try:
            data = json.loads(stripped)
        except (ValueError, RecursionError):
            return False
        return isinstance(data, dict) and bool(data.get("error") or data.get("errors"))
    return False


def _normalise(value: Any, depth: int = 0, fold: bool = True) -> Any:
    """Arguments made comparable: 1.0 == 1, keys as strings; `fold`: also case and runs of whitespace."""
    if depth > 32:
        return None
    if isinstance(value, str):
        return " ".join(value.split()).casefold() if fold else value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {str(k): _normalise(v, depth + 1, fold) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalise(v, depth + 1, fold) for v in value]
    return value


def canonical_arguments(arguments: Any) -> str:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            pass
    return json.dumps(_normalise(arguments), sort_keys=True, ensure_ascii=False, default=str)


_TOKEN = re.compile(r"\w+|[^\w\s]")


def near_same(a: str, b: str, ratio: float = NEAR_SAME_RATIO) -> bool:
    """Canonical argument texts that are equal, or whose token sequences are at least `ratio` similar."""
    if a == b:
        return True
    if max(len(a), len(b)) > _RATIO_MAX_CHARS:
        return False
    matcher = difflib.SequenceMatcher(None, _TOKEN.findall(a), _TOKEN.findall(b))
    return matcher.real_quick_ratio() >= ratio and matcher.quick_ratio() >= ratio and matcher.ratio() >= ratio


def retry_streaks(conversation: Conversation, analysis: Analysis, options: Options) -> list[list[Call]]:
    """Each run of calls of one tool where every call after the first repeats the one before with the same
    or near-same arguments after it failed (TC810 reports those longer than the retry limit)."""
    streaks: dict[Any, list[Call]] = {}
    found: list[list[Call]] = []
    canon: dict[Call, str] = {}

    def text(call: Call) -> str:
        if call not in canon:
            canon[call] = canonical_arguments(call.arguments)
        return canon[call]

    for call in conversation.calls:
        key = call.name if isinstance(call.name, str) else None
        streak = streaks.get(key)
        if streak:
            last = streak[-1]
            if (failed(analysis.answer(last)) and call.arguments_known and last.arguments_known
                    and near_same(text(last), text(call), options.near_same)):
                streak.append(call)
                continue
        streaks[key] = [call]
        found.append(streaks[key])
    return [streak for streak in found if len(streak) > 1]


# --------------------------------------------------------------------- findings


class ConversationContext:
    """What a conversation rule's `check(ctx)` sees: the conversation, its analysis (turns, what
    answered what, the gates' envelopes), and the options of the run."""

    __slots__ = ("conversation", "analysis", "options")

    def __init__(self, conversation: "Conversation", analysis: "Analysis", options: "Options"):
        self.conversation = conversation
        self.analysis = analysis
        self.options = options


@dataclass(frozen=True, slots=True)
class ConversationHit:
    """What a conversation rule found, at a block (or message) of the conversation."""

    pointer: str
    message: str
    message_index: int
    block: int | None = None
    call_id: str | None = None
    tool: str | None = None
    severity: Severity | None = None


@dataclass(frozen=True, slots=True, order=True)
class ConversationFinding:
    """A conversation rule's finding, located in the file. Sorted by path, line, column, rule."""

    path: str
    line: int
    column: int
    rule: str
    name: str
    severity: Severity
    message: str
    pointer: str = ""
    conversation: str = ""
    message_index: int = 0
    block: int | None = None
    call_id: str | None = None
    tool: str | None = None

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity.label,
            "message": self.message,
            "pointer": self.pointer,
            "conversation": self.conversation,
            "message_index": self.message_index,
            "block": self.block,
            "call_id": self.call_id,
            "tool": self.tool,
        }


# --------------------------------------------------------------------- running


def conversation_rules() -> list:
    """The conversation-scope rules, in id order."""
    from toolcontract.assessment.rules import conversation_rules as table

    return list(table().values())


def check(conversation: Conversation, options: Options = Options(), select: Iterable[str] | None = None,
          analysis: Analysis | None = None) -> list[ConversationFinding]:
    """Every finding of the conversation rules (or of those whose id starts with one in `select`)."""
    analysis = analysis or analyse(conversation)
    chosen = tuple(s.upper() for s in select) if select is not None else None
    names = {c.id: c.name for c in conversation.calls if c.id is not None and isinstance(c.name, str)}
    findings = []
    for r in conversation_rules():
        if chosen is not None and not r.id.startswith(chosen):
            continue
        for hit in r.check(ConversationContext(conversation, analysis, options)):
            line, column = conversation.locate(hit.pointer)
            findings.append(ConversationFinding(
                conversation.path, line, column, r.id, r.name, hit.severity or r.severity, hit.message, hit.pointer,
                conversation.id, hit.message_index, hit.block, hit.call_id, hit.tool or names.get(hit.call_id)))
    findings.sort()
    return findings


@dataclass
class ConversationReport:
    """A conversation's summary for the reporters: counts, outcomes of its calls, findings."""

    id: str
    path: str
    format: str
    pointer: str
    line: int
    column: int | None  # None: a trace in JSON lines (the line alone)
    messages: int
    rounds: int
    calls: int
    results: int
    unanswered: int
    tools_offered: int | None
    by_outcome: dict[str, int]
    findings: list[ConversationFinding]

    @property
    def by_severity(self) -> dict[str, int]:
        counts = {s.label: 0 for s in sorted(Severity, reverse=True)}
        for finding in self.findings:
            counts[finding.severity.label] += 1
        return counts

    def worst(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "format": self.format,
            "source": {"path": self.path, "line": self.line, "column": self.column, "pointer": self.pointer},
            "messages": self.messages,
            "rounds": self.rounds,
            "calls": self.calls,
            "results": self.results,
            "unanswered": self.unanswered,
            "tools_offered": self.tools_offered,
            "by_outcome": dict(sorted(self.by_outcome.items())),
            "by_severity": self.by_severity,
            "findings": [f.as_dict() for f in self.findings],
        }


def report(conversation: Conversation, analysis: Analysis, findings: list[ConversationFinding],
           outcomes: Iterable[str] = ()) -> ConversationReport:
    by_outcome: dict[str, int] = {}
    for outcome in outcomes:
        by_outcome[outcome] = by_outcome.get(outcome, 0) + 1
    # a trace in JSON lines: the line alone, as for its calls (a column would cost a position scan of the line)
    locate = conversation.locate_call if conversation.format == OTEL_GENAI and conversation.locate_call else \
        conversation.locate
    line, column = locate(conversation.pointer)
    return ConversationReport(
        id=conversation.id, path=conversation.path, format=conversation.format, pointer=conversation.pointer,
        line=line, column=column, messages=len(conversation.messages), rounds=len(analysis.rounds),
        calls=sum(1 for _ in conversation.calls), results=sum(1 for _ in conversation.results),
        unanswered=len(analysis.unanswered),
        tools_offered=None if conversation.offered_names is None else len(conversation.offered_names),
        by_outcome=by_outcome, findings=findings,
    )
