"""Read recorded conversations (transcripts) and turn every tool call in them into an assess case.

Formats, detected from keys (never from a file name):

- **Anthropic Messages**: a list of messages whose content blocks include `tool_use` /
  `tool_result` (`is_error`), or a request body `{"messages": [...], "tools": [...]}`.
- **OpenAI Chat**: messages with `tool_calls` on assistant messages and `role: "tool"`
  messages with `tool_call_id`; request bodies `{"messages": [...], "tools": [...]}`.
- **OpenAI Responses**: input items `function_call` / `function_call_output` paired by
  `call_id`; request bodies `{"input": [...], "tools": [...]}`.

A file may hold one conversation (a bare message list, a request body) or many inside a
wrapper: every list of messages found anywhere in the document is a conversation
(`trajectories[*].traj`, `cassettes[*].interactions[*].request.messages`, ...), searched
in document order down to the loader's depth limit. Response bodies are not
conversations (their calls reappear in the next request). A Responses item list counts
only under `input` or at the root, so a response's `output` is never read as a request.
JSONL: one request (or any of the above) per line, read one line at a time; a line that
holds no conversation is skipped.

Tools: the request's own `tools` list (or `functions`, or a wrapper's `tools` /
`tools_offered` list above the conversation, nearest first), in any provider's tool
format (OpenAI Chat / Responses, Anthropic, MCP `inputSchema`, native), becomes
native-named descriptor dicts: name, description, input_schema. A provider tool says
nothing about its effect, so the registry treats it as consequential — the worst case
(DESIGN §2): such calls need an environment that allows them, an approval and a read-back.
`--tools` descriptors of the same name take precedence (they carry effect classes).
Anthropic server tools (`web_search_...`, `tool_search_...`) are offered names but not
client tools; their `server_tool_use` / `mcp_tool_use` blocks are not cases.

Cases: each call is a case `conv{N}/msg{I}/{call id}` (N counts conversations in the file
from 1; I is the message's index in its list, as in the JSON pointer). Its source is the
file, the line and column of the call block, the conversation, the message index and the
pointer; in JSONL the line number alone (`column` null: a column would cost a position scan
of the whole line for every call; findings, rarer, get theirs). The candidate is
the call as the model wrote it (OpenAI: the raw argument string); the record is its
result (`returned`, or an `execution` error for `is_error: true`); no result, no record.
There is never an observation: a transcript holds no independent read-back. The context
comes from `--context FILE` (`load_context`).
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, replace
from typing import IO, Any, Iterable, Iterator

from toolcontract.core import jsoncodec
from toolcontract.assessment.conversation import (
    ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES, Call, Conversation, Message, Result,
)
from toolcontract.assessment.gates import as_id, parse_arguments
from toolcontract.core.descriptor import effect_from_annotations
from toolcontract.assessment.registry import Registry
from toolcontract.core.model import Candidate, Context
from toolcontract.io.document import DEFAULT_LIMITS, Document, Limits, LoadError, load_bytes
from toolcontract.core.pointer import join_pointer, resolve_pointer
from toolcontract.io.fixtures import UNREADABLE, FixtureError, first_jsonl_value, jsonl_lines

MESSAGE_ROLES = frozenset(("user", "assistant", "system", "developer", "tool", "function"))
RESPONSES_ITEMS = frozenset((
    "message", "function_call", "function_call_output", "reasoning", "item_reference", "web_search_call",
    "file_search_call", "computer_call", "computer_call_output", "custom_tool_call", "custom_tool_call_output",
    "mcp_call", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "image_generation_call",
    "code_interpreter_call", "local_shell_call", "local_shell_call_output", "compaction",
))
ANTHROPIC_BLOCKS = frozenset(("tool_use", "tool_result", "server_tool_use", "mcp_tool_use", "mcp_tool_result",
                              "thinking", "redacted_thinking"))
TOOL_LIST_KEYS = ("tools", "functions", "tools_offered")
NATIVE_MARKERS = frozenset(("toolcontract", "effect", "purpose", "non_goals", "target", "semantic_rules", "approval"))
NO_ARGUMENTS = {"type": "object", "properties": {}, "additionalProperties": False}


# ------------------------------------------------------------------ detection


def _anthropic_block(kind: Any) -> bool:
    return isinstance(kind, str) and (kind in ANTHROPIC_BLOCKS or kind.endswith("_tool_result"))


def detect(items: Any, key: str | None, container: Any = None) -> str | None:
    """The format of a list if it is a conversation's message (or item) list, else None.

    `key` is the member that holds the list (None: the document root or a list entry);
    Responses items are only taken under `input` or with no key.
    """
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        return None
    responses_allowed = key in ("input", None)
    roles = [r if isinstance(r := x.get("role"), str) else None for x in items]  # values may be anything
    types = [t if isinstance(t := x.get("type"), str) else None for x in items]
    if responses_allowed and any(t in ("function_call", "function_call_output") for t in types):
        if all(r in MESSAGE_ROLES or t in RESPONSES_ITEMS for r, t in zip(roles, types)):
            return OPENAI_RESPONSES
    if not all(r in MESSAGE_ROLES for r in roles):
        if key == "input" and all(t in RESPONSES_ITEMS or r in MESSAGE_ROLES for r, t in zip(roles, types)):
            return OPENAI_RESPONSES
        return None
    if any(m.get("tool_calls") or m.get("role") in ("tool", "function") or "tool_call_id" in m for m in items):
        return OPENAI_CHAT
    blocks = [b for m in items if isinstance(m.get("content"), list) for b in m["content"] if isinstance(b, dict)]
    if any(_anthropic_block(b.get("type")) and not b.get("type", "").endswith("thinking") for b in blocks):
        return ANTHROPIC
    if key == "input":
        return OPENAI_RESPONSES
    # no tool traffic: the format matters little; go by the request's tool list, then by weaker hints
    tools = _tool_list(container)
    if tools:
        if any(isinstance(t, dict) and ("input_schema" in t or str(t.get("type", "")).startswith(("web_search_",
               "tool_search_", "custom"))) for t in tools):
            return ANTHROPIC
        return OPENAI_CHAT
    if any(b.get("type") == "redacted_thinking" or (b.get("type") == "thinking" and "signature" in b) for b in blocks):
        return ANTHROPIC
    if isinstance(container, dict) and ("anthropic_version" in container or
                                        ("max_tokens" in container and "system" in container)):
        return ANTHROPIC
    return OPENAI_CHAT


# --------------------------------------------------------------------- tools


def tool_descriptor(entry: Any) -> tuple[str | None, dict | None]:
    """(name, native-named descriptor dict) of one tool in any provider's format.

    A server tool (a name but no schema, e.g. Anthropic's `web_search_20250305`) gives
    (name, None): offered, but not a client tool.
    """
    if not isinstance(entry, dict):
        return None, None
    if "name" not in entry and isinstance(entry.get("tool"), dict):
        entry = entry["tool"]  # a wrapped entry, e.g. {"_source_path": ..., "tool": {...}}
    if not NATIVE_MARKERS.isdisjoint(entry) and isinstance(entry.get("name"), str):
        return entry["name"], {k: v for k, v in entry.items() if k != "toolcontract"}
    if entry.get("type") in ("function", None) and isinstance(entry.get("function"), dict):  # Mistral omits `type`
        function, key = entry["function"], "parameters"
    elif "inputSchema" in entry:
        function, key = entry, "inputSchema"
    elif "input_schema" in entry:
        function, key = entry, "input_schema"
    elif "parameters" in entry or entry.get("type") == "function":
        function, key = entry, "parameters"
    else:
        name = entry.get("name")
        return (name if isinstance(name, str) else None), None
    name = function.get("name")
    if not isinstance(name, str):
        return None, None
    descriptor: dict[str, Any] = {"name": name}
    if isinstance(function.get("description"), str):
        descriptor["description"] = function["description"]
    schema = function.get(key)
    if isinstance(schema, dict):
        descriptor["input_schema"] = schema
    elif schema is None and key == "parameters":
        descriptor["input_schema"] = NO_ARGUMENTS  # OpenAI: no `parameters`, no arguments
    if key == "inputSchema" and isinstance(function.get("outputSchema"), dict):
        descriptor["output_schema"] = function["outputSchema"]  # what its structuredContent must match (TC813)
    if key == "inputSchema":  # an MCP tool: its annotations give the effect class (lint's one derivation)
        derived = effect_from_annotations(function.get("annotations"))
        if derived is not None:
            descriptor["effect"] = derived[0].value
    return name, descriptor


def offered_tools(entries: Any) -> tuple[tuple[dict, ...], frozenset[str]]:
    """The client tools (descriptor dicts) and every offered name of a tool list."""
    descriptors: list[dict] = []
    names: set[str] = set()
    for entry in entries if isinstance(entries, list) else ():
        name, descriptor = tool_descriptor(entry)
        if name is not None:
            names.add(name)
        if descriptor is not None:
            descriptors.append(descriptor)
    return tuple(descriptors), frozenset(names)


def _tool_list(container: Any) -> list | None:
    if isinstance(container, dict):
        for key in TOOL_LIST_KEYS:
            value = container.get(key)
            if isinstance(value, list):
                return value
    return None


# ------------------------------------------------------------------- messages


def _id(value: Any) -> str | None:
    return None if value is None else value if isinstance(value, str) else as_id(value)


def _anthropic_messages(items: list, base: str) -> tuple[list[Message], frozenset[str]]:
    messages = []
    added: set[str] = set()  # tools advertised mid-conversation (`tool_addition` blocks)
    for index, item in enumerate(items):
        pointer = f"{base}/{index}"
        content = item.get("content")
        kinds: list[str] = []
        calls: list[Call] = []
        results: list[Result] = []
        if isinstance(content, str):
            kinds = ["text"] if content else []
        elif isinstance(content, list):
            for position, block in enumerate(content):
                where = f"{pointer}/content/{position}"
                if not isinstance(block, dict):
                    kinds.append("text" if isinstance(block, str) else "other")
                    continue
                kind = block.get("type")
                if kind == "tool_use":
                    calls.append(Call(_id(block.get("id")), block.get("name"), block.get("input"), index, position, where))
                    kinds.append("call")
                elif kind == "tool_result":
                    results.append(Result(_id(block.get("tool_use_id")), block.get("content"),
                                          block.get("is_error") is True, index, position, where))
                    kinds.append("result")
                else:
                    if kind == "tool_addition" and isinstance(block.get("tool"), dict):
                        name = block["tool"].get("name")
                        if isinstance(name, str):
                            added.add(name)
                    kinds.append(kind if isinstance(kind, str) and kind else "other")
        messages.append(Message(index, item.get("role"), pointer, tuple(kinds), tuple(calls), tuple(results)))
    return messages, frozenset(added)


def _chat_messages(items: list, base: str) -> list[Message]:
    messages = []
    for index, item in enumerate(items):
        pointer = f"{base}/{index}"
        role = item.get("role")
        content = item.get("content")
        kinds: list[str] = []
        calls: list[Call] = []
        results: list[Result] = []
        if role == "tool":
            results.append(Result(_id(item.get("tool_call_id")), content, None, index, None, pointer))
            kinds.append("result")
        else:
            if content not in (None, "", []):
                kinds.append("text")
            tool_calls = item.get("tool_calls")
            for position, entry in enumerate(tool_calls if isinstance(tool_calls, list) else ()):
                where = f"{pointer}/tool_calls/{position}"
                entry = entry if isinstance(entry, dict) else {}
                function = entry.get("function") if isinstance(entry.get("function"), dict) else {}
                calls.append(Call(_id(entry.get("id")), function.get("name"), function.get("arguments"), index,
                                  position, where))
                kinds.append("call")
        messages.append(Message(index, role, pointer, tuple(kinds), tuple(calls), tuple(results)))
    return messages


def _responses_items(items: list, base: str) -> list[Message]:
    messages = []
    for index, item in enumerate(items):
        pointer = f"{base}/{index}"
        kind = item.get("type")
        if kind == "function_call":
            call = Call(_id(item.get("call_id")), item.get("name"), item.get("arguments"), index, None, pointer)
            messages.append(Message(index, "assistant", pointer, ("call",), calls=(call,)))
        elif kind == "function_call_output":
            result = Result(_id(item.get("call_id")), item.get("output"), None, index, None, pointer)
            messages.append(Message(index, "tool", pointer, ("result",), results=(result,)))
        else:
            role = item.get("role") if isinstance(item.get("role"), str) else ("assistant" if kind == "reasoning" else None)
            messages.append(Message(index, role, pointer, (kind if isinstance(kind, str) else "message",)))
    return messages


def _conversation(number: int, path: str, fmt: str, items: list, pointer: str, container: Any,
                  tools: list | None, locate) -> Conversation:
    added: frozenset[str] = frozenset()
    if fmt == ANTHROPIC:
        messages, added = _anthropic_messages(items, pointer)
    elif fmt == OPENAI_CHAT:
        messages = _chat_messages(items, pointer)
    else:
        messages = _responses_items(items, pointer)
    offered, names = (None, None) if tools is None else offered_tools(tools)
    if names is not None and added:
        names = names | added
    continues = fmt == OPENAI_RESPONSES and isinstance(container, dict) and bool(container.get("previous_response_id"))
    return Conversation(f"conv{number}", path, fmt, pointer, messages, offered, names, continues, locate)


def find_conversations(data: Any, path: str, locate, first_number: int = 1,
                       max_depth: int = DEFAULT_LIMITS.max_depth) -> Iterator[Conversation]:
    """Every conversation in `data`, in document order (see the module docstring)."""
    number = first_number

    def visit(node: Any, pointer: str, key: str | None, container: Any, tools: list | None, depth: int):
        nonlocal number
        if depth > max_depth:
            return
        if isinstance(node, list):
            fmt = detect(node, key, container)
            if fmt is not None:
                conversation = _conversation(number, path, fmt, node, pointer, container, tools, locate)
                number += 1
                yield conversation
                return
            for index, item in enumerate(node):
                if isinstance(item, (dict, list)):
                    yield from visit(item, f"{pointer}/{index}", None, node, tools, depth + 1)
        elif isinstance(node, dict):
            own = _tool_list(node)
            inherited = own if own is not None else tools
            for member, value in node.items():
                if member in TOOL_LIST_KEYS or not isinstance(value, (dict, list)):
                    continue
                yield from visit(value, join_pointer(pointer, member), member, node, inherited, depth + 1)

    yield from visit(data, "", None, None, None, 0)


def read_document(document: Document) -> Iterator[Conversation]:
    """The conversations of a loaded JSON or YAML document (an OTLP/JSON trace's: one per trace)."""
    if isinstance(document.data, dict) and "resourceSpans" in document.data:
        from toolcontract.io import traces

        return traces.read_document(document)
    return find_conversations(document.data, document.path, document.locate)


def transcript_document(raw: bytes, path: str, limits: Limits = DEFAULT_LIMITS) -> Document | None:
    """The document if these bytes are a transcript, else None (a fixture, or unreadable:
    the fixture reader then reports what is wrong, as before)."""
    if b"role" not in raw and b"function_call" not in raw:
        return None  # every message has a role; every Responses call is a function_call
    try:
        document = load_bytes(raw, path, limits)
    except LoadError:
        return None
    if isinstance(document.data, dict) and "toolcontract" in document.data:
        return None
    if next(read_document(document), None) is None:
        return None
    return document


# ---------------------------------------------------------------------- JSONL


def _jsonl_line(raw: bytes, number: int, path: str, limits: Limits) -> Any:
    if len(raw) > limits.max_bytes:
        raise FixtureError(path, number, 1, f"line is over the {limits.max_bytes:,}-byte limit")
    try:
        data = jsoncodec.loads(raw)
    except UnicodeDecodeError as exc:
        raise FixtureError(path, number, exc.start + 1, "invalid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise FixtureError(path, number, exc.colno, f"JSON: {exc.msg}") from None
    except RecursionError:
        raise FixtureError(path, number, 1, f"nesting is deeper than {limits.max_depth} levels") from None
    from toolcontract.core.nesting import nests_deeper

    if nests_deeper(data, limits.max_depth):  # the limit every loaded document has (validators recurse)
        raise FixtureError(path, number, 1, f"nesting is deeper than {limits.max_depth} levels")
    return data


def jsonl_holds_conversations(stream: IO[bytes], limits: Limits = DEFAULT_LIMITS) -> bool:
    """Whether a JSONL stream holds transcripts (not fixture cases), from its first non-blank
    line; the stream is rewound. A first line that does not parse is left to the fixture reader."""
    data = first_jsonl_value(stream, limits)
    if data is UNREADABLE or (isinstance(data, dict) and "candidate" in data):
        return False
    return next(find_conversations(data, "-", lambda p: (1, 1), max_depth=limits.max_depth), None) is not None


def read_jsonl(stream: IO[bytes], path: str, limits: Limits = DEFAULT_LIMITS) -> Iterator[Conversation]:
    """Conversations from a JSONL stream, one line at a time: memory stays flat."""
    number = 1
    for line_number, raw in jsonl_lines(stream, path, limits):
        data = _jsonl_line(raw, line_number, path, limits)
        if not isinstance(data, (dict, list)):
            raise FixtureError(path, line_number, 1, "expected a request body, a list of messages, or an object "
                                                     "holding them")
        document = Document(path=path, text=raw.decode("utf-8", errors="replace").rstrip("\r\n"), data=data)

        def locate(pointer: str, document=document, line_number=line_number) -> tuple[int, int]:
            return line_number, document.locate(pointer)[1]

        for conversation in find_conversations(data, path, locate, number, limits.max_depth):
            number += 1
            conversation.locate_call = lambda pointer, line_number=line_number: (line_number, None)
            yield conversation


# -------------------------------------------------------------------- context


class ContextError(Exception):
    """A `--context` file that cannot be used; str() is `path:line:col: message`."""

    def __init__(self, path: str, line: int, column: int, message: str):
        super().__init__(f"{path}:{line}:{column}: {message}")


@dataclass(frozen=True)
class TranscriptContext:
    """The context of every call of a run: DESIGN §4 `context` fields, plus `targets`, a list of
    target snapshots of which a call gets the one whose id is the call's target id."""

    base: Context = Context()
    targets: tuple[dict, ...] = ()

    def for_call(self, candidate: Candidate, registry: Registry) -> Context:
        if not self.targets:
            return self.base
        tool = registry.get(candidate.name)
        if tool is None or "id" not in tool.target:
            return self.base
        arguments, _ = parse_arguments(candidate.arguments)
        found, value = resolve_pointer(arguments, tool.target["id"]) if arguments is not None else (False, None)
        if not found or value is None:
            return self.base
        wanted = as_id(value)
        for target in self.targets:
            if target.get("id") is not None and as_id(target["id"]) == wanted:
                return replace(self.base, target=target)
        return self.base


@functools.cache
def _context_validator():
    from toolcontract.core.schema.validation import compile_validator
    from toolcontract.core.schema.bundled import load_schema

    schema = load_schema("fixture.schema.json")
    return compile_validator({"$ref": "#/$defs/context", "$defs": schema["$defs"]})


def _best_error(errors) -> Any:
    """The error worth showing: the deepest, looking inside anyOf branches (`null | {...}` would
    otherwise only say "not valid under any of the schemas")."""
    flat = []
    for error in errors:
        branches = getattr(error.kind, "context", None) or ()
        inner = [e for branch in branches for e in branch]
        flat.append(_best_error(inner) if inner else error)
    return min(flat, key=lambda e: (-len(e.instance_path), e.message), default=None)


def context_from_mapping(data: dict, targets: Iterable[dict] = ()) -> TranscriptContext:
    approvals = list(data.get("approvals") or ())
    if data.get("approval"):
        approvals.insert(0, data["approval"])
    base = Context(
        now=data.get("now"),
        environment=data.get("environment"),
        approvals=tuple(approvals),
        target=data.get("target"),
        untrusted_input=bool(data.get("untrusted_input", False)),
        sensitive_data=bool(data.get("sensitive_data", False)),
    )
    return TranscriptContext(base, tuple(targets))


def load_context(path: str, limits: Limits = DEFAULT_LIMITS) -> TranscriptContext:
    """A `--context` file (YAML or JSON): a mapping of DESIGN §4 context fields (`now`,
    `environment`, `approval`/`approvals`, `target`, `untrusted_input`, `sensitive_data`),
    optionally under a `context:` key, plus `targets: [...]`. Raises ContextError."""
    try:
        from toolcontract.io.files import open_regular

        with open_regular(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limits.max_bytes:
                raise ContextError(path, 1, 1, f"file is {size:,} bytes, over the {limits.max_bytes:,}-byte limit")
            document = load_bytes(handle.read(limits.max_bytes + 1), path, limits)
    except OSError as exc:
        raise ContextError(path, 1, 1, f"cannot read: {exc.strerror or exc}") from None
    except LoadError as error:
        raise ContextError(path, error.line, error.column, error.message) from None
    if document.duplicates:
        dup = document.duplicates[0]
        raise ContextError(path, dup.line, dup.column, f"key {dup.key!r} repeats the one at line {dup.first_line}")
    data = document.data
    base = targets_base = ""  # where the fields are in the file
    if isinstance(data, dict) and set(data) <= {"context", "targets"} and isinstance(data.get("context"), dict):
        targets_base = "" if "targets" in data else "/context"
        data, base = {**data["context"], **({"targets": data["targets"]} if "targets" in data else {})}, "/context"
    if not isinstance(data, dict):
        raise ContextError(path, 1, 1, "expected a mapping of context fields (now, environment, approvals, target, "
                                       "targets, untrusted_input, sensitive_data)")

    def fail(pointer: str, message: str):
        line, column = document.locate(pointer)
        raise ContextError(path, line, column, message)

    targets = data.get("targets", [])
    rest = {k: v for k, v in data.items() if k != "targets"}
    if not isinstance(targets, list):
        fail(targets_base + "/targets", "`targets` must be a list of target snapshots")
    from toolcontract.core.schema.validation import error_objects, short_message

    validator = _context_validator()
    error = _best_error(error_objects(validator, rest))
    if error is not None:
        fail(join_pointer(base, *error.instance_path), short_message(error.message))
    for index, target in enumerate(targets):
        where = join_pointer(targets_base + "/targets", index)
        if not isinstance(target, dict):
            fail(where, f"targets entry {index + 1}: a target snapshot must be a mapping")
        problem = _best_error(error_objects(validator, {"target": target}))
        if problem is not None:
            fail(join_pointer(where, *list(problem.instance_path)[1:]), f"targets entry {index + 1}: {short_message(problem.message)}")
    return context_from_mapping(rest, targets)
