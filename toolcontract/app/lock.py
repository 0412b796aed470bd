"""`lint --locked`: the tools read now compared with the lockfile (TC711–TC714)."""

from __future__ import annotations

import os
from typing import List, Optional

from toolcontract.io.errors import InputError


def check_lock(result, lock_file: str, selection, paths: Optional[List[str]]):
    """`lint --locked`: the lint result with the lock rules' findings (TC711–TC714) added.
    Exit 2 when the lockfile is missing or unreadable."""
    from toolcontract.lint.lock import LockFormatError, compare_lock, lock_findings, parse_lock
    from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes

    from toolcontract.io.files import open_regular

    try:
        with open_regular(lock_file) as handle:
            raw = handle.read(DEFAULT_LIMITS.max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"{lock_file}:1:1: no lockfile: write one with `toolcontract lock`") from None
    except OSError as exc:
        raise InputError(f"{lock_file}:1:1: cannot read: {exc.strerror or exc}") from None
    try:
        document = load_bytes(raw, lock_file, DEFAULT_LIMITS)
    except LoadError as error:
        raise InputError(f"{lock_file}:{error.line}:{error.column}: {error.message}") from None
    try:
        locked = parse_lock(document.data)
    except LockFormatError as exc:
        line, column = document.locate(exc.pointer, "key")
        raise InputError(f"{lock_file}:{line}:{column}: {exc.message}") from None
    lock_dir = os.path.dirname(os.path.abspath(lock_file))
    seen = {lock_source(path, lock_dir) for path in result.documents}
    seen |= {lock_source(f.path, lock_dir) for f in result.findings if f.rule == "TC000"}
    looked = [lock_source(p, lock_dir) for p in (paths or ()) if p != "-"]

    def covers(source: str) -> bool:  # this run read the tool's source, or looked where it was
        return source in seen or any(p == "." or source == p or source.startswith(p.rstrip("/") + "/") for p in looked)

    tools = [(tool, lock_source(tool.document.path, lock_dir)) for tool in result.tool_views]
    findings = lock_findings(compare_lock(locked, tools, covers), document, selection)
    return result._replace(findings=sorted(result.findings + findings),
                   documents={**result.documents, lock_file: document})


def lock_source(path: str, lock_dir: str) -> str:
    """A tool's source as the lockfile records it: relative to the lockfile's folder, with `/`;
    a stand-in path (`mcp-stdio:…`, `mcp-http:…`, `<stdin>`) as it is."""
    if path.startswith(("mcp-stdio:", "mcp-http:")) or path.startswith("<"):
        return path
    try:
        rel = os.path.relpath(os.path.abspath(path), lock_dir)
    except ValueError:  # another drive (Windows)
        rel = os.path.abspath(path)
    return rel.replace(os.sep, "/")
