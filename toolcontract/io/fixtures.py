"""Read invocation fixtures (YAML, JSON, JSONL) into cases, in order, with positions.

A fixture file is checked case by case against schemas/fixture.schema.json, so the
cases before a malformed one are still assessed; the malformed one raises
`FixtureError` with its position. JSONL is read one line at a time: memory stays
flat however long the log is.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import IO, Any, Iterator

from toolcontract.core import jsoncodec
from toolcontract.assessment.gates import as_id
from toolcontract.core.model import Candidate, Case, Context, Observation, Record
from toolcontract.core.nesting import nests_deeper
from toolcontract.io.document import DEFAULT_LIMITS, Document, Limits, LoadError, load_bytes
from toolcontract.core.pointer import join_pointer


class FixtureError(Exception):
    """A fixture that cannot be read; str() is `path:line:col: message`."""

    def __init__(self, path: str, line: int, column: int, message: str):
        super().__init__(f"{path}:{line}:{column}: {message}")
        self.path, self.line, self.column, self.message = path, line, column, message


@functools.cache
def _validators():
    from toolcontract.core.schema.validation import compile_validator
    from toolcontract.core.schema.bundled import load_schema

    schema = load_schema("fixture.schema.json")
    case_schema = {"$ref": "#/$defs/case", "$defs": schema["$defs"]}
    return compile_validator(schema), compile_validator(case_schema)


def _first_error(validator, value: Any) -> tuple[tuple, str] | None:
    if validator.is_valid(value):
        return None
    from toolcontract.core.schema.validation import error_objects

    errors = sorted(error_objects(validator, value), key=lambda e: (-len(e.instance_path), e.message))
    error = errors[0]
    from toolcontract.core.schema.validation import short_message

    return tuple(error.instance_path), short_message(error.message)


def _as_id(value: Any) -> str | None:
    if value is None or type(value) is str:
        return value
    return as_id(value)


_NO_CONTEXT = Context()


def case_from_dict(data: dict, source: dict | None = None) -> Case:
    """A Case from a structurally valid case mapping."""
    candidate = data["candidate"]
    context = data.get("context")
    if context is None:  # absent or null: the case carries no context (evidence-only, DESIGN §2)
        pass
    elif context:
        approvals = context.get("approvals")
        approvals = list(approvals) if approvals else []
        approval = context.get("approval")
        if approval:
            approvals.insert(0, approval)
        context = Context(
            now=context.get("now"),
            environment=context.get("environment"),
            approvals=tuple(approvals),
            target=context.get("target"),
            untrusted_input=bool(context.get("untrusted_input", False)),
            sensitive_data=bool(context.get("sensitive_data", False)),
        )
    else:  # `context: {}`: a context, every field at its default (fail-closed)
        context = _NO_CONTEXT
    record = data.get("record")
    observation = data.get("observation")
    return Case(
        id=_as_id(data["id"]) or "",
        candidate=Candidate(id=_as_id(candidate.get("id")), name=candidate["name"], arguments=candidate["arguments"]),
        context=context,
        record=None if record is None else Record(
            status=record["status"],
            call_id=_as_id(record.get("call_id")),
            sent=record.get("sent"),
            result=record.get("result"),
            error=record.get("error"),
        ),
        observation=None if observation is None else Observation(
            verdict=observation["effect"],
            call_id=_as_id(observation.get("call_id")),
            target=observation.get("target"),
        ),
        expect=data.get("expect"),
        source=source,
    )


@dataclass
class FixtureFile:
    """A fixture file's declared tools (paths relative to it) and its cases, read lazily."""

    path: str
    tools: list[str]
    cases: Iterator[Case]
    document: Document | None = None

    def locate(self, pointer: str) -> tuple[int, int]:
        return self.document.locate(pointer) if self.document is not None else (1, 1)


def read_fixture_document(document: Document) -> FixtureFile:
    path = document.path
    data = document.data
    top, case_validator = _validators()
    if not isinstance(data, dict):
        raise FixtureError(path, 1, 1, "expected a fixture mapping with `toolcontract: 1` and `cases:`")
    # the file's frame first (everything but the cases), then the cases one by one
    frame = {k: v for k, v in data.items() if k != "cases"}
    frame["cases"] = []
    problem = _first_error(top, frame)
    if problem is None and not isinstance(data.get("cases"), list):
        problem = (("cases",), "`cases` must be a list of cases")
    if problem is not None:
        pointer = join_pointer("", *problem[0])
        line, column = document.locate(pointer)
        raise FixtureError(path, line, column, problem[1])

    def cases() -> Iterator[Case]:
        for index, item in enumerate(data["cases"]):
            pointer = f"/cases/{index}"
            bad = _first_error(case_validator, item)
            if bad is not None:
                line, column = document.locate(join_pointer(pointer, *bad[0]))
                raise FixtureError(path, line, column, f"case {index + 1}: {bad[1]}")
            line, _ = document.locate(pointer, "value")
            yield case_from_dict(item, {"path": path, "line": line})

    return FixtureFile(path, [t for t in data.get("tools") or ()], cases(), document)


def read_fixture_bytes(raw: bytes, path: str, limits: Limits = DEFAULT_LIMITS) -> FixtureFile:
    try:
        document = load_bytes(raw, path, limits)
    except LoadError as error:
        raise FixtureError(path, error.line, error.column, error.message) from None
    if document.duplicates:
        dup = document.duplicates[0]
        raise FixtureError(path, dup.line, dup.column, f"key {dup.key!r} repeats the one at line {dup.first_line}")
    return read_fixture_document(document)


BOM = b"\xef\xbb\xbf"
UNREADABLE = object()  # first_jsonl_value: no first value to be had


def first_jsonl_value(stream: IO[bytes], limits: Limits = DEFAULT_LIMITS) -> Any:
    """The JSON value of the first non-blank line of a JSONL stream, or UNREADABLE (the line does not parse,
    is over the size limit, or there is none: the reader of the whole file reports it). The stream is rewound."""
    from toolcontract.io.files import LineTooLong, bounded_lines

    try:
        for raw in bounded_lines(stream, limits.max_bytes):
            raw = raw.removeprefix(BOM)
            if not raw.strip():
                continue
            try:
                return jsoncodec.loads(raw)
            except (ValueError, RecursionError):
                return UNREADABLE
        return UNREADABLE
    except LineTooLong:
        return UNREADABLE
    finally:
        stream.seek(0)


def jsonl_lines(stream: IO[bytes], path: str, limits: Limits = DEFAULT_LIMITS) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of a JSONL stream with their numbers, read one at a time (a byte-order mark dropped
    from the first): a line over the size limit is a FixtureError at its number."""
    from toolcontract.io.files import LineTooLong, bounded_lines

    lines = enumerate(bounded_lines(stream, limits.max_bytes), 1)
    while True:
        try:
            number, raw = next(lines)
        except StopIteration:
            return
        except LineTooLong as exc:
            raise FixtureError(path, exc.number, 1, f"line is over the {limits.max_bytes:,}-byte limit") from None
        if number == 1:
            raw = raw.removeprefix(BOM)
        if raw.strip():
            yield number, raw


def jsonl_holds_cases(stream: IO[bytes], limits: Limits = DEFAULT_LIMITS) -> bool:
    """True when the first non-blank line of a JSONL stream settles that it is no transcript log
    (a fixture case: an object with `candidate`; or a line the fixture reader must report), as
    `transcripts.jsonl_holds_conversations` decides it, without importing the transcript readers.
    False: ask them. The stream is rewound."""
    data = first_jsonl_value(stream, limits)
    return data is UNREADABLE or (isinstance(data, dict) and "candidate" in data)


def case_problem(data: Any, limits: Limits = DEFAULT_LIMITS) -> str | None:
    """Why a decoded value is not a case of schemas/fixture.schema.json (`at /candidate: ...`, nesting past the
    limit), or None when `case_from_dict` can take it: the check `read_jsonl` makes of every line."""
    if nests_deeper(data, limits.max_depth):
        return f"nesting is deeper than {limits.max_depth} levels"
    _, case_validator = _validators()
    bad = _first_error(case_validator, data)
    if bad is None:
        return None
    pointer = join_pointer("", *bad[0])
    return f"at {pointer or '/'}: {bad[1]}"


def _nests_deeper(raw: bytes, data: Any, limit: int) -> bool:
    """`nests_deeper(data, limit)` for data parsed from `raw`: every container of the data opens
    with a `{` or `[` of the text, so a line with no more of them than the limit is within it
    (the common case, decided without walking the data)."""
    if raw.count(b"{") + raw.count(b"[") <= limit:
        return False
    return nests_deeper(data, limit)


def read_jsonl(stream: IO[bytes], path: str, limits: Limits = DEFAULT_LIMITS) -> Iterator[Case]:
    """Cases from a JSONL stream, one per non-blank line, read as they are needed."""
    _, case_validator = _validators()
    is_valid = case_validator.is_valid
    max_bytes, max_depth = limits.max_bytes, limits.max_depth
    from toolcontract.io.files import LineTooLong, bounded_lines

    lines = enumerate(bounded_lines(stream, max_bytes), 1)
    while True:
        try:
            number, raw = next(lines)
        except StopIteration:
            return
        except LineTooLong as exc:
            raise FixtureError(path, exc.number, 1, f"line is over the {max_bytes:,}-byte limit") from None
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if not raw or raw.isspace():  # blank (`not raw.strip()`, without copying the line)
            continue
        try:
            data = jsoncodec.loads(raw)
        except UnicodeDecodeError as exc:
            raise FixtureError(path, number, exc.start + 1, "invalid UTF-8") from None
        except json.JSONDecodeError as exc:
            raise FixtureError(path, number, exc.colno, f"JSON: {exc.msg}") from None
        except RecursionError:
            raise FixtureError(path, number, 1, f"nesting is deeper than {max_depth} levels") from None
        if _nests_deeper(raw, data, max_depth):  # the limit every loaded document has (validators recurse)
            raise FixtureError(path, number, 1, f"nesting is deeper than {max_depth} levels")
        if not is_valid(data):
            bad = _first_error(case_validator, data)
            column = 1
            try:
                document = load_bytes(raw, path, limits)
                column = document.locate(join_pointer("", *bad[0]))[1]
            except LoadError as error:
                raise FixtureError(path, number, error.column, error.message) from None
            raise FixtureError(path, number, column, bad[1])
        yield case_from_dict(data, {"path": path, "line": number})
