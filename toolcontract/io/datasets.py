"""Read recorded calls at scale: Parquet files (through `pyarrow.dataset`) and JSON lines, from a file, a folder
or a glob, on the local disk or any filesystem pyarrow opens (`s3://`, `gs://`, `hdfs://`, ... URIs), cut into
parts of about PART_ROWS rows that a worker reads on its own (`read_part`).

Every file is checked before the job starts (`discover`): one that cannot be opened as its format, or whose
columns are no table of calls, is an InputError naming it (exit 2). A file that breaks while a part of it is
read (a corrupt page past its footer) raises `PartError` naming it, from the worker, which the job turns into
the same exit 2. Rows are never judged here: `toolcontract.app.batch.assess_batch` does that.

Imported only by `assess --engine dask` and the Spark helper: pyarrow is the `scale` extra's.
"""

from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass
from typing import Any, Optional

import pyarrow as pa

from toolcontract.io.errors import InputError

# the input shapes (docs/assess.md, "At scale (Dask)")
CASE_PARTS = ("candidate", "context", "record", "observation", "expect")
SPAN_COLUMNS = ("trace_id", "span_id", "name", "gen_ai.operation.name", "gen_ai.tool.name", "gen_ai.tool.call.id",
                "gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "error.type", "status_code",
                "status_message", "mcp.method.name", "mcp.tool.name")
SOURCE_COLUMNS = ("source_path", "source_row")  # optional: where a row was read (the readers add them)
READ_ERROR = "read_error"  # optional: why the reader could not make a row of what it read (a JSONL line)


class BatchShapeError(ValueError):
    """A table that holds neither shape: no `id` and `candidate` columns, no span columns."""


def table_shape(schema: pa.Schema) -> str:
    """`cases` (fixture-case columns), `lines` (a column `case`: each row the JSON text of a whole case, as a JSONL
    line) or `spans` (flattened OpenTelemetry execute_tool spans); BatchShapeError saying what is missing otherwise."""
    names = set(schema.names)
    if "case" in names:
        return "lines"
    if "candidate" in names:
        if "id" not in names:
            raise BatchShapeError("a table of cases needs a string column `id` beside `candidate`")
        return "cases"
    if "gen_ai.tool.name" in names or "gen_ai.operation.name" in names:
        return "spans"
    raise BatchShapeError("no column `candidate` (cases) and no column `gen_ai.tool.name` or "
                          "`gen_ai.operation.name` (execute_tool spans): not a table of tool calls")


PART_ROWS = 1 << 16  # rows of a Parquet part (whole row groups: a part is at least one)
JSONL_PART_LINES = 1 << 16  # lines of a JSON lines part
PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")
JSONL_SUFFIXES = (".jsonl", ".ndjson")


class PartError(Exception):
    """A file that cannot be read while a part of it is: str() is `path: message`, one line. Picklable."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message

    def __reduce__(self):
        return PartError, (self.path, self.message)


@dataclass(frozen=True)
class Part:
    """What one task reads: a file (by filesystem URI and path), its format, and which rows."""

    uri: str  # a URI of the filesystem, as pyarrow.fs.FileSystem.from_uri takes it ("": the local disk)
    path: str  # the path on that filesystem
    shown: str  # the name the user gave (messages)
    kind: str  # parquet | jsonl
    row_groups: Optional[tuple[int, ...]] = None  # parquet
    first_row: int = 0  # the row (parquet) or line (jsonl) number of the part's first row, 0-based
    lines: int = 0  # jsonl: how many non-blank lines the part holds (0: to the end)


def _filesystem(given: str):
    """(filesystem, the URI a worker opens it by, the path on it) of an input: a URI, or a local path."""
    from pyarrow import fs

    if "://" in given:
        try:
            filesystem, path = fs.FileSystem.from_uri(given)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError, OSError) as exc:
            raise InputError(f"{given}: cannot open its filesystem: {_one_line(exc)}") from None
        return filesystem, given, path
    import os

    return fs.LocalFileSystem(), "", os.path.abspath(given)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _kind(path: str) -> Optional[str]:
    lower = path.lower()
    if lower.endswith(PARQUET_SUFFIXES):
        return "parquet"
    if lower.endswith(JSONL_SUFFIXES) or lower.endswith(".json"):
        return "jsonl"
    return None


def _hidden(path: str, base: str) -> bool:
    """A file a dataset writer keeps beside its parts (`_SUCCESS`, `_metadata`, `.crc`): left out of a folder."""
    relative = posixpath.relpath(path, base) if path.startswith(base) else posixpath.basename(path)
    return any(piece.startswith((".", "_")) for piece in relative.split("/"))


def _files(given: str) -> list[tuple[Any, str, str, str]]:
    """(filesystem, uri, path, shown) of every file an input names: itself, a folder's files, a glob's matches."""
    from pyarrow import fs

    filesystem, uri, path = _filesystem(given)
    if any(c in path for c in "*?["):
        base = path
        while any(c in base for c in "*?["):
            base = posixpath.dirname(base)
        try:
            infos = filesystem.get_file_info(fs.FileSelector(base or "/", recursive=True, allow_not_found=True))
        except OSError as exc:
            raise InputError(f"{given}: cannot list {base}: {_one_line(exc)}") from None
        found = sorted(i.path for i in infos if i.type == fs.FileType.File and fnmatch.fnmatchcase(i.path, path))
        if not found:
            raise InputError(f"{given}: no file matches")
        return [(filesystem, uri, p, p) for p in found]
    try:
        info = filesystem.get_file_info(path)
    except OSError as exc:
        raise InputError(f"{given}: cannot read: {_one_line(exc)}") from None
    if info.type == fs.FileType.NotFound:
        raise InputError(f"{given}: no such file or folder")
    if info.type == fs.FileType.File:
        if _kind(path) is None:
            raise InputError(f"{given}: not a Parquet (.parquet) or JSON lines (.jsonl, .ndjson, .json) file")
        return [(filesystem, uri, path, given)]
    infos = filesystem.get_file_info(fs.FileSelector(path, recursive=True))
    found = sorted(i.path for i in infos if i.type == fs.FileType.File and _kind(i.path) and not _hidden(i.path, path))
    if not found:
        raise InputError(f"{given}: the folder holds no Parquet or JSON lines file")
    return [(filesystem, uri, p, p) for p in found]


def discover(inputs: list[str]) -> list[Part]:
    """The parts of every input, each file checked (InputError naming a file that is no table of calls)."""
    parts: list[Part] = []
    for given in inputs:
        for filesystem, uri, path, shown in _files(given):
            if _kind(path) == "jsonl":
                parts.extend(_jsonl_parts(filesystem, uri, path, shown))
                continue
            import pyarrow.dataset as ds

            try:
                fragment = next(iter(ds.dataset(path, filesystem=filesystem, format="parquet").get_fragments()))
                schema = fragment.physical_schema
                groups = [g.num_rows for g in fragment.row_groups] if fragment.row_groups else []
            except (pa.ArrowException, OSError, StopIteration) as exc:
                raise InputError(f"{shown}: not a readable Parquet file: {_one_line(exc)}") from None
            try:
                table_shape(schema)
            except BatchShapeError as exc:
                raise InputError(f"{shown}: {exc}") from None
            chosen: list[int] = []
            rows = first = 0
            for index, count in enumerate(groups):
                chosen.append(index)
                rows += count
                if rows >= PART_ROWS:
                    parts.append(Part(uri, path, shown, "parquet", tuple(chosen), first))
                    first, chosen, rows = first + rows, [], 0
            if chosen or not groups:
                parts.append(Part(uri, path, shown, "parquet", tuple(chosen), first))
    return parts


def _jsonl_parts(filesystem, uri: str, path: str, shown: str) -> list[Part]:
    """A JSON lines file's parts: the file is read once here to count lines (and check the first names a shape)."""
    from toolcontract.io.document import DEFAULT_LIMITS
    from toolcontract.io.files import LineTooLong, bounded_lines

    parts, count, first = [], 0, 0
    try:
        with _lines_stream(filesystem, path) as stream:
            for number, raw in enumerate(bounded_lines(stream, DEFAULT_LIMITS.max_bytes)):
                if not raw.strip():
                    continue
                count += 1
                if count == JSONL_PART_LINES:
                    parts.append(Part(uri, path, shown, "jsonl", None, first, count))
                    first, count = number + 1, 0
    except LineTooLong as exc:
        raise InputError(f"{shown}:{exc.number}:1: line is over the {DEFAULT_LIMITS.max_bytes:,}-byte limit") from None
    except OSError as exc:
        raise InputError(f"{shown}: cannot read: {_one_line(exc)}") from None
    if count or not parts:
        parts.append(Part(uri, path, shown, "jsonl", None, first, 0))
    return parts


def _lines_stream(filesystem, path: str):
    """A file of any pyarrow filesystem as a buffered binary stream (`readline(limit)`, which pyarrow's own
    streams lack)."""
    import io

    return io.BufferedReader(filesystem.open_input_stream(path), 1 << 20)


def read_part(part: Part) -> pa.Table:
    """The rows of one part, with `source_path` and `source_row` (1-based); PartError naming the file when it
    cannot be read."""
    from pyarrow import fs

    try:
        filesystem = fs.LocalFileSystem() if not part.uri else fs.FileSystem.from_uri(part.uri)[0]
        if part.kind == "parquet":
            import pyarrow.parquet as pq

            with filesystem.open_input_file(part.path) as handle:
                table = pq.ParquetFile(handle).read_row_groups(list(part.row_groups)) if part.row_groups \
                    else pq.read_table(handle)
            rows = pa.array(range(part.first_row + 1, part.first_row + 1 + table.num_rows), pa.int64())
        else:
            table, rows = _read_jsonl(filesystem, part)
    except PartError:
        raise
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise PartError(part.shown, f"cannot be read: {_one_line(exc)}") from None
    table = table.append_column("source_path", pa.array([part.shown] * table.num_rows, pa.string()))
    return table.append_column("source_row", rows)


def _read_jsonl(filesystem, part: Part) -> tuple[pa.Table, pa.Array]:
    """A JSON lines part: cases as a `case` column (each line's text, decoded where it is assessed), or
    flattened spans as their columns (a map or list value as JSON text); a line that is no JSON object is a
    row whose `read_error` says so."""
    from toolcontract.core import jsoncodec
    from toolcontract.io.document import DEFAULT_LIMITS
    from toolcontract.io.files import LineTooLong, bounded_lines

    texts: list[Optional[str]] = []
    numbers: list[int] = []
    with _lines_stream(filesystem, part.path) as stream:
        lines = enumerate(bounded_lines(stream, DEFAULT_LIMITS.max_bytes), 1)
        try:
            for number, raw in lines:
                if number <= part.first_row:
                    continue
                if number == 1:
                    raw = raw.removeprefix(b"\xef\xbb\xbf")
                if not raw.strip():
                    continue
                texts.append(raw.decode("utf-8", "surrogateescape").rstrip("\r\n"))
                numbers.append(number)
                if part.lines and len(texts) >= part.lines:
                    break
        except LineTooLong as exc:
            raise PartError(part.shown, f"line {exc.number} is over the {DEFAULT_LIMITS.max_bytes:,}-byte limit") \
                from None
    rows = pa.array(numbers, pa.int64())
    first = None
    for text in texts[:1]:
        try:
            first = jsoncodec.loads(text.encode("utf-8", "surrogateescape"))
        except (ValueError, RecursionError):
            first = None
    spans = isinstance(first, dict) and "candidate" not in first and (
        "gen_ai.tool.name" in first or "gen_ai.operation.name" in first)
    if not spans:
        return pa.table({"case": pa.array(texts, pa.string())}), rows
    columns: dict[str, list] = {name: [] for name in ("id", *SPAN_COLUMNS, READ_ERROR)}
    for text in texts:
        try:
            data = jsoncodec.loads(text.encode("utf-8", "surrogateescape"))
            problem = None if isinstance(data, dict) else "the line is not a JSON object"
        except (ValueError, RecursionError) as exc:
            data, problem = {}, f"the line is not JSON: {getattr(exc, 'msg', exc)}"
        if problem is not None:
            data = {}
        for name in columns:
            value = data.get(name) if name != READ_ERROR else problem
            if isinstance(value, (dict, list)):
                value = jsoncodec.dumps(value)
            elif value is not None and not isinstance(value, str):
                value = str(value) if name != "status_code" else value
            columns[name].append(value)
    columns["status_code"] = [str(v) if v is not None else None for v in columns["status_code"]]
    return pa.table({name: pa.array(values, pa.string()) for name, values in columns.items()}), rows
