"""Assess a batch of recorded calls held as Arrow data: the map function of `assess --engine dask` (and of
Spark's `mapInArrow`). One output row per case, from the same gates and classifier as `assess`
(`toolcontract.assessment.envelope.assess`); a row is turned into a Case by the reader `assess` uses for a
JSONL line (`toolcontract.io.fixtures.case_problem`, `case_from_dict`) or, for a flattened OpenTelemetry span,
by the trace reader's own record of a span (`toolcontract.io.traces.ToolSpan.record`).

    import pyarrow.parquet as pq
    from toolcontract.app.batch import assess_batch, registry_of
    out = assess_batch(pq.read_table("cases.parquet"), registry_of(descriptor_dicts))

Imported only by the batch path: pyarrow is the `scale` extra's, never loaded by a plain `assess` or `lint`.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any, Callable, Iterable, Iterator, Optional

import pyarrow as pa

from toolcontract.core import jsoncodec

from toolcontract.io.datasets import (CASE_PARTS, READ_ERROR, SOURCE_COLUMNS, SPAN_COLUMNS,  # noqa: F401
                                     BatchShapeError, table_shape)

_strings = pa.list_(pa.string())
OUTPUT_SCHEMA = pa.schema([
    ("id", pa.string()),
    ("correlation_id", pa.string()),
    ("tool", pa.string()),
    ("outcome", pa.string()),
    ("gate", pa.string()),  # null: no gate refused
    ("effect", pa.string()),
    ("next_step", pa.string()),
    ("unverified_scope", _strings),
    ("reasons", _strings),
    # what the run's summary counts (toolcontract.report.common.AssessSummary), kept typed
    ("expect_met", pa.bool_()),  # null: the case has no expectation
    ("evidence_only", pa.bool_()),  # assessed from the recording alone (no context)
    ("tool_registered", pa.bool_()),  # the registry knows the tool
    ("tool_effect", pa.string()),  # its effect class; null: none declared (or not registered)
    # the rest of the envelope, as JSON text (null for a row that is no case)
    ("trail", pa.string()),
    ("model_view", pa.string()),
    ("evidence", pa.string()),
    ("expect", pa.string()),
    ("source", pa.string()),
])
VIEW_COLUMNS = ("trail", "model_view", "evidence", "expect", "source")


# ------------------------------------------------------------------ the registry, once per process

_REGISTRIES: dict[str, Any] = {}
_BUILDS: dict[str, int] = {}
_USES: dict[str, int] = {}


def build_registry(descriptors: list[dict]):
    """The registry `assess` builds for a JSONL log from `--tools` (toolcontract.app.assess.build_registry)."""
    from toolcontract.app.assess import build_registry as build

    return build(descriptors)


def descriptors_blob(descriptors: list[dict]) -> tuple[str, bytes]:
    """(content hash, bytes) of descriptor dicts, as they travel to workers."""
    blob = pickle.dumps(list(descriptors), protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.sha256(blob).hexdigest(), blob


def cached_registry(key: str, blob: bytes):
    """The registry of the descriptors in `blob` (from `descriptors_blob`), compiled once per process and kept
    by its content hash: every partition a worker process assesses after the first reuses it."""
    registry = _REGISTRIES.get(key)
    if registry is None:
        if len(_REGISTRIES) >= 8:
            _REGISTRIES.pop(next(iter(_REGISTRIES)))
        registry = _REGISTRIES[key] = build_registry(pickle.loads(blob))
        _BUILDS[key] = _BUILDS.get(key, 0) + 1
    _USES[key] = _USES.get(key, 0) + 1
    return registry


def registry_of(descriptors: list[dict]):
    """`cached_registry` for descriptor dicts."""
    return cached_registry(*descriptors_blob(descriptors))


def registry_cache_info() -> dict[str, dict[str, int]]:
    """This process's registries: per content hash, how often it was compiled and how many batches used it."""
    return {key: {"builds": _BUILDS.get(key, 0), "uses": _USES.get(key, 0)} for key in _USES}


# ------------------------------------------------------------------ rows to cases


class RowError(Exception):
    """A row that is no case: its message is the reason its output row gives."""


def _part(value: Any, name: str) -> Any:
    """One part of a case row: JSON text decoded; a struct (dict) with its null fields left out (`_without_nulls`)."""
    if value is None:
        return None
    if isinstance(value, (bytes, str)):
        raw = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
        try:
            return jsoncodec.loads(raw)
        except (ValueError, RecursionError) as exc:
            msg = getattr(exc, "msg", None) or "not JSON"
            column = f" at column {exc.colno}" if hasattr(exc, "colno") else ""
            raise RowError(f"`{name}` is not JSON: {msg}{column}") from None
    if isinstance(value, dict):
        return _without_nulls(value)
    return value


def _without_nulls(value: Any) -> Any:
    """A struct as the mapping it stands for: an Arrow struct has every field of its type in every row, null where
    the row had none, so a null field is an absent one, at any depth (JSON text keeps a real null)."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _case_of_line(row: dict, source: Optional[dict]):
    """A Case from the JSON text of a whole case (a JSONL line, as `assess` reads one)."""
    from toolcontract.io.fixtures import case_from_dict, case_problem

    text = row.get("case")
    if text is None:
        raise RowError("`case` is null")
    data = _part(text, "case")
    problem = case_problem(data)
    if problem is not None:
        raise RowError(problem)
    return case_from_dict(data, source)


def _case_of_row(row: dict, source: Optional[dict]):
    from toolcontract.io.fixtures import case_from_dict, case_problem

    data: dict[str, Any] = {"id": row["id"]}
    for name in CASE_PARTS:
        value = _part(row.get(name), name)
        if value is not None:  # null and JSON `null` alike: the part is absent (a null record is no record)
            data[name] = value
    if row["id"] is None:
        raise RowError("`id` is null")
    problem = case_problem(data)
    if problem is not None:
        raise RowError(problem)
    return case_from_dict(data, source)


_STATUS = {0: 0, 1: 1, 2: 2, "0": 0, "1": 1, "2": 2, "STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1,
           "STATUS_CODE_ERROR": 2, "UNSET": 0, "OK": 1, "ERROR": 2, "Unset": 0, "Ok": 1, "Error": 2}


def _span_case(row: dict, source: Optional[dict]):
    """A Case from a flattened execute_tool span (cases only: no conversation, no context), or None for a span
    that is no tool call (an inference span of the same export)."""
    from toolcontract.core.model import Candidate, Case
    from toolcontract.io.traces import TOOL_OPERATION, ToolSpan

    operation = row.get("gen_ai.operation.name")
    mcp = row.get("mcp.method.name") == "tools/call"
    if operation is not None and operation != TOOL_OPERATION and not mcp:
        return None
    name = row.get("name")
    tool = row.get("gen_ai.tool.name") or (row.get("mcp.tool.name") if mcp else None)
    if tool is None and isinstance(name, str):
        prefix = "tools/call " if mcp else f"{TOOL_OPERATION} "
        tool = name[len(prefix):].strip() or None if name.startswith(prefix) else None
    for key in ("gen_ai.tool.name", "gen_ai.tool.call.id", "error.type", "status_message", "trace_id", "span_id"):
        value = row.get(key)
        if value is not None and not isinstance(value, str) and not (key in ("gen_ai.tool.call.id", "error.type")
                                                                    and type(value) is int):
            raise RowError(f"`{key}` must be a string, got {type(value).__name__}")
    if tool is None:
        raise RowError("the tool-call span names no tool (no gen_ai.tool.name, and its name is not "
                       f"'{TOOL_OPERATION} TOOL')")
    code = row.get("status_code")
    if code is not None and code not in _STATUS:
        raise RowError(f"status_code {code!r} is not 0/STATUS_CODE_UNSET, 1/STATUS_CODE_OK or 2/STATUS_CODE_ERROR")
    code = _STATUS.get(code, 0)
    call_id = row.get("gen_ai.tool.call.id")
    call_id = str(call_id) if call_id is not None else None
    error_type = row.get("error.type")
    error_type = str(error_type) if error_type is not None else None
    arguments_known = row.get("gen_ai.tool.call.arguments") is not None
    arguments = row.get("gen_ai.tool.call.arguments")
    if arguments is not None and not isinstance(arguments, (str, dict)):
        raise RowError(f"gen_ai.tool.call.arguments must be a JSON string or a map, got {type(arguments).__name__}")
    result_known = row.get("gen_ai.tool.call.result") is not None
    result = row.get("gen_ai.tool.call.result")
    if isinstance(result, str):
        parsed = jsoncodec.loads_container(result)
        result = result if parsed is None else parsed
    trace_id, span_id = row.get("trace_id"), row.get("span_id")
    span = ToolSpan(0, 0, 0, trace_id or "", span_id or "", None, "", name or "", tool, call_id, arguments,
                    arguments_known, code == 2 or error_type is not None, error_type, row.get("status_message"),
                    result, result_known, mcp)
    record, _ = span.record()
    case_id = row.get("id") or f"{trace_id or '-'}/span-{span_id or '-'}"
    return Case(str(case_id), Candidate(call_id, tool, arguments, arguments_known), None, record, None, None, source)


# ------------------------------------------------------------------ the batch


def _rows(table: pa.Table, names: Iterable[str]) -> Iterator[dict]:
    present = [n for n in names if n in table.column_names]
    columns = [table.column(n).to_pylist() for n in present]
    for values in zip(*columns) if columns else iter(()):
        yield dict(zip(present, values))


def assess_batch(table: pa.Table, registry, *, views: bool = True) -> pa.Table:
    """Assess every case of `table` (fixture-case columns, or flattened execute_tool spans: `table_shape`) against
    `registry` (toolcontract.assessment.Registry; `registry_of(descriptor_dicts)` builds it as `assess --tools`
    does), as `assess` does case by case: one output row per case, in order, with OUTPUT_SCHEMA's columns
    (`views` False: the JSON columns null, for a smaller output). A row that is no case is an output row
    `rejected` at `parse` with the reason, never an exception; a span that is no tool call gives no row.
    Raises BatchShapeError for a table of neither shape."""
    from toolcontract.assessment.envelope import assess

    shape = table_shape(table.schema)
    names, adapt = {"cases": (("id", *CASE_PARTS), _case_of_row), "lines": (("case",), _case_of_line),
                    "spans": (("id", *SPAN_COLUMNS), _span_case)}[shape]
    names = (*names, READ_ERROR)
    out: dict[str, list] = {field.name: [] for field in OUTPUT_SCHEMA}
    has_source = "source_path" in table.column_names
    sources = _rows(table, SOURCE_COLUMNS) if has_source else None
    dumps = jsoncodec.dumps
    for index, row in enumerate(_rows(table, names)):
        where = next(sources) if sources is not None else None
        source = None if where is None else {"path": where.get("source_path"), "line": where.get("source_row")}
        try:
            if row.get(READ_ERROR) is not None:
                raise RowError(row[READ_ERROR])
            case = adapt(row, source)
        except RowError as exc:
            _rejected_row(out, row, shape, str(exc), index if source is None else source, views)
            continue
        if case is None:
            continue
        envelope = assess(case, registry)
        tool = envelope.evidence.get("tool")
        out["id"].append(envelope.case_id)
        out["correlation_id"].append(envelope.correlation_id)
        out["tool"].append(envelope.tool if isinstance(envelope.tool, str) else str(envelope.tool))
        out["outcome"].append(envelope.outcome._value_)
        out["gate"].append(None if envelope.gate is None else envelope.gate._value_)
        out["effect"].append(envelope.effect._value_)
        out["next_step"].append(envelope.next_step._value_)
        out["unverified_scope"].append(list(envelope.unverified_scope))
        out["reasons"].append(list(envelope.reasons))
        out["expect_met"].append(None if envelope.expect is None else envelope.expect_met)
        out["evidence_only"].append(bool(envelope.trail) and envelope.trail[-1].get("result") == "not_judged")
        out["tool_registered"].append(tool is not None)
        out["tool_effect"].append(None if tool is None else tool.get("effect"))
        if views:
            out["trail"].append(dumps(list(envelope.trail)))
            out["model_view"].append(dumps(envelope.model_view))
            out["evidence"].append(dumps(envelope.evidence))
            out["expect"].append(None if envelope.expect is None else dumps(envelope.expect))
            out["source"].append(None if envelope.source is None else dumps(envelope.source))
        else:
            for name in VIEW_COLUMNS:
                out[name].append(None)
    return pa.Table.from_pydict(out, schema=OUTPUT_SCHEMA)


def _rejected_row(out: dict, row: dict, shape: str, reason: str, where, views: bool) -> None:
    """The output row of a row that is no case: `rejected` at `parse`, the reason saying where and why."""
    case_id = row.get("id")
    case_id = case_id if isinstance(case_id, str) else ("" if case_id is None else str(case_id))
    tool = None
    if shape == "lines":
        try:
            data = jsoncodec.loads(row["case"].encode("utf-8", "surrogatepass"))
        except (ValueError, RecursionError, AttributeError, TypeError):
            data = None
        case_id = data.get("id") if isinstance(data, dict) else None
        case_id = case_id if isinstance(case_id, str) else ("" if case_id is None else str(case_id))
        tool = data.get("candidate") if isinstance(data, dict) else None
        tool = tool.get("name") if isinstance(tool, dict) else None
    elif shape == "cases":
        candidate = row.get("candidate")
        if isinstance(candidate, dict):
            tool = candidate.get("name")
        elif isinstance(candidate, str):
            try:
                tool = jsoncodec.loads(candidate.encode("utf-8", "surrogatepass")).get("name")
            except (ValueError, RecursionError, AttributeError):
                tool = None
    else:
        tool = row.get("gen_ai.tool.name")
    place = (f"row {where + 1} of the batch" if isinstance(where, int)
             else f"{where['path']} row {where['line']}")
    out["id"].append(case_id)
    out["correlation_id"].append(f"case:{case_id}")
    out["tool"].append(tool if isinstance(tool, str) else "")
    out["outcome"].append("rejected")
    out["gate"].append("parse")
    out["effect"].append("none")
    out["next_step"].append("stop_or_escalate")  # the recording is broken: no call to fix and send again
    out["unverified_scope"].append(["the whole call: the row could not be read as a case"])
    out["reasons"].append([f"{place} is not a case: {reason}"])
    out["expect_met"].append(None)
    out["evidence_only"].append(False)
    out["tool_registered"].append(False)
    out["tool_effect"].append(None)
    for name in VIEW_COLUMNS:
        out[name].append(None)
    if views and isinstance(where, dict):
        out["source"][-1] = jsoncodec.dumps(where)


# ------------------------------------------------------------------ Spark


def arrow_mapper(descriptors: list[dict], *, views: bool = True) -> Callable[[Iterator[pa.RecordBatch]],
                                                                             Iterator[pa.RecordBatch]]:
    """The function for Spark's `DataFrame.mapInArrow(fn, schema)`: an iterator of RecordBatches in, one of
    RecordBatches out (OUTPUT_SCHEMA), the registry of `descriptors` compiled once per Python worker."""
    key, blob = descriptors_blob(descriptors)

    def assess_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        registry = cached_registry(key, blob)
        for batch in batches:
            yield from assess_batch(pa.Table.from_batches([batch]), registry, views=views).to_batches()

    return assess_batches
