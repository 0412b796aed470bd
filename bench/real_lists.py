#!/usr/bin/env python3
"""What `toolcontract lint` says, with default settings, about real third-party tool lists.

    python bench/real_lists.py                                  # the toolcontract on PATH / in .venv
    python bench/real_lists.py --before /tmp/venv-old/bin/toolcontract   # side by side with another build
    python bench/real_lists.py --errors                         # also list every error, one line each

Data (from ../shared/corpus, or $TOOLCONTRACT_CORPUS), each linted as users have it, with no
overlay and no configuration:

- github-mcp-server at HEAD: one MCP `tools/list` result of its 117 tools;
- its history: every earlier version of a tool, each as a one-tool MCP list of its own (the
  maintainers fixed some of them later; those fixes are what an error here should find);
- LiveMCPBench: the captured `tools/list` of 70 community servers, one file per server;
- tau-bench's tools: the OpenAI function definitions of its airline and retail domains;
- BFCL's `functions_unique.json`: 3,526 function definitions as OpenAI Chat tools, 500 per file.

For each data set it prints tools, errors per 100 tools, warnings per tool and TC6xx findings,
then the findings per rule and severity; with --before, both builds side by side. It also checks
the three schema bugs GitHub's maintainers fixed (update_project_item `type: "int"`/`"any"`,
list_gists `type: "Number"`, get_me's null `inputSchema`) are still errors in the history.
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


def _write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), "utf-8")
    return path


def build(tmp: Path) -> dict[str, list[Path]]:
    sets: dict[str, list[Path]] = {}
    head = json.loads((CORPUS / "mcp" / "github-mcp-server.tools.head.json").read_text("utf-8"))["tools"]
    sets["github-mcp-server HEAD"] = [_write(tmp / "github" / "tools.json", {"tools": [e["tool"] for e in head]})]
    history = json.loads((CORPUS / "mcp" / "github-mcp-server.tools.history.json").read_text("utf-8"))["tools"]
    sets["github-mcp-server history"] = [
        _write(tmp / "history" / f"{i:04d}.json", {"tools": [e["tool"]]}) for i, e in enumerate(history)]
    servers = json.loads((CORPUS / "mcp" / "livemcpbench.tools.json").read_text("utf-8"))["servers"]
    sets["LiveMCPBench (70 servers)"] = [
        _write(tmp / "lmb" / f"{i:02d}_{j}.json", {"tools": sub["tools"]})
        for i, server in enumerate(servers) for j, sub in enumerate(server["tools"].values())]
    tau = json.loads((CORPUS / "transcripts" / "tau-bench.tools.json").read_text("utf-8"))["tools"]
    sets["tau-bench tools"] = [_write(tmp / "tau" / f"{d}.json", [t["tool"] for t in tools]) for d, tools in tau.items()]
    fns = json.loads((CORPUS / "bfcl" / "functions_unique.json").read_text("utf-8"))
    fns = fns["functions"] if isinstance(fns, dict) else fns
    defs = [x.get("function", x) for x in fns]
    sets["BFCL functions"] = [
        _write(tmp / "bfcl" / f"part{k // 500}.json",
               [{"type": "function", "function": d} for d in defs[k:k + 500] if isinstance(d, dict)])
        for k in range(0, len(defs), 500)]
    return sets


def lint(tc: str, paths: list[Path]) -> dict:
    folder = paths[0].parent
    proc = subprocess.run([tc, "lint", "--no-config", "--format", "json", "--exit-zero", str(folder)],
                          capture_output=True, text=True, timeout=1200)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"error": f"exit {proc.returncode}: {(proc.stderr or proc.stdout)[:300]}"}


def figures(report: dict) -> dict:
    if "error" in report:
        return {"error": report["error"]}
    tools = max(report["summary"]["tools"], 1)
    by = collections.Counter((f["rule"], f["severity"]) for f in report["findings"])
    errors = sum(v for (_, s), v in by.items() if s == "error")
    warnings = sum(v for (_, s), v in by.items() if s == "warning")
    return {"tools": report["summary"]["tools"], "errors/100": 100 * errors / tools, "warnings/tool": warnings / tools,
            "errors": errors, "warnings": warnings, "tc6": sum(v for (r, _), v in by.items() if r.startswith("TC6")),
            "by": by}


HISTORY_BUGS = (  # (tool, a fragment of our message) for each bug its maintainers fixed later
    ("update_project_item", '"int" is not a JSON Schema type'),
    ("update_project_item", '"any" is not a JSON Schema type'),
    ("list_gists", '"Number" is not a JSON Schema type'),
    ("get_me", "`inputSchema` must be an object"),
)


def history_bugs(report: dict) -> list[str]:
    lines = []
    errors = [f for f in report.get("findings", []) if f["severity"] == "error"]
    for tool, fragment in HISTORY_BUGS:
        hit = any(fragment in f["message"] and (f.get("tool") in (tool, None)) for f in errors)
        lines.append(f"    {'found ' if hit else 'MISSED'} {tool}: {fragment}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--toolcontract", default=shutil.which("toolcontract") or str(HERE.parent / ".venv/bin/toolcontract"))
    ap.add_argument("--before", help="another toolcontract build to compare with")
    ap.add_argument("--errors", action="store_true", help="list every error finding")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS} (set TOOLCONTRACT_CORPUS)", file=sys.stderr)
        return 2
    builds = ([("before", args.before)] if args.before else []) + [("after" if args.before else "now", args.toolcontract)]
    with tempfile.TemporaryDirectory() as tmp:
        sets = build(Path(tmp))
        for name, paths in sets.items():
            reports = {label: lint(tc, paths) for label, tc in builds}
            found = {label: figures(r) for label, r in reports.items()}
            print(f"{name}:")
            for label, f in found.items():
                if "error" in f:
                    print(f"  {label}: {f['error']}")
                    continue
                print(f"  {label:>6}: {f['tools']} tools, {f['errors/100']:.1f} errors per 100 tools, "
                      f"{f['warnings/tool']:.2f} warnings per tool, {f['tc6']} TC6xx")
            keys = sorted({k for f in found.values() if "by" in f for k in f["by"]},
                          key=lambda k: (k[0], -["info", "warning", "error"].index(k[1])))
            for rule, severity in keys:
                cells = "  ".join(f"{label} {found[label]['by'].get((rule, severity), 0):>5}"
                                  for label in found if "by" in found[label])
                print(f"    {rule} {severity:<7}  {cells}")
            last = reports[builds[-1][0]]
            if name == "github-mcp-server history":
                print("  schema bugs its maintainers fixed later (should be errors):")
                print("\n".join(history_bugs(last)))
            if args.errors:
                for f in last.get("findings", []):
                    if f["severity"] == "error":
                        print(f"    ! {f['rule']} {f.get('tool')}: {f['message'][:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
