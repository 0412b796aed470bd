#!/usr/bin/env python3
"""Benchmark: `toolcontract server`, from a didChange to the publishDiagnostics that answers it.

A real client (pygls's LanguageClient) starts `toolcontract server` over stdio in a workspace of N generated
descriptors (bench/run.py's generator: about 45 lines of YAML each, shaped like fixtures/descriptors/good/),
opens one of them and sends `--edits` whole-text changes, each alternating between the file as written and
the file without the root object's `additionalProperties: false` (TC403: the diagnostics differ every time).
It times each change from the moment the notification is written to the moment the publication for that
file arrives, and prints the median and the 90th percentile.

The server runs with `--debounce 0` by default, so the figure is the lint and the round trip; an editor's
server waits `--debounce` ms (150 by default) after the last keystroke on top of that (`--debounce 150` here
measures that too). Target: median <= 50 ms for one descriptor of the usual size (the workspace of 1).
Exit 1 when the target is missed. Not a test: run it by hand (bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import generate  # noqa: E402  (bench/run.py: the same descriptors lint is timed on)

TARGET_MS = 50.0


async def measure(folder: Path, edits: int, debounce: int) -> list[float]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("bench", "1")
    arrived: dict[str, asyncio.Event] = {}
    seen: dict[str, float] = {}
    found: dict[str, int] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        seen[params.uri] = time.perf_counter()
        found[params.uri] = len(params.diagnostics)
        event = arrived.get(params.uri)
        if event is not None:
            event.set()

    await client.start_io(sys.executable, "-m", "toolcontract", "server", "--debounce", str(debounce))
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=folder.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="bench")]))
    client.initialized(types.InitializedParams())
    path = sorted(folder.glob("*.yaml"))[0]
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = lines.index("  additionalProperties: false\n")  # the root object's: without it, TC403
    thin = "".join(lines[:at] + lines[at + 1:])
    arrived[uri] = asyncio.Event()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=text)))
    await asyncio.wait_for(arrived[uri].wait(), 60)
    counts = set()
    times = []
    for version in range(2, edits + 2):
        arrived[uri] = asyncio.Event()
        sent = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=thin if version % 2 == 0 else text)]))
        await asyncio.wait_for(arrived[uri].wait(), 60)
        times.append((seen[uri] - sent) * 1000)
        counts.add(found[uri])
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    if len(counts) < 2:
        raise SystemExit("bench/server.py: the edits did not change the diagnostics: nothing was measured")
    return times[1:]  # the first change imports the rules the first lint did not need


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,100", help="workspace sizes (descriptors), comma-separated")
    parser.add_argument("--edits", type=int, default=41, help="changes timed per size (the first is not counted)")
    parser.add_argument("--debounce", type=int, default=0, help="the server's --debounce, in ms")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    missed = False
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="tc-server-bench-") as tmp:
            folder, _ = generate(size, Path(tmp), args.seed)
            times = asyncio.run(measure(folder, args.edits, args.debounce))
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        target = TARGET_MS + args.debounce
        verdict = "" if size != 1 else f"  (target <= {target:.0f} ms: {'met' if median <= target else 'MISSED'})"
        missed |= size == 1 and median > target
        print(f"workspace of {size:>4} descriptor{'s' * (size != 1)}: didChange -> publishDiagnostics median "
              f"{median:.1f} ms, p90 {p90:.1f} ms over {len(times)} changes, debounce {args.debounce} ms{verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
