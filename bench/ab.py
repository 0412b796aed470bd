"""Two command lines timed against each other as whole processes: A and B alternate run by run
(after one untimed warm-up each), so a load spike on a shared machine hits both; prints the
medians and B/A. For a change's cost or gain: the same job with two builds, or with a switch.

    python bench/run.py --sizes 1,1000 --runs 1 --keep /tmp/tc-bench      # inputs, kept
    python bench/ab.py --runs 11 \\
        --a "/tmp/venv-new/bin/toolcontract lint --format text /tmp/tc-bench/n1000/descriptors" \\
        --b ".venv-regular/bin/toolcontract lint --format text /tmp/tc-bench/n1000/descriptors"
    python bench/ab.py --a "toolcontract lint d" --b "toolcontract lint d" --b-env TOOLCONTRACT_GC=default
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"bench: {argv[0]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="the first command line (the baseline)")
    parser.add_argument("--b", required=True, help="the second command line")
    parser.add_argument("--a-env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--b-env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    base = dict(os.environ)
    base.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed for real: bytecode caches are read
    sides = []
    for command, extra in ((args.a, args.a_env), (args.b, args.b_env)):
        env = {**base, **dict(item.split("=", 1) for item in extra)}
        sides.append((shlex.split(command), env, []))
    for argv, env, _ in sides:
        run_once(argv, env)  # warm-up
    for _ in range(args.runs):
        for argv, env, times in sides:
            times.append(run_once(argv, env))
    (_, _, a), (_, _, b) = sides
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"A {ma * 1000:8.1f} ms  (min {min(a) * 1000:.1f})  {args.a} {' '.join(args.a_env)}")
    print(f"B {mb * 1000:8.1f} ms  (min {min(b) * 1000:.1f})  {args.b} {' '.join(args.b_env)}")
    print(f"B/A {mb / ma:.3f} over {args.runs} alternating runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
