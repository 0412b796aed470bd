"""The MCP writer: a `tools/list` entry, annotations derived from the effect class."""

from __future__ import annotations

from typing import Any

from toolcontract.convert.tool import ToolWriter, as_json
from toolcontract.core.model import Effect

_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


# hints an effect class decides (an annotation written against them is replaced, with a warning)
_DECIDED: dict[Effect, dict[str, bool]] = {
    Effect.PURE: {"readOnlyHint": True, "openWorldHint": False},
    Effect.READ: {"readOnlyHint": True},
    Effect.REVERSIBLE_WRITE: {"readOnlyHint": False},
    Effect.IRREVERSIBLE_WRITE: {"readOnlyHint": False, "destructiveHint": True},
    Effect.OPEN_WORLD: {"readOnlyHint": False, "openWorldHint": True},
}


# hints an effect class suggests (an annotation written in the file wins)
_SUGGESTED: dict[Effect, dict[str, bool]] = {
    Effect.PURE: {"destructiveHint": False, "idempotentHint": True},
    Effect.READ: {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    Effect.REVERSIBLE_WRITE: {"destructiveHint": False, "openWorldHint": False},
    Effect.IRREVERSIBLE_WRITE: {"openWorldHint": False},
    Effect.OPEN_WORLD: {"destructiveHint": True},
}


def mcp_annotations(effect: Any, written: Any) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """MCP annotations for an effect class and the annotations written in the descriptor,
    with (field, message) for each written hint the effect class overrode.

    The effect class decides readOnlyHint (pure/read: true, the rest: false),
    destructiveHint for irreversible_write (true) and openWorldHint for pure (false)
    and open_world (true); those are the contradictions TC302 reports, and the effect
    class wins. It suggests the rest: destructiveHint false for pure, read and
    reversible_write, true for open_world; idempotentHint true for pure and read (a
    tool that changes nothing has no additional effect when repeated), and for writes
    only when written (a write is not known to be idempotent); openWorldHint false
    for read and the two writes (a read tool that reaches the open web says so in
    its annotations). Written hints win over suggestions, and other written members
    (title, unknown keys) are kept. With no effect class, the written annotations
    are kept as they are.
    """
    notes: dict[str, Any] = dict(written) if isinstance(written, dict) else {}
    problems: list[tuple[str, str]] = []
    kind = Effect.of(effect)
    if kind is not None:
        for key, value in _DECIDED[kind].items():
            if key in notes and notes[key] != value:
                problems.append((f"annotations.{key}", f"written {as_json(notes[key])}, but the effect {kind.value} means "
                                 f"{as_json(value)}; {as_json(value)} is written"))
            notes[key] = value
        for key, value in _SUGGESTED[kind].items():
            notes.setdefault(key, value)
    ordered = {key: notes[key] for key in ("title", *_HINTS) if key in notes}
    ordered.update((key, value) for key, value in notes.items() if key not in ordered)
    return ordered, problems


def write(tool: ToolWriter, revision: str = "2025-11-25") -> dict[str, Any]:
    """One tools/list entry in MCP `revision`: before 2026-07-28 an output schema must have an object root."""
    out: dict[str, Any] = {}
    name = tool.name()
    if name is not None:
        out["name"] = name
    if tool.has("title"):
        title = tool.take("title")
        if isinstance(title, str):
            out["title"] = title
        else:
            tool.warn("title", "not a string; not written")
    description = tool.description()
    if description:
        out["description"] = description
    out["inputSchema"] = tool.input_schema(required=True, no_root_combinators=False)
    output = tool.output_schema(object_root_only=revision < "2026-07-28")
    if output is not None:
        out["outputSchema"] = output
    effect = tool.take("effect") if tool.has("effect") else None
    if effect is not None and Effect.of(effect) is None:
        tool.warn("effect", f"{effect!r} is not an effect class; no annotations derived from it")
    written = tool.take("annotations") if tool.has("annotations") else None
    if written is not None and not isinstance(written, dict):
        tool.warn("annotations", "not a mapping; not written")
    annotations, problems = mcp_annotations(effect, written)
    for where, message in problems:
        tool.warn(where, message)
    if annotations:
        out["annotations"] = annotations
    return out
