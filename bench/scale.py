#!/usr/bin/env python3
"""Issue 20: single-process `assess` against `assess --engine dask` on a 2-worker LocalCluster.

    python bench/scale.py                    # 1,000,000 cases in 16 Parquet files (and the same as 16 JSONL files)
    python bench/scale.py --cases 200000     # a smaller run on a busy machine

Generates the cases in a temporary folder (never the repository) from the fixtures' cases (fixtures/invocations,
each with a new id), then measures
  - local: `toolcontract assess JSONL_DIR --tools fixtures/descriptors/good --format json` (one process; the
    JSONL form of the same cases, since a local run reads no Parquet): wall time, cases/s, peak RSS;
  - dask: `toolcontract assess --engine dask --scheduler ... PARQUET_DIR --tools ... -o OUT/ --format json` against
    a LocalCluster of 2 worker processes (1 thread each) started here: wall time, cases/s, peak RSS per worker;
  - the two summaries (and per-tool stats), which must be identical;
  - where one worker's time goes, on one 62,500-case partition in this process: reading the Parquet part, JSON
    decoding of the parts, the case-schema check, the gates and classifier, and writing the envelope's JSON views.
Prints a JSON report; docs/performance.md keeps the figures of a run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOOLS = REPO / "fixtures" / "descriptors" / "good"
PARTS = ("candidate", "context", "record", "observation", "expect")


def generate(folder: Path, cases: int, files: int) -> tuple[Path, Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from toolcontract.core import jsoncodec
    from toolcontract.io.document import load_bytes

    pool = []
    for path in sorted((REPO / "fixtures" / "invocations").glob("*.yaml")):
        pool += load_bytes(path.read_bytes(), str(path)).data["cases"]
    encoded = [{part: None if part not in case else jsoncodec.dumps(case[part]) for part in PARTS} for case in pool]
    parquet, jsonl = folder / "parquet", folder / "jsonl"
    parquet.mkdir()
    jsonl.mkdir()
    per = cases // files
    for index in range(files):
        ids, columns = [], {part: [] for part in PARTS}
        with open(jsonl / f"part-{index:02d}.jsonl", "w", encoding="utf-8") as stream:
            for n in range(per):
                number = index * per + n
                source, case = encoded[number % len(pool)], pool[number % len(pool)]
                case_id = f"{case['id']}-{number}"
                ids.append(case_id)
                for part in PARTS:
                    columns[part].append(source[part])
                stream.write(jsoncodec.dumps({**case, "id": case_id}) + "\n")
        pq.write_table(pa.table({"id": ids, **columns}), parquet / f"part-{index:02d}.parquet", row_group_size=per)
    return parquet, jsonl


def _tail_json(command: list[str]) -> tuple[dict, float, int]:
    """Run `command`, keep only the end of its (streamed, possibly gigabytes of) JSON; (its last object's
    summary and tools, seconds, peak RSS in MiB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, cwd=REPO)
    tail = b""
    while chunk := process.stdout.read(1 << 20):
        tail = (tail + chunk)[-(1 << 20):]
    process.wait()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    text = tail.decode("utf-8", "replace")
    start = text.rfind('"tools": [')
    tools_and_summary = json.loads("{" + text[start:]) if start >= 0 else {}
    return tools_and_summary, seconds, peak


def profile(parquet: Path) -> dict:
    """Seconds per stage of assess_batch for one partition, in this process (the steps assess_batch takes)."""
    from toolcontract.app.batch import _case_of_row, _part, registry_of
    from toolcontract.assessment.envelope import assess
    from toolcontract.core import jsoncodec
    from toolcontract.io.datasets import discover, read_part
    from toolcontract.io.fixtures import case_from_dict, case_problem
    from toolcontract.io.inputs import load_descriptor_dicts

    registry = registry_of(load_descriptor_dicts([str(TOOLS)], {}))
    part = discover([str(next(iter(sorted(parquet.iterdir()))))])[0]
    stages: dict[str, float] = {}
    started = time.perf_counter()
    table = read_part(part)
    names = [n for n in ("id", *PARTS) if n in table.column_names]
    columns = [table.column(n).to_pylist() for n in names]
    rows = [dict(zip(names, values)) for values in zip(*columns)]
    stages["read (Parquet part to Python rows)"] = time.perf_counter() - started
    started = time.perf_counter()
    decoded = []
    for row in rows:
        data = {"id": row["id"]}
        for name in PARTS:
            value = _part(row.get(name), name)
            if value is not None:
                data[name] = value
        decoded.append(data)
    stages["JSON decoding of the parts"] = time.perf_counter() - started
    started = time.perf_counter()
    for data in decoded:
        case_problem(data)
    stages["case-schema check (as a JSONL line's)"] = time.perf_counter() - started
    started = time.perf_counter()
    cases = [case_from_dict(data) for data in decoded]
    envelopes = [assess(case, registry) for case in cases]
    stages["gates, classifier, projections (assess)"] = time.perf_counter() - started
    started = time.perf_counter()
    for envelope in envelopes:
        jsoncodec.dumps(list(envelope.trail)), jsoncodec.dumps(envelope.model_view), jsoncodec.dumps(envelope.evidence)
    stages["JSON views of the envelope (output)"] = time.perf_counter() - started
    assert _case_of_row  # the adapter these steps spell out
    total = sum(stages.values())
    return {"rows": len(rows), "seconds": {k: round(v, 3) for k, v in stages.items()},
            "share": {k: f"{100 * v / total:.0f}%" for k, v in stages.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    executable = str(Path(sys.executable).with_name("toolcontract"))
    report: dict = {"cases": args.cases, "files": args.files, "workers": args.workers, "cores": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="tc-scale-") as temporary:
        folder = Path(temporary)
        started = time.perf_counter()
        parquet, jsonl = generate(folder, args.cases, args.files)
        report["generate_seconds"] = round(time.perf_counter() - started, 1)
        report["parquet_mib"] = round(sum(p.stat().st_size for p in parquet.iterdir()) / 2**20, 1)
        report["jsonl_mib"] = round(sum(p.stat().st_size for p in jsonl.iterdir()) / 2**20, 1)

        local, seconds, peak = _tail_json([executable, "assess", str(jsonl), "--tools", str(TOOLS), "--format",
                                           "json", "--exit-zero"])
        report["local"] = {"seconds": round(seconds, 1), "cases_per_second": round(args.cases / seconds),
                           "peak_rss_mib": peak}

        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=":0", silence_logs=50) as cluster, Client(cluster) as client:
            started = time.perf_counter()
            done = subprocess.run([executable, "assess", "--engine", "dask", "--scheduler", cluster.scheduler_address,
                                   str(parquet), "--tools", str(TOOLS), "-o", str(folder / "out"), "--format", "json",
                                   "--exit-zero"], cwd=REPO, capture_output=True, text=True)
            seconds = time.perf_counter() - started
            if done.returncode != 0:
                sys.stderr.write(done.stderr)
                return 2
            scaled = json.loads(done.stdout)
            peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
        report["dask"] = {"seconds": round(seconds, 1), "cases_per_second": round(args.cases / seconds),
                          "per_worker_cases_per_second": round(args.cases / seconds / args.workers),
                          "peak_rss_mib_per_worker": sorted(peaks.values()), "partitions": scaled["partitions"],
                          "output_mib": round(sum(p.stat().st_size for p in (folder / "out").iterdir()) / 2**20, 1)}
        report["summaries_identical"] = scaled["summary"] == local.get("summary") and \
            scaled["tools"] == local.get("tools")
        report["summary"] = scaled["summary"]
        report["profile_one_partition"] = profile(parquet)
    print(json.dumps(report, indent=2))
    return 0 if report["summaries_identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
