"""`assess --engine dask`: recorded calls by the million, `assess_batch` mapped over partitions with
dask.dataframe on a distributed cluster (a `distributed.LocalCluster` on this machine's cores, or the scheduler
`--scheduler` names), the envelopes written as Parquet parts to a temporary folder beside OUT that is renamed to
OUT when every part is written (a failed run leaves no OUT), and the run's summary counted from OUT: the same
`{"summary": {...}}` a local run prints.

Cases only: each row is judged on its own, so partitions need no shuffle. The conversation rules (TC8xx) need
whole conversations, grouped by trace id before mapping; they are not run here (docs/assess.md says what that
shuffle costs). Imported only by this path: dask, distributed and pyarrow are the `scale` extra's.
"""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass, field
from typing import Optional

from toolcontract.io.errors import InputError

# the output columns the summary counts (toolcontract.report.common.AssessSummary)
SUMMARY_COLUMNS = ("tool", "outcome", "gate", "effect", "expect_met", "evidence_only", "tool_registered",
                   "tool_effect")


@dataclass
class ScaleResult:
    """A finished run: where its parts are, how many, its summary and per-tool stats (as `assess --format json`
    has them), and whether the run must exit 1 (unmet expectations, `--fail-on` outcomes)."""

    output: str
    partitions: int
    summary: dict = field(default_factory=dict)
    tools: list = field(default_factory=list)
    failed: bool = False
    stats: object = None  # the AssessSummary


def check_output(out: Optional[str]) -> str:
    """OUT, absolute, or InputError: it must be given, its parent must exist, and it must not be a file or a
    folder with anything in it (a run never writes over a finished one; an empty folder is taken)."""
    if not out:
        raise InputError("toolcontract: --engine dask needs -o OUT/: the folder its Parquet parts are written to")
    path = os.path.abspath(out)
    parent = os.path.dirname(path.rstrip(os.sep)) or os.sep
    if not os.path.isdir(parent):
        raise InputError(f"{out}: cannot write: no such folder {parent}")
    if os.path.lexists(path):
        if not os.path.isdir(path) or os.path.islink(path):
            raise InputError(f"{out}: exists and is not a folder; name a new folder for the parts")
        if os.listdir(path):
            raise InputError(f"{out}: the folder is not empty (a finished run is never written over): "
                             "remove it or name a new one")
    return path.rstrip(os.sep)


def _frame(table):
    import pandas as pd

    return table.to_pandas(types_mapper=pd.ArrowDtype, split_blocks=True, self_destruct=True)


def read_frame(part):
    """One partition: the rows of a part (toolcontract.io.datasets.read_part) as a pandas frame of Arrow columns."""
    from toolcontract.io.datasets import read_part

    return _frame(read_part(part))


def assess_frame(frame, key: str, blob: bytes, views: bool = True):
    """`assess_batch` of one partition, with the registry compiled once per worker process (by content hash)."""
    import pyarrow as pa

    from toolcontract.app.batch import assess_batch, cached_registry

    table = pa.Table.from_pandas(frame, preserve_index=False)
    return _frame(assess_batch(table, cached_registry(key, blob), views=views))


def _input_meta():
    import pandas as pd
    import pyarrow as pa

    return pd.DataFrame({"source_path": pd.Series([], dtype=pd.ArrowDtype(pa.string()))})


def _meta():
    from toolcontract.app.batch import OUTPUT_SCHEMA

    return _frame(OUTPUT_SCHEMA.empty_table())


def run(inputs: list[str], descriptors: list[dict], out: str, scheduler: Optional[str] = None,
        failing_outcomes=frozenset(), views: bool = True, client=None) -> ScaleResult:
    """Assess every row of `inputs` (Parquet / JSON lines files, folders, globs, URIs) against `descriptors` on
    Dask and write the envelopes to `out`. `scheduler`: a `tcp://HOST:PORT` to connect to; None starts a
    LocalCluster on this machine's cores (127.0.0.1). Raises InputError (exit 2) for bad input, a file that breaks
    while it is read, or a job that cannot finish; OUT is then left as it was."""
    from toolcontract.app.batch import descriptors_blob
    from toolcontract.io.datasets import PartError, discover

    target = check_output(out)
    parts = discover(inputs)
    key, blob = descriptors_blob(descriptors)
    temporary = os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.tmp-{uuid.uuid4().hex[:12]}")
    owned = None  # (client, cluster or None) that this run made, closed at its end
    try:
        if client is None:
            owned = _connect(scheduler)
            client = owned[0]
        import dask.dataframe as dd

        # parts differ in columns (a struct `context` here, JSON text there): each is judged by its own shape, so
        # the input's meta is a stand-in, never checked; the output's is OUTPUT_SCHEMA
        frames = dd.from_map(read_frame, parts, meta=_input_meta(), enforce_metadata=False)
        assessed = frames.map_partitions(assess_frame, key, blob, views, meta=_meta(), enforce_metadata=False,
                                         align_dataframes=False)
        from toolcontract.app.batch import OUTPUT_SCHEMA

        try:
            assessed.to_parquet(temporary, write_index=False, schema=OUTPUT_SCHEMA, compute=True,
                                compute_kwargs={"scheduler": client})
        except PartError as exc:
            raise InputError(str(exc)) from None
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - a job that could not finish (a worker lost too often, ...)
            raise InputError(f"toolcontract: the Dask job failed: {type(exc).__name__}: "
                             f"{(str(exc).strip().splitlines() or [''])[0]}") from None
        if os.path.isdir(target):
            os.rmdir(target)  # empty (check_output); a folder made meanwhile fails here, and the parts stay aside
        os.rename(temporary, target)
    finally:
        if os.path.exists(temporary):
            shutil.rmtree(temporary, ignore_errors=True)
        if owned is not None:  # the client (and the LocalCluster) this run made
            owned[0].close()
            if owned[1] is not None:
                owned[1].close()
    return summarise(target, len(parts), failing_outcomes)


def _connect(scheduler: Optional[str]):
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            return Client(scheduler, timeout="20s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"toolcontract: --scheduler {scheduler}: cannot connect: {exc}") from None
    cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=":0", silence_logs=50)
    return Client(cluster), cluster


class _Counted:
    """One group of alike output rows, as the summary's `add` reads an envelope."""

    __slots__ = ("tool", "outcome", "gate", "effect", "expect", "expect_met", "trail", "evidence")

    def __init__(self, row: dict) -> None:
        from toolcontract.core.model import EffectState, Gate, Outcome

        self.tool = row["tool"]
        self.outcome = Outcome(row["outcome"])
        self.gate = None if row["gate"] is None else Gate(row["gate"])
        self.effect = EffectState(row["effect"])
        self.expect = None if row["expect_met"] is None else {"met": row["expect_met"]}
        self.expect_met = row["expect_met"] is not False
        self.trail = ({"result": "not_judged" if row["evidence_only"] else "passed"},)
        self.evidence = {"tool": {"effect": row["tool_effect"]} if row["tool_registered"] else None}


def summarise(folder: str, partitions: int = 0, failing_outcomes=frozenset()) -> ScaleResult:
    """The summary of a finished run's folder, counted as `assess` counts cases (AssessSummary)."""
    import pyarrow.dataset as ds

    from toolcontract.report.common import AssessSummary

    table = ds.dataset(folder, format="parquet").to_table(columns=list(SUMMARY_COLUMNS))
    groups = table.group_by(list(SUMMARY_COLUMNS), use_threads=False).aggregate([([], "count_all")])
    summary = AssessSummary(per_file=False)
    failing = {o.value for o in failing_outcomes}
    failed = False
    for row in sorted(groups.to_pylist(), key=lambda r: tuple(str(r[c]) for c in SUMMARY_COLUMNS)):
        summary.add(_Counted(row), row["count_all"])
        failed |= row["expect_met"] is False or row["outcome"] in failing
    tools = [s.as_dict() for s in sorted(summary.tools.values(), key=lambda s: (-s.calls, s.tool))]
    return ScaleResult(folder, partitions, summary.as_dict(), tools, failed, summary)
