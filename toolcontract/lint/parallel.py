"""Linting files in several processes: `lint_files(..., jobs=N)`, `toolcontract lint --jobs N`.

Loading a descriptor and running the per-file rules on it is pure Python, so one
process uses one core. With N jobs the files (after the first, which the parent
lints alone so that lazily built tables — the metaschema validator, compiled
signals — exist before the fork and are shared) are cut into N runs of about equal
size in bytes. The parent forks N-1 children, lints the first run itself, and reads
each child's findings back through a pipe. What crosses the pipe is small and plain
(tuples, strings, numbers and the tools' JSON-like values, in `marshal`'s format: the
interpreter has it loaded already, where importing `pickle` cost ~3 ms; a value it
cannot write fails the child, and the parent lints that run itself):

- the findings (before suppressions and set rules, which the parent applies to all), and
  apart from them those about files not read (TC000, and TC002 where no tool came out),
  which nothing hides, with the paths of walked files skipped as no tool list;
- each loaded file's path. Its text is not sent: the parent holds the same bytes
  and decodes them itself (reporters show source lines; suppression comments are
  read from the text). Sending them, and every position set rules might ask for,
  was a third of a child's time in a 1,000-file run;
- for each tool, the fields the active set rules read (`Rule.reads`) and, for each,
  where it is written — so set rules (TC104) see every tool of the run.

The result's documents and views from children are therefore light copies
(`LightDocument`: path and text, loaded again on the first position asked of it,
which only a set rule's finding does); callers that need the loaded data (lock,
convert) lint serially.

A child that fails in any way (an exception, a crash, a short read) costs nothing
but time: the parent lints that run itself, so the findings are those of a serial
run. Only `fork` is used (Linux and the BSDs; elsewhere, and in a process that
already runs other threads, linting stays serial).
"""

from __future__ import annotations

import marshal
import os
import sys
from collections import Counter
from typing import TYPE_CHECKING

from toolcontract.descriptor import ToolView
from toolcontract.sources.document import DEFAULT_LIMITS, Document, Limits, LoadError, decode, load_text

if TYPE_CHECKING:  # pragma: no cover
    from toolcontract.lint.engine import Chunk, _Plan

# below this many files a fork costs more than it saves
MIN_FILES = 48


def can_fork() -> bool:
    """Whether this process may fork workers: a fork-safe platform and no other threads."""
    if not hasattr(os, "fork") or not (sys.platform.startswith("linux") or "bsd" in sys.platform):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() <= 1


def default_jobs(file_count: int) -> int:
    """Jobs for `--jobs 0` (auto): the usable cores, when there are enough files to share."""
    if file_count < MIN_FILES or not can_fork():
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8, file_count // (MIN_FILES // 2)))


class LightDocument(Document):
    """A document linted in another process: its path and text. The first position
    asked of it loads the text again (as the child did, so the positions are the same)."""

    __slots__ = ("limits", "_loaded")

    def __init__(self, path: str, text: str, limits: Limits = DEFAULT_LIMITS):
        super().__init__(path, text, None)
        self.limits = limits
        self._loaded: Document | None = None

    def locate(self, pointer: str, anchor: str = "auto") -> tuple[int, int]:
        if self._loaded is None:
            try:
                self._loaded = load_text(self.text, self.path, self.limits)
            except LoadError:  # pragma: no cover - the child loaded this very text
                return (1, 1)
        return self._loaded.locate(pointer, anchor)


def lint_in_processes(files: list, plan: "_Plan", jobs: int) -> list["Chunk"]:
    """Chunks of findings for `files`, linted in up to `jobs` processes, in file order."""
    if jobs <= 1 or len(files) < 2 or not can_fork():
        return [plan.lint_chunk(files)]
    first = plan.lint_chunk(files[:1])  # warms lazy tables before they are copied into the children
    runs = _split(files[1:], jobs)
    raw = _known_bytes(files, plan.overlays)  # built before the fork: parent and children hold the same
    children = []
    for run in runs[1:]:
        try:
            read_end, write_end = os.pipe()
        except OSError:  # out of file descriptors (--jobs past the open-file limit): lint this run here
            children.append((None, None, run))
            continue
        try:
            pid = os.fork()
        except OSError:  # no more processes: lint this run here
            os.close(read_end)
            os.close(write_end)
            children.append((None, None, run))
            continue
        if pid == 0:  # the child: lint, send, and leave without running the parent's exit handlers
            os.close(read_end)
            status = 0
            try:
                payload = marshal.dumps(_pack(plan.lint_chunk(run), plan.set_fields, raw))
            except BaseException:  # noqa: BLE001 - the parent redoes the run and reports for real
                payload, status = b"", 1
            try:
                with os.fdopen(write_end, "wb") as out:
                    out.write(payload)
            finally:
                os._exit(status)
        os.close(write_end)
        children.append((pid, read_end, run))
    chunks = [first, plan.lint_chunk(runs[0])]
    for pid, read_end, run in children:
        chunk = None
        if pid is not None:
            with os.fdopen(read_end, "rb") as pipe:
                payload = pipe.read()
            _, status = os.waitpid(pid, 0)
            if status == 0 and payload:
                try:
                    chunk = _unpack(marshal.loads(payload), raw, plan.limits)
                except Exception:  # noqa: BLE001 - a torn payload (or bytes that no longer decode): redo the run here
                    chunk = None
        chunks.append(chunk if chunk is not None else plan.lint_chunk(run))
    return chunks


def _split(files: list, parts: int) -> list[list]:
    """`files` cut into up to `parts` consecutive runs of about equal size in bytes."""
    sizes = [len(content) if isinstance(content, (bytes, bytearray)) else 0 for _, content in files]
    total = sum(sizes) or 1
    runs: list[list] = []
    start, acc = 0, 0
    for index, size in enumerate(sizes):
        acc += size
        if len(runs) < parts - 1 and acc * parts >= total * (len(runs) + 1) and index + 1 < len(files):
            runs.append(files[start:index + 1])
            start = index + 1
    runs.append(files[start:])
    return [run for run in runs if run]


def _known_bytes(files: list, overlays) -> dict[str, bytes]:
    """path -> content, for the paths whose text the parent can decode itself: those that
    occur once among the files (or as an overlay) with bytes read."""
    pairs = list(files) + list((overlays or {}).values())
    times = Counter(path for path, _ in pairs)
    return {path: content for path, content in pairs
            if times[path] == 1 and isinstance(content, (bytes, bytearray))}


def _pack(chunk: "Chunk", fields: tuple[str, ...], raw: dict[str, bytes] | None = None) -> tuple:
    """A chunk as plain tuples: findings, (path, text or None, loaded) of each document (None:
    decode the bytes in `raw`), tools as set rules read them."""
    raw = raw or {}
    documents = dict(chunk.documents)
    tools = []
    for view in chunk.views:
        documents.setdefault(view.document.path, view.document)
        data = {name: view.data[name] for name in fields if name in view.data}
        located = {}
        for name in fields:
            document, pointer = view.locate((name,))
            documents.setdefault(document.path, document)
            located[name] = (document.path, pointer)
        tools.append((view.document.path, view.pointer, view.format, data, located, view.effect_origin,
                      view.contracts))
    texts = [(path, None if path in raw else document.text, path in chunk.documents)
             for path, document in documents.items()]
    findings, unread = ([(f.path, f.line, f.column, f.rule, f.name, int(f.severity), f.message, f.pointer, f.tool)
                         for f in found] for found in (chunk.findings, chunk.unread))
    return findings, texts, tools, chunk.files, unread, list(chunk.skipped)


def _unpack(payload: tuple, raw: dict[str, bytes] | None = None, limits: Limits = DEFAULT_LIMITS) -> "Chunk":
    from toolcontract.lint.engine import Chunk

    from toolcontract.model import Finding, Severity

    rows, texts, tools, files, unread_rows, skipped = payload
    findings, unread = ([Finding(path, line, column, rule, name, Severity(severity), message, pointer, tool)
                         for path, line, column, rule, name, severity, message, pointer, tool in found]
                        for found in (rows, unread_rows))
    raw = raw or {}
    light = {path: LightDocument(path, decode(raw[path]) if text is None else text, limits)
             for path, text, _ in texts}
    views = []
    for path, pointer, format_, data, located, origin, contracts in tools:
        document = light[path]
        sources = {name: (light[at_path], at_pointer) for name, (at_path, at_pointer) in located.items()}
        views.append(ToolView(data, document, pointer, sources, format_, effect_origin=origin, contracts=contracts))
    documents = {path: light[path] for path, _, loaded in texts if loaded}
    return Chunk(findings, documents, views, files, unread, skipped)


__all__ = ["LightDocument", "MIN_FILES", "can_fork", "default_jobs", "lint_in_processes"]
