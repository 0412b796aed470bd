"""The lockfile: a canonical hash per tool, to catch a tool that changes under the same
name and version (the "rug pull" of an MCP server). Pure: text in, text out.

`toolcontract.lock` is JSON, keys sorted, indented by two, one entry per tool name:

    {
      "toolcontract-lock": 1,
      "tools": {
        "weather_current": {"sha256": "…", "source": "tools/weather.yaml", "version": "1.0.0"}
      }
    }

The hash covers what a model and a gate rely on: name, version, the description the
model reads (built from purpose, when_to_use and non_goals when there is none),
input and output schemas, effect and annotations — as canonical JSON (keys sorted, no
spaces, UTF-8, integral floats as integers), so the same tool hashes the same from
YAML, JSON or a provider format. `source` is the file (relative to the lockfile's
folder, with `/`) or the `mcp-stdio:` label the tool was read from.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from toolcontract.core.descriptor import ToolView, model_description
from toolcontract.lint.diff import version_text
from toolcontract.core.model import Finding

LOCK_FORMAT = 1
LOCK_FILE = "toolcontract.lock"
FORMAT_KEY = "toolcontract-lock"
HASHED_FIELDS = ("name", "version", "description", "input_schema", "output_schema", "effect", "annotations")


class LockFormatError(ValueError):
    """The lockfile is not one this version reads. `pointer` says where."""

    def __init__(self, message: str, pointer: str = ""):
        super().__init__(message)
        self.message = message
        self.pointer = pointer


@dataclass(frozen=True, slots=True)
class LockEntry:
    name: str
    version: str | None
    sha256: str
    source: str


def _plain(value: Any) -> Any:
    """JSON-equal values made equal as text: 2.0 is 2 (YAML and JSON readers may disagree)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, float):
        return repr(value) if not math.isfinite(value) else value
    return value


def canonical_content(tool: ToolView) -> dict:
    """The hashed part of a tool: the fields it has among HASHED_FIELDS."""
    content: dict[str, Any] = {}
    for name in HASHED_FIELDS:
        if name == "description":
            text = model_description(tool)
            if text:
                content[name] = text
        elif name == "version":
            if tool.get("version") is not None:
                content[name] = version_text(tool.get("version"))
        elif name in tool.data:
            content[name] = _plain(tool.data[name])
    return content


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=str)


def tool_hash(tool: ToolView) -> str:
    return hashlib.sha256(canonical_json(canonical_content(tool)).encode("utf-8")).hexdigest()


def entries_for(tools: Iterable[tuple[ToolView, str]]) -> tuple[list[LockEntry], list[tuple[ToolView, str, LockEntry]]]:
    """Lock entries for (tool, source) pairs, in name order; unnamed tools are left out, and a
    repeated name keeps its first tool. The second list holds the repeats (tool, source, kept entry)."""
    kept: dict[str, LockEntry] = {}
    repeats = []
    for tool, source in tools:
        if tool.name is None:
            continue
        entry = LockEntry(tool.name, version_text(tool.get("version")), tool_hash(tool), source)
        if tool.name in kept:
            repeats.append((tool, source, kept[tool.name]))
            continue
        kept[tool.name] = entry
    return [kept[name] for name in sorted(kept)], repeats


def lock_text(entries: Iterable[LockEntry]) -> str:
    """The lockfile's text: the same entries always give the same bytes."""
    tools = {}
    for entry in entries:
        record: dict[str, Any] = {"sha256": entry.sha256, "source": entry.source}
        if entry.version is not None:
            record["version"] = entry.version
        tools[entry.name] = record
    document = {FORMAT_KEY: LOCK_FORMAT, "tools": tools}
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def parse_lock(data: Any) -> dict[str, LockEntry]:
    """Entries of a loaded lockfile, by name. Raises LockFormatError."""
    if not isinstance(data, dict) or FORMAT_KEY not in data:
        raise LockFormatError(f"not a toolcontract lockfile (no {FORMAT_KEY!r} key)")
    if data[FORMAT_KEY] != LOCK_FORMAT:
        raise LockFormatError(f"lockfile format {data[FORMAT_KEY]!r} is not one this version reads "
                              f"(expected {LOCK_FORMAT})", f"/{FORMAT_KEY}")
    tools = data.get("tools")
    if not isinstance(tools, dict):
        raise LockFormatError("`tools` must be an object of tool name -> entry", "/tools" if "tools" in data else "")
    entries = {}
    for name, record in tools.items():
        pointer = "/tools/" + name.replace("~", "~0").replace("/", "~1")
        if not isinstance(record, dict):
            raise LockFormatError(f"entry {name!r} must be an object", pointer)
        digest, source, version = record.get("sha256"), record.get("source"), record.get("version")
        if not (isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)):
            raise LockFormatError(f"entry {name!r}: `sha256` must be 64 lowercase hex digits", pointer)
        if not isinstance(source, str):
            raise LockFormatError(f"entry {name!r}: `source` must be a string", pointer)
        if version is not None and not isinstance(version, str):
            raise LockFormatError(f"entry {name!r}: `version` must be a string", pointer)
        entries[name] = LockEntry(name, version, digest, source)
    return entries


# ------------------------------------------------------------------ checking


@dataclass(frozen=True)
class Drift:
    """How one tool differs from the lock: `changed` (content, same version: the rug pull),
    `updated` (content and version), `added` or `removed` since the lock."""

    kind: str
    name: str
    entry: LockEntry | None  # as locked (None: added)
    tool: ToolView | None  # as read now (None: removed)
    digest: str | None = None  # the tool's hash now


def compare_lock(
    locked: Mapping[str, LockEntry],
    tools: Iterable[tuple[ToolView, str]],
    covers: Callable[[str], bool] | None = None,
) -> list[Drift]:
    """Drift of the tools read now, given as (tool, source), from the lock, in name order.
    A locked tool that is not read now is `removed` only when `covers(its source)` — this run
    looked where it was (default: every source is covered)."""
    current: dict[str, tuple[ToolView, str]] = {}
    for tool, source in tools:
        if tool.name is not None:
            current.setdefault(tool.name, (tool, source))
    drifts = []
    for name in sorted(set(locked) | set(current)):
        entry = locked.get(name)
        if name not in current:
            assert entry is not None
            if covers is None or covers(entry.source):
                drifts.append(Drift("removed", name, entry, None))
            continue
        tool, _ = current[name]
        digest = tool_hash(tool)
        if entry is None:
            drifts.append(Drift("added", name, None, tool, digest))
        elif digest != entry.sha256:
            same_version = version_text(tool.get("version")) == entry.version
            drifts.append(Drift("changed" if same_version else "updated", name, entry, tool, digest))
    return drifts


def lock_findings(drifts: Iterable[Drift], lock_document, selection=None) -> list[Finding]:
    """Findings of the lock rules (scope "lock"). Each hit names where it is (`Hit.subject`):
    "tool" places it in the tool as read now, "lock" in `lock_document` (the hit's path from
    the lockfile's root)."""
    from toolcontract.lint.context import LockContext
    from toolcontract.lint.engine import Selection, all_rules
    from toolcontract.core.pointer import join_pointer

    selection = selection or Selection()
    rules = [r for r in all_rules().values() if r.scope == "lock" and selection.enabled(r.id)]
    findings = []
    for drift in drifts:
        for rule in rules:
            for hit in rule.check(LockContext(drift)):
                if hit.subject == "tool":
                    assert drift.tool is not None
                    document, pointer = drift.tool.locate(hit.path)
                else:
                    document, pointer = lock_document, join_pointer("", *hit.path)
                if selection.ignored_in(document.path, rule.id):
                    continue
                line, column = document.locate(pointer, hit.anchor)
                findings.append(Finding(document.path, line, column, rule.id, rule.name,
                                        selection.severity_of(rule, hit), hit.message, pointer, drift.name))
    return sorted(findings)
