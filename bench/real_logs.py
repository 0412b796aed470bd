#!/usr/bin/env python3
"""What `toolcontract assess` says about real recorded conversations, with and without `--tools`.

    python bench/real_logs.py                                   # the toolcontract on PATH / in .venv
    python bench/real_logs.py --before /tmp/venv-old/bin/toolcontract   # side by side with another build
    python bench/real_logs.py --blocked                         # also list every blocked call and why

Data: every transcript of ../shared/corpus/transcripts (or $TOOLCONTRACT_CORPUS): tau-bench's airline
trajectories (no tool list in the recording; `--tools` gives the OpenAI definitions of tau-bench.tools.json,
unwrapped), LiveMCPBench's agent runs, pydantic-ai's Anthropic and OpenAI cassettes. No `--context`:
the recordings carry none, so every call is assessed from the evidence alone. Prints, per file and run,
cases by outcome and gate, and the evidence-only and no-effect-class counts of the summary.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = Path(os.environ.get("TOOLCONTRACT_CORPUS") or HERE.parent.parent / "shared" / "corpus")


def run(tc: str, path: Path, extra: list[str]) -> dict:
    done = subprocess.run([tc, "assess", str(path), "--format", "json", *extra], capture_output=True, text=True,
                          timeout=600)
    try:
        return json.loads(done.stdout)
    except ValueError:
        return {"error": f"exit {done.returncode}: {(done.stderr or done.stdout)[:300]}"}


def tally(report: dict) -> str:
    if "error" in report:
        return report["error"]
    counts = collections.Counter(f"{c['outcome']}@{c.get('gate') or '-'}" for c in report["cases"])
    summary = report["summary"]
    extra = "".join(f", {key} {summary[key]}" for key in ("evidence_only", "no_effect_class") if key in summary)
    return f"{sum(counts.values())} calls: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()) + extra


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--toolcontract", default=shutil.which("toolcontract") or str(HERE.parent / ".venv/bin/toolcontract"))
    ap.add_argument("--before")
    ap.add_argument("--blocked", action="store_true")
    args = ap.parse_args()
    folder = CORPUS / "transcripts"
    if not folder.is_dir():
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    builds = ([("before", args.before)] if args.before else []) + [("now", args.toolcontract)]
    with tempfile.TemporaryDirectory() as tmp:
        tau_tools = Path(tmp) / "tau-bench-tools.json"
        wrapped = json.loads((folder / "tau-bench.tools.json").read_text("utf-8"))["tools"]
        tau_tools.write_text(json.dumps([entry["tool"] for domain in wrapped.values() for entry in domain]))
        for path in sorted(folder.glob("*.json")):
            if path.name == "tau-bench.tools.json":
                continue
            runs = [("no --tools", [])]
            if path.name.startswith("tau-bench"):
                runs.append(("--tools tau-bench tools", ["--tools", str(tau_tools)]))
            print(f"{path.name}:")
            for label, extra in runs:
                for build, tc in builds:
                    report = run(tc, path, extra)
                    print(f"  {label:<24} {build:>6}: {tally(report)}")
                    if args.blocked and build == "now" and "cases" in report:
                        reasons = collections.Counter((c["tool"], c["reasons"][0][:140]) for c in report["cases"]
                                                      if c["outcome"] == "blocked")
                        for (tool, reason), count in reasons.most_common():
                            print(f"      blocked x{count} {tool}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
