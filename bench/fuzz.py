#!/usr/bin/env python3
"""A mutation fuzzer for the command line: mutated descriptors, provider lists, fixtures, JSONL logs
and transcripts through `lint` (every format) and `assess`, in this process, counting the runs that
end in an internal error (exit 3, the backstop for a traceback) or in an exit code other than 0, 1, 2.

    python bench/fuzz.py --runs 5000 [--seed 1] [--keep /tmp/fuzz-failures]

Seeds: the project's fixtures and, when present, files of ../shared/corpus. Mutations: byte flips,
truncations, duplicated or deleted spans, and splices of hostile fragments (lone surrogate escapes,
huge numbers, deep nesting, control characters, YAML tags and aliases, `# toolcontract:` comments,
wrong types in place of values). Each failing input is written to --keep with the command line.
Not a test: the suite runs a small deterministic sample of the same idea (tests/test_hostile.py).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = Path(os.environ.get("TOOLCONTRACT_CORPUS") or REPO.parent / "shared" / "corpus")

FRAGMENTS = [
    b'"\\ud800"', b"1" * 5000, b"1e99999", b"[" * 300, b"{" * 100, b"\x00", b"\x1b]52;c;aGk=\x07", b"\xff\xfe",
    b"!!python/object:os.system", b"&a [*a, *a]", b"*nope", b"# toolcontract: ignore-file", b"null", b"true",
    b"[]", b"{}", b'"type": "int"', b'"$ref": "http://127.0.0.1/x"', b'"$ref": "#/$defs/missing"',
    b'"pattern": "(a+)+$"', b"\u202e".decode().encode(), b"\r\n", b"---\n", b": :", b"- - -", b'"\\u0000"',
    b'"inputSchema": null', b'"readOnlyHint": "yes"', b'"tools": 3', b'"arguments": "{not json"',
]
LINT_FORMATS = ("text", "json", "sarif", "github", "junit", "rich")
ASSESS_FORMATS = ("text", "json", "junit", "rich")


def seeds() -> list[tuple[str, bytes]]:
    found = []
    for folder in ("fixtures", "tests/hostile"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and path.suffix in (".yaml", ".yml", ".json", ".jsonl") and path.stat().st_size < 200_000:
                found.append((path.suffix, path.read_bytes()))
    for name in ("mcp/github-mcp-server.tools.head.json", "poisoned/all_labeled.json",
                 "transcripts/pydantic-ai.anthropic_messages.json", "transcripts/tau-bench.tools.json"):
        path = CORPUS / name
        if path.is_file():
            data = path.read_bytes()
            found.append((path.suffix, data[:300_000]))
    return found


def mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        at = rng.randrange(len(data) + 1) if data else 0
        if kind == 0 and data:  # flip a byte
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind == 1:  # truncate
            del data[at:]
        elif kind == 2 and data:  # duplicate a span
            end = min(len(data), at + rng.randint(1, 200))
            data[at:at] = data[at:end]
        elif kind == 3 and data:  # delete a span
            del data[at:at + rng.randint(1, 50)]
        else:  # splice a hostile fragment
            data[at:at] = rng.choice(FRAGMENTS)
    return bytes(data)


def run(argv: list[str]) -> tuple[int, str]:
    from toolcontract.cli import main

    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["toolcontract", *argv]
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, err.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="folder for failing inputs")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = seeds()
    failures = 0
    codes: dict[int, int] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(args.runs):
            suffix, data = rng.choice(pool)
            path = Path(tmp) / f"input{suffix}"
            path.write_bytes(mutate(data, rng))
            if rng.random() < 0.6:
                argv = ["lint", str(path), "--format", rng.choice(LINT_FORMATS), "--jobs", "1"]
                if rng.random() < 0.3:
                    argv += ["--target", "openai-strict,anthropic-strict,gemini,mcp"]
            else:
                argv = ["assess", str(path), "--format", rng.choice(ASSESS_FORMATS),
                        "--tools", str(REPO / "fixtures" / "descriptors" / "good")]
            code, err = run(argv)
            codes[code] = codes.get(code, 0) + 1
            if code not in (0, 1, 2) or "Traceback" in err:
                failures += 1
                print(f"run {index}: exit {code}: {' '.join(argv)}\n  {err.strip()[:300]}")
                if args.keep:
                    keep = Path(args.keep)
                    keep.mkdir(parents=True, exist_ok=True)
                    (keep / f"{index}{suffix}").write_bytes(path.read_bytes())
    seconds = time.perf_counter() - started
    print(f"{args.runs} mutated inputs in {seconds:.0f} s: {failures} internal errors or tracebacks; "
          f"exit codes {dict(sorted(codes.items()))}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
