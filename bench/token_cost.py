#!/usr/bin/env python3
"""Bytes per token of a tool list's model view, measured with real tokenizers on real tool lists.

TC517 (toolset-context-cost) estimates the tokens a tool list costs a model without a
tokenizer: the bytes of each tool's model view (name, description and input schema as
compact JSON, `model_view` in toolcontract.lint.rules.tc5_portability.tc517_toolset_context_cost)
divided by one figure, `BYTES_PER_TOKEN`. This script measures that figure on the real tool
lists of the shared corpus (GitHub's MCP server at HEAD, the 70 LiveMCPBench servers,
tau-bench's airline and retail tools), read by toolcontract's own readers, so the bytes are
exactly the bytes the rule counts.

Tokenizers, all offline (no download at run time):
- o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5) and cl100k_base (GPT-4, GPT-3.5), run by
  OpenAI's `tiktoken`. tiktoken downloads its rank files on first use; here they come from
  the `bpe-openai` wheel, which ships them, and are placed in a private TIKTOKEN_CACHE_DIR
  after their SHA-256 is checked against the hash in tiktoken's own source (so they are
  byte-for-byte OpenAI's files, and tiktoken checks the hash again on reading).
- Anthropic's legacy tokenizer: `tokenizer.json` shipped inside `anthropic` wheels before
  0.39 (the pinned 0.34.2 here), run by Hugging Face `tokenizers`. Anthropic says it is
  not exact for Claude 3 and later models, which use an unpublished tokenizer; it is a
  second opinion, not the reference.

    .venv/bin/pip install -q -e '.[bench]'
    .venv/bin/python bench/token_cost.py [--corpus ../shared/corpus] [--json out.json]

It prints, per list: tools, bytes, tokens and bytes per token for each tokenizer, and the
error of the rule's estimate against o200k_base; then the pooled figures and the spread
per tool.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from toolcontract.lint.rules.tc5_portability.tc517_toolset_context_cost import (  # noqa: E402
    BYTES_PER_TOKEN,
    estimate_tokens,
    model_view,
)
from toolcontract.io.document import load_bytes  # noqa: E402
from toolcontract.io.reader import read_tools  # noqa: E402


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # locates without importing the package
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"bench/token_cost.py: package {name!r} is not installed (pip install -e '.[bench]')")
    return Path(next(iter(spec.submodule_search_locations)))


def openai_encodings() -> dict:
    """o200k_base and cl100k_base as tiktoken Encodings, from the rank files bpe-openai ships."""
    import tiktoken
    import tiktoken_ext.openai_public as public

    source = _package_dir("bpe_openai") / "data"
    urls = {
        "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    }
    expected = {  # the hashes tiktoken's own source expects for these files
        "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    }
    source_text = Path(public.__file__).read_text("utf-8")
    before = os.environ.get("TIKTOKEN_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="tc-tiktoken-") as cache:
        for name, url in urls.items():
            if expected[name] not in source_text or url not in source_text:
                raise SystemExit(f"tiktoken's source no longer names {url} with hash {expected[name]}")
            data = gzip.decompress((source / f"{name}.tiktoken.gz").read_bytes())
            digest = hashlib.sha256(data).hexdigest()
            if digest != expected[name]:
                raise SystemExit(f"{name}: the shipped file's SHA-256 {digest} is not OpenAI's {expected[name]}")
            (Path(cache) / hashlib.sha1(url.encode()).hexdigest()).write_bytes(data)  # tiktoken's cache key
        os.environ["TIKTOKEN_CACHE_DIR"] = cache  # tiktoken reads the files here and checks the hash again
        try:
            return {name: tiktoken.get_encoding(name) for name in urls}
        finally:
            if before is None:
                os.environ.pop("TIKTOKEN_CACHE_DIR", None)
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = before


def claude_legacy():
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(_package_dir("anthropic") / "tokenizer.json"))


def tool_lists(corpus: Path) -> list[tuple[str, str, list]]:
    """(group, list name, tool views) for every real tool list, read as lint reads them."""
    def views(name: str, data) -> list:
        document = load_bytes(json.dumps(data).encode(), name)
        return read_tools(document).tools

    lists = []
    gh = json.loads((corpus / "mcp" / "github-mcp-server.tools.head.json").read_text("utf-8"))
    lists.append(("github", "github-mcp-server HEAD", views("github.json", {"tools": [e["tool"] for e in gh["tools"]]})))
    lm = json.loads((corpus / "mcp" / "livemcpbench.tools.json").read_text("utf-8"))
    for server in lm["servers"]:
        for sub_name, sub in server["tools"].items():
            lists.append(("livemcpbench", f"livemcpbench/{sub_name}", views(f"{sub_name}.json", {"tools": sub["tools"]})))
    tau = json.loads((corpus / "transcripts" / "tau-bench.tools.json").read_text("utf-8"))
    for domain, entries in tau["tools"].items():
        lists.append(("tau-bench", f"tau-bench/{domain}", views(f"tau_{domain}.json", [e["tool"] for e in entries])))
    return lists


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--json", type=Path, help="write the per-list and per-tool figures here")
    ap.add_argument("--lists", action="store_true", help="print every list, not only the 12 largest")
    args = ap.parse_args()
    if not (args.corpus / "mcp").is_dir():
        raise SystemExit(f"bench/token_cost.py: no corpus at {args.corpus}")
    encoders = {name: (lambda text, e=enc: len(e.encode(text, disallowed_special=())))
                for name, enc in openai_encodings().items()}
    legacy = claude_legacy()
    encoders["claude-legacy"] = lambda text: len(legacy.encode(text, add_special_tokens=False).ids)
    names = list(encoders)

    rows, per_tool = [], []
    for group, list_name, tools in tool_lists(args.corpus):
        size, counts = 0, dict.fromkeys(names, 0)
        for tool in tools:
            raw = model_view(tool)
            text = raw.decode("utf-8")
            tokens = {n: encoders[n](text) for n in names}
            size += len(raw)
            for n in names:
                counts[n] += tokens[n]
            per_tool.append({"group": group, "list": list_name, "tool": tool.name, "bytes": len(raw),
                             "ascii": text.isascii(), **tokens})
        rows.append({"group": group, "list": list_name, "tools": len(tools), "bytes": size, **counts,
                     "estimate": estimate_tokens(size)})

    def bpt(size: int, tokens: int) -> str:
        return f"{size / tokens:5.2f}" if tokens else "    -"

    head = f"{'list':<44} {'tools':>5} {'bytes':>8} " + " ".join(f"{n + ' tok':>17} {'B/t':>5}" for n in names)
    print(f"model view = compact JSON of name, description, input schema; estimate = bytes / {BYTES_PER_TOKEN}")
    print(head + f" {'estimate':>8} {'vs o200k':>8}")
    shown = rows if args.lists else sorted(rows, key=lambda r: -r["bytes"])[:12]
    for r in shown:
        error = (r["estimate"] - r["o200k_base"]) / r["o200k_base"] * 100 if r["o200k_base"] else 0.0
        print(f"{r['list'][:44]:<44} {r['tools']:>5} {r['bytes']:>8} "
              + " ".join(f"{r[n]:>17} {bpt(r['bytes'], r[n])}" for n in names)
              + f" {r['estimate']:>8} {error:>+7.1f}%")
    print()
    for group in ("github", "livemcpbench", "tau-bench", None):
        chosen = [r for r in rows if group is None or r["group"] == group]
        size = sum(r["bytes"] for r in chosen)
        label = group or "all lists"
        print(f"{label:<14} {len(chosen):>3} lists {sum(r['tools'] for r in chosen):>4} tools {size:>8} bytes  "
              + "  ".join(f"{n} {bpt(size, sum(r[n] for r in chosen))}" for n in names))
    errors = [(r["estimate"] - r["o200k_base"]) / r["o200k_base"] * 100 for r in rows if r["o200k_base"] >= 200]
    print(f"\nestimate vs o200k_base per list (lists of 200+ tokens, n={len(errors)}): median "
          f"{statistics.median(errors):+.1f}%, min {min(errors):+.1f}%, max {max(errors):+.1f}%")
    for n in names:
        ratios = sorted(t["bytes"] / t[n] for t in per_tool if t[n])
        ascii_ratios = sorted(t["bytes"] / t[n] for t in per_tool if t[n] and t["ascii"])
        q = statistics.quantiles(ratios, n=10)
        print(f"per tool, {n}: bytes/token p10 {q[0]:.2f}, median {statistics.median(ratios):.2f}, p90 {q[-1]:.2f}"
              f" ({len(ratios)} tools; ASCII-only {len(ascii_ratios)}, median {statistics.median(ascii_ratios):.2f})")
    if args.json:
        args.json.write_text(json.dumps({"bytes_per_token": BYTES_PER_TOKEN, "lists": rows, "tools": per_tool}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
