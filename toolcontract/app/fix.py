"""The fix job (`lint --fix`, `--unsafe-fixes`, `--diff`): lint, apply the fixes the findings
offer (toolcontract.io.fixes), lint the edited texts again, and repeat while a round still mends
something (at most MAX_ROUNDS, as ruff loops), then the last lint's result. Nothing is written
here: the caller gets the new texts (FixOutcome.changed) and writes them, or shows their diff.

Only files are fixed, and only the files this run linted (a fix placed in any other file is
dropped); stdin and live servers never are. The rounds lint without the cache (a cached finding
carries no fix), in one process.
"""

from __future__ import annotations

import os
from typing import Iterable, Optional

from toolcontract.core.records import MutableRecord

MAX_ROUNDS = 10


class FixOutcome(MutableRecord):
    """What the fix job did: `result` (the LintResult of the edited texts: what remains),
    `changed` (path -> (old text, new text), in path order), `fixed` (findings mended), `unsafe`
    (remaining findings that only an unsafe fix would mend), `notes` (one line each: a file that
    could not be fixed and why, a server that is never fixed)."""

    __slots__ = ("result", "changed", "fixed", "unsafe", "notes")

    def __init__(self, result, changed: dict, fixed: int, unsafe: int, notes: list[str]):
        self.result = result
        self.changed = changed
        self.fixed = fixed
        self.unsafe = unsafe
        self.notes = notes


def fix_paths(paths: Iterable[str] = (), *, unsafe: bool = False, mcp_stdio: Optional[Iterable[str]] = None,
              **options) -> FixOutcome:
    """Lint `paths` as `lint_paths` does (`options` are its keyword arguments) and fix what the
    findings offer: safe fixes, and unsafe ones too with `unsafe`."""
    from toolcontract.app.lint import _listed, lint_paths
    from toolcontract.io.errors import InputError
    from toolcontract.io.fixes import FixError, apply_edits

    paths = _listed(paths)
    servers = _listed(mcp_stdio)
    urls = _listed(options.pop("mcp_url", None))
    http = {"headers": options.pop("headers", None), "allow_insecure": options.pop("allow_insecure", False)}
    if "-" in paths:
        raise InputError("toolcontract: --fix and --diff edit files: stdin is never fixed (lint it without them)")
    options.update(cache=False, jobs=1)
    texts: dict[str, str] = {}  # path -> its text as edited so far
    originals: dict[str, str] = {}
    refused: dict[str, str] = {}  # path -> why it is not fixed
    fixed = 0
    result = None
    for _ in range(MAX_ROUNDS if paths or not (servers or urls) else 0):
        result = lint_paths(paths, replace=texts, **options)
        linted = _fixable_files(result)
        by_file: dict[str, list] = {}
        mended: dict[str, int] = {}
        for finding in result.findings:
            fix = finding.fix
            if fix is None or not (fix.safe or unsafe):
                continue
            files = {edit.file for edit in fix.edits}
            if not files <= linted or files & set(refused):
                continue  # a fix that reaches outside the linted files is never followed
            for edit in fix.edits:
                by_file.setdefault(edit.file, []).append(edit)
            for path in files:
                mended[path] = mended.get(path, 0) + 1
        progress = False
        for path in sorted(by_file):
            old = texts.get(path, result.documents[path].text)
            try:
                new = apply_edits(path, old, by_file[path])
            except FixError as exc:
                refused[path] = " ".join(str(exc).split())
                continue
            if new != old:
                originals.setdefault(path, old)
                texts[path] = new
                fixed += mended.get(path, 0)
                progress = True
        if not progress:
            break
    else:
        result = None
    if result is None or servers or urls:  # the last edits (rounds ran out), or the servers, not linted yet
        result = lint_paths(paths, replace=texts, mcp_stdio=servers, mcp_url=urls, **http, **options)
    notes = [f"{path}:1:1: not fixed: {why}" for path, why in sorted(refused.items())]
    live = {f.path for f in result.findings if f.fix is not None and f.path not in _fixable_files(result)}
    for label in sorted(live):
        flag = "--mcp-url URL" if label.startswith("mcp-http:") else "--mcp-stdio"
        notes.append(f"{label}: not fixed: a live server's tools are fixed in its code (or in a list written by "
                     f"`toolcontract convert {flag} -o FILE`)")
    remaining_unsafe = sum(1 for f in result.findings if f.fix is not None and not f.fix.safe and not unsafe)
    changed = {path: (originals[path], texts[path]) for path in sorted(texts) if texts[path] != originals[path]}
    return FixOutcome(result, changed, fixed, remaining_unsafe, notes)


def _fixable_files(result) -> set[str]:
    """The linted files that may be edited: loaded from a file on disk (not stdin, not a server)."""
    return {path for path in result.documents if path != "<stdin>" and os.path.isfile(path)}


def unified_diff(changed: dict) -> str:
    """The changes as one unified diff (`--- a/path`, `+++ b/path`), files in path order."""
    import difflib

    out = []
    for path, (old, new) in changed.items():
        out.extend(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{path}"))
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n\\ No newline at end of file\n"
    return "".join(out)
