"""Start-up of the two everyday calls, as whole processes: `toolcontract lint <one file>` and
`toolcontract assess <one case>`.

For each build (the `toolcontract` console script next to this Python, and any `--against` script) it
reports the median wall time over `--runs` runs (alternating between builds, after one untimed warm-up
each, so a load spike on a shared machine hits all of them), the number of modules the process imports
(counted with `python -X importtime`, which lists every module as it is imported), and which of the
heavy modules a plain call should not need were imported (pydantic and typer: Typer's start-up; rich:
only the rich format; email.utils: jsonschema-rs's import, see toolcontract/rs_import.py).

    python bench/startup.py
    python bench/startup.py --runs 21 --against /tmp/venv-new/bin/toolcontract

This replaces the tests that asserted which modules are not imported: a start-up is a cost to measure,
not a behaviour to pin.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOOD = REPO / "fixtures" / "descriptors" / "good"
LINT_FILE = GOOD / "unit_convert_length.yaml"
ONE_CASE = f"""\
toolcontract: 1
tools: [{GOOD / "search_orders.yaml"}]
cases:
  - id: startup
    candidate: {{id: c1, name: search_orders, arguments: {{query: Alice, status: shipped}}}}
    context:
      environment: {{id: demo, allows: [pure, read]}}
    expect: {{outcome: allowed, gate: null, effect: none}}
"""
HEAVY = ("pydantic", "typer", "rich", "email.utils", "jsonschema", "yaml")


def _python_of(script: Path) -> str:
    """The interpreter a console script runs with (its `#!` line)."""
    first = script.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    return first[2:].strip() if first.startswith("#!") else sys.executable


def _run(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def _imports(python: str, args: list[str]) -> tuple[int, list[str]]:
    code = "import sys; from toolcontract.cli import entry; sys.argv = ['toolcontract', *sys.argv[1:]]; entry()"
    done = subprocess.run([python, "-X", "importtime", "-c", code, *args], capture_output=True, text=True, check=False)
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    names = [name for name in names if name and name != "package"]  # the header row
    return len(names), [name for name in HEAVY if name in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--against", action="append", default=[], metavar="TOOLCONTRACT",
                        help="another build's console script, timed alternately with this one")
    options = parser.parse_args()
    here = Path(sys.executable).with_name("toolcontract")
    builds = [here if here.exists() else Path("toolcontract"), *map(Path, options.against)]
    with tempfile.TemporaryDirectory() as folder:
        case = Path(folder) / "startup.yaml"
        case.write_text(ONE_CASE)
        jobs = {
            f"lint {LINT_FILE.name}": ["lint", str(LINT_FILE), "--format", "text"],
            f"assess {case.name}": ["assess", str(case), "--format", "text"],
        }
        for job, args in jobs.items():
            times: dict[Path, list[float]] = {build: [] for build in builds}
            for build in builds:
                _run([str(build), *args])  # warm-up: bytecode and file-system caches
            for _ in range(options.runs):
                for build in builds:
                    times[build].append(_run([str(build), *args]))
            print(f"{job}  (median of {options.runs} runs)")
            for build in builds:
                count, heavy = _imports(_python_of(build) if build.is_file() else sys.executable, args)
                print(f"  {statistics.median(times[build]) * 1000:7.1f} ms  {count:4d} modules  "
                      f"heavy: {', '.join(heavy) or 'none'}  {build}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
