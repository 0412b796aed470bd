"""Conversation rules (TC8xx): the invariants a recorded tool-calling conversation must keep.

The readers in `toolcontract.io.transcripts` turn Anthropic Messages, OpenAI Chat
and OpenAI Responses transcripts into the provider-neutral `Conversation` below; the
rules here only look at that. Pure: no files, no clock, no terminal. Positions come
from the conversation's own `locate` (the reader's already loaded document).

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
- TC807 (an empty or whitespace-only error result) needs an explicit error flag, so it
  applies to Anthropic `is_error` results only.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from toolcontract.core.rule import Bad, Good, REGISTRY, rule
from toolcontract.core.model import Outcome, Severity

ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES = "anthropic", "openai-chat", "openai-responses"
OTEL_GENAI = "otel-genai"  # an OpenTelemetry trace read by toolcontract.io.traces
FORMATS = (ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES, OTEL_GENAI)
LABELS = {ANTHROPIC: "Anthropic Messages", OPENAI_CHAT: "OpenAI Chat", OPENAI_RESPONSES: "OpenAI Responses",
          OTEL_GENAI: "OpenTelemetry GenAI trace"}

DEFAULT_MAX_ROUNDS = 20
RETRY_LIMIT = 3  # retries after an error before TC810
NEAR_SAME_RATIO = 0.9
_RATIO_MAX_CHARS = 20_000  # longer arguments compare by equality only (difflib is quadratic)

SCOPE = "conversation"


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
            from toolcontract.assess.gates import parse_arguments

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
    for message in conversation.messages:
        # results before calls within one message: a message answering and calling at once is
        # not a valid shape, and a result may never answer a call placed after it
        for result in message.results:
            key = result.pair if result.pair is not None else result.call_id
            if key is None:
                orphans.append((result, "it names no call id"))
                continue
            pending = open_calls.get(key)
            if pending:
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
    unanswered = [c for c in conversation.calls if c not in answers]
    return Analysis(answers, unanswered, orphans, duplicates, turns(conversation))


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


def _call_hit(call: Call, message: str) -> ConversationHit:
    return ConversationHit(call.pointer, message, call.message, call.block, call.id,
                           call.name if isinstance(call.name, str) else None)


def _result_hit(result: Result, message: str) -> ConversationHit:
    return ConversationHit(result.pointer, message, result.message, result.block, result.call_id)


def _name(call: Call) -> str:
    return repr(call.name) if isinstance(call.name, str) else "(no name)"


def _result_word(conversation: Conversation) -> str:
    return {ANTHROPIC: "tool_result block", OPENAI_CHAT: "`role: tool` message",
            OPENAI_RESPONSES: "function_call_output item", OTEL_GENAI: "tool result"}.get(conversation.format, "result")


def _answered(turn: Turn, analysis: Analysis) -> list[Result]:
    """The results answering a turn's calls, in file order."""
    results = [analysis.answers[c] for c in turn.calls if c in analysis.answers]
    results.sort(key=lambda r: (r.message, r.block or 0))
    return results


# ------------------------------------------------------------ examples (docs)

def _lines(*messages: str) -> str:
    return "[\n" + ",\n".join(messages) + "\n]\n"


_USER = '{"role": "user", "content": "Weather in Paris and Lyon?"}'


def _use(ident: str, city: str = "Paris") -> str:
    return f'{{"type": "tool_use", "id": "{ident}", "name": "get_weather", "input": {{"city": "{city}"}}}}'


def _res(ident: str, text: str = "11 C, rain", error: bool = False) -> str:
    flag = ', "is_error": true' if error else ""
    return f'{{"type": "tool_result", "tool_use_id": "{ident}", "content": "{text}"{flag}}}'


def _assistant(*blocks: str) -> str:
    return '{"role": "assistant", "content": [' + ", ".join(blocks) + "]}"


def _user(*blocks: str) -> str:
    return '{"role": "user", "content": [' + ", ".join(blocks) + "]}"


def _rounds_example(count: int) -> str:
    messages = [_USER]
    for n in range(1, count + 1):
        messages.append(_assistant(_use(f"toolu_{n:02d}")))
        messages.append(_user(_res(f"toolu_{n:02d}")))
    return _lines(*messages)


def _retry_example(errors: int) -> str:
    messages = [_USER]
    for n in range(1, errors + 2):
        messages.append(_assistant(_use(f"toolu_{n:02d}", "Pariss")))
        last = n == errors + 1
        messages.append(_user(_res(f"toolu_{n:02d}", "11 C" if last else "unknown city", error=not last)))
    return _lines(*messages)


# ----------------------------------------------------------------------- rules


@rule(
    id="TC801",
    name="call-unanswered",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="A tool call is never answered by a result with its id.",
    rationale=(
        "Every tool_use (Anthropic) or tool_calls entry / function_call (OpenAI) must be answered by a result "
        "carrying its id; a request that leaves one open is refused with a 400 ('tool_use ids were found without "
        "tool_result blocks immediately after', 'No tool output found for function call'). Parallel calls are "
        "where it happens most: several calls, one result. A call without an id can never be answered."
    ),
    examples=(
        Bad(_lines(_USER, _assistant(_use("toolu_01"), _use("toolu_02", "Lyon")), _user(_res("toolu_01"))), line=3,
            note="two parallel calls, one result"),
        Good(_lines(_USER, _assistant(_use("toolu_01"), _use("toolu_02", "Lyon")),
                    _user(_res("toolu_01"), _res("toolu_02", "9 C")))),
    ),
)
def call_unanswered(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    last = conversation.last_index
    for call in analysis.unanswered:
        if call.id is None:
            yield _call_hit(call, f"the call of {_name(call)} has no id, so no result can answer it")
        elif call.message >= last:
            yield _call_hit(call, f"call {call.id!r} ({_name(call)}) is never answered: the conversation ends "
                                  f"after it, with no {_result_word(conversation)} for it")
        else:
            yield _call_hit(call, f"call {call.id!r} ({_name(call)}) is never answered: no "
                                  f"{_result_word(conversation)} with its id follows")


@rule(
    id="TC802",
    name="result-orphan",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="A tool result answers no open call: no earlier call has its id, or the call was already answered.",
    rationale=(
        "A result must answer a call made before it. One that names an unknown id, answers a call only made "
        "later, or answers a call a second time is refused ('No tool call found for function call output', "
        "'unexpected tool_use_id found in tool_result blocks'). It usually means history was trimmed through "
        "the middle of a call/result pair, or results were mixed up between conversations."
    ),
    examples=(
        Bad(_lines(_USER, _assistant(_use("toolu_01")), _user(_res("toolu_01"), _res("toolu_99"))), line=4),
        Good(_lines(_USER, _assistant(_use("toolu_01")), _user(_res("toolu_01")))),
    ),
)
def result_orphan(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    if conversation.continues:
        return  # the calls are in the previous response, which the transcript does not hold
    for result, why in analysis.orphans:
        yield _result_hit(result, f"the {_result_word(conversation)} answers no open call: {why}")


@rule(
    id="TC803",
    name="call-id-duplicate",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="Two tool calls in one conversation share an id.",
    rationale=(
        "Ids are what pair a result with its call; two calls with one id make every later pairing a guess, "
        "and providers refuse duplicate ids. A harness that synthesises ids (counters reset per turn, ids "
        "copied between conversations) is the usual cause."
    ),
    examples=(
        Bad(_lines(_USER, _assistant(_use("toolu_01")), _user(_res("toolu_01")),
                   _assistant(_use("toolu_01", "Lyon")), _user(_res("toolu_01", "9 C"))), line=5),
        Good(_lines(_USER, _assistant(_use("toolu_01")), _user(_res("toolu_01")),
                    _assistant(_use("toolu_02", "Lyon")), _user(_res("toolu_02", "9 C")))),
    ),
)
def call_id_duplicate(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    for call, first in analysis.duplicates:
        yield _call_hit(call, f"call id {call.id!r} is already used by the call of {_name(first)} at message "
                              f"{first.message}")


@rule(
    id="TC804",
    name="results-split",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="The results of one assistant turn are split across several messages (Anthropic).",
    rationale=(
        "Anthropic requires the results of all parallel tool_use blocks of a turn in one user message, each "
        "with its id. Sending one result per message is the most common cause of the next request's 400 "
        "(seed runbook R2): put every tool_result of the turn into the single message that follows it."
    ),
    examples=(
        Bad(_lines(_USER, _assistant(_use("toolu_01"), _use("toolu_02", "Lyon")), _user(_res("toolu_01")),
                   _user(_res("toolu_02", "9 C"))), line=5),
        Good(_lines(_USER, _assistant(_use("toolu_01"), _use("toolu_02", "Lyon")),
                    _user(_res("toolu_01"), _res("toolu_02", "9 C")))),
    ),
)
def results_split(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    if conversation.format != ANTHROPIC:
        return
    for turn in analysis.rounds:
        results = _answered(turn, analysis)
        holders = list(dict.fromkeys(r.message for r in results))
        if len(holders) > 1:
            second = next(r for r in results if r.message == holders[1])
            yield _result_hit(second, f"the results of the {len(turn.calls)} calls at {turn.where} are split "
                                      f"across messages {', '.join(map(str, holders))}; they belong in one message")


@rule(
    id="TC805",
    name="results-not-next",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="Tool results do not directly follow the turn that made the calls.",
    rationale=(
        "Anthropic: the tool_result blocks answering an assistant turn must be in the very next message, with "
        "nothing in between. OpenAI Chat: the `role: tool` messages answering a turn must follow it directly, "
        "before any other message. A user message, a system note or another assistant turn slipped in between "
        "makes the next request fail even though every id is answered."
    ),
    examples=(
        Bad(_lines(_USER, _assistant(_use("toolu_01")), '{"role": "user", "content": "Also, hurry."}',
                   _user(_res("toolu_01"))), line=5),
        Good(_lines(_USER, _assistant(_use("toolu_01")), _user(_res("toolu_01")),
                    '{"role": "user", "content": "Also, hurry."}')),
    ),
)
def results_not_next(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    if conversation.format == ANTHROPIC:
        for turn in analysis.rounds:
            results = _answered(turn, analysis)
            if results and results[0].message != turn.last + 1:
                first = results[0]
                yield _result_hit(first, f"the results of the calls at {turn.where} start at message "
                                         f"{first.message}, not in the message right after the call "
                                         f"({turn.last + 1})")
    elif conversation.format == OPENAI_CHAT:
        by_index = {m.index: m for m in conversation.messages}
        for turn in analysis.rounds:
            results = _answered(turn, analysis)
            window: set[int] = set()
            index = turn.last + 1
            while index in by_index and by_index[index].role == "tool":
                window.add(index)
                index += 1
            late = [r for r in results if r.message not in window]
            if late:
                yield _result_hit(late[0], f"the tool message for call {late[0].call_id!r} (message {late[0].message}) "
                                           f"does not directly follow the assistant message {turn.first} that made "
                                           "the call")


@rule(
    id="TC806",
    name="results-not-first",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="In a message, a tool_result block comes after other content (Anthropic).",
    rationale=(
        "Anthropic requires tool_result blocks first in their user message; text may follow them, never "
        "precede them. Text before the results is read as a new user turn and the results as missing."
    ),
    examples=(
        Bad(_lines(_USER, _assistant(_use("toolu_01")),
                   '{"role": "user", "content": [{"type": "text", "text": "Here you go:"},\n  ' + _res("toolu_01") + "]}"),
            line=5),
        Good(_lines(_USER, _assistant(_use("toolu_01")),
                    '{"role": "user", "content": [' + _res("toolu_01") + ', {"type": "text", "text": "Thanks."}]}')),
    ),
)
def results_not_first(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    if conversation.format != ANTHROPIC:
        return
    for message in conversation.messages:
        if not message.results:
            continue
        seen_other = None
        for position, kind in enumerate(message.kinds):
            if kind != "result":
                seen_other = seen_other or (position, kind)
                continue
            if seen_other is not None:
                result = next((r for r in message.results if r.block == position), message.results[0])
                yield _result_hit(result, f"tool_result block {position} of message {message.index} comes after a "
                                          f"{seen_other[1]} block (block {seen_other[0]}); tool_result blocks "
                                          "must come first")
                break


def _empty(content: Any) -> bool:
    if content is None:
        return True
    if isinstance(content, str):
        return not content.strip()
    if isinstance(content, list):
        return all(isinstance(item, dict) and item.get("type") in (None, "text") and
                   not str(item.get("text") or "").strip() for item in content)
    return False


@rule(
    id="TC807",
    name="error-result-empty",
    severity=Severity.WARNING,
    scope=SCOPE,
    summary="An error result is empty or whitespace only.",
    rationale=(
        "A failed call must tell the model what went wrong and what to do ({\"error\": ..., \"hint\": ...}). "
        "An empty error result is an error swallowed into an empty string: the model guesses what happened, "
        "and a guess about a failure becomes a hallucinated success or a blind retry (seed anti-pattern)."
    ),
    examples=(
        Bad(_lines(_USER, _assistant(_use("toolu_01")), _user(_res("toolu_01", "  ", error=True))), line=4),
        Good(_lines(_USER, _assistant(_use("toolu_01")),
                    _user(_res("toolu_01", "unknown city 'Pariss'; ask the user", error=True)))),
    ),
)
def error_result_empty(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    for result in conversation.results:
        if result.is_error and _empty(result.content):
            yield _result_hit(result, f"the error result for call {result.call_id!r} is empty: say what failed and "
                                      "what the model should do instead")


@rule(
    id="TC808",
    name="tool-not-offered",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="A call names a tool the request does not offer.",
    rationale=(
        "The model may only call what the request's `tools` list offers. A call to anything else is a "
        "hallucinated tool or a drifted tool list (seed runbook R1: two definitions out of sync); the registry "
        "gate refuses it, and the transcript shows the model was never told about it. Checked only when the "
        "transcript carries the request's tool list."
    ),
    examples=(
        Bad('{"tools": [{"name": "get_weather", "description": "Current weather.",\n'
            '            "input_schema": {"type": "object"}}],\n'
            ' "messages": [\n  ' + _USER + ',\n'
            '  {"role": "assistant", "content": [\n'
            '    {"type": "tool_use", "id": "toolu_01", "name": "delete_all_orders", "input": {}}]}]}\n', line=6),
        Good('{"tools": [{"name": "get_weather", "description": "Current weather.",\n'
             '            "input_schema": {"type": "object"}}],\n'
             ' "messages": [\n  ' + _USER + ',\n  ' + _assistant(_use("toolu_01")) + ',\n  '
             + _user(_res("toolu_01")) + "]}\n"),
    ),
)
def tool_not_offered(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    offered = conversation.offered_names
    if offered is None:
        return
    for call in conversation.calls:
        if not isinstance(call.name, str) or call.name not in offered:
            count = len(offered)
            yield _call_hit(call, f"{_name(call)} is not among the {count} tool{'s' * (count != 1)} this request "
                                  "offers")


@rule(
    id="TC809",
    name="rounds-exceeded",
    severity=Severity.WARNING,
    scope=SCOPE,
    summary="The conversation takes more tool rounds than the limit (--max-rounds, default 20).",
    rationale=(
        "A call -> result loop needs a bound; at the limit a harness degrades or escalates to a person instead "
        "of spinning (seed runbook R3). A transcript past the limit shows a loop that the harness did not stop. "
        "A round is one model turn that calls tools, however many calls it makes."
    ),
    examples=(
        Bad(_rounds_example(DEFAULT_MAX_ROUNDS + 1), line=2 * DEFAULT_MAX_ROUNDS + 3,
            note=f"{DEFAULT_MAX_ROUNDS + 1} rounds"),
        Good(_rounds_example(DEFAULT_MAX_ROUNDS)),
    ),
)
def rounds_exceeded(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    rounds = analysis.rounds
    if len(rounds) > options.max_rounds:
        first = rounds[options.max_rounds].calls[0]
        yield _call_hit(first, f"{len(rounds)} tool rounds, more than the limit of {options.max_rounds}: round "
                               f"{options.max_rounds + 1} starts here")


@rule(
    id="TC810",
    name="retry-loop",
    severity=Severity.WARNING,
    scope=SCOPE,
    summary="After an error, the same tool is called again with the same or near-same arguments, 3 times or more.",
    rationale=(
        "Repeating a failed call unchanged does not converge: the error comes back and the loop budget runs out "
        "(seed runbook R3). The error result should carry an actionable hint, and the harness should stop after "
        "a few failures and explain or escalate. Arguments compare after normalising case, whitespace and key "
        "order; near-same means at least 90% similar."
    ),
    examples=(
        Bad(_retry_example(RETRY_LIMIT), line=2 * RETRY_LIMIT + 3, note="one failing call and three near-same retries"),
        Good(_retry_example(RETRY_LIMIT - 1)),
    ),
)
def retry_loop(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    for streak in retry_streaks(conversation, analysis, options):
        if len(streak) > options.retry_limit:
            call = streak[options.retry_limit]
            where = ", ".join(str(c.message) for c in streak[:options.retry_limit + 1])
            yield _call_hit(call, f"{_name(call)} is called again with the same or near-same arguments "
                                  f"after an error, {options.retry_limit} times (messages {where}): a loop "
                                  "that does not converge")


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


# ------------------------------------------------------- execution hazards (TC811-TC813)


def _scalars(value: Any, depth: int = 0) -> Iterator[str]:
    """The string and number values in arguments, as strings (ids compare as strings)."""
    if depth > 32:
        return
    if isinstance(value, dict):
        for item in value.values():
            yield from _scalars(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item, depth + 1)
    elif isinstance(value, str):
        if value.strip():
            yield value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _target_id(arguments: Any, tool: Any) -> str | None:
    """The call's target id through its tool's `target.id` pointer (None: the tool has no target, or the
    call names none)."""
    if tool is None or "id" not in tool.target:
        return None
    from toolcontract.assess.gates import as_id
    from toolcontract.core.pointer import resolve_pointer

    found, value = resolve_pointer(arguments, tool.target["id"])
    return as_id(value) if found and value is not None and not isinstance(value, (dict, list)) else None


def _consequential(tool: Any) -> bool:
    return tool is None or tool.consequential  # no effect class from any source: the worst case


def _effect_unknown(analysis: Analysis, call: Call) -> bool:
    envelope = analysis.envelopes.get(call)
    return envelope is not None and envelope.outcome is Outcome.EFFECT_UNKNOWN


def _retry_example(first_result: str | None, between: str = "") -> str:
    """A refund lost (no result; the conversation goes on), then the same refund again."""
    tool = ('{"name": "refund_payment", "description": "Refund a captured payment. Irreversible.",\n'
            '   "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string"}}},\n'
            '   "annotations": {"destructiveHint": true, "openWorldHint": false}},\n'
            '  {"name": "get_payment", "description": "Read a payment: status and refunds.",\n'
            '   "inputSchema": {"type": "object", "properties": {"payment_id": {"type": "string"}}},\n'
            '   "annotations": {"readOnlyHint": true}}')
    refund = '{"type": "tool_use", "id": "%s", "name": "refund_payment", "input": {"payment_id": "pay_81"}}'
    messages = ['{"role": "user", "content": "Refund payment pay_81."}',
                _assistant(refund % "toolu_01"),
                first_result or '{"role": "user", "content": "Did it work?"}']
    if between:
        messages += [_assistant(between), _user(_res("toolu_02", "status: captured, no refund"))]
    messages.append(_assistant(refund % "toolu_03"))
    return '{"tools": [\n  ' + tool + '],\n "messages": ' + _lines(*messages).rstrip("\n") + "}\n"


@rule(
    id="TC811",
    name="retry-after-unknown-effect",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="A consequential call whose effect is unknown is retried on the same target without a read in between.",
    rationale=(
        "When a consequential call is lost, times out or fails in transport, nobody knows whether it took effect "
        "(outcome effect_unknown). Calling it again on the same target may apply the effect twice: two refunds, "
        "two bookings. The rule of the seeds: after an unknown effect, observe the target first, never retry "
        "blind. The same target is the same `target.id` argument, or the same arguments when the tool has no "
        "target; a read in between is a call of a read or pure tool whose arguments name that target (or share a "
        "value with the call). A tool with no effect class from any source counts as consequential."
    ),
    examples=(
        Bad(_retry_example(None), line=12, note="the refund got no result, and is sent again"),
        Good(_retry_example(None, between='{"type": "tool_use", "id": "toolu_02", "name": "get_payment", '
                                          '"input": {"payment_id": "pay_81"}}'),
             note="the payment is read back before the retry"),
    ),
)
def retry_after_unknown_effect(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    if not analysis.envelopes:
        return  # the calls were not assessed: no outcome to go by
    calls = list(conversation.calls)
    # indexes, so that many unknown effects cost n log n, not n squared: calls by (tool, target id) and by
    # (tool, arguments), reads by each value their arguments name
    tools = [analysis.tool(call) for call in calls]
    keys: list[tuple | None] = []
    by_key: dict[tuple, list[int]] = {}
    reads: dict[str, list[int]] = {}
    for position, (call, tool) in enumerate(zip(calls, tools)):
        target = _target_id(analysis.arguments(call), tool)
        arguments = analysis.exact_arguments(call)
        key = (call.name, "target", target) if target is not None else \
            (call.name, "arguments", arguments) if arguments is not None and isinstance(call.name, str) else None
        keys.append(key)
        if key is not None:
            by_key.setdefault(key, []).append(position)
        if not _consequential(tool):
            for value in set(_scalars(analysis.arguments(call))):
                reads.setdefault(value, []).append(position)
    for position, unknown in enumerate(calls):
        key = keys[position]
        if key is None or not _effect_unknown(analysis, unknown) or not _consequential(tools[position]):
            continue  # (same target: the same target id when the tool has one, else the same arguments)
        round_of = analysis.round_of(unknown)
        retry = None
        for later in by_key[key][bisect.bisect_right(by_key[key], position):]:
            later_round = analysis.round_of(calls[later])
            if round_of is None or later_round is None or later_round > round_of:
                retry = later  # (a parallel call of the same turn is no retry: nothing was known yet)
                break
        if retry is None:
            continue
        values = {key[2]} if key[1] == "target" else set(_scalars(analysis.arguments(unknown)))
        if any(_between(reads.get(value, ()), position, retry) for value in values):
            continue  # the target was read: the retry is a decision taken on evidence
        what = f"on target {key[2]!r}" if key[1] == "target" else "with the same arguments"
        again = calls[retry]
        yield _call_hit(again, f"call {again.id!r} retries {_name(unknown)} {what} after call {unknown.id!r}, "
                               "whose effect is unknown, with no read of the target in between: the effect may "
                               "now be applied twice; observe the target first")


def _between(positions: list[int], after: int, before: int) -> bool:
    """Whether a sorted list of positions holds one strictly between `after` and `before`."""
    index = bisect.bisect_right(positions, after)
    return index < len(positions) and positions[index] < before


def _error_retry_example(second_city: str) -> str:
    return _lines(_USER, _assistant(_use("toolu_01", "Pariss")),
                  _user(_res("toolu_01", "unknown city 'Pariss'", error=True)),
                  _assistant(_use("toolu_02", second_city)), _user(_res("toolu_02")))


@rule(
    id="TC812",
    name="error-result-retried-unchanged",
    severity=Severity.WARNING,
    scope=SCOPE,
    summary="A call whose result was an error is repeated with identical arguments in the next round.",
    rationale=(
        "An error result is the tool telling the model what to change. Sending the very same call again in the "
        "next turn ignores it: the same error comes back, and the loop budget is spent on nothing. It is the "
        "first, cheapest sign of the loops TC810 finds at three near-same retries; the fix is an error result "
        "with an actionable hint, and a harness that does not resend a failed call unchanged. Arguments are "
        "identical when equal as JSON (key order and 1.0 == 1 aside). A call whose effect is unknown is TC811's."
    ),
    examples=(
        Bad(_error_retry_example("Pariss"), line=5, note="the same misspelt city again"),
        Good(_error_retry_example("Paris")),
    ),
)
def error_result_retried_unchanged(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    # one finding per run of failing retries; a run long enough for TC810 is that rule's (a loop, not a sign)
    quiet: set[Call] = set()
    for streak in retry_streaks(conversation, analysis, options):
        quiet.update(streak if len(streak) > options.retry_limit else streak[2:])
    for number, turn in enumerate(analysis.rounds):
        for call in turn.calls:
            if call in quiet or _effect_unknown(analysis, call) or not failed(analysis.answer(call)):
                continue
            arguments = analysis.exact_arguments(call)
            if arguments is None:
                continue
            following = analysis.rounds[number + 1].calls if number + 1 < len(analysis.rounds) else ()
            for later in following:
                if later.name == call.name and analysis.exact_arguments(later) == arguments and later not in quiet:
                    yield _call_hit(later, f"call {later.id!r} repeats {_name(call)} with the identical arguments "
                                           f"of call {call.id!r}, whose result was an error: change the call as "
                                           "the error says, or stop")
                    break


def _structured_example(count: Any) -> str:
    tool = ('{"name": "count_orders", "description": "Count the open orders of a customer.",\n'
            '   "inputSchema": {"type": "object", "properties": {"customer": {"type": "string"}}},\n'
            '   "outputSchema": {"type": "object", "properties": {"open": {"type": "integer"}}, "required": ["open"]},\n'
            '   "annotations": {"readOnlyHint": true}}')
    result = json.dumps(json.dumps({"open": count}))[1:-1]
    return ('{"tools": [\n  ' + tool + '],\n "messages": ' + _lines(
        '{"role": "user", "content": "How many open orders has ACME?"}',
        '{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "count_orders", '
        '"input": {"customer": "ACME"}}]}',
        '{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", '
        f'"content": "{result}"}}]}}').rstrip("\n") + "}\n")


@rule(
    id="TC813",
    name="result-output-schema",
    severity=Severity.ERROR,
    scope=SCOPE,
    summary="A structured tool result does not match the tool's output schema.",
    rationale=(
        "A tool that declares an output schema promises the shape of what it returns; MCP requires a server's "
        "structuredContent to conform to its tool's outputSchema. A result that breaks the promise reaches "
        "the model and the code that parses it as something it was told could not happen. The structured part "
        "is MCP `structuredContent`, or the result when it is JSON (a mapping, or the JSON text of an object or "
        "array); a prose result is not checked. The call's case is `failed` (DESIGN §2)."
    ),
    examples=(
        Bad(_structured_example("three"), line=9, note="`open` is a string, the schema says integer"),
        Good(_structured_example(3)),
    ),
)
def result_output_schema(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    if not analysis.envelopes:
        return
    from toolcontract.assess.classify import OUTPUT_MISMATCH

    for call, envelope in analysis.envelopes.items():
        result = analysis.answer(call)
        if result is None or envelope.outcome != "failed" or envelope.reasons[:1] != (OUTPUT_MISMATCH,):
            continue
        errors = [r for r in envelope.reasons[1:] if r.startswith("/")][:3]
        more = sum(1 for r in envelope.reasons[1:] if r.startswith("/")) - len(errors)
        detail = "; ".join(errors) + (f"; and {more} more" if more > 0 else "")
        hit = _result_hit(result, f"the result of call {call.id!r} ({_name(call)}) does not match the tool's output "
                                  f"schema: {detail}")
        yield ConversationHit(hit.pointer, hit.message, hit.message_index, hit.block, hit.call_id,
                              call.name if isinstance(call.name, str) else None)


def _trace_example(tool_name: str) -> str:
    """An OTLP/JSON trace of one execute_tool span whose gen_ai.tool.name is `tool_name` (an AnyValue)."""
    return ('{"resourceSpans": [{"scopeSpans": [{"spans": [\n'
            '  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174",\n'
            '   "name": "execute_tool get_weather", "startTimeUnixNano": "1700000000000000000",\n'
            '   "attributes": [\n'
            '     {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},\n'
            f'     {{"key": "gen_ai.tool.name", "value": {tool_name}}},\n'
            '     {"key": "gen_ai.tool.call.id", "value": {"stringValue": "call_01"}},\n'
            '     {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": "{\\"city\\": \\"Paris\\"}"}}]}]}]}]}\n')


@rule(
    id="TC814",
    name="trace-span-invalid",
    severity=Severity.WARNING,
    scope=SCOPE,
    summary="A span of a trace that may be a tool call cannot be read as one, so it is not assessed.",
    rationale=(
        "A trace is evidence only as far as its spans can be read. A tool-call span (`gen_ai.operation.name` "
        "`execute_tool`, or an MCP `tools/call`) with a malformed id, time or status, an attribute of the wrong "
        "type (a `gen_ai.tool.name` that is not a string, `gen_ai.tool.call.arguments` that is neither a JSON "
        "string nor a map), or a span that carries tool-call attributes under an operation name that is not a "
        "tool call, is skipped instead of being guessed at: the call it records goes unassessed, which the "
        "report must say. Fix the instrumentation that wrote it."
    ),
    examples=(
        Bad(_trace_example('{"intValue": "7"}'), line=6, note="gen_ai.tool.name is an integer"),
        Good(_trace_example('{"stringValue": "get_weather"}')),
    ),
)
def trace_span_invalid(ctx: ConversationContext) -> Iterator[ConversationHit]:
    conversation, analysis, options = ctx.conversation, ctx.analysis, ctx.options
    for pointer, message, index in conversation.unread:
        yield ConversationHit(pointer, message, index)


# --------------------------------------------------------------------- running


def conversation_rules() -> list:
    """The conversation-scope rules, in id order."""
    from toolcontract.assess.rules import conversation_rules as table

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
