"""Read OpenTelemetry traces (OTLP/JSON) that follow the GenAI semantic conventions, and turn every tool
call in them into the provider-neutral `Conversation` of the conversation rules (TC8xx), so that
`TranscriptAssessor` assesses them unchanged.

Input: one OTLP/JSON document `{"resourceSpans": [...]}` (an `ExportTraceServiceRequest`), or JSON lines
of such documents, as the OpenTelemetry Collector's file exporter writes them (one batch per line).
Values as OTLP/JSON writes them: trace and span ids in hex (protobuf's own JSON mapping, which
`google.protobuf.json_format` writes, has base64: read too), 64-bit integers as decimal strings (numbers
read too), enums as integers (their names read too), attribute values in `AnyValue` wrappers
(`stringValue`, `intValue`, `boolValue`, `doubleValue`, `arrayValue`, `kvlistValue`, `bytesValue`).

What is read (the GenAI conventions: spans `execute_tool`, MCP client/server spans, events):

- **Tool-call spans**: `gen_ai.operation.name` = `execute_tool` (span name `execute_tool {gen_ai.tool.name}`),
  or an MCP span with `mcp.method.name` = `tools/call` (span name `tools/call {gen_ai.tool.name}`). Each is a
  call: the tool from `gen_ai.tool.name` (MCP drafts: `mcp.tool.name`; else the span name's target), the id
  from `gen_ai.tool.call.id` (the case's correlation id; MCP spans usually have none), the arguments from
  `gen_ai.tool.call.arguments` (a JSON string, or a structured map; absent: unknown, so parse, shape and
  semantic are `not_judged`). Its record comes from the span: an error when the status code is ERROR or
  `error.type` is set (`timeout` → a timeout; an MCP JSON-RPC error code → a `protocol` error; otherwise,
  `tool_error` (the tool returned `isError`) included, an `execution` error, its message the status
  message or `error.type`); else `returned` with `gen_ai.tool.call.result` (parsed when it is the JSON text
  of an object or array; absent: the return is unknown).
  A tool-call span nested in one of the same tool (an MCP client span under an `execute_tool` span, an MCP
  server span under its client span) is the same call seen twice: it fills what the outer span lacks.
- **A trace is a conversation** (one per `traceId` in a document): its calls in start-time order
  (`startTimeUnixNano`). Tools offered: the union of the `gen_ai.tool.definitions` (a JSON string or
  structured list of tool definitions in any provider's format) of its spans; none: `--tools`, else the
  registry is not offered (evidence-only: registry, shape and semantic not judged).
  A *round* (TC809) is the tool spans between two inference spans (`chat`, `text_completion`,
  `generate_content`); a trace with no inference spans starts a round at each tool span that begins after
  every span of the round before has ended.
- **Older spans** (conventions up to v1.36: `gen_ai.system`, per-message events): `gen_ai.choice` and
  `gen_ai.assistant.message` events with `tool_calls` give calls, `gen_ai.tool.message` events (`id`,
  `content`) their results, the body from the `gen_ai.event.content` attribute (a JSON string) or else the
  event's attributes. Calls already recorded by a tool-call span (same id) are not repeated; history
  repeated in later spans' events is read once.

JSON lines are read one line at a time, and a line's traces are grouped within that line: memory stays
flat whatever the file's length, and a trace whose spans the Collector wrote in several batches is several
conversations (one per line).

Bad input never stops the run: a span that may be a tool call but cannot be read as one (a malformed id,
time or status, an attribute of the wrong type, tool-call attributes under an unknown operation name) is
skipped with a TC814 finding at its position. A line or file that is not OTLP/JSON exits 2 with
`path:line:col: message`, after the cases before it.

Positions: a case's source is the file, the line and column of its span (JSON lines: the line alone), the
trace (`conversation`), `trace_id`, `span_id` and the span's pointer; its id `trace{N}/span-{span id}`.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from dataclasses import dataclass, field
from typing import IO, Any, Iterator

from toolcontract.core import jsoncodec
from toolcontract.assessment.conversation import OTEL_GENAI, Call, Conversation, Message, Result
from toolcontract.core.model import Record
from toolcontract.io.document import DEFAULT_LIMITS, Document, Limits, LoadError, load_bytes
from toolcontract.io.fixtures import FixtureError

TOOL_OPERATION = "execute_tool"
MCP_TOOL_CALL = "tools/call"
INFERENCE_OPERATIONS = frozenset(("chat", "text_completion", "generate_content"))
# gen_ai.operation.name's well-known values (semantic-conventions-genai, docs/gen-ai: registry)
KNOWN_OPERATIONS = INFERENCE_OPERATIONS | frozenset((
    "execute_tool", "create_agent", "invoke_agent", "invoke_workflow", "embeddings", "retrieval", "plan",
    "create_memory", "create_memory_store", "delete_memory", "delete_memory_store", "search_memory",
    "update_memory", "upsert_memory",
))
TOOL_CALL_ATTRIBUTES = ("gen_ai.tool.call.id", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result")
NOT_TRACES = ("resourceLogs", "resourceMetrics", "resourceProfiles")  # other signals a Collector file may hold
_ROOT = re.compile(rb'\s*\{\s*"resourceSpans"\s*:')
_DECIMAL = re.compile(r"-?\d+\Z")
_HEX = re.compile(r"[0-9a-fA-F]+\Z")
_STATUS = {0: 0, 1: 1, 2: 2, "STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}
_EVENT_OWN = frozenset(("gen_ai.system", "gen_ai.provider.name", "event.name"))


class SpanError(Exception):
    """Something of a span that cannot be read: where (a JSON pointer) and why."""

    def __init__(self, pointer: str, message: str):
        super().__init__(message)
        self.pointer = pointer
        self.message = message


# ------------------------------------------------------------------ values


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", dict: "a map", list: "a list", type(None): "nothing"}.get(type(value), "a value")


def any_value(value: Any, pointer: str) -> Any:
    """The Python value of an OTLP/JSON `AnyValue` wrapper (an empty one is None)."""
    if not isinstance(value, dict):
        raise SpanError(pointer, f"an attribute value must be an AnyValue object, got {_kind(value)}")
    if not value:
        return None
    if len(value) != 1:
        raise SpanError(pointer, f"an AnyValue holds one value, this one {len(value)} ({', '.join(sorted(value))})")
    ((kind, inner),) = value.items()
    where = f"{pointer}/{kind}"
    if kind == "stringValue":
        if isinstance(inner, str):
            return inner
    elif kind == "boolValue":
        if isinstance(inner, bool):
            return inner
    elif kind == "intValue":  # int64: a decimal string in OTLP/JSON, a number from lenient writers
        if type(inner) is int:
            return inner
        if isinstance(inner, str) and _DECIMAL.match(inner):
            return int(inner)
        if isinstance(inner, float) and inner.is_integer():
            return int(inner)
    elif kind == "doubleValue":
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return float(inner)
        if isinstance(inner, str):
            try:
                return float(inner)  # "NaN", "Infinity", "-Infinity", and numbers written as strings
            except ValueError:
                pass
    elif kind == "arrayValue":
        if isinstance(inner, dict) and isinstance(inner.get("values", []), list):
            return [any_value(v, f"{where}/values/{i}") for i, v in enumerate(inner.get("values", []))]
    elif kind == "kvlistValue":
        if isinstance(inner, dict) and isinstance(inner.get("values", []), list):
            return _kvlist(inner.get("values", []), f"{where}/values")
    elif kind == "bytesValue":
        if isinstance(inner, str):
            return inner  # base64, kept as written
    else:
        raise SpanError(pointer, f"{kind!r} is not an AnyValue kind (stringValue, boolValue, intValue, doubleValue, "
                                 "arrayValue, kvlistValue, bytesValue)")
    raise SpanError(where, f"{kind} cannot be {_kind(inner)}")


def _kvlist(entries: list, pointer: str) -> dict:
    found = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
            raise SpanError(f"{pointer}/{index}", 'a key-value entry must be {"key": string, "value": AnyValue}')
        found[entry["key"]] = any_value(entry.get("value", {}), f"{pointer}/{index}/value")
    return found


class Attributes:
    """A span's (or event's) attributes, each decoded when it is asked for."""

    __slots__ = ("raw", "pointer")

    def __init__(self, holder: dict, pointer: str):
        self.pointer = pointer
        entries = holder.get("attributes")
        self.raw: dict[str, tuple[int, Any]] = {}
        if entries is None:
            return
        if not isinstance(entries, list):
            raise SpanError(f"{pointer}/attributes", "`attributes` must be a list of {key, value} entries")
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
                raise SpanError(f"{pointer}/attributes/{index}", 'an attribute must be {"key": string, "value": AnyValue}')
            self.raw.setdefault(entry["key"], (index, entry.get("value", {})))  # keys are unique; the first counts

    def __contains__(self, key: str) -> bool:
        return key in self.raw

    def where(self, key: str) -> str:
        return f"{self.pointer}/attributes/{self.raw[key][0]}"

    def get(self, key: str) -> Any:
        entry = self.raw.get(key)
        if entry is None:
            return None
        value = entry[1]
        if type(value) is dict and len(value) == 1 and type(value.get("stringValue")) is str:
            return value["stringValue"]  # the usual attribute: no decoding walk
        return any_value(value, f"{self.pointer}/attributes/{entry[0]}/value")

    def string(self, key: str, ids: bool = False) -> str | None:
        """A string attribute (None when absent); `ids`: an integer is taken too, as its decimal text."""
        value = self.get(key)
        if value is None or isinstance(value, str):
            return value
        if ids and type(value) is int:
            return str(value)
        raise SpanError(self.where(key), f"{key} must be a string, got {_kind(value)}")

    def decoded(self) -> dict:
        return {key: self.get(key) for key in self.raw}


def _identifier(value: Any, size: int, name: str, pointer: str) -> str:
    """A trace (16 bytes) or span (8 bytes) id as lowercase hex: OTLP/JSON's hex, or protobuf JSON's base64."""
    if isinstance(value, str):
        if len(value) == 2 * size and _HEX.match(value):
            return value.lower()
        if len(value) == (size + 2) // 3 * 4:
            try:
                decoded = base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                decoded = b""
            if len(decoded) == size:
                return decoded.hex()
    raise SpanError(pointer, f"{name} must be {2 * size} hex digits ({size} bytes), got "
                             f"{value!r}" if isinstance(value, str) else f"{name} must be a string, got {_kind(value)}")


def _unix_nano(value: Any, name: str, pointer: str) -> int:
    if value is None:
        return 0  # proto3 JSON leaves a zero out
    if type(value) is int and value >= 0:
        return value
    if isinstance(value, str) and value.isdigit() and value.isascii():
        return int(value)
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    raise SpanError(pointer, f"{name} must be a non-negative 64-bit integer (a decimal string), got {value!r}")


def _json_text(value: str, what: str, pointer: str) -> Any:
    try:
        return jsoncodec.loads(value.encode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as exc:
        detail = f": {exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise SpanError(pointer, f"{what} is not JSON{detail}") from None


def _result_value(value: Any) -> Any:
    """A tool result as recorded: the JSON text of an object or array is parsed, other text kept."""
    if isinstance(value, str):
        parsed = jsoncodec.loads_container(value)
        return value if parsed is None else parsed
    return value


# ------------------------------------------------------------------ spans


@dataclass
class ToolSpan:
    """One tool-call span, read."""

    order: int
    start: int
    end: int
    trace_id: str
    span_id: str
    parent: str | None
    pointer: str
    span_name: str
    tool: str
    call_id: str | None
    arguments: Any
    arguments_known: bool
    error: bool
    error_type: str | None
    status_message: str | None
    result: Any
    result_known: bool
    mcp: bool
    extra: dict = field(default_factory=dict)

    def record(self) -> tuple[Record, Any]:
        """The Record of what the span shows happened, and the result content the conversation rules read."""
        if not self.error:
            return Record("returned", call_id=self.call_id, result=self.result, result_known=self.result_known,
                          as_content=True), \
                self.result
        if self.error_type == "timeout":
            text = self.status_message or "timeout"
            return Record("timeout", call_id=self.call_id, note=f"the call timed out (error.type timeout"
                                                                f"{': ' + self.status_message if self.status_message else ''})"), text
        if self.error_type == "tool_error":
            detail = self.status_message or "the tool returned isError (error.type tool_error)"
        elif self.status_message and self.error_type:
            detail = f"{self.status_message} (error.type {self.error_type})"
        else:
            detail = self.status_message or (f"error.type {self.error_type}" if self.error_type else "")
        # MCP: error.type is the JSON-RPC error code when the server answered with an error, not a tool result
        layer = "protocol" if self.mcp and self.error_type is not None and _DECIMAL.match(self.error_type) else "execution"
        content = self.result if self.result_known else detail
        record = Record("error", call_id=self.call_id, result=self.result if self.result_known else None,
                        error={"layer": layer, "message": detail or "(the span's status is ERROR, with no message "
                                                                    "and no error.type)"},
                        result_known=self.result_known)
        return record, content

    def absorb(self, inner: ToolSpan) -> None:
        """What a nested span of the same call knows and this one does not."""
        if self.call_id is None:
            self.call_id = inner.call_id
        if not self.arguments_known and inner.arguments_known:
            self.arguments, self.arguments_known = inner.arguments, True
        if not self.result_known and inner.result_known:
            self.result, self.result_known = inner.result, True
        if inner.error and not self.error:
            self.error, self.error_type, self.status_message = True, inner.error_type, inner.status_message
        self.mcp = self.mcp or inner.mcp
        self.extra = {**inner.extra, **self.extra}


@dataclass
class EventCall:
    call_id: str | None
    tool: Any
    arguments: Any
    arguments_known: bool
    pointer: str


@dataclass
class InferenceSpan:
    order: int
    start: int
    trace_id: str
    span_id: str
    pointer: str
    calls: list[EventCall] = field(default_factory=list)
    results: list[tuple[str | None, Any, str]] = field(default_factory=list)  # (id, content, pointer)


@dataclass
class Trace:
    number: int
    trace_id: str | None  # None: what could not be placed in any trace
    pointer: str  # of its first span
    tools: list[ToolSpan] = field(default_factory=list)
    inference: list[InferenceSpan] = field(default_factory=list)
    definitions: list | None = None
    unread: list[tuple[int, str, str]] = field(default_factory=list)  # (start, pointer, message)


def _status(span: dict, pointer: str) -> tuple[int, str | None]:
    status = span.get("status")
    if status is None:
        return 0, None
    if not isinstance(status, dict):
        raise SpanError(f"{pointer}/status", f"`status` must be an object, got {_kind(status)}")
    code = status.get("code", 0)
    if isinstance(code, bool) or code not in _STATUS:
        raise SpanError(f"{pointer}/status", f"status code {code!r} is not 0/STATUS_CODE_UNSET, 1/STATUS_CODE_OK or "
                                             "2/STATUS_CODE_ERROR")
    message = status.get("message")
    if message is not None and not isinstance(message, str):
        raise SpanError(f"{pointer}/status", f"the status message must be a string, got {_kind(message)}")
    return _STATUS[code], message or None


def _span_target(name: Any, prefix: str) -> str | None:
    if isinstance(name, str) and name.startswith(prefix + " ") and name[len(prefix) + 1:].strip():
        return name[len(prefix) + 1:].strip()
    return None


def _tool_span(span: dict, attributes: Attributes, pointer: str, order: int, trace_id: str, mcp: bool) -> ToolSpan:
    span_id = _identifier(span.get("spanId"), 8, "spanId", f"{pointer}/spanId")
    parent = span.get("parentSpanId")
    parent = _identifier(parent, 8, "parentSpanId", f"{pointer}/parentSpanId") if parent else None
    start = _unix_nano(span.get("startTimeUnixNano"), "startTimeUnixNano", f"{pointer}/startTimeUnixNano")
    end = _unix_nano(span.get("endTimeUnixNano"), "endTimeUnixNano", f"{pointer}/endTimeUnixNano")
    code, message = _status(span, pointer)
    name = span.get("name")
    tool = attributes.string("gen_ai.tool.name") or (attributes.string("mcp.tool.name") if mcp else None) or \
        _span_target(name, "tools/call" if mcp else TOOL_OPERATION)
    if tool is None:
        raise SpanError(pointer, "the tool-call span names no tool (no gen_ai.tool.name, and its name is not "
                                 f"`{'tools/call' if mcp else TOOL_OPERATION} {{tool}}`)")
    call_id = attributes.string("gen_ai.tool.call.id", ids=True)
    arguments, arguments_known = None, "gen_ai.tool.call.arguments" in attributes
    if arguments_known:
        arguments = attributes.get("gen_ai.tool.call.arguments")
        if arguments is None:
            arguments_known = False  # an empty value: nothing recorded
        elif not isinstance(arguments, (str, dict)):
            raise SpanError(attributes.where("gen_ai.tool.call.arguments"),
                            f"gen_ai.tool.call.arguments must be a JSON string or a map, got {_kind(arguments)}")
    result_known = "gen_ai.tool.call.result" in attributes
    result = _result_value(attributes.get("gen_ai.tool.call.result")) if result_known else None
    error_type = attributes.string("error.type", ids=True)
    extra = {}
    if mcp:
        for key in ("mcp.session.id", "jsonrpc.request.id"):
            value = attributes.string(key, ids=True)
            if value is not None:
                extra[key] = value
    return ToolSpan(order, start, end or start, trace_id, span_id, parent, pointer, name if isinstance(name, str) else "",
                    tool, call_id, arguments, arguments_known, code == 2 or error_type is not None, error_type,
                    message, result, result_known, mcp, extra)


def _event_body(event: dict, pointer: str) -> dict:
    attributes = Attributes(event, pointer)
    if "gen_ai.event.content" in attributes:
        content = attributes.string("gen_ai.event.content")
        body = _json_text(content, "gen_ai.event.content", attributes.where("gen_ai.event.content")) if content else {}
    else:
        body = {k: v for k, v in attributes.decoded().items() if k not in _EVENT_OWN}
    if not isinstance(body, dict):
        raise SpanError(pointer, f"the body of event {event.get('name')!r} must be an object, got {_kind(body)}")
    return body


def _event_calls(tool_calls: Any, pointer: str) -> list[EventCall]:
    if tool_calls is None:
        return []
    if not isinstance(tool_calls, list):
        raise SpanError(pointer, f"`tool_calls` must be a list, got {_kind(tool_calls)}")
    calls = []
    for entry in tool_calls:
        if not isinstance(entry, dict):
            raise SpanError(pointer, f"a `tool_calls` entry must be an object, got {_kind(entry)}")
        function = entry.get("function") if isinstance(entry.get("function"), dict) else entry
        call_id = entry.get("id")
        call_id = str(call_id) if isinstance(call_id, (str, int)) and not isinstance(call_id, bool) else None
        known = "arguments" in function and function["arguments"] is not None
        calls.append(EventCall(call_id, function.get("name"), function.get("arguments") if known else None, known,
                               pointer))
    return calls


def _inference_span(span: dict, pointer: str, order: int, trace_id: str) -> InferenceSpan:
    span_id = _identifier(span.get("spanId"), 8, "spanId", f"{pointer}/spanId")
    start = _unix_nano(span.get("startTimeUnixNano"), "startTimeUnixNano", f"{pointer}/startTimeUnixNano")
    found = InferenceSpan(order, start, trace_id, span_id, pointer)
    events = span.get("events") or []
    if not isinstance(events, list):
        raise SpanError(f"{pointer}/events", f"`events` must be a list, got {_kind(events)}")
    for index, event in enumerate(events):
        where = f"{pointer}/events/{index}"
        if not isinstance(event, dict):
            raise SpanError(where, f"an event must be an object, got {_kind(event)}")
        name = event.get("name")
        if name == "gen_ai.choice":
            body = _event_body(event, where)
            message = body.get("message") if isinstance(body.get("message"), dict) else body
            found.calls.extend(_event_calls(message.get("tool_calls"), where))
        elif name == "gen_ai.assistant.message":
            found.calls.extend(_event_calls(_event_body(event, where).get("tool_calls"), where))
        elif name == "gen_ai.tool.message":
            body = _event_body(event, where)
            call_id = body.get("id", body.get("tool_call_id"))
            call_id = str(call_id) if isinstance(call_id, (str, int)) and not isinstance(call_id, bool) else None
            found.results.append((call_id, body.get("content"), where))
    return found


def _definitions(attributes: Attributes) -> list:
    value = attributes.get("gen_ai.tool.definitions")
    where = attributes.where("gen_ai.tool.definitions")
    if isinstance(value, str):
        value = _json_text(value, "gen_ai.tool.definitions", where)
    if isinstance(value, list):
        return [_json_text(v, "a gen_ai.tool.definitions entry", where) if isinstance(v, str) else v for v in value]
    raise SpanError(where, f"gen_ai.tool.definitions must be a list of tool definitions, got {_kind(value)}")


# ---------------------------------------------------------------- documents


def _traces(data: dict, first_number: int) -> list[Trace]:
    """The traces of one OTLP/JSON document, in the order their first span appears."""
    traces: dict[str | None, Trace] = {}

    def trace(trace_id: str | None, pointer: str) -> Trace:
        found = traces.get(trace_id)
        if found is None:
            found = traces[trace_id] = Trace(first_number + len(traces), trace_id, pointer)
        return found

    def unread(pointer: str, message: str, trace_id: str | None = None, start: int = -1) -> None:
        trace(trace_id, pointer).unread.append((start, pointer, message))

    order = 0
    resources = data["resourceSpans"]
    for r, resource in enumerate(resources):
        where = f"/resourceSpans/{r}"
        if not isinstance(resource, dict):
            unread(where, f"a resourceSpans entry must be an object, got {_kind(resource)}")
            continue
        scopes = resource.get("scopeSpans", resource.get("instrumentationLibrarySpans", []))  # the latter: OTLP < 0.15
        scopes_key = "scopeSpans" if "scopeSpans" in resource or "instrumentationLibrarySpans" not in resource \
            else "instrumentationLibrarySpans"
        if not isinstance(scopes, list):
            unread(f"{where}/{scopes_key}", f"`{scopes_key}` must be a list, got {_kind(scopes)}")
            continue
        for s, scope in enumerate(scopes):
            scope_where = f"{where}/{scopes_key}/{s}"
            spans = scope.get("spans", []) if isinstance(scope, dict) else None
            if not isinstance(spans, list):
                unread(scope_where, "a scopeSpans entry must be an object with a list of `spans`")
                continue
            for k, span in enumerate(spans):
                order += 1
                pointer = f"{scope_where}/spans/{k}"
                _read_span(span, pointer, order, trace, unread)
    return list(traces.values())


def _read_span(span: Any, pointer: str, order: int, trace, unread) -> None:
    if not isinstance(span, dict):
        unread(pointer, f"a span must be an object, got {_kind(span)}")
        return
    trace_id = None
    try:
        attributes = Attributes(span, pointer)
        operation = attributes.string("gen_ai.operation.name")
        method = attributes.string("mcp.method.name")
        mcp = method == MCP_TOOL_CALL
        is_tool = operation == TOOL_OPERATION or (mcp and operation is None)
        is_inference = operation in INFERENCE_OPERATIONS or (operation is None and "gen_ai.system" in attributes)
        has_definitions = "gen_ai.tool.definitions" in attributes
        unknown = operation is not None and operation not in KNOWN_OPERATIONS and (
            mcp or any(a in attributes for a in TOOL_CALL_ATTRIBUTES)
            or _span_target(span.get("name"), TOOL_OPERATION) is not None)
        if not (is_tool or is_inference or has_definitions or unknown):
            return  # not a GenAI span this reader needs (HTTP, database, agent spans...)
        trace_id = _identifier(span.get("traceId"), 16, "traceId", f"{pointer}/traceId")
        found = trace(trace_id, pointer)
        if has_definitions:
            try:
                definitions = _definitions(attributes)
            except SpanError as exc:
                unread(exc.pointer, f"the tool definitions are not read: {exc.message}", trace_id)
            else:
                found.definitions = (found.definitions or []) + definitions
        if unknown:
            raise SpanError(attributes.where("gen_ai.operation.name"),
                            f"gen_ai.operation.name {operation!r} is not a known GenAI operation, yet the span carries "
                            "tool-call attributes: it is not read as a call")
        if is_tool:
            found.tools.append(_tool_span(span, attributes, pointer, order, trace_id, mcp))
        elif is_inference:
            found.inference.append(_inference_span(span, pointer, order, trace_id))
    except SpanError as exc:
        name = span.get("name")
        what = f"span {name!r}" if isinstance(name, str) and name else "a span"
        start = span.get("startTimeUnixNano")
        start = int(start) if isinstance(start, str) and start.isdigit() and start.isascii() else \
            start if type(start) is int else -1
        unread(exc.pointer, f"{what} is skipped: {exc.message}", trace_id, start)


def _merge_nested(tools: list[ToolSpan]) -> list[ToolSpan]:
    """Tool spans nested in a tool span of the same tool (and no other call id) folded into the outermost."""
    by_id = {t.span_id: t for t in tools}
    kept = []
    for span in tools:
        outer, seen = span, {span.span_id}
        while outer.parent in by_id and outer.parent not in seen:
            parent = by_id[outer.parent]
            if parent.tool != span.tool or (parent.call_id and span.call_id and parent.call_id != span.call_id):
                break
            seen.add(parent.span_id)
            outer = parent
        if outer is span:
            kept.append(span)
        else:
            outer.absorb(span)
    return kept


def conversation_of(trace: Trace, path: str, locate, locate_call=None) -> Conversation:
    """The Conversation of one trace (see the module docstring)."""
    tools = sorted(_merge_nested(trace.tools), key=lambda t: (t.start, t.order))
    covered = {t.call_id for t in tools if t.call_id is not None}
    timeline: list[tuple[int, int, Any]] = [(t.start, t.order, t) for t in tools]
    timeline += [(i.start, i.order, i) for i in trace.inference]
    timeline += [(start if start >= 0 else math.inf, math.inf, (pointer, message))
                 for start, pointer, message in trace.unread]
    timeline.sort(key=lambda item: (item[0], item[1]))
    has_inference = bool(trace.inference)
    messages: list[Message] = []
    unread: list[tuple[str, str, int]] = []
    turn: list[ToolSpan] = []
    turn_end = -1
    seen_calls: set[str] = set()
    seen_results: set[str] = set()

    def flush() -> None:
        nonlocal turn, turn_end
        if not turn:
            return
        index = len(messages)
        calls = []
        for block, span in enumerate(turn):
            calls.append(Call(span.call_id, span.tool, span.arguments, index, block, span.pointer,
                              pair=f"span:{span.span_id}", key=f"span-{span.span_id}",
                              origin={"trace_id": span.trace_id, "span_id": span.span_id, "span": span.span_name,
                                      **span.extra},
                              arguments_known=span.arguments_known))
        messages.append(Message(index, "assistant", turn[0].pointer, ("call",) * len(calls), tuple(calls)))
        for span in turn:
            record, content = span.record()
            index = len(messages)
            result = Result(span.call_id, content, span.error, index, None, span.pointer, pair=f"span:{span.span_id}",
                            record=record)
            messages.append(Message(index, "tool", span.pointer, ("result",), results=(result,)))
        turn, turn_end = [], -1

    for start, _, item in timeline:
        if isinstance(item, ToolSpan):
            if turn and not has_inference and start >= turn_end:
                flush()
            turn.append(item)
            turn_end = max(turn_end, item.end)
        elif isinstance(item, InferenceSpan):
            flush()
            results = []
            for call_id, content, pointer in item.results:
                if call_id in covered or (call_id is not None and call_id in seen_results):
                    continue  # a tool span has it, or an earlier span's history did
                if call_id is not None:
                    seen_results.add(call_id)
                results.append(Result(call_id, content, None, len(messages), len(results), pointer))
            if results:
                messages.append(Message(len(messages), "tool", results[0].pointer, ("result",) * len(results),
                                        results=tuple(results)))
            index = len(messages)
            calls = []
            for event in item.calls:
                if event.call_id in covered or (event.call_id is not None and event.call_id in seen_calls):
                    continue
                if event.call_id is not None:
                    seen_calls.add(event.call_id)
                tag = event.call_id if event.call_id is not None else f"call{len(calls)}"
                calls.append(Call(event.call_id, event.tool, event.arguments, index, len(calls), event.pointer,
                                  key=f"span-{item.span_id}/{tag}",
                                  origin={"trace_id": item.trace_id, "span_id": item.span_id},
                                  arguments_known=event.arguments_known))
            messages.append(Message(index, "assistant", item.pointer, ("text",) + ("call",) * len(calls), tuple(calls)))
        else:
            flush()
            pointer, message = item
            unread.append((pointer, message, len(messages)))
            messages.append(Message(len(messages), None, pointer, ("unread",)))
    flush()
    offered = names = None
    if trace.definitions is not None:
        from toolcontract.io.transcripts import offered_tools

        offered, names = offered_tools(_unique(trace.definitions))
    return Conversation(f"trace{trace.number}", path, OTEL_GENAI, trace.pointer, messages, offered, names, False,
                        locate, locate_call, unread)


def _unique(definitions: list) -> list:
    """Tool definitions of several spans, each name once (the first definition wins)."""
    from toolcontract.io.transcripts import tool_descriptor

    seen: set[str] = set()
    kept = []
    for entry in definitions:
        name, _ = tool_descriptor(entry)
        if name is not None and name in seen:
            continue
        if name is not None:
            seen.add(name)
        kept.append(entry)
    return kept


def _root_problem(data: Any) -> str | None:
    if not isinstance(data, dict):
        return f'expected an OTLP/JSON traces document ({{"resourceSpans": [...]}}), got {_kind(data)}'
    if not isinstance(data.get("resourceSpans"), list):
        if "resourceSpans" in data:
            return f"`resourceSpans` must be a list, got {_kind(data['resourceSpans'])}"
        return 'expected an OTLP/JSON traces document ({"resourceSpans": [...]})'
    return None


def conversations(data: Any, path: str, locate, locate_call=None, first_number: int = 1) -> Iterator[Conversation]:
    for trace in _traces(data, first_number):
        yield conversation_of(trace, path, locate, locate_call)


def read_document(document: Document) -> Iterator[Conversation]:
    """The conversations (one per trace) of a loaded OTLP/JSON document. Raises FixtureError when it is not one."""
    problem = _root_problem(document.data)
    if problem is not None:
        line, column = document.locate("/resourceSpans")
        raise FixtureError(document.path, line, column, problem)
    return conversations(document.data, document.path, document.locate)


# ---------------------------------------------------------------- detection


def looks_like_traces(head: bytes) -> bool:
    """Whether bytes start as an OTLP/JSON traces document: `{"resourceSpans": ...` (the first line of
    JSON lines, or a whole document)."""
    return _ROOT.match(head.removeprefix(b"\xef\xbb\xbf")) is not None


def trace_document(raw: bytes, path: str, limits: Limits = DEFAULT_LIMITS) -> Document | None:
    """The loaded document when these bytes are one OTLP/JSON traces document (`resourceSpans` at the root)."""
    if b'"resourceSpans"' not in raw:
        return None
    try:
        document = load_bytes(raw, path, limits)
    except LoadError:
        return None
    if isinstance(document.data, dict) and "resourceSpans" in document.data:
        return document
    return None


def jsonl_holds_traces(stream: IO[bytes], limits: Limits = DEFAULT_LIMITS) -> bool:
    """Whether a JSON lines stream holds OTLP/JSON documents, from its first non-blank line; rewound."""
    from toolcontract.io.files import LineTooLong, bounded_lines

    try:
        for raw in bounded_lines(stream, limits.max_bytes):
            if raw.strip():
                if looks_like_traces(raw):
                    return True
                if b'"resourceSpans"' not in raw:
                    return False
                try:
                    data = jsoncodec.loads(raw.removeprefix(b"\xef\xbb\xbf"))
                except (ValueError, RecursionError):
                    return False
                return isinstance(data, dict) and "resourceSpans" in data
        return False
    except LineTooLong:
        return False
    finally:
        stream.seek(0)


def read_stream(stream: IO[bytes], path: str, limits: Limits = DEFAULT_LIMITS) -> Iterator[Conversation]:
    """The conversations of a file that `looks_like_traces`: JSON lines (its first line is a whole document)
    read one line at a time, or one document (pretty-printed) read whole within the size limit."""
    from toolcontract.io.files import LineTooLong, bounded_lines

    try:
        first = next((raw for raw in bounded_lines(stream, limits.max_bytes) if raw.strip()), b"")
    except LineTooLong as exc:
        raise FixtureError(path, exc.number, 1, f"line is over the {limits.max_bytes:,}-byte limit") from None
    stream.seek(0)
    try:
        whole_line = isinstance(jsoncodec.loads(first.removeprefix(b"\xef\xbb\xbf")), dict)
    except (ValueError, RecursionError):
        whole_line = False
    if whole_line:
        return read_jsonl(stream, path, limits)
    raw = stream.read(limits.max_bytes + 1)
    if len(raw) > limits.max_bytes:
        raise FixtureError(path, 1, 1, f"file is over the {limits.max_bytes:,}-byte limit (write JSON lines, one "
                                       "batch per line, as the Collector's file exporter does)")
    try:
        document = load_bytes(raw, path, limits)
    except LoadError as error:
        raise FixtureError(path, error.line, error.column, error.message) from None
    return read_document(document)


def read_jsonl(stream: IO[bytes], path: str, limits: Limits = DEFAULT_LIMITS) -> Iterator[Conversation]:
    """Conversations from JSON lines of OTLP/JSON documents, one line at a time (a trace is grouped within
    its line): memory stays flat. A line of another signal (logs, metrics, profiles) is skipped."""
    from toolcontract.io.fixtures import jsonl_lines
    from toolcontract.io.transcripts import _jsonl_line

    number = 1
    for line_number, raw in jsonl_lines(stream, path, limits):
        data = _jsonl_line(raw, line_number, path, limits)
        if isinstance(data, dict) and "resourceSpans" not in data and any(k in data for k in NOT_TRACES):
            continue
        problem = _root_problem(data)
        document = Document(path=path, text=raw.decode("utf-8", errors="replace").rstrip("\r\n"), data=data)
        if problem is not None:
            column = document.locate("/resourceSpans")[1] if isinstance(data, dict) and "resourceSpans" in data else 1
            raise FixtureError(path, line_number, column, problem)

        def locate(pointer: str, document=document, line_number=line_number) -> tuple[int, int]:
            return line_number, document.locate(pointer)[1]

        def locate_call(pointer: str, line_number=line_number) -> tuple[int, None]:
            return line_number, None

        found = 0
        for conversation in conversations(data, path, locate, locate_call, number):
            found += 1
            yield conversation
        number += found
