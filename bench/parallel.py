#!/usr/bin/env python3
"""Benchmark: `toolcontract lint --jobs 1` against `--jobs N`, as whole processes, without the lint cache.

    python bench/parallel.py                       # bench/run.py's 1,000 generated descriptors
    python bench/parallel.py --corpus --sizes 0      # the corpus's real lists (bench/real_lists.py writes them)
    python bench/parallel.py --sizes 50,100,200,1000 --jobs 2

For each input the commands alternate run by run (a load spike on a shared machine hits
both), and the medians are printed with the load average at the start, since a pool only
pays with idle cores. `default_jobs` in toolcontract/lint/parallel.py (what `--jobs 0` picks)
is set from these figures (bench/README.md).

Not a test: run it by hand. Standard library only, plus bench/run.py's generator.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import _command, _environment, _run_once, generate  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000", help="generated descriptor counts (default 1000; 0: none)")
    parser.add_argument("--dir", action="append", default=[], help="also lint this folder (repeatable)")
    parser.add_argument("--corpus", action="store_true",
                        help="also lint the corpus's real lists (MCP servers, GitHub's history, tau-bench, BFCL), "
                             "as bench/real_lists.py writes them from ../shared/corpus, and its MCP part alone")
    parser.add_argument("--jobs", default="2", help="comma-separated job counts compared with 1 (default 2)")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (default 7)")
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip() and int(s) > 0]
    jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
    ours = _command("toolcontract", "toolcontract") + ["lint", "--format", "text", "--no-cache", "--no-config"]
    env = _environment()
    root = Path(tempfile.mkdtemp(prefix="toolcontract-bench-parallel-"))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, median of {args.runs} alternating runs "
          f"after a warm-up; load average {os.getloadavg()[0]:.1f}")
    print(f"{'input':>28}  {'--jobs 1':>9}  " + "  ".join(f"{f'--jobs {j}':>9}  {'ratio':>5}" for j in jobs))
    try:
        inputs = []  # (label, folders separated by spaces)
        for size in sizes:
            descriptors, _ = generate(size, root / f"n{size}", args.seed)
            inputs.append((f"{size} generated", str(descriptors)))
        inputs += [(Path(d).name or d, d) for d in args.dir]
        if args.corpus:
            from real_lists import build

            built = build(root / "corpus")
            count = sum(len(paths) for paths in built.values())
            inputs.append((f"corpus, {count} files", str(root / "corpus")))
            mcp = [p for name, paths in built.items() if "github" in name or "LiveMCP" in name for p in paths]
            inputs.append((f"corpus mcp, {len(mcp)} files", " ".join(sorted({str(p.parent) for p in mcp}))))
        for label, folder in inputs:
            folders = folder.split(" ")
            commands = [ours + ["--jobs", "1", *folders]] + [ours + ["--jobs", str(j), *folders] for j in jobs]
            for command in commands:
                _run_once(command, (0, 1), env)
            times: list[list[float]] = [[] for _ in commands]
            for _ in range(args.runs):
                for index, command in enumerate(commands):
                    times[index].append(_run_once(command, (0, 1), env)[0])
            medians = [statistics.median(t) for t in times]
            cells = "  ".join(f"{m * 1000:>7.0f}ms  {m / medians[0]:>5.2f}" for m in medians[1:])
            print(f"{label:>28}  {medians[0] * 1000:>7.0f}ms  {cells}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
