#!/usr/bin/env python3
"""A golden comparison for refactoring: what toolcontract says, in every format, on a fixed set of inputs.

    python bench/golden.py record /tmp/golden-before          # with the code before the change
    python bench/golden.py compare /tmp/golden-before         # after: every output byte-identical?

Inputs: the fixtures (descriptors with and without every --target, providers, demo, invocations,
transcripts, logs), the hostile files of tests/hostile, and, when present, the corpus's real tool lists
and recordings (../shared/corpus or $TOOLCONTRACT_CORPUS). Commands: lint in text/json/sarif/github/junit,
assess in text/json/junit, diff on fixtures/diff, convert of a few files to every format. Paths in the
outputs are relative to the repository, so a record from one checkout compares with another's.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("TOOLCONTRACT_CORPUS") or REPO.parent / "shared" / "corpus")
TARGETS = "openai,openai-strict,anthropic,anthropic-strict,gemini,mcp"


def commands(tmp: Path) -> list[tuple[str, list[str]]]:
    runs: list[tuple[str, list[str]]] = []
    lint_inputs = ["fixtures/descriptors", "fixtures/providers/good", "fixtures/providers/bad", "fixtures/demo",
                   "tests/hostile"]
    for fmt in ("text", "json", "sarif", "github", "junit"):
        for path in lint_inputs:
            runs.append((f"lint-{fmt}-{path}", ["lint", path, "--format", fmt, "--no-config", "--jobs", "1"]))
    runs.append(("lint-targets", ["lint", "fixtures/descriptors", "fixtures/providers", "--target", TARGETS,
                                  "--format", "json", "--no-config", "--jobs", "1"]))
    runs.append(("lint-parallel", ["lint", "fixtures/descriptors", "--format", "json", "--no-config", "--jobs", "2"]))
    for fmt in ("text", "json", "junit"):
        runs.append((f"assess-{fmt}-invocations", ["assess", "fixtures/invocations", "--format", fmt]))
        runs.append((f"assess-{fmt}-transcripts", ["assess", "fixtures/transcripts", "--format", fmt]))
        runs.append((f"assess-{fmt}-log", ["assess", "fixtures/logs/agent_run.jsonl", "--tools",
                                           "fixtures/descriptors/good", "--format", fmt]))
    runs.append(("diff", ["diff", "fixtures/diff/old", "fixtures/diff/new", "--format", "json"]))
    for to in ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "native"):
        runs.append((f"convert-{to}", ["convert", "fixtures/descriptors/good/document_update_metadata.yaml", "--to", to]))
    if CORPUS.is_dir():
        head = json.loads((CORPUS / "mcp" / "github-mcp-server.tools.head.json").read_text("utf-8"))["tools"]
        github = tmp / "github.json"
        github.write_text(json.dumps({"tools": [e["tool"] for e in head]}))
        runs.append(("corpus-github", ["lint", str(github), "--format", "json", "--no-config"]))
        runs.append(("corpus-poisoned", ["lint", str(CORPUS / "poisoned" / "mcp-server-everything-wrong.tools_list.json"),
                                         "--format", "json", "--no-config"]))
        for name in ("tau-bench.gpt-4o-airline.trial0.json", "pydantic-ai.anthropic_messages.json"):
            runs.append((f"corpus-{name}", ["assess", str(CORPUS / "transcripts" / name), "--format", "json"]))
    return runs


def run_all(tc: list[str], tmp: Path) -> dict[str, str]:
    outputs = {}
    for name, argv in commands(tmp):
        done = subprocess.run([*tc, *argv], capture_output=True, text=True, cwd=REPO, timeout=600)
        text = f"exit {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
        outputs[name] = text.replace(str(tmp), "<tmp>").replace(str(CORPUS), "<corpus>").replace(str(REPO), "<repo>")
    return outputs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("record", "compare"))
    ap.add_argument("folder")
    ap.add_argument("--toolcontract", default=None, help="the command (default: python -m toolcontract here)")
    args = ap.parse_args()
    tc = [args.toolcontract] if args.toolcontract else [sys.executable, "-m", "toolcontract"]
    folder = Path(args.folder)
    with tempfile.TemporaryDirectory() as tmp:
        outputs = run_all(tc, Path(tmp))
    if args.action == "record":
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for name, text in outputs.items():
            (folder / (hashlib.sha1(name.encode()).hexdigest()[:12] + ".txt")).write_text(f"{name}\n{text}")
        print(f"{len(outputs)} outputs recorded in {folder}")
        return 0
    differences = 0
    for name, text in outputs.items():
        path = folder / (hashlib.sha1(name.encode()).hexdigest()[:12] + ".txt")
        before = path.read_text().split("\n", 1)[1] if path.is_file() else "(not recorded)\n"
        if before != text:
            differences += 1
            print(f"DIFFERS: {name}")
            for line in list(difflib.unified_diff(before.splitlines(), text.splitlines(), lineterm="", n=1))[:20]:
                print("   ", line[:200])
    print(f"{len(outputs) - differences} of {len(outputs)} outputs identical")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
