"""Benchmark `toolcontract assess` on a large JSONL log, as a whole process.

Generates N cases (a mix of admitted, refused and executed calls against a
handful of tools), runs `toolcontract assess LOG --tools TOOLS --format json`
with stdout to a file, and reports the median wall time, the rate in cases/s,
the peak resident memory of the child, and its CPU time (steadier than wall time
on a shared machine). Running two sizes shows whether peak memory depends on the
log's length (it should not: stream in, stream out); an empty log first gives the
start-up cost every run pays.

    python bench/assess.py --sizes 10000,100000 --runs 3

Also reports the shape gate's own cost per call (compiled validator, in-process).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOOLS = [
    {
        "toolcontract": 1, "name": "invoice_get", "version": "1.0.0", "effect": "read",
        "purpose": "Read one invoice.",
        "input_schema": {"type": "object", "properties": {"invoice_id": {"type": "string", "pattern": "^INV-[0-9]+$"}},
                         "required": ["invoice_id"], "additionalProperties": False},
    },
    {
        "toolcontract": 1, "name": "invoice_mark_paid", "version": "2.1.0", "effect": "irreversible_write",
        "purpose": "Mark an invoice as paid.",
        "input_schema": {"type": "object", "properties": {
            "invoice_id": {"type": "string"}, "amount": {"type": "number", "minimum": 0},
            "expected_version": {"type": "string"}},
            "required": ["invoice_id", "amount", "expected_version"], "additionalProperties": False},
        "target": {"id": "/invoice_id", "version": "/expected_version"},
    },
    {
        "toolcontract": 1, "name": "unit_convert_length", "version": "1.0.0", "effect": "pure",
        "purpose": "Convert a length between units.",
        "input_schema": {"type": "object", "properties": {
            "value": {"type": "number"}, "from": {"enum": ["m", "ft", "in"]}, "to": {"enum": ["m", "ft", "in"]}},
            "required": ["value", "from", "to"], "additionalProperties": False},
    },
    {
        "toolcontract": 1, "name": "document_update_metadata", "version": "1.2.0", "effect": "reversible_write",
        "purpose": "Change one metadata field of a document.",
        "input_schema": {"type": "object", "properties": {
            "document_id": {"type": "string"}, "field": {"enum": ["status", "title"]}, "value": {"type": "string"},
            "expected_version": {"type": "string"}},
            "required": ["document_id", "field", "value", "expected_version"], "additionalProperties": False},
        "target": {"id": "/document_id", "version": "/expected_version", "fields": "/field"},
    },
]

ENV = {"id": "prod", "allows": ["pure", "read", "reversible_write", "irreversible_write"]}


def make_case(i: int, rng: random.Random) -> dict:
    kind = rng.randrange(8)
    call_id = f"call_{i:07d}"
    if kind == 0:
        return {"id": f"c{i}", "candidate": {"id": call_id, "name": "invoice_get", "arguments": {"invoice_id": f"INV-{i}"}},
                "context": {"environment": ENV}, "record": {"call_id": call_id, "status": "returned",
                                                           "result": {"id": f"INV-{i}", "total": 12.5, "status": "open"}}}
    if kind == 1:
        return {"id": f"c{i}", "candidate": {"id": call_id, "name": "invoice_get", "arguments": {"invoice_id": f"bad-{i}"}}}
    if kind == 2:
        return {"id": f"c{i}", "candidate": {"id": call_id, "name": "delete_all_orders", "arguments": {"customerId": i}}}
    if kind == 3:
        return {"id": f"c{i}", "candidate": {"id": call_id, "name": "unit_convert_length",
                                             "arguments": json.dumps({"value": i, "from": "m", "to": "ft"})},
                "context": {"environment": ENV}, "record": {"call_id": call_id, "status": "returned", "result": i * 3.28}}
    target = {"id": f"INV-{i}", "exists": True, "version": "3"}
    args = {"invoice_id": f"INV-{i}", "amount": 10, "expected_version": "3"}
    approval = {"ref": f"A-{i}", "tool": "invoice_mark_paid", "target": f"INV-{i}", "version": "3",
                "expires": "2026-12-01T00:00:00Z"}
    context = {"now": "2026-11-29T10:00:00Z", "environment": ENV, "target": target, "approval": approval}
    if kind == 4:
        return {"id": f"c{i}", "candidate": {"id": call_id, "name": "invoice_mark_paid", "arguments": args},
                "context": {**context, "approval": None}}
    if kind == 5:
        return {"id": f"c{i}", "candidate": {"id": call_id, "name": "invoice_mark_paid", "arguments": args},
                "context": context, "record": {"call_id": call_id, "status": "timeout"}}
    if kind == 6:
        return {"id": f"c{i}", "candidate": {"id": call_id, "name": "invoice_mark_paid", "arguments": args},
                "context": context, "record": {"call_id": call_id, "status": "returned", "result": {"ok": True}},
                "observation": {"call_id": call_id, "target": {"id": f"INV-{i}", "version": "4"}, "effect": "applied"}}
    return {"id": f"c{i}", "candidate": {"id": call_id, "name": "invoice_mark_paid", "arguments": args},
            "context": context, "record": {"call_id": call_id, "status": "returned", "result": {"ok": True}}}


def generate(folder: Path, n: int) -> tuple[Path, Path]:
    tools = folder / "tools"
    tools.mkdir(parents=True, exist_ok=True)
    for tool in TOOLS:
        (tools / f"{tool['name']}.json").write_text(json.dumps(tool))
    log = folder / f"log-{n}.jsonl"
    rng = random.Random(n)
    with log.open("w") as out:
        for i in range(n):
            out.write(json.dumps(make_case(i, rng)) + "\n")
    return log, tools


def run_once(cmd: list[str], out_path: Path) -> tuple[float, int, float]:
    """Wall seconds, the child's peak RSS in KiB and its CPU seconds (user + system), measured
    in a fresh wrapper process. On a shared machine CPU time varies less than wall time."""
    wrapper = (
        "import resource, subprocess, sys;"
        f"r = subprocess.run({cmd!r}, stdout=open({str(out_path)!r}, 'wb'));"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN);"
        "print(u.ru_maxrss, u.ru_utime + u.ru_stime); sys.exit(r.returncode)"
    )
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", wrapper], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"assess failed ({proc.returncode}): {proc.stderr.strip()}")
    peak, cpu = proc.stdout.strip().splitlines()[-1].split()
    return elapsed, int(peak), float(cpu)


def shape_gate_cost(n: int = 200_000) -> float:
    """Microseconds per call of the shape gate with a compiled validator (in-process)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from toolcontract.assessment.gates import prepare, shape_gate
    from toolcontract.assessment.registry import Registry
    from toolcontract.core.model import Candidate, Context

    registry = Registry.from_descriptors(TOOLS)
    call = prepare(Candidate("c", "invoice_mark_paid", {"invoice_id": "INV-1", "amount": 3, "expected_version": "1"}),
                   registry, Context())
    start = time.perf_counter()
    for _ in range(n):
        shape_gate(call)
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", help="folder to write the generated logs to (default: a temp folder)")
    parser.add_argument("--baseline", metavar="PYTHON",
                        help="also time this Python's toolcontract (e.g. an install of main), alternating runs")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    builds = [("", [sys.executable, "-m", "toolcontract"])]
    if args.baseline:
        builds = [("baseline ", [args.baseline, "-m", "toolcontract"]), ("this     ", builds[0][1])]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        print(f"shape gate: {shape_gate_cost():.2f} µs per call (compiled jsonschema-rs validator)")
        for n in [0, *sizes]:  # N=0: an empty log, the start-up cost every run pays
            log, tools = generate(folder, n)
            measured = {label: ([], [], []) for label, _ in builds}
            for _ in range(args.runs):
                for label, exe in builds:  # alternating: a load spike hits both builds
                    seconds, peak, cpu = run_once([*exe, "assess", str(log), "--tools", str(tools), "--format", "json"],
                                                  folder / "out.json")
                    for values, value in zip(measured[label], (seconds, peak, cpu)):
                        values.append(value)
            for label, (times, peaks, cpus) in measured.items():
                median, cpu = statistics.median(times), statistics.median(cpus)
                if n == 0:
                    print(f"{label}start-up (empty log): median {median:.2f} s wall, {cpu:.2f} s CPU over {args.runs} runs")
                    continue
                print(f"{label}N={n:>7}: median {median:.2f} s over {args.runs} runs -> {n / median:,.0f} cases/s; "
                      f"peak RSS {max(peaks) / 1024:.1f} MiB; log {log.stat().st_size / 1e6:.1f} MB; "
                      f"CPU {cpu:.2f} s -> {n / cpu:,.0f} cases/s of CPU")
            if n == 0:
                continue
            json.loads((folder / "out.json").read_text())  # the streamed output is one valid JSON document


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
