"""Linting files in several processes: `lint_files(..., jobs=N)`, `toolcontract lint --jobs N`.

Loading a descriptor and running the per-file rules on it is pure Python, so one
process uses one core. With N jobs the files (after the first, which this process
lints alone so that lazily built tables — the metaschema validator, compiled
signals — exist before the workers are forked and are shared) are cut into N runs
of about equal size in bytes. A `concurrent.futures.ProcessPoolExecutor` of N-1
workers (forked: Linux and the BSDs) lints N-1 runs while this process lints the
first. A worker sends back, for each of its files, that file's chunk packed as
plain tuples (`_pack`), which is also what the lint cache stores (toolcontract.io.cache):

- the findings (before suppressions and set rules, which the parent applies to all), and
  apart from them those about files not read (TC000, and TC002 where no tool came out),
  which nothing hides, with the paths of walked files skipped as no tool list;
- each loaded file's path. Its text is not sent when the parent holds the same bytes
  (`_known_bytes`): it decodes them itself (reporters show source lines; suppression
  comments are read from the text);
- for each tool, the fields the active set rules read (`Rule.reads`) and, for each,
  where it is written — so set rules (TC104) see every tool of the run.

The result's documents and views from workers are therefore light copies
(`LightDocument`: path and text, loaded again on the first position asked of it,
which only a set rule's finding does); callers that need the loaded data (lock,
convert) lint serially.

A worker that fails in any way (an exception, a crash, a broken pool) costs nothing
but time: the parent lints that run itself, so the findings are those of a serial
run. Workers are forked only where fork is safe (Linux and the BSDs, and no other
thread running); elsewhere linting stays serial.

When it pays (`default_jobs`, for `--jobs 0`): measured with bench/parallel.py on this
project's 2-core machine, see bench/README.md.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import TYPE_CHECKING, Mapping

from toolcontract.core.descriptor import ToolView
from toolcontract.io.document import DEFAULT_LIMITS, Document, Limits, LoadError, decode, load_text

if TYPE_CHECKING:  # pragma: no cover
    from toolcontract.lint.engine import Chunk, _Plan

# below this many files the pool costs more than it saves (see default_jobs)
MIN_FILES = 300
# the files are cut into this many runs per process, shared out as the processes get free (lint_each)
RUNS_PER_PROCESS = 8


def can_fork() -> bool:
    """Whether this process may fork workers: a fork-safe platform and no other threads."""
    if not hasattr(os, "fork") or not (sys.platform.startswith("linux") or "bsd" in sys.platform):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() <= 1


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def idle_cores() -> int:
    """Cores that had nothing to run: the usable ones less the load of the last minute (runnable
    processes, on average), rounded; at least 1 (this process runs anyway)."""
    cores = usable_cores()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return cores
    return max(1, min(cores, int(cores - load + 0.5)))


def default_jobs(file_count: int) -> int:
    """Jobs for `--jobs 0` (auto): one per idle core when there are enough files to share,
    else 1. Measured with bench/parallel.py (bench/README.md): with the cores busy a pool is
    slower than one process on every input (1.04x to 1.21x), and below a few hundred files its
    start (importing concurrent.futures and multiprocessing, forking, pickling) costs more
    than a second core saves."""
    if file_count < MIN_FILES or not can_fork():
        return 1
    return max(1, min(idle_cores(), 8, file_count // (MIN_FILES // 2)))


class LightDocument(Document):
    """A document linted in another process (or read from the cache): its path and text. The
    first position asked of it loads the text again (as the worker did, so the positions are the same)."""

    __slots__ = ("limits", "_loaded")

    def __init__(self, path: str, text: str, limits: Limits = DEFAULT_LIMITS):
        super().__init__(path, text, None)
        self.limits = limits
        self._loaded: Document | None = None

    def locate(self, pointer: str, anchor: str = "auto") -> tuple[int, int]:
        if self._loaded is None:
            try:
                self._loaded = load_text(self.text, self.path, self.limits)
            except LoadError:  # pragma: no cover - the worker loaded this very text
                return (1, 1)
        return self._loaded.locate(pointer, anchor)


def lint_in_processes(files: list, plan: "_Plan", jobs: int) -> list["Chunk"]:
    """Chunks of findings for `files`, linted in up to `jobs` processes, in file order."""
    known = _known_bytes(files, plan.overlays)
    return [_unpack(item, known, plan.limits) if isinstance(item, tuple) else item
            for item in lint_each(files, plan, jobs, known)]


def lint_each(files: list, plan: "_Plan", jobs: int, known: Mapping[str, bytes]) -> list:
    """One item per file of `files`, in order: its Chunk when linted in this process, or its
    packed chunk (`_pack`, with the texts of `known` paths left out) when a worker linted it.
    Up to `jobs` processes (this one included); 1, or a platform without fork: all here."""
    if jobs <= 1 or len(files) < 2 or not can_fork():
        return [plan.lint_chunk([file]) for file in files]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    items: list = [plan.lint_chunk(files[:1])]  # warms lazy tables before the workers are forked
    workers = _workers_room(jobs - 1)
    if workers < 1:  # --jobs past the open-file limit: no room for a worker
        return items + [plan.lint_chunk([file]) for file in files[1:]]
    # more runs than processes, taken from both ends: the workers from the head (each kept two runs
    # ahead), this process from the tail, so the processes finish together however their speeds differ
    runs = _split(files[1:], min(len(files) - 1, (workers + 1) * RUNS_PER_PROCESS))
    if len(runs) < 2:
        return items + [plan.lint_chunk([file]) for run in runs for file in run]
    workers = min(workers, len(runs) - 1)
    task = (plan.selection, plan.input_format, plan.overlays, plan.limits, plan.walked, plan.set_fields,
            frozenset(known))
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
    except (OSError, ValueError):  # no processes to be had: lint here
        return items + [plan.lint_chunk([file]) for run in runs for file in run]
    sent: list = []  # a future per run of the head, None where the pool could not take it
    here: list[list] = []  # the chunks of the runs of the tail, last run first
    head, tail = 0, len(runs)
    with pool:
        while head < tail:
            waiting = sum(1 for future in sent if future is not None and not future.done())
            while waiting < 2 * workers and head < tail:
                try:
                    sent.append(pool.submit(_lint_run, task, runs[head]))
                except Exception:  # noqa: BLE001 - a pool that broke (a worker died early): linted here, below
                    sent.append(None)
                head += 1
                waiting += 1
            if head < tail:
                tail -= 1
                here.append([plan.lint_chunk([file]) for file in runs[tail]])
        for future, run in zip(sent, runs):
            packed = None
            if future is not None:
                try:
                    packed = future.result()
                except Exception:  # noqa: BLE001 - a worker that failed or died: redo its run here
                    packed = None
            if packed is None or len(packed) != len(run):
                items.extend(plan.lint_chunk([file]) for file in run)
            else:
                items.extend(packed)
    for chunks in reversed(here):
        items.extend(chunks)
    return items


def _workers_room(wanted: int) -> int:
    """How many of `wanted` workers the open-file limit leaves room for. A pool whose worker cannot
    be started (no file descriptor left for its pipe) waits forever, so room is made sure of first:
    two descriptors per worker (its sentinel, the pipe of its start) and eight for the pool's queues."""
    opened: list[int] = []
    try:
        for _ in range(wanted + 4):
            opened.extend(os.pipe())
    except OSError:
        pass
    finally:
        for fd in opened:
            os.close(fd)
    return max(0, min(wanted, len(opened) // 2 - 4))


def _lint_run(task: tuple, run: list) -> list[tuple]:
    """In a worker: each file of `run` linted and packed."""
    from toolcontract.lint.engine import _Plan

    selection, input_format, overlays, limits, walked, fields, known = task
    plan = _Plan.of(selection, input_format, overlays, limits, walked)
    return [_pack(plan.lint_chunk([file]), fields, known) for file in run]


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

    from toolcontract.core.model import Finding, Severity

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


__all__ = ["LightDocument", "MIN_FILES", "can_fork", "default_jobs", "idle_cores", "lint_each", "lint_in_processes"]
