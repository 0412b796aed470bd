"""Benchmark `toolcontract assess` on OpenTelemetry traces: JSON lines of OTLP/JSON documents, as the
Collector's file exporter writes them, holding N `execute_tool` spans, as a whole process.

Each line is one batch of `--batch` spans (default 100): ten traces of a chat span and nine tool spans
each, in the GenAI conventions (a mix of returns, errors, timeouts, MCP `tool_error`s and spans without
captured arguments, over two tools offered by `gen_ai.tool.definitions`). Reports the median wall time, the
rate in cases/s, the child's peak resident memory and its CPU time; two sizes show whether peak memory
depends on the file's length (it should not: one line at a time in, streamed out).

    python bench/traces.py --sizes 10000,100000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from assess import run_once  # noqa: E402  (the same whole-process timing as bench/assess.py)

DEFINITIONS = json.dumps([
    {"type": "function", "name": "get_weather", "description": "Current weather of one city.",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                    "additionalProperties": False}},
    {"type": "function", "name": "create_reminder", "description": "Create a reminder.",
     "parameters": {"type": "object", "properties": {"text": {"type": "string"}, "at": {"type": "string"}},
                    "required": ["text", "at"], "additionalProperties": False}},
])
T0 = 1_767_261_600_000_000_000
CITIES = ["Paris", "Lyon", "Nice", "Oslo", "Lima", "Quito", "Accra", "Hanoi", "Perth", "Cusco", "Turin", "Kyoto",
          "Dakar", "Porto", "Riga", "Tunis", "Split", "Bern", "Cork", "Malmo"]


def _attr(key: str, value) -> dict:
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value}}


def tool_span(rng: random.Random, trace_id: str, parent: str, n: int, start: int) -> dict:
    kind = rng.randrange(10)
    name = "get_weather" if kind % 2 else "create_reminder"
    args = ({"city": rng.choice(CITIES)} if name == "get_weather"
            else {"text": rng.choice(CITIES) + " trip", "at": f"2026-01-{rng.randrange(1, 29):02d}T08:00:00Z"})
    attributes = [_attr("gen_ai.operation.name", "execute_tool"), _attr("gen_ai.tool.name", name),
                  _attr("gen_ai.tool.call.id", f"call_{n:08d}"), _attr("gen_ai.tool.type", "function")]
    if kind != 9:
        attributes.append(_attr("gen_ai.tool.call.arguments", json.dumps(args)))
    status = {}
    if kind == 3:
        attributes.append(_attr("error.type", "timeout"))
        status = {"code": 2, "message": "deadline exceeded"}
    elif kind == 5:
        attributes.append(_attr("error.type", "ValueError"))
        status = {"code": 2, "message": "bad time"}
    elif kind == 7:
        attributes += [_attr("mcp.method.name", "tools/call"), _attr("error.type", "tool_error"),
                       _attr("jsonrpc.request.id", str(n))]
        status = {"code": 2, "message": "unknown city"}
    else:
        attributes.append(_attr("gen_ai.tool.call.result", json.dumps({"ok": True, "n": n})))
    return {"traceId": trace_id, "spanId": f"{rng.getrandbits(64) | 1:016x}", "parentSpanId": parent,
            "name": f"execute_tool {name}", "kind": 1, "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(start + 900_000), "attributes": attributes, "status": status}


def batch(rng: random.Random, first: int, tools: int) -> dict:
    """One Collector batch: `tools` execute_tool spans, in traces of a chat span and up to nine tool spans."""
    spans = []
    for n in range(first, first + tools):
        if (n - first) % 9 == 0:  # a new trace, opened by its chat span
            trace_id, root = f"{rng.getrandbits(128) | 1:032x}", f"{rng.getrandbits(64) | 1:016x}"
            start = T0 + n * 10_000_000
            spans.append({"traceId": trace_id, "spanId": f"{rng.getrandbits(64) | 1:016x}", "parentSpanId": root,
                          "name": "chat gpt-4.1", "kind": 3, "startTimeUnixNano": str(start),
                          "endTimeUnixNano": str(start + 500_000),
                          "attributes": [_attr("gen_ai.operation.name", "chat"),
                                         _attr("gen_ai.request.model", "gpt-4.1"),
                                         _attr("gen_ai.tool.definitions", DEFINITIONS)], "status": {}})
        spans.append(tool_span(rng, trace_id, root, n, start + ((n - first) % 9 + 1) * 1_000_000))
    return {"resourceSpans": [{"resource": {"attributes": [_attr("service.name", "bench-agent")]},
                               "scopeSpans": [{"scope": {"name": "bench"}, "spans": spans}]}]}


def generate(folder: Path, n: int, batch_size: int) -> Path:
    """A JSON lines file holding `n` execute_tool spans (and a chat span per nine of them)."""
    path = folder / f"traces-{n}.jsonl"
    rng = random.Random(n)
    with path.open("w") as out:
        for first in range(0, n, batch_size):
            out.write(json.dumps(batch(rng, first, min(batch_size, n - first)), separators=(",", ":")) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=100, help="spans per line (a Collector batch)")
    parser.add_argument("--keep", help="folder to write the generated files to (default: a temp folder)")
    args = parser.parse_args()
    exe = [sys.executable, "-m", "toolcontract"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for n in [int(s) for s in args.sizes.split(",")]:
            path = generate(folder, n, args.batch)
            times, peaks, cpus = [], [], []
            for _ in range(args.runs):
                seconds, peak, cpu = run_once([*exe, "assess", str(path), "--format", "json"], folder / "out.json")
                times.append(seconds)
                peaks.append(peak)
                cpus.append(cpu)
            document = json.loads((folder / "out.json").read_text())
            cases = len(document["cases"])
            assert cases == n, f"{cases} cases from {n} execute_tool spans"
            median, cpu = statistics.median(times), statistics.median(cpus)
            print(f"N={n:>7} spans: median {median:.2f} s over {args.runs} runs -> {n / median:,.0f} cases/s; "
                  f"peak RSS {max(peaks) / 1024:.1f} MiB; file {path.stat().st_size / 1e6:.1f} MB; "
                  f"CPU {cpu:.2f} s -> {n / cpu:,.0f} cases/s of CPU")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
